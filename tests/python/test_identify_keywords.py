"""identify_inertial's friction_joints, align_drift and validation_window (issue 14): the per-joint
friction terms of `dynid identify inertial --friction-joint JOINT=TERMS`, the drift of
`--align-drift` and the held-out window of `--validate-window`, from Python, against the command on
the bundled arm's simulated excitation."""

import json

import pytest

import dynid
from conftest import cli_json, run_cli


@pytest.fixture(scope="module")
def arm(tmp_path_factory):
    """The bundled 7-DOF arm's Fourier excitation, 4 s without sensor noise, simulated by the command."""
    out = tmp_path_factory.mktemp("arm") / "data"
    run_cli("simulate", "arm7", "--scenario", "excite", "--duration", "4", "--noise", "none", "--quiet", "--out", out)
    return out


ARGS = dict(sensors="joints", source="sensors", prior=0.0, friction="viscous,coulomb", armature=True)


def test_friction_joints_select_each_joints_terms_as_the_command_does(arm, tmp_path):
    chosen = {"a4": "none", "a6": "viscous"}
    result = dynid.identify_inertial("arm7", str(arm), friction_joints=chosen, **ARGS)
    friction = result.summary["friction"]
    assert "a4" not in friction
    assert set(friction["a6"]) >= {"viscous"} and "coulomb" not in friction["a6"] and "armature" not in friction["a6"]
    assert {"viscous", "coulomb", "armature"} <= set(friction["a1"])
    cli = cli_json("identify", "inertial", "arm7", arm, "--sensors", "joints", "--prior", "0", "--friction",
                   "viscous,coulomb", "--armature", "--friction-joint", "a4=none", "--friction-joint", "a6=viscous",
                   "--quiet", "--out", tmp_path / "cli")
    assert result.summary["friction"] == cli["friction"]
    # --align-kinematics-only, too, goes with --align-time, in the same words.
    bad = run_cli("identify", "inertial", "arm7", arm, "--sensors", "joints", "--align-kinematics-only", "--quiet",
                  "--out", tmp_path / "bad2", check=False)
    assert bad.returncode == 1
    with pytest.raises((ValueError, RuntimeError)) as e:
        dynid.identify_inertial("arm7", str(arm), sensors="joints", align_kinematics_only=True)
    assert "--align-kinematics-only goes with --align-time" in str(e.value) and str(e.value) in bad.stderr
    assert result.summary["validation"]["torque_rms_per_joint"] == cli["validation"]["torque_rms_per_joint"]
    # Without the selection every joint has every term: the selection is what changed the fit.
    everything = dynid.identify_inertial("arm7", str(arm), **ARGS)
    assert "a4" in everything.summary["friction"]
    # An unknown joint: the command's one-line message.
    bad = run_cli("identify", "inertial", "arm7", arm, "--sensors", "joints", "--friction-joint", "bogus=viscous",
                  "--quiet", "--out", tmp_path / "bad", check=False)
    assert bad.returncode == 1
    with pytest.raises((ValueError, RuntimeError)) as e:
        dynid.identify_inertial("arm7", str(arm), sensors="joints", friction_joints={"bogus": "viscous"})
    assert "bogus" in str(e.value) and str(e.value) in bad.stderr


def test_align_drift_goes_with_align_time_as_in_the_command(arm, tmp_path):
    bad = run_cli("identify", "inertial", "arm7", arm, "--sensors", "joints", "--align-drift", "--quiet", "--out",
                  tmp_path / "bad", check=False)
    assert bad.returncode == 1
    with pytest.raises((ValueError, RuntimeError)) as e:
        dynid.identify_inertial("arm7", str(arm), sensors="joints", align_drift=True)
    assert "--align-drift goes with --align-time" in str(e.value) and str(e.value) in bad.stderr
    # With align_time the option is accepted; a fixed-base arm has one clock, nothing to align.
    result = dynid.identify_inertial("arm7", str(arm), align_time=True, align_drift=True, **ARGS)
    cli = cli_json("identify", "inertial", "arm7", arm, "--sensors", "joints", "--prior", "0", "--friction",
                   "viscous,coulomb", "--armature", "--align-time", "--align-drift", "--quiet", "--out",
                   tmp_path / "cli")
    assert result.summary["friction"] == cli["friction"]


def test_validation_window_is_the_commands(arm, tmp_path):
    result = dynid.identify_inertial("arm7", str(arm), validation_window="1:2.5", **ARGS)
    cli = cli_json("identify", "inertial", "arm7", arm, "--sensors", "joints", "--prior", "0", "--friction",
                   "viscous,coulomb", "--armature", "--validate-window", "1:2.5", "--quiet", "--out", tmp_path / "cli")
    assert result.summary["validation_data"] == cli["validation_data"] == f"window 1:2.5 of {arm}"
    assert result.summary["validation"] == cli["validation"]
    assert result.summary["validation_samples"] == cli["validation_samples"]
    with pytest.raises((ValueError, RuntimeError), match="ends before it starts"):
        dynid.identify_inertial("arm7", str(arm), validation_window="2.5:1", **ARGS)


def test_parallel_filter_and_prior_frame_as_the_command(arm, tmp_path):
    """The demo's data path and prior from Python (--parallel-filter HZ --prior-frame com): the same
    summary as the command, and a frame the prior cannot take named by the argument."""
    result = dynid.identify_inertial("arm7", str(arm), sensors="joints", parallel_filter=2.0, prior_frame="com",
                                     truth=str(arm / "truth.urdf"))
    cli = cli_json("identify", "inertial", "arm7", arm, "--sensors", "joints", "--parallel-filter", "2",
                   "--prior-frame", "com", "--truth", arm / "truth.urdf", "--quiet", "--out", tmp_path / "cli")
    assert result.summary["cad_prior"]["coordinates"] == "com"
    assert result.summary["cad_prior"] == cli["cad_prior"]
    assert result.summary["parallel_filter"] == cli["parallel_filter"]
    assert result.summary["parameter_error_vs_nominal"] == cli["parameter_error_vs_nominal"]
    origin = dynid.identify_inertial("arm7", str(arm), sensors="joints", parallel_filter=2.0,
                                     truth=str(arm / "truth.urdf"))
    assert origin.summary["cad_prior"]["coordinates"] == "origin"
    with pytest.raises(ValueError, match="prior_frame"):
        dynid.identify_inertial("arm7", str(arm), sensors="joints", prior_frame="joint")
    with pytest.raises(ValueError, match="parallel_filter"):
        dynid.identify_inertial("arm7", str(arm), sensors="joints", parallel_filter=-1.0)


def test_keep_at_cad_holds_the_kept_parameters_as_the_command_does(arm, tmp_path):
    """keep_at_cad (--keep-at-cad): every base parameter marked "kept at CAD" has its CAD value, the
    same as the command's, and a prior weight instead of the CAD prior is refused by the argument."""
    kw = dict(sensors="joints", parallel_filter=2.0, prior_frame="com", truth=str(arm / "truth.urdf"))
    result = dynid.identify_inertial("arm7", str(arm), keep_at_cad=True, out=str(tmp_path / "py"), **kw)
    run_cli("identify", "inertial", "arm7", arm, "--sensors", "joints", "--parallel-filter", "2", "--prior-frame",
            "com", "--truth", arm / "truth.urdf", "--keep-at-cad", "--quiet", "--out", tmp_path / "cli")
    rows = json.loads((tmp_path / "py" / "base_parameters.json").read_text())
    cli_rows = json.loads((tmp_path / "cli" / "base_parameters.json").read_text())
    kept = [r for r in rows if r["status"] == "kept at CAD"]
    assert result.summary["cad_prior"]["keep_at_cad"] is True
    assert len(kept) == result.summary["cad_prior"]["kept_at_cad"] > 0
    assert all(r["value"] == pytest.approx(r["nominal"], rel=1e-6, abs=1e-9) for r in kept)
    assert [r["value"] for r in rows] == pytest.approx([r["value"] for r in cli_rows], rel=1e-9, abs=1e-12)
    plain = dynid.identify_inertial("arm7", str(arm), **kw)
    assert plain.summary["cad_prior"]["keep_at_cad"] is False
    assert any(abs(r - n) > 1e-9 for r, n, s in zip(plain.base_values, [k["nominal"] for k in rows],
                                                     [k["status"] for k in rows]) if s == "kept at CAD")
    with pytest.raises(ValueError, match="keep_at_cad"):
        dynid.identify_inertial("arm7", str(arm), sensors="joints", prior=0.0, keep_at_cad=True)
    # keep_below (--keep-below): a higher determination holds at least as many, each at CAD's value.
    more = dynid.identify_inertial("arm7", str(arm), keep_at_cad=True, keep_below=0.6, out=str(tmp_path / "py6"), **kw)
    assert more.summary["cad_prior"]["keep_below"] == 0.6
    assert more.summary["cad_prior"]["held_at_cad"] >= result.summary["cad_prior"]["held_at_cad"]
    rows6 = json.loads((tmp_path / "py6" / "base_parameters.json").read_text())
    held = [r for r in rows6 if r["determination"] <= 0.6]
    assert len(held) == more.summary["cad_prior"]["held_at_cad"]
    assert all(r["value"] == pytest.approx(r["nominal"], rel=1e-6, abs=1e-9) for r in held)
    with pytest.raises(ValueError, match="keep_below"):
        dynid.identify_inertial("arm7", str(arm), sensors="joints", keep_below=0.5)


def test_torque_gain_std_counts_the_gains_in_the_standard_deviations_as_the_command_does(arm, tmp_path):
    """torque_gain_std (--torque-gain-std): the same values, larger standard deviations, each
    base parameter's share from the gains in base_parameters.json, as the command writes them."""
    plain = dynid.identify_inertial("arm7", str(arm), **ARGS)
    counted = dynid.identify_inertial("arm7", str(arm), torque_gain_std=0.01, out=str(tmp_path / "py"), **ARGS)
    assert counted.summary["torque_gain_std"] == 0.01 and plain.summary["torque_gain_std"] is None
    assert counted.base_values == pytest.approx(plain.base_values, rel=1e-9, abs=1e-12)
    assert all(c >= p for c, p in zip(counted.base_std, plain.base_std))
    run_cli("identify", "inertial", "arm7", arm, "--sensors", "joints", "--prior", "0", "--friction", "viscous,coulomb",
            "--armature", "--torque-gain-std", "0.01", "--quiet", "--out", tmp_path / "cli")
    py_rows = json.loads((tmp_path / "py" / "base_parameters.json").read_text())
    cli_rows = json.loads((tmp_path / "cli" / "base_parameters.json").read_text())
    assert [r["std_from_torque_gains"] for r in py_rows] == pytest.approx([r["std_from_torque_gains"] for r in cli_rows])
    assert max(r["std_from_torque_gains"] for r in cli_rows) > 0.0


def test_gear_backlash_takes_the_play_off_as_the_command_does(arm, tmp_path):
    """gear_backlash (--gear-backlash): the same summary as the command (the play, the share of
    samples the predicted rotors spend crossing it, the values), and a negative play named."""
    result = dynid.identify_inertial("arm7", str(arm), gear_backlash=0.1, **ARGS)
    cli = cli_json("identify", "inertial", "arm7", arm, "--sensors", "joints", "--prior", "0", "--friction",
                   "viscous,coulomb", "--armature", "--gear-backlash", "0.1", "--quiet", "--out", tmp_path / "cli")
    assert result.summary["gear_backlash"]["play_deg"] == 0.1
    assert result.summary["gear_backlash"] == cli["gear_backlash"]
    assert 0.0 <= result.summary["gear_backlash"]["crossing_fraction"] < 1.0
    assert result.summary["friction"] == cli["friction"]
    plain = dynid.identify_inertial("arm7", str(arm), **ARGS)
    assert "gear_backlash" not in plain.summary
    with pytest.raises(ValueError, match="gear_backlash"):
        dynid.identify_inertial("arm7", str(arm), gear_backlash=-0.1, **ARGS)
    with pytest.raises(ValueError, match="gear_backlash"):
        dynid.identify_inertial("arm7", str(arm), gear_backlash="all", **ARGS)
    # "sidecar": each actuator's backlash; the bundled arm's sidecar declares none, which is named.
    with pytest.raises((ValueError, RuntimeError), match="no actuator of .* has a backlash"):
        dynid.identify_inertial("arm7", str(arm), gear_backlash="sidecar", **ARGS)


def test_imu_calibration_is_refused_as_the_command_refuses_it(arm, tmp_path):
    # The arm has a fixed base: no base IMU to calibrate. Python and the command say the same.
    with pytest.raises((ValueError, RuntimeError)) as e:
        dynid.identify_inertial("arm7", str(arm), imu_calibration=True, **ARGS)
    bad = run_cli("identify", "inertial", "arm7", arm, "--sensors", "joints", "--prior", "0", "--imu-calibration",
                  "--quiet", "--out", tmp_path / "bad", check=False)
    assert bad.returncode == 1
    assert str(e.value) in bad.stderr and "--imu-calibration" in str(e.value)
    with pytest.raises((ValueError, RuntimeError), match="--imu-axes goes with --imu-calibration"):
        dynid.identify_inertial("arm7", str(arm), imu_axes=str(tmp_path / "summary.json"), **ARGS)
