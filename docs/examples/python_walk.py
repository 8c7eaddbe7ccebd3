"""The worked example of docs/python.md: the kid-size humanoid walks (simulated in MuJoCo on its true,
heavier model), its inertial parameters are identified stage by stage from its foot F/T sensors, IMU
and encoders, and the measured base force of the held-out last 30 % of the walk is plotted against
the one the nominal and identified models reconstruct.

    PYTHONPATH=build/python python3 docs/examples/python_walk.py OUT_DIR

writes OUT_DIR/walk (the data set), OUT_DIR/identified (URDF, summary.json, report.html) and
OUT_DIR/base_force.png.
"""

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import dynid  # noqa: E402

out = Path(sys.argv[1] if len(sys.argv) > 1 else "python-walk")
out.mkdir(parents=True, exist_ok=True)

# The robot as CAD describes it (URDF + sidecar), and its dynamics at one state.
model = dynid.Model.load("kid_humanoid")
data = dynid.Data(model)
q, v, a = dynid.random_state(model, seed=1)
tau = dynid.rnea(model, data, q, v, a)
print(f"{model.name}: nq={model.nq} nv={model.nv}, nominal mass {model.total_mass:.3f} kg, "
      f"base force at a random state {np.linalg.norm(tau[:3]):.1f} N")

# 1. Simulate the true robot walking 6 steps with realistic sensor noise.
walk = out / "walk"
summary = dynid.simulate("kid_humanoid", "walk", str(walk), steps=6, seed=1, perturb="none")
print(f"walk: {summary['duration_s']:.1f} s simulated, fell: {summary['fell']}")

# 2. Identify stage by stage from the robot's own sensors (contact wrenches from the foot F/T
#    sensors, base motion from the IMU and encoders); the simulation's true model for comparison.
problem = dynid.prepare_inertial_identification("kid_humanoid", str(walk), sensors="contact",
                                                truth=str(walk / "truth.urdf"))
print(f"{problem.base.num_base} base parameters")
estimate = dynid.estimate_inertial_parameters(problem)
result = dynid.identified_parameters(problem, estimate)
truth = dynid.load_truth_model(problem)
dynid.compare_with_truth(problem, truth, result)
dynid.validate_identification(problem, truth, result)
result.summary_json = dynid.inertial_summary_json(problem, result)
dynid.write_inertial_identification(problem, result, str(out / "identified"))
print(f"total mass [kg]: nominal {result.nominal_total_mass:.3f}, identified {result.total_mass:.3f}, "
      f"true {truth.total_mass:.3f}")
print(f"held-out base force RMS [N]: nominal {result.nominal_rms['force']:.3f}, "
      f"identified {result.identified_rms['force']:.3f}, true model {result.truth_rms['force']:.3f}")

# 3. Plot the measured vs reconstructed vertical base force on the held-out motion.
s = result.series
fig, ax = plt.subplots(figsize=(8, 3.5))
ax.plot(s["time"], s["measured_wrench"][:, 2], color="black", lw=1.2, label="measured")
ax.plot(s["time"], s["nominal_wrench"][:, 2], color="tab:red", lw=0.8, label="nominal (CAD) model")
ax.plot(s["time"], s["identified_wrench"][:, 2], color="tab:blue", lw=0.8, ls="--", label="identified model")
ax.set_xlabel("time [s]")
ax.set_ylabel("base force z [N] (base frame)")
ax.set_title("kid_humanoid walk, held-out last 30 %")
ax.legend(loc="best")
fig.tight_layout()
fig.savefig(out / "base_force.png", dpi=100)
print(f"plot: {out / 'base_force.png'}")
