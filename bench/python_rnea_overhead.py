"""Call overhead of dynid.rnea from Python against the C++ call (docs/python.md, "Call overhead").

    PYTHONPATH=build/python python3 bench/python_rnea_overhead.py [--bench build/bench/dynid-bench]
        [--model adult_humanoid] [--calls 200000]

Times dynid.rnea(model, data, q, v, a) on float64 numpy arrays (viewed in place, no copy) over a
cycle of seeded random states, and runs `dynid-bench --benchmark_filter=BM_RNEA$` (the same C++
function on the same model, states cycled) for the C++ figure, interleaved; prints the fastest
repetition of each and the difference.
"""

import argparse
import json
import subprocess
import tempfile
import time
from pathlib import Path

import dynid

ROOT = Path(__file__).resolve().parents[1]

parser = argparse.ArgumentParser()
parser.add_argument("--bench", default=str(ROOT / "build" / "bench" / "dynid-bench"))
parser.add_argument("--model", default="adult_humanoid")
parser.add_argument("--calls", type=int, default=200000)
parser.add_argument("--repetitions", type=int, default=5)
args = parser.parse_args()

PENDULUM = """<robot name="pendulum">
  <link name="base"><inertial><mass value="2"/>
    <inertia ixx="0.02" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="arm"><inertial><origin xyz="0 0 -0.5"/><mass value="1"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="hinge" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="10" velocity="10"/></joint>
</robot>
"""

def python_per_call(model, data, states):
    rnea = dynid.rnea
    n = len(states)
    start = time.perf_counter()
    for k in range(args.calls):
        q, v, a = states[k % n]
        rnea(model, data, q, v, a)
    return (time.perf_counter() - start) / args.calls


def loop_per_iteration(model, data, states):
    """The bare Python loop with the same indexing and a no-op call of the same arity."""
    n = len(states)

    def noop(m, d, q, v, a):
        return None

    start = time.perf_counter()
    for k in range(args.calls):
        q, v, a = states[k % n]
        noop(model, data, q, v, a)
    return (time.perf_counter() - start) / args.calls


def cpp_per_call(model_arg):
    """One run of dynid-bench's BM_RNEA (the same C++ function, model and kind of states)."""
    out = subprocess.run([args.bench, "--model", model_arg, "--benchmark_filter=BM_RNEA$", "--benchmark_format=json"],
                         capture_output=True, text=True, check=True)
    run = json.loads(out.stdout)["benchmarks"][0]
    return run["real_time"] * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3}[run["time_unit"]]


def measure(model_arg):
    model = dynid.Model.load(model_arg)
    data = dynid.Data(model)
    states = [dynid.random_state(model, seed=s) for s in range(64)]
    # Interleaved, and the fastest of the repetitions of each: on a shared machine the load changes
    # between runs, and the minimum is the figure least disturbed by it.
    py_times, loop_times, cpp_times = [], [], []
    for _ in range(args.repetitions):
        py_times.append(python_per_call(model, data, states))
        loop_times.append(loop_per_iteration(model, data, states))
        cpp_times.append(cpp_per_call(model_arg))
    py_us, loop_us, cpp_us = min(py_times) * 1e6, min(loop_times) * 1e6, min(cpp_times) * 1e6
    print(f"model {model_arg}: nq={model.nq} nv={model.nv}; fastest of {args.repetitions} interleaved repetitions")
    print(f"  C++ rnea (dynid-bench BM_RNEA):                     {cpp_us:8.3f} us")
    print(f"  Python dynid.rnea ({args.calls} calls per repetition):   {py_us:8.3f} us per call")
    print(f"    of which the Python loop and a no-op call:        {loop_us:8.3f} us")
    print(f"  overhead of the binding (Python - loop - C++):       {py_us - loop_us - cpp_us:8.3f} us")
    print(f"  overhead seen from Python (Python - C++):            {py_us - cpp_us:8.3f} us")


measure(args.model)
# The same on a floating pendulum (a base and one hinge), whose C++ call costs next to nothing: what remains is the
# binding's own cost (argument checks, the result's numpy array), hardly disturbed by the load.
with tempfile.TemporaryDirectory() as tmp:
    pendulum = Path(tmp) / "pendulum.urdf"
    pendulum.write_text(PENDULUM)
    measure(str(pendulum))
