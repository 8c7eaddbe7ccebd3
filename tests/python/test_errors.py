"""Bad input from Python: a Python exception naming the argument, with the C++ one-line message the
command prints for the same mistake; never a crash."""

import json

import numpy as np
import pytest

import dynid
from conftest import run_cli


@pytest.fixture(scope="module")
def kid():
    model = dynid.Model.load("kid_humanoid")
    return model, dynid.Data(model), *dynid.random_state(model, seed=1)


def test_wrong_lengths_name_the_argument(kid):
    model, data, q, v, a = kid
    with pytest.raises(ValueError, match=rf"^q: expected {model.nq} values \(the model's nq\), got {model.nq - 1}$"):
        dynid.rnea(model, data, q[:-1], v, a)
    with pytest.raises(ValueError, match=rf"^v: expected {model.nv} values \(the model's nv\), got {model.nv + 1}$"):
        dynid.rnea(model, data, q, np.append(v, 0.0), a)
    with pytest.raises(ValueError, match=r"^a: expected"):
        dynid.joint_torque_regressor(model, data, q, v, a[:3])
    with pytest.raises(ValueError, match=r"^q: expected a 1-D array, got 2-D$"):
        dynid.crba(model, data, q.reshape(1, -1))
    with pytest.raises(ValueError, match=r"^f_ext: expected shape"):
        dynid.rnea(model, data, q, v, a, f_ext=np.zeros((3, 6)))
    with pytest.raises(ValueError, match=r"^pi: expected"):
        model.copy().set_inertial_parameters(np.zeros(5))
    with pytest.raises(ValueError, match=r"^gravity: expected 3 values"):
        model.copy().gravity = [0.0, -9.81]


def test_wrong_dtypes_name_the_argument(kid):
    model, data, q, v, a = kid
    with pytest.raises(TypeError, match=r"^q: expected real numbers \(float64\), got an array of dtype complex128$"):
        dynid.rnea(model, data, q.astype(complex), v, a)
    with pytest.raises(TypeError, match=r"^v: expected real numbers"):
        dynid.rnea(model, data, q, ["x"] * model.nv, a)
    with pytest.raises(TypeError, match=r"^a: expected an array of real numbers, got None$"):
        dynid.rnea(model, data, q, v, None)
    with pytest.raises(TypeError, match=r"^q: expected real numbers"):
        dynid.crba(model, data, np.ones(model.nq, dtype=bool))
    with pytest.raises(TypeError, match=r"^frame: expected a frame name"):
        dynid.frame_jacobian(model, data, q, 1.5)


def test_invalid_values_carry_the_cpp_message(kid):
    model, data, q, v, a = kid
    bad = q.copy()
    bad[3:7] *= 2.0
    with pytest.raises(ValueError, match=r"^q: base orientation quaternion of '.*' has norm 2\.0+, expected 1$"):
        dynid.rnea(model, data, bad, v, a)
    v_nan = v.copy()
    v_nan[4] = np.nan
    with pytest.raises(ValueError, match=r"^v entry 4 is not finite$"):
        dynid.rnea(model, data, q, v_nan, a)
    with pytest.raises(ValueError, match=r"^frame 'bogus' is not in .*kid_humanoid\.urdf$"):
        dynid.frame_jacobian(model, data, q, "bogus")
    with pytest.raises(IndexError, match=r"^frame: index 100000 is not in"):
        dynid.frame_jacobian(model, data, q, 100000)
    with pytest.raises(ValueError, match=r"^reference: expected 'local'"):
        dynid.frame_jacobian(model, data, q, "l_sole", "body")
    with pytest.raises(ValueError, match=r"^joint 'bogus' is not in"):
        model.joint_index("bogus")


def test_data_of_another_model_is_refused(kid):
    model, data, q, v, a = kid
    other = dynid.Model.load("kid_humanoid")
    with pytest.raises(ValueError, match=r"^data: made for another model"):
        dynid.rnea(other, data, q, v, a)
    arm = dynid.Model.load("arm7")
    with pytest.raises(ValueError, match=r"^data: made for another model"):
        dynid.crba(arm, data, arm.neutral_configuration())


def test_fixed_base_has_no_base_link_rows():
    arm = dynid.Model.load("arm7")
    q, v, a = dynid.random_state(arm)
    with pytest.raises(ValueError, match="fixed base"):
        dynid.base_link_regressor(arm, dynid.Data(arm), q, v, a)


def test_unknown_model_and_files_same_message_as_the_command(tmp_path):
    for name in ("no_such_robot", str(tmp_path / "missing.urdf")):
        with pytest.raises(RuntimeError) as e:
            dynid.Model.load(name)
        cli = run_cli("info", name, check=False)
        assert cli.returncode == 1
        assert str(e.value) in cli.stderr and "\n" not in str(e.value)
    not_urdf = tmp_path / "x.urdf"
    not_urdf.write_text("<robot name='x'><link name='a'/><joint")
    with pytest.raises(RuntimeError, match=str(not_urdf)):
        dynid.Model.from_urdf(not_urdf)
    with pytest.raises(TypeError, match=r"^path: expected a path"):
        dynid.Model.from_urdf(3)


def test_compute_errors_are_the_commands(tmp_path):
    model = dynid.Model.load("kid_humanoid")
    for state, quantity in (
        ({"joints": {"no_such_joint": {"q": 0.1}}}, "rnea"),
        ({"joints": {model.joint_names[1]: {"q": "abc"}}}, "rnea"),
        ({"base": {"orientation": [0, 0, 0, 2]}}, "com"),
        ({"base": {"velocity": [1, 2, 3]}}, "rnea"),
        ({}, "jacobian"),
    ):
        path = tmp_path / "state.json"
        path.write_text(json.dumps(state))
        with pytest.raises((ValueError, RuntimeError)) as from_file:
            dynid.compute(model, path, quantity)
        with pytest.raises((ValueError, RuntimeError)):
            dynid.compute(model, state, quantity)
        cli = run_cli("compute", "kid_humanoid", "--state", path, "--quantity", quantity, check=False)
        assert cli.returncode != 0
        if quantity != "jacobian":  # the command's parser refuses it before the library sees it
            assert str(from_file.value) in cli.stderr, (str(from_file.value), cli.stderr)


def test_least_squares_and_base_parameter_arguments():
    sls = dynid.StreamingLeastSquares(3)
    with pytest.raises(ValueError, match=r"^A: expected shape \(any, 3\), got \(2, 4\)$"):
        sls.add(np.zeros((2, 4)), np.zeros(2))
    with pytest.raises(ValueError, match=r"^b: expected 2 values"):
        sls.add(np.zeros((2, 3)), np.zeros(3))
    with pytest.raises(ValueError, match="no column group 5"):
        sls.add(np.zeros((2, 1)), np.zeros(2), group=5)
    with pytest.raises(ValueError, match="weight"):
        sls.add(np.ones((2, 3)), np.zeros(2), weights=[1.0, -1.0])
    with pytest.raises(ValueError, match="^num_parameters"):
        dynid.StreamingLeastSquares(0)
    model = dynid.Model.load("arm7")
    with pytest.raises(ValueError, match="bogus"):
        dynid.base_parameters(model, rows=["bogus"])
    with pytest.raises(ValueError, match="^rows: "):
        dynid.base_parameters(model, rows="some")
