"""The calls bound after the first pass (issue 17): the joint torque sensor gains and per-joint held-out
RMS of the inertial identification, project_sensors, the static and actuator identifications and
the IZMP, each against the command that runs the same C++ (the same summary.json) or against a
second formulation computed here with numpy."""

import json

import numpy as np
import pytest

import dynid
from conftest import cli_json, run_cli


@pytest.fixture(scope="module")
def biped_excite(tmp_path_factory):
    """biped16 (joint torque sensors and sole F/T sensors), 3 s of its evaluation motion, noise-free."""
    out = tmp_path_factory.mktemp("biped") / "data"
    run_cli("simulate", "biped16", "--scenario", "excite", "--motion", "evaluation", "--duration", "3", "--noise", "none",
            "--quiet", "--out", out)
    return out


def test_torque_gains_and_per_joint_rms_equal_the_commands_summary(biped_excite, tmp_path):
    data = biped_excite
    cli = cli_json("identify", "inertial", "biped16", data, "--sensors", "full", "--source", "sensors", "--prior",
                   "1e-6", "--torque-offsets", "--torque-gains", "--truth", data / "truth.urdf", "--quiet", "--out",
                   tmp_path / "cli")
    r = dynid.identify_inertial("biped16", str(data), sensors="full", source="sensors", prior=1e-6,
                                torque_offsets=True, torque_gains=True, truth=str(data / "truth.urdf"))
    assert r.summary == cli
    # The result object's own fields (not the summary text) hold the same numbers.
    assert len(r.torque_gains) == len(cli["torque_gains"]) > 0
    assert r.torque_gains == cli["torque_gains"]
    assert r.torque_offsets == cli["torque_offsets"]
    per_joint = cli["validation"]["torque_rms_per_joint"]
    assert len(per_joint) > 0
    for name, kind in (("nominal_rms", "nominal"), ("identified_rms", "identified"), ("truth_rms", "truth")):
        rms = getattr(r, name)["per_joint"]
        assert rms == {joint: v[kind] for joint, v in per_joint.items()}, name
    # Noise-free sensors: the gains are the simulated sensors' (1 within the fit's accuracy).
    assert max(abs(g["gain"] - 1.0) for g in r.torque_gains) < 1e-3
    # Without the option: no gains on the result, none in the summary.
    plain = dynid.identify_inertial("biped16", str(data), sensors="full", source="sensors", prior=1e-6)
    assert plain.torque_gains == [] and "torque_gains" not in plain.summary
    # A set that measures no contact wrench cannot fix the gains' scale: the command's message.
    with pytest.raises((ValueError, RuntimeError), match="measures no contact wrench"):
        dynid.identify_inertial("biped16", str(data), sensors="joints", torque_gains=True)


def random_q(model, seed):
    q, _, _ = dynid.random_state(model, seed=seed)
    return q


def null_space_projection(A):
    """I - A A^+ by numpy's SVD: the orthogonal projection onto the null space of A^T."""
    U, s, _ = np.linalg.svd(A, full_matrices=True)
    r = int(np.sum(s > 1e-10 * max(1.0, s[0]))) if s.size else 0
    N = U[:, r:]
    return N @ N.T


@pytest.mark.parametrize("measured_joints,measured_contacts", [
    ("all", ["l_foot_points"]),  # one foot's F/T unmeasured
    ([], ["l_foot_points", "r_foot_points"]),  # contact wrenches only (paper 003: the base-link equations)
    ("all", []),  # joint torques only (paper 004 III-B): both contacts projected out
])
def test_project_sensors_annihilates_the_unmeasured_sources(measured_joints, measured_contacts):
    model = dynid.Model.load("biped16")
    data = dynid.Data(model)
    active = ["l_foot_points", "r_foot_points"]
    joints = [j for j in model.joint_names if j != "root_joint"]
    for seed in range(3):
        q = random_q(model, 40 + seed)
        p = dynid.project_sensors(model, data, q, measured_joints=measured_joints,
                                  measured_contacts=measured_contacts, active_contacts=active)
        # A_x built here from the Jacobians and the selection matrix, independently of the C++ columns.
        J = {c: dynid.frame_jacobian(model, data, q, c, reference="local") for c in active}
        measured_j = joints if measured_joints == "all" else measured_joints
        S_T = {j: np.eye(model.nv)[:, model.velocity_names.index(j)] for j in joints}
        unmeasured = [S_T[j][:, None] for j in joints if j not in measured_j]
        unmeasured += [J[c].T for c in active if c not in measured_contacts]
        A_x = np.hstack(unmeasured)
        P = p.projector
        assert np.abs(P @ A_x).max() < 1e-12 * (1 + np.abs(A_x).max())
        assert np.abs(P @ P.T - np.eye(P.shape[0])).max() < 1e-12
        # The same subspace as numpy's null space of A_x^T (a second formulation).
        assert np.abs(P.T @ P - null_space_projection(A_x)).max() < 1e-10
        assert p.unmeasured_rank == np.linalg.matrix_rank(A_x)
        assert p.base_rank == np.linalg.matrix_rank(P[:, :6])
        # A_m: the measured columns in measured_names order.
        expected = [S_T[j] for j in joints if j in measured_j]
        names = [j for j in joints if j in measured_j]
        for c in active:
            if c in measured_contacts:
                expected += list(J[c])
                names += [f"{c}.{a}" for a in ("fx", "fy", "fz", "tx", "ty", "tz")]
        assert p.measured_names == names
        assert np.array_equal(p.measured_map, np.array(expected).T.reshape(model.nv, len(names)))
    if measured_joints == [] and len(measured_contacts) == 2:
        assert p.base_rank == 6 and p.projector.shape == (6, model.nv)


def test_project_sensors_bad_input_names_the_argument():
    model = dynid.Model.load("biped16")
    data = dynid.Data(model)
    q = model.neutral_configuration()
    ok = dict(measured_joints="all", measured_contacts=["l_foot_points"], active_contacts=["l_foot_points", "r_foot_points"])
    for key, value, error, fragment in (
        ("measured_joints", ["bogus_knee"], ValueError, "^measured_joints: 'bogus_knee'"),
        ("measured_joints", ["root_joint"], ValueError, "^measured_joints: 'root_joint'"),
        ("measured_joints", "some", ValueError, "^measured_joints: "),
        ("measured_contacts", ["r_foot_points", "nowhere"], ValueError, "^measured_contacts: no frame 'nowhere'"),
        ("active_contacts", "l_foot_points", TypeError, "^active_contacts: "),
        ("active_contacts", [10**6], IndexError, "^active_contacts: "),
        ("active_contacts", ["r_foot_points"], ValueError, "^measured_contacts: 'l_foot_points' is not in active_contacts"),
    ):
        with pytest.raises(error, match=fragment):
            dynid.project_sensors(model, data, q, **{**ok, key: value})
    with pytest.raises(ValueError, match="^q: expected"):
        dynid.project_sensors(model, data, q[:-1], **ok)
    with pytest.raises(ValueError, match="^data: "):
        dynid.project_sensors(model, dynid.Data(dynid.Model.load("kid_humanoid")), q, **ok)


@pytest.fixture(scope="module")
def static_poses(tmp_path_factory):
    """The adult humanoid's static poses (8, noise-free), simulated by the command."""
    out = tmp_path_factory.mktemp("static") / "poses"
    run_cli("simulate", "adult_humanoid", "--scenario", "static-poses", "--poses", "8", "--noise", "none", "--seed",
            "4", "--quiet", "--out", out)
    return out


def test_identify_static_gives_the_commands_summary(static_poses, tmp_path):
    data, truth = str(static_poses), str(static_poses / "truth.urdf")
    run_cli("identify", "static", "adult_humanoid", data, "--total-mass", "77.6", "--truth", truth, "--out",
            tmp_path / "cli")
    cli = json.loads((tmp_path / "cli" / "summary.json").read_text())
    r = dynid.identify_static("adult_humanoid", data, total_mass=77.6, truth=truth, out=str(tmp_path / "py"))
    # summary.json names the URDF written beside it; the result's summary is the same without it.
    assert cli.pop("urdf") == "adult_humanoid_identified.urdf"
    assert r.summary == cli
    assert (tmp_path / "py" / "summary.json").read_bytes() == (tmp_path / "cli" / "summary.json").read_bytes()
    urdf = tmp_path / "cli" / "adult_humanoid_identified.urdf"
    assert r.urdf == urdf.read_text() == (tmp_path / "py" / urdf.name).read_text()
    # The result's objects against the summary and the model: the mass constraint, the held-out poses.
    assert r.identified_model.total_mass == pytest.approx(77.6, rel=1e-12)
    assert [s["name"] for s in r.segments] == [s["name"] for s in cli["segments"]]
    assert [s["mass_after"] for s in r.segments] == [s["mass_after"] for s in cli["segments"]]
    assert sum(p["heldout"] for p in r.poses) == cli["poses"]["heldout"] == 2
    held = [e for e, p in zip(r.gcom_error_identified, r.poses) if p["heldout"]]
    assert 1e3 * np.mean(held) == pytest.approx(cli["gcom_error_mm"]["identified"]["heldout"]["mean"], rel=1e-12)
    # Bad input: named argument, or the command's own message.
    with pytest.raises(ValueError, match="^total_mass: "):
        dynid.identify_static("adult_humanoid", data, total_mass=-1.0)
    with pytest.raises(ValueError, match="^pose_source: "):
        dynid.identify_static("adult_humanoid", data, total_mass=77.6, pose_source="imu")
    with pytest.raises((ValueError, RuntimeError), match="no moving body or link named 'nothing'"):
        dynid.identify_static("adult_humanoid", data, total_mass=77.6, segments=["nothing"])
    with pytest.raises((ValueError, RuntimeError), match="differs from the model's"):
        dynid.identify_static("adult_humanoid", data, total_mass=5.0)


def test_static_identification_stage_by_stage_gives_the_commands_summary(static_poses, tmp_path):
    """prepare_static_identification -> find_static_windows -> measure_static_poses -> fit_static_model
    -> static_summary -> write_static_identification: the command's summary.json and files."""
    data, truth = str(static_poses), str(static_poses / "truth.urdf")
    squat = str(tmp_path / "squat")
    dynid.simulate("adult_humanoid", "squat", squat, noise="none")
    run_cli("identify", "static", "adult_humanoid", data, "--total-mass", "77.6", "--truth", truth, "--validate",
            squat, "--calibrate-plates", "--align-time", "--out", tmp_path / "cli")
    cli = json.loads((tmp_path / "cli" / "summary.json").read_text())
    assert cli["plate_calibration"]["poses"] == 8
    assert cli["residual_wrench"]["plate_time_alignment"]["applied"]
    p = dynid.prepare_static_identification("adult_humanoid", data, total_mass=77.6, truth=truth, validate=squat,
                                            calibrate_plates=True, align_time=True)
    assert p.windows is None
    with pytest.raises(ValueError, match="^problem: run find_static_windows first"):
        dynid.measure_static_poses(p)
    windows = dynid.find_static_windows(p)
    assert len(windows) == 8 == cli["poses"]["fit"] + cli["poses"]["heldout"]
    assert all(w["start"] < w["end"] and w["first"] <= w["last"] for w in windows)
    with pytest.raises(ValueError, match="^problem: run measure_static_poses first"):
        dynid.fit_static_model(p)
    dynid.measure_static_poses(p)
    assert [pose["label"] for pose in p.result.poses] == [w["label"] for w in windows]
    with pytest.raises(ValueError, match="^problem: run fit_static_model first"):
        dynid.validate_static_identification(p)
    dynid.fit_static_model(p)
    dynid.validate_static_identification(p)
    summary = dynid.static_summary(p)
    assert cli.pop("urdf") == "adult_humanoid_identified.urdf"
    assert summary == cli == p.result.summary
    dynid.write_static_identification(p, str(tmp_path / "py"))
    for name in ("summary.json", "adult_humanoid_identified.urdf"):
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    assert {"nominal", "identified", "truth"} <= set(summary["residual_wrench"])  # the squat's, as the command's
    # Bad input: the options' names, the command's messages.
    without = dynid.prepare_static_identification("adult_humanoid", data, total_mass=77.6)
    with pytest.raises(ValueError, match="^problem: has no validate data set"):
        dynid.validate_static_identification(without)
    with pytest.raises(ValueError, match="^windows: "):
        dynid.prepare_static_identification("adult_humanoid", data, total_mass=77.6, windows="auto")
    with pytest.raises(RuntimeError, match="static identification needs a floating-base robot"):
        dynid.prepare_static_identification("arm7", data, total_mass=77.6)
    not_a_data_set = run_cli("identify", "static", "adult_humanoid", tmp_path / "cli", "--total-mass", "77.6", "--out",
                         tmp_path / "bad", check=False)
    with pytest.raises(RuntimeError) as e:
        dynid.prepare_static_identification("adult_humanoid", str(tmp_path / "cli"), total_mass=77.6)
    assert not_a_data_set.returncode == 1 and not_a_data_set.stderr.strip() == "dynid: " + str(e.value)


def test_identify_actuator_gives_the_commands_summary(tmp_path):
    args = dict(joint="l_hip_pitch", iterations=3)
    run_cli("identify", "actuator", "servo_bench", "--joint", "l_hip_pitch", "--iterations", "3", "--out",
            tmp_path / "cli")
    cli = json.loads((tmp_path / "cli" / "summary.json").read_text())
    r = dynid.identify_actuator("servo_bench", out=str(tmp_path / "py"), **args)
    assert r.summary == cli
    for name in ("summary.json", "actuator.yaml", "ilc_trial/servo.csv", "truth.urdf"):
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    assert r.actuator_yaml == (tmp_path / "cli" / "actuator.yaml").read_text()
    assert len(r.ilc_errors) == cli["ilc"]["iterations"] == 3
    assert r.ilc_errors[-1] == cli["ilc"]["max_windowed_error_rad"]
    # From the recorded trial (the logs path) without writing: the command's numbers again.
    logs = tmp_path / "cli" / "ilc_trial"
    run_cli("identify", "actuator", "servo_bench", "--joint", "l_hip_pitch", "--logs", logs, "--out", tmp_path / "cl")
    from_logs = dynid.identify_actuator("servo_bench", joint="l_hip_pitch", logs=str(logs))
    assert from_logs.summary == json.loads((tmp_path / "cl" / "summary.json").read_text())
    with pytest.raises((ValueError, RuntimeError), match="unknown joint"):
        dynid.identify_actuator("servo_bench", joint="knee", iterations=1)
    with pytest.raises(ValueError, match="^lambda_: "):
        dynid.identify_actuator("servo_bench", joint="l_hip_pitch", lambda_=0.0)
    with pytest.raises(ValueError, match="^p_gain: "):
        dynid.identify_actuator("servo_bench", joint="l_hip_pitch", p_gain=-2)


@pytest.fixture(scope="module")
def walker_walk(tmp_path_factory):
    out = tmp_path_factory.mktemp("walker") / "walk"
    run_cli("simulate", "walker", "--scenario", "walk", "--steps", "3", "--noise", "none", "--quiet", "--out", out)
    return out


def test_izmp_gives_the_commands_output(walker_walk, tmp_path):
    data, truth = str(walker_walk), str(walker_walk / "truth.urdf")
    for extra, kwargs in (([], {}), (["--method", "ir-md", "--slope", "2"], {"method": "ir-md", "slope": 2.0}),
                          (["--smoothing-ms", "24"], {"smoothing_ms": 24.0})):
        cli = cli_json("izmp", "walker", data, "--inertia-from", truth, "--quiet", *extra, "--out", tmp_path / "cli")
        r = dynid.izmp("walker", data, inertia_from=truth, out=str(tmp_path / "py"), **kwargs)
        assert r.summary == cli
        for name in ("summary.json", "izmp.csv"):
            assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    # The series against the summary's statistics, recomputed here from it.
    s = r.series
    assert len(s["time"]) == r.summary["samples"] == s["izmp_nif"].shape[0]
    single = np.array([x in ("left", "right") for x in s["support"]])
    inside = np.array(s["inside_support"])
    assert np.mean(inside[single] == 1) == pytest.approx(r.summary["inside_support_fraction"], rel=1e-12)
    ground = np.isfinite(s["physical_zmp_nif"][:, 0]) & np.isfinite(s["izmp_nif"][:, 0])
    d = np.linalg.norm(s["izmp_nif"][ground, :2] - s["physical_zmp_nif"][ground, :2], axis=1)
    assert 1e3 * np.sqrt(np.mean(d ** 2)) == pytest.approx(r.summary["physical_zmp_rms_mm"], rel=1e-9)
    assert len(r.reference["time"]) > 0
    assert r.summary["smoothing_ms"] == 24.0 and r.summary["unexplained_residual"]["level"] == "at-sensor-noise"
    with pytest.raises(ValueError, match="^smoothing_ms: "):
        dynid.izmp("walker", data, smoothing_ms=-1.0)
    with pytest.raises(ValueError, match="^method: "):
        dynid.izmp("walker", data, method="zmp")
    with pytest.raises(ValueError, match="^ground_normal: "):
        dynid.izmp("walker", data, ground_normal=[0, 0, 0])
    with pytest.raises(ValueError, match="^ground_normal: expected 3 values"):
        dynid.izmp("walker", data, ground_normal=[0, 1])
    with pytest.raises((ValueError, RuntimeError), match="accelerometers"):
        dynid.izmp("kid_humanoid", data)


def same_series(series, arrays):
    """An IzmpSeries equals izmp()'s dict of arrays, NaN where it has NaN."""
    assert set(series.arrays) == set(arrays)
    return all(series[k] == v if k == "support" else np.array_equal(series[k], v, equal_nan=True)
               for k, v in arrays.items())


def test_izmp_stage_by_stage_gives_the_commands_series_and_figures(walker_walk):
    """load_izmp_recording -> evaluate_izmp (and ideal_recording for the paper's reference) and the
    metrics: izmp()'s series, reference and summary figures exactly."""
    data, truth = str(walker_walk), str(walker_walk / "truth.urdf")
    r = dynid.izmp("walker", data, inertia_from=truth, differences="backward")
    rec = dynid.load_izmp_recording("walker", data, inertia_from=truth)
    assert rec.has_truth and rec.rate_hz > 0
    assert rec.joints.shape == (len(rec.time), dynid.Model.load("walker").nv - 6)
    assert rec.gyro.shape == rec.imu_acc.shape == (len(rec.time), 3) and len(rec.support) == len(rec.time)
    series = dynid.evaluate_izmp(rec, differences="backward")
    assert same_series(series, r.series)
    # The paper's reference: the same method with ideal signals at ACD = bus = 500 Hz.
    reference = dynid.evaluate_izmp(dynid.ideal_recording(rec), differences="backward", acd_rate=500, bus_rate=500)
    assert same_series(reference, r.reference)
    assert len(series) == r.summary["samples"]
    assert dynid.izmp_relative_error(series, reference) == r.summary["relative_error_percent"]
    assert dynid.izmp_relative_error(series, reference, min_reference=0.0) == \
        r.summary["relative_error_percent_all_single_support"]
    assert dynid.physical_zmp_rms_mm(series) == r.summary["physical_zmp_rms_mm"]
    assert dynid.inside_support_fraction(series) == r.summary["inside_support_fraction"]
    # Other settings on the same recording, without reading it again: izmp()'s with those options.
    gyro = dynid.evaluate_izmp(rec, angular_acceleration="gyro", bus_rate=250)
    assert np.array_equal(gyro["izmp_nif"], dynid.izmp("walker", data, inertia_from=truth, angular_acceleration="gyro",
                                                       bus_rate=250).series["izmp_nif"], equal_nan=True)
    with pytest.raises(ValueError, match="^bus_rate: "):
        dynid.evaluate_izmp(rec, bus_rate=0)
    with pytest.raises(ValueError, match="accelerometers"):
        dynid.load_izmp_recording("kid_humanoid", data)
    with pytest.raises(KeyError):
        series["bogus"]


def test_izmp_study_gives_the_commands_output(tmp_path):
    """`dynid izmp study` from Python (2 steps per walk): the command's summary.json and report, and
    setups A-E as the summary lists them."""
    run_cli("izmp", "study", "walker", "--steps", "2", "--quiet", "--out", tmp_path / "cli")
    r = dynid.izmp_study("walker", out=str(tmp_path / "py"), steps=2)
    for name in ("summary.json", "report.html"):
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    cli = json.loads((tmp_path / "cli" / "summary.json").read_text())
    assert r.summary == cli
    for setups, key in ((r.level, "setups"), (r.slope, "slope_setups")):
        assert [s["name"] for s in setups] == ["A", "B", "C", "D", "E"]
        for s in setups:
            entry = cli[key][s["name"]]
            assert s["method"] == entry["method"] and s["acd_rate_hz"] == entry["acd_hz"]
            for ours, theirs in (("relative_error_percent", "relative_error_percent"),
                                 ("relative_error_percent_all", "relative_error_percent_all_single_support"),
                                 ("physical_zmp_rms_mm", "physical_zmp_rms_mm")):
                expected = np.nan if entry[theirs] is None else entry[theirs]  # JSON null: not finite
                assert np.array_equal(s[ours], expected, equal_nan=True), (s["name"], ours)
    assert "A" in r.table
    with pytest.raises(ValueError, match="^steps: "):
        dynid.izmp_study("walker", out=str(tmp_path / "bad"), steps=1)
    with pytest.raises(ValueError, match="^differences: "):
        dynid.izmp_study("walker", out=str(tmp_path / "bad"), differences="forward")
    with pytest.raises(TypeError):
        dynid.izmp_study("walker")  # out is required


def test_ft_calibration_and_a_weighed_mass_equal_the_commands_summary(tmp_path):
    """ft_calibration and total_mass as --ft-calibration --total-mass: the same summary (the F/T
    sensors' identified corrections, the weighed mass) as the command's, and the mass comes back."""
    data = tmp_path / "walk"
    run_cli("simulate", "kid_humanoid", "--scenario", "walk", "--steps", "4", "--lock-upper-body", "--perturb", "ft",
            "--quiet", "--out", data)
    cli = cli_json("identify", "inertial", "kid_humanoid", data, "--sensors", "contact", "--lock-upper-body",
                   "--ft-calibration", "--total-mass", "8", "--truth", data / "truth.urdf", "--quiet", "--out",
                   tmp_path / "cli")
    r = dynid.identify_inertial("kid_humanoid", str(data), sensors="contact", lock_upper_body=True,
                                ft_calibration=True, total_mass=8.0, truth=str(data / "truth.urdf"))
    assert r.summary == cli
    assert set(cli["ft_calibration"]["contacts"]) == {"l_sole", "r_sole"}
    assert cli["total_mass_weighed"]["kg"] == 8.0
    assert abs(cli["total_mass"] - 8.0) < 0.01
    with pytest.raises(ValueError, match="total_mass"):
        dynid.identify_inertial("kid_humanoid", str(data), sensors="contact", total_mass=-1.0)


def test_gear_windup_equals_the_commands_summary_and_the_staged_calls(tmp_path):
    """gear_windup / gear_stiffness as --gear-windup / --gear-stiffness: the command's summary; the
    staged calls with stages 2b and 3b give the same summary."""
    data = tmp_path / "walk"
    run_cli("simulate", "kid_humanoid", "--scenario", "walk", "--steps", "4", "--lock-upper-body", "--perturb",
            "joint-elasticity", "--quiet", "--out", data)
    cli = cli_json("identify", "inertial", "kid_humanoid", data, "--sensors", "contact", "--lock-upper-body",
                   "--gear-windup", "0.2", "--gear-stiffness", "l_knee=1500", "--truth", data / "truth.urdf",
                   "--quiet", "--out", tmp_path / "cli")
    options = dict(sensors="contact", lock_upper_body=True, gear_windup=0.2, gear_stiffness={"l_knee": 1500.0},
                   truth=str(data / "truth.urdf"))
    r = dynid.identify_inertial("kid_humanoid", str(data), **options)
    assert r.summary == cli
    joints = cli["gear_windup"]["joints"]
    assert len(joints) == 12
    assert joints["l_knee"] == {**joints["l_knee"], "from": "--gear-stiffness", "stiffness_nm_per_rad": 1500.0}
    assert joints["r_knee"]["from"] == "--gear-windup"
    assert {g["joint"] for g in r.gear_windup} == set(joints)

    p = dynid.prepare_inertial_identification("kid_humanoid", str(data), **options)
    e = dynid.correct_gear_windup(p, dynid.estimate_inertial_parameters(p))
    staged = dynid.identified_parameters(p, e)
    dynid.compare_with_truth(p, dynid.load_truth_model(p), staged)
    dynid.correct_validation_gear_windup(p, staged)
    dynid.validate_identification(p, dynid.load_truth_model(p), staged)
    assert json.loads(dynid.inertial_summary_json(p, staged)) == cli
    with pytest.raises(ValueError, match="gear_windup"):
        dynid.identify_inertial("kid_humanoid", str(data), sensors="contact", gear_windup=-1.0)
    with pytest.raises(ValueError, match="no actuator of .* torsional_stiffness"):
        dynid.identify_inertial("kid_humanoid", str(data), sensors="contact", gear_stiffness="sidecar")
    with pytest.raises(ValueError, match="gear_stiffness"):
        dynid.identify_inertial("kid_humanoid", str(data), sensors="contact", gear_stiffness="bench")


def test_clocks_refined_by_the_fit_as_the_command_and_the_staged_calls(tmp_path):
    """align_time as --align-time (the kinematic offsets refined by the fit): the staged calls with
    stage 1b give the command's summary; align_kinematics_only as --align-kinematics-only
    keeps the kinematic offsets. (identify_inertial runs the same stages: not run again here, each
    refinement is a few dozen fits.)"""
    data, bend = tmp_path / "walk", tmp_path / "bend"
    common = ["--lock-upper-body", "--perturb", "time,geometry", "--quiet"]
    run_cli("simulate", "kid_humanoid", "--scenario", "walk", "--steps", "4", *common, "--out", data)
    run_cli("simulate", "kid_humanoid", "--scenario", "excite", "--motion", "trunk-bend", *common, "--out", bend)
    cli = cli_json("identify", "inertial", "kid_humanoid", data, "--sensors", "contact", "--lock-upper-body",
                   "--align-time", "--validate", bend, "--quiet", "--out", tmp_path / "cli")
    options = dict(sensors="contact", lock_upper_body=True, align_time=True, validate=str(bend))
    assert set(cli["time_alignment"]) == set(cli["validation_time_alignment"]) == {"ft", "imu"}
    assert all(c["refined_by_fit"]["converged"] for c in cli["time_alignment"].values())
    # The validation data's clocks stay the kinematic estimate (docs/identification.md).
    assert all("refined_by_fit" not in c for c in cli["validation_time_alignment"].values())

    p = dynid.prepare_inertial_identification("kid_humanoid", str(data), **options)
    dynid.refine_stream_clocks(p)
    e = dynid.estimate_inertial_parameters(p)
    staged = dynid.identified_parameters(p, e)
    dynid.validate_identification(p, None, staged)
    assert json.loads(dynid.inertial_summary_json(p, staged)) == cli

    kinematic = dynid.identify_inertial("kid_humanoid", str(data), align_kinematics_only=True, **options).summary
    assert all("refined_by_fit" not in c for c in kinematic["time_alignment"].values())
    assert kinematic["time_alignment"]["ft"]["offset_s"] == cli["time_alignment"]["ft"]["refined_by_fit"][
        "kinematic_offset_s"]
    # validate_clocks="training" as --validate-clocks training: the trunk bending read on the walk's clocks.
    same = dynid.identify_inertial("kid_humanoid", str(data), align_kinematics_only=True, validate_clocks="training",
                                   **options).summary
    assert same["validation_time_alignment"] == same["time_alignment"] == kinematic["time_alignment"]
    assert same["validation_time_alignment"] != kinematic["validation_time_alignment"]
    bad = run_cli("identify", "inertial", "kid_humanoid", data, "--sensors", "contact", "--validate-clocks",
                  "training", "--quiet", "--out", tmp_path / "bad", check=False)
    assert bad.returncode == 1 and "--validate-clocks training goes with --validate" in bad.stderr
    with pytest.raises(ValueError, match="expected estimate or training"):
        dynid.identify_inertial("kid_humanoid", str(data), sensors="contact", validate_clocks="wall")
