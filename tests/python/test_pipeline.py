"""Simulation, data-set reading, base parameters, least squares and the inertial identification
from Python, against the command (`dynid simulate`, `dynid identify inertial`: the same summary
numbers), numpy's own CSV reader and least squares, and the regressor identities."""

import csv
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

import dynid
from conftest import ROOT, cli_json, run_cli


@pytest.fixture(scope="module")
def squat(tmp_path_factory):
    """The kid-size humanoid's squat without sensor noise, simulated by the command."""
    out = tmp_path_factory.mktemp("squat") / "data"
    run_cli("simulate", "kid_humanoid", "--scenario", "squat", "--noise", "none", "--quiet", "--out", out)
    return out


def without_wall_time(summary):
    return {k: v for k, v in summary.items() if k not in ("realtime_factor", "wall_time_s")}


def test_simulate_from_python_writes_the_commands_data_set(squat, tmp_path):
    out = tmp_path / "py"
    summary = dynid.simulate("kid_humanoid", "squat", str(out), noise="none")
    assert without_wall_time(summary) == without_wall_time(json.loads((squat / "summary.json").read_text()))
    for name in ("truth.csv", "dataset.json"):
        if (squat / name).exists():
            assert (out / name).read_bytes() == (squat / name).read_bytes(), name
    with pytest.raises(ValueError, match="noise"):
        dynid.simulate("kid_humanoid", "squat", str(tmp_path / "bad"), noise="loud")
    with pytest.raises((ValueError, RuntimeError), match="bogus"):
        dynid.simulate("kid_humanoid", "bogus", str(tmp_path / "bad"))
    # The command's refusals for the options of other scenarios, as the command words them.
    with pytest.raises((ValueError, RuntimeError), match="--still records a still period before an excite motion"):
        dynid.simulate("kid_humanoid", "squat", str(tmp_path / "bad"), still=2.0)
    with pytest.raises((ValueError, RuntimeError), match="--base-tilt tilts the base of static poses"):
        dynid.simulate("kid_humanoid", "squat", str(tmp_path / "bad"), base_tilt=5.0)


def test_data_set_streams_equal_a_plain_csv_reader(squat):
    ds = dynid.read_dataset(squat)
    assert ds.robot and ds.truth_urdf.endswith("truth.urdf")
    assert set(ds.streams) >= {"encoders", "truth"}
    for name, info in ds.streams.items():
        stream = ds.read_stream(name)
        with open(info.file, newline="") as f:
            rows = list(csv.reader(f))
        header, body = rows[0], rows[1:]
        assert ["time", *stream.channels] == header
        expected = np.array([[float(x) if x != "" else np.nan for x in r] for r in body])
        assert len(stream) == len(body)
        assert np.array_equal(stream.time, expected[:, 0])
        assert np.array_equal(stream.values, expected[:, 1:], equal_nan=True)
        assert np.array_equal(stream[header[1]], expected[:, 1], equal_nan=True)
    with pytest.raises(RuntimeError, match="vicon"):
        ds.read_stream("vicon")
    with pytest.raises(RuntimeError, match="no_such_dir"):
        dynid.read_dataset(squat / "no_such_dir")


def test_base_parameters_reproduce_the_regressor():
    model = dynid.Model.load("kid_humanoid")
    base = dynid.base_parameters(model)
    assert base.num_standard == 10 * model.num_moving_bodies and 0 < base.num_base < base.num_standard
    assert len(base.names) == base.num_base and base.expression(0)
    assert base.smallest_independent_distance > 1e3 * base.rank_tolerance > base.largest_dependent_distance
    # Exactly parallel axes: nothing regrouped by near dependence (tests/ident has a tilted knee).
    assert base.near_dependence_tolerance == 1e-3 and base.nearly_dependent == []
    assert dynid.base_parameters(model, near_dependence_tolerance=0).independent == base.independent
    # paper 003: for a floating base the 6 base-link equations determine the same base parameters.
    assert dynid.base_parameters(model, rows="base").independent == base.independent
    data = dynid.Data(model)
    pi = model.inertial_parameters
    for seed in range(3):
        q, v, a = dynid.random_state(model, seed=100 + seed)
        Y = dynid.joint_torque_regressor(model, data, q, v, a)
        assert np.abs(base.regressor(Y) @ base.values(pi) - Y @ pi).max() < 1e-9 * (1 + np.abs(Y @ pi).max())
        assert np.array_equal(base.regressor(Y), Y[:, base.independent])
        assert np.abs(base.values(pi) - base.K @ pi).max() < 1e-14 * np.abs(pi).max()


def test_streaming_least_squares_equals_numpy_lstsq():
    rng = np.random.default_rng(5)
    A = rng.normal(size=(400, 6))
    x_true = rng.normal(size=6)
    b = A @ x_true + 0.01 * rng.normal(size=400)
    w = rng.uniform(0.5, 2.0, size=400)
    sls = dynid.StreamingLeastSquares(6, block_rows=50)
    for k in range(0, 400, 37):  # blocks that do not line up with the folds
        sls.add(A[k:k + 37], b[k:k + 37], weights=w[k:k + 37])
    sol = sls.solve()
    sw = np.sqrt(w)
    x_np, rss, *_ = np.linalg.lstsq(A * sw[:, None], b * sw, rcond=None)
    assert sol.rows == 400 and sls.rows == 400
    assert np.abs(sol.x - x_np).max() < 1e-12 * (1 + np.abs(x_np).max())
    assert sls.residual_sum_of_squares() == pytest.approx(rss[0], rel=1e-9)
    R = sls.information_factor()
    assert np.abs(R.T @ R - (A * w[:, None]).T @ A).max() < 1e-9 * np.abs(A.T @ A).max()
    # A column group (rows zero outside columns 1 and 4) and a merged second stream.
    g = sls.add_column_group([1, 4])
    extra = rng.normal(size=(20, 2))
    sls.add(extra, extra @ x_true[[1, 4]], group=g)
    other = dynid.StreamingLeastSquares(6)
    other.add(A[:10], b[:10])
    sls.merge(other, weight=3.0)
    full_A = np.vstack([A, np.zeros((20, 6)), A[:10]])
    full_A[400:420, [1, 4]] = extra
    full_b = np.concatenate([b, extra @ x_true[[1, 4]], b[:10]])
    full_w = np.concatenate([w, np.ones(20), 3.0 * np.ones(10)])
    s = np.sqrt(full_w)
    x_all, *_ = np.linalg.lstsq(full_A * s[:, None], full_b * s, rcond=None)
    assert np.abs(sls.solve().x - x_all).max() < 1e-12 * (1 + np.abs(x_all).max())


IDENTIFY_ARGS = dict(sensors="contact", source="truth")


def identify_cli(data, out):
    return cli_json("identify", "inertial", "kid_humanoid", data, "--sensors", "contact", "--source", "truth",
                    "--truth", data / "truth.urdf", "--quiet", "--out", out)


def test_identification_from_python_gives_the_commands_summary(squat, tmp_path):
    cli = identify_cli(squat, tmp_path / "cli")
    truth = str(squat / "truth.urdf")
    # All the stages in one call, writing its outputs as the command does.
    result = dynid.identify_inertial("kid_humanoid", str(squat), out=str(tmp_path / "py"), truth=truth, **IDENTIFY_ARGS)
    assert result.summary == cli
    assert json.loads((tmp_path / "py" / "summary.json").read_text()) == cli
    assert (tmp_path / "py" / "report.html").exists()
    # Stage by stage.
    problem = dynid.prepare_inertial_identification("kid_humanoid", str(squat), truth=truth, **IDENTIFY_ARGS)
    estimate = dynid.estimate_inertial_parameters(problem)
    staged = dynid.identified_parameters(problem, estimate)
    true_model = dynid.load_truth_model(problem)
    assert true_model.total_mass == pytest.approx(cli["truth_total_mass"], rel=1e-15)
    dynid.compare_with_truth(problem, true_model, staged)
    dynid.validate_identification(problem, true_model, staged)
    staged.summary_json = dynid.inertial_summary_json(problem, staged)
    assert staged.summary == cli
    assert np.array_equal(staged.base_values, result.base_values)
    assert staged.base.names == problem.base.names and len(estimate.solution.x) == len(problem.unknown_names)
    # The identified model reproduces the measured base force on the held-out motion.
    s = staged.series
    assert s["measured_wrench"].shape == s["identified_wrench"].shape == (len(s["time"]), 6)
    rms = np.sqrt(np.mean(np.sum((s["identified_wrench"][:, :3] - s["measured_wrench"][:, :3]) ** 2, axis=1)))
    assert rms < 0.01 * staged.nominal_rms["force"]
    assert staged.total_mass == pytest.approx(true_model.total_mass, rel=1e-3)


def test_identification_errors_are_the_commands(squat, tmp_path):
    for kwargs, fragment in (({"sensors": "l_sole,bogus"}, "bogus"), ({"sensors": "l_sole"}, "rank")):
        with pytest.raises((ValueError, RuntimeError)) as e:
            dynid.identify_inertial("kid_humanoid", str(squat), **kwargs)
        assert fragment in str(e.value)
        cli = run_cli("identify", "inertial", "kid_humanoid", squat, "--quiet", "--out", tmp_path / "bad",
                      "--sensors", kwargs["sensors"], check=False)
        assert cli.returncode == 1 and str(e.value) in cli.stderr
    with pytest.raises(ValueError, match="^source: "):
        dynid.identify_inertial("kid_humanoid", str(squat), source="oracle")
    # An unknown joint name: the command's message, named by the argument.
    cli = run_cli("identify", "inertial", "kid_humanoid", squat, "--sensors", "contact", "--lock", "bogus=0.1",
                  "--quiet", "--out", tmp_path / "bad", check=False)
    for call in (dynid.identify_inertial, dynid.prepare_inertial_identification):
        with pytest.raises(ValueError) as e:
            call("kid_humanoid", str(squat), locks={"bogus": 0.1})
        assert str(e.value).startswith("locks: ") and cli.stderr.strip() == "dynid: " + str(e.value)[len("locks: "):]


def test_worked_example_runs_and_plots(tmp_path):
    """docs/examples/python_walk.py, the worked example of docs/python.md, writing its PNG to a temp dir."""
    script = ROOT / "docs" / "examples" / "python_walk.py"
    r = subprocess.run([sys.executable, str(script), str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    png = tmp_path / "base_force.png"
    assert png.exists() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "identified" in r.stdout


def write_trc(path, stream):
    """The data set's markers as a lab's TRC file (millimetres, tab separated, empty where missing)."""
    names = list(dict.fromkeys(c.rsplit(".", 1)[0] for c in stream.channels))
    values = 1e3 * np.column_stack([stream[f"{n}.{axis}"] for n in names for axis in "xyz"])
    rate = round((len(stream.time) - 1) / (stream.time[-1] - stream.time[0]), 3)  # the stamps are rounded to ms
    lines = [f"PathFileType\t4\t(X/Y/Z)\t{path.name}",
             "DataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits",
             f"{rate:.6g}\t{rate:.6g}\t{len(stream)}\t{len(names)}\tmm",
             "Frame#\tTime\t" + "\t\t\t".join(names),
             "\t\t" + "\t".join(f"{a}{k + 1}" for k in range(len(names)) for a in "XYZ")]
    for i, (t, row) in enumerate(zip(stream.time, values)):
        lines.append(f"{i + 1}\t{t!r}\t" + "\t".join("" if np.isnan(x) else repr(x) for x in row))
    path.write_text("\n".join(lines) + "\n")


def test_a_lab_trial_where_the_data_set_is_expected(squat, tmp_path):
    """A TRC (or C3D) file as `data`: imported for the run as the command does (DatasetOrMocapFile);
    a TRC holds markers only, so --source mocap needs its force plates: the command refuses it before
    importing and names its --plates option, Python names its plates keyword, both naming the user's
    file, not a temporary data set."""
    trc = tmp_path / "squat.trc"
    write_trc(trc, dynid.read_dataset(squat).read_stream("markers"))
    cli = run_cli("identify", "inertial", "kid_humanoid", trc, "--source", "mocap", "--sensors", "contact", "--quiet",
                  "--out", tmp_path / "cli", check=False)
    assert cli.returncode == 1
    command_message = cli.stderr.strip().removeprefix("dynid: ")
    assert "force plates" in command_message and "--plates" in command_message
    assert command_message.startswith(f"{trc}: ") and "dynid-imported" not in command_message
    with pytest.raises((RuntimeError, ValueError)) as e:
        dynid.identify_inertial("kid_humanoid", str(trc), source="mocap", sensors="contact")
    message = str(e.value)
    assert message.startswith(f"{trc}: ") and "force plates" in message and "plates FILE.mot" in message
    assert "--plates" not in message and "dynid-imported" not in message
    before = set(Path(tempfile.gettempdir()).glob(f"dynid-imported-{os.getpid()}-*"))
    with pytest.raises((RuntimeError, ValueError)) as e:
        dynid.prepare_inertial_identification("kid_humanoid", str(trc), source="mocap", sensors="contact")
    assert str(e.value) == message
    assert set(Path(tempfile.gettempdir()).glob(f"dynid-imported-{os.getpid()}-*")) == before  # nothing imported
    # The same trial as the validation set.
    with pytest.raises((RuntimeError, ValueError)) as e:
        dynid.identify_inertial("kid_humanoid", str(squat), validate=str(trc), source="mocap", sensors="contact")
    assert str(trc) in str(e.value) and "dynid-imported" not in str(e.value)


def write_mot(path, plates, force_plates):
    """The data set's plate wrenches as OpenSim's ground reaction .mot: per plate (prefixes "", "1_",
    ...) the ground's force on the robot applied at the plate's centre with the whole moment about it
    (plates.csv holds the robot's wrench on the plate about its centre)."""
    columns, values = ["time"], [plates.time]
    for p, plate in enumerate(force_plates):
        pre = "" if p == 0 else f"{p}_"
        name = plate["name"]
        for a in "xyz":
            columns.append(f"{pre}ground_force_v{a}")
            values.append(-plates[f"{name}.f{a}"])
        for k, a in enumerate("xyz"):
            columns.append(f"{pre}ground_force_p{a}")
            values.append(np.full(len(plates), plate["origin"][k]))
        for a in "xyz":
            columns.append(f"{pre}ground_torque_{a}")
            values.append(-plates[f"{name}.m{a}"])
    table = np.column_stack(values)
    header = [path.name, "version=1", f"nRows={len(table)}", f"nColumns={len(columns)}", "inDegrees=yes",
              "endheader", "\t".join(columns)]
    path.write_text("\n".join(header + ["\t".join(repr(x) for x in row) for row in table]) + "\n")


def write_plate_layout(path, force_plates):
    """The plates' corners (metres, z up) as the layout YAML --plate-layout reads."""
    lines = ["plates:"] + [f"  - corners: {[list(c) for c in plate['corners']]}" for plate in force_plates]
    path.write_text("\n".join(lines) + "\n")


def test_a_trc_trial_with_its_plates_equals_the_command(squat, tmp_path):
    """plates, plate_layout (and plates_unit, up) as the command's --plates, --plate-layout: the same
    import and the same identification from a TRC trial and its ground reaction file (the adult
    humanoid's squat: its markers cover every joint); a bad keyword value is refused naming it."""
    adult = tmp_path / "adult_squat"
    run_cli("simulate", "adult_humanoid", "--scenario", "squat", "--noise", "none", "--quiet", "--out", adult)
    kid_squat, squat = squat, adult
    dataset = dynid.read_dataset(squat)
    force_plates = json.loads((squat / "dataset.json").read_text())["force_plates"]
    trc, mot, layout = tmp_path / "squat.trc", tmp_path / "squat.mot", tmp_path / "plates.yaml"
    write_trc(trc, dataset.read_stream("markers"))
    write_mot(mot, dataset.read_stream("plates"), force_plates)
    write_plate_layout(layout, force_plates)
    cli = cli_json("identify", "inertial", "adult_humanoid", trc, "--plates", mot, "--plate-layout", layout,
                   "--source", "mocap", "--sensors", "contact", "--quiet", "--out", tmp_path / "cli")
    r = dynid.identify_inertial("adult_humanoid", str(trc), plates=[str(mot)], plate_layout=str(layout),
                                source="mocap", sensors="contact")
    assert r.summary == cli
    assert cli["data"] == str(trc) and str(trc) in cli["source"]  # the trial, not its temporary import
    truth = json.loads((squat / "summary.json").read_text())["true_total_mass"]
    assert abs(cli["total_mass"] - truth) < 0.01 * truth  # the squat's plates weigh the robot
    with pytest.raises(ValueError, match="up: 'z' or 'y'"):
        dynid.identify_inertial("adult_humanoid", str(trc), plates=[str(mot)], plate_layout=str(layout), up="x",
                                source="mocap", sensors="contact")
    with pytest.raises(ValueError, match="plates_unit"):
        dynid.identify_inertial("adult_humanoid", str(trc), plates=[str(mot)], plate_layout=str(layout),
                                plates_unit="cm", source="mocap", sensors="contact")
    with pytest.raises((RuntimeError, ValueError)) as e:  # plates beside a data set directory
        dynid.identify_inertial("kid_humanoid", str(kid_squat), plates=[str(mot)], plate_layout=str(layout),
                                source="mocap", sensors="contact")
    assert "plates, plate_layout" in str(e.value) and "--plates" not in str(e.value)
    # identify_static takes the trial (or a list of trials) with its plates the same way.
    with pytest.raises((RuntimeError, ValueError)) as e:
        dynid.identify_static("adult_humanoid", [str(trc)], total_mass=truth)
    assert "plates FILE.mot" in str(e.value) and str(trc) in str(e.value)
