"""dynid's dynamics from Python against the C++ command (`dynid compute --json`, an independent path:
its own state parser and JSON writer), bit for bit at random states, and against identities the
C++ code does not use (regressor @ parameters = rnea, M a + nle = rnea, finite differences)."""

import json

import numpy as np
import pytest

import dynid
from conftest import cli_json

ROBOTS = ["kid_humanoid", "adult_humanoid", "arm7"]


def state_dict(model, q, v, a):
    """The STATE.json of docs/cli.md for vectors q, v, a (Python's json writes round-trip floats)."""
    state = {"joints": {}}
    k = 0
    if model.floating_base:
        state["base"] = {
            "position": q[0:3].tolist(),
            "orientation": q[3:7].tolist(),
            "velocity": v[0:6].tolist(),
            "acceleration": a[0:6].tolist(),
        }
        k = 1
    names = model.joint_names[k:]
    qn, vn = model.configuration_names, model.velocity_names
    for name in names:
        state["joints"][name] = {"q": q[qn.index(name)], "v": v[vn.index(name)], "a": a[vn.index(name)]}
    return state


@pytest.mark.parametrize("robot", ROBOTS)
def test_python_equals_the_command_bit_for_bit(robot, tmp_path):
    model = dynid.Model.load(robot)
    data = dynid.Data(model)
    for seed, quaternion in ((1, [0.5, -0.5, 0.5, 0.5]), (2, [0.0, 1.0, 0.0, 0.0]), (3, [-0.5, 0.5, 0.5, -0.5])):
        q, v, a = dynid.random_state(model, seed=seed, scale=2.0)
        if model.floating_base:
            # The command divides the quaternion it reads by its norm: these are unit in floating point,
            # so it reads back the very bits (a random unit quaternion would differ in the last bit).
            q[3:7] = quaternion
        path = tmp_path / f"state{seed}.json"
        path.write_text(json.dumps(state_dict(model, q, v, a)))

        def cli(quantity):
            return np.array(cli_json("compute", robot, "--state", path, "--quantity", quantity, "--json")["values"])

        tau = dynid.rnea(model, data, q, v, a)
        assert np.array_equal(tau, cli("rnea")[:, 0])
        assert np.array_equal(dynid.crba(model, data, q), cli("mass-matrix"))
        Y = dynid.joint_torque_regressor(model, data, q, v, a)
        assert np.array_equal(Y, cli("regressor"))
        com = dynid.center_of_mass(model, data, q, v, a)
        table = cli("com")
        assert np.array_equal(com, table[:, 0])
        assert np.array_equal(data.com_velocity, table[:, 1])
        assert np.array_equal(data.com_acceleration, table[:, 2])
        # dynid.compute with the same state as a dict, and as the file, is the command's table.
        for state in (state_dict(model, q, v, a), path, str(path)):
            r = dynid.compute(model, state, "rnea")
            assert r["rows"] == model.velocity_names and r["cols"] == ["tau"]
            assert np.array_equal(r["values"], cli("rnea"))
        assert dynid.compute(robot, path, "regressor")["cols"] == model.parameter_names


@pytest.mark.parametrize("robot", ROBOTS)
def test_identities_at_random_states(robot):
    model = dynid.Model.load(robot)
    data = dynid.Data(model)
    pi = model.inertial_parameters
    universe_first_moment = None
    for seed in range(5):
        q, v, a = dynid.random_state(model, seed=seed)
        tau = dynid.rnea(model, data, q, v, a)
        scale = 1.0 + np.abs(tau).max()
        Y = dynid.joint_torque_regressor(model, data, q, v, a)
        assert Y.shape == (model.nv, 10 * model.num_moving_bodies)
        assert np.abs(Y @ pi - tau).max() < 1e-10 * scale
        M = dynid.crba(model, data, q)
        assert np.abs(M - M.T).max() == 0.0
        nle = dynid.nonlinear_effects(model, data, q, v)
        assert np.abs(M @ a + nle - tau).max() < 1e-10 * scale
        if model.floating_base:
            Yb = dynid.base_link_regressor(model, data, q, v, a)
            assert np.abs(Yb - Y[:6]).max() < 1e-12 * (1.0 + np.abs(Y[:6]).max())
        # Static regressor: total mass times the COM, less the first moment of the links fixed to the
        # universe (none for a floating base; the same at every q for the arm's base).
        Ys = dynid.static_regressor(model, data, q)
        com = dynid.com(model, data, q)
        rest = model.total_mass * com - Ys @ pi
        if model.floating_base:
            assert np.abs(rest).max() < 1e-12 * model.total_mass
        if universe_first_moment is None:
            universe_first_moment = rest
        assert np.abs(rest - universe_first_moment).max() < 1e-12 * model.total_mass
        assert data.mass == pytest.approx(model.total_mass, rel=1e-14)


def test_jacobians_against_finite_differences():
    model = dynid.Model.load("kid_humanoid")
    data = dynid.Data(model)
    q, v, _ = dynid.random_state(model, seed=7)
    eps = 1e-6
    q_plus = dynid.integrate(model, q, eps * v)
    q_minus = dynid.integrate(model, q, -eps * v)
    for frame in ("l_sole", "r_sole", model.frame_names[3]):
        J = dynid.frame_jacobian(model, data, q, frame, "local_world_aligned")
        assert J.shape == (6, model.nv)
        p_plus = dynid.frame_placement(model, data, q_plus, frame)[:3, 3]
        p_minus = dynid.frame_placement(model, data, q_minus, frame)[:3, 3]
        fd = (p_plus - p_minus) / (2 * eps)
        assert np.abs(J[:3] @ v - fd).max() < 1e-6 * (1 + np.abs(fd).max())
        # local = world-aligned rotated into the frame's axes
        R = dynid.frame_placement(model, data, q, frame)[:3, :3]
        Jl = dynid.frame_jacobian(model, data, q, frame, "local")
        assert np.abs(Jl[:3] - R.T @ J[:3]).max() < 1e-12 * (1 + np.abs(J).max())
        assert np.abs(Jl[3:] - R.T @ J[3:]).max() < 1e-12 * (1 + np.abs(J).max())
    # COM Jacobian and centroidal momentum: m com_dot both ways.
    Jc = dynid.com_jacobian(model, data, q)
    com_fd = (dynid.com(model, data, q_plus) - dynid.com(model, data, q_minus)) / (2 * eps)
    assert np.abs(Jc @ v - com_fd).max() < 1e-6
    h = dynid.centroidal_momentum(model, data, q, v)
    assert np.abs(h[:3] - model.total_mass * (Jc @ v)).max() < 1e-10 * model.total_mass
    assert np.array_equal(data.centroidal_momentum, h)


def test_external_wrench_enters_as_minus_J_transpose_f():
    model = dynid.Model.load("kid_humanoid")
    data = dynid.Data(model)
    q, v, a = dynid.random_state(model, seed=3)
    body = model.body_index("l_ankle_roll_link") if "l_ankle_roll_link" in model.body_names else len(model.body_names) - 1
    f = np.zeros((len(model.body_names), 6))
    f[body] = [3.0, -2.0, 5.0, 0.3, 0.1, -0.2]
    tau0 = dynid.rnea(model, data, q, v, a)
    tau = dynid.rnea(model, data, q, v, a, f_ext=f)
    J = dynid.frame_jacobian(model, data, q, model.frame_index(model.body_names[body]), "local")
    # The body's link frame is the body frame when the link carries the joint.
    assert np.abs(tau - (tau0 - J.T @ f[body])).max() < 1e-10 * (1 + np.abs(tau0).max())


def test_model_properties_and_integer_input():
    model = dynid.Model.load("kid_humanoid")
    assert model.nq == model.nv + 1 and model.floating_base
    assert len(model.configuration_names) == model.nq and len(model.velocity_names) == model.nv
    assert model.joint_names[0] == "root_joint" and model.body_names[0] == "universe"
    assert "kid_humanoid" in dynid.Model.bundled_names()
    assert dynid.__version__.count(".") == 2
    data = dynid.Data(model)
    q = model.neutral_configuration()
    zeros_int = np.zeros(model.nv, dtype=np.int64)
    assert np.array_equal(dynid.rnea(model, data, q, zeros_int, [0] * model.nv),
                          dynid.rnea(model, data, q, np.zeros(model.nv), np.zeros(model.nv)))
    copy = model.copy()
    copy.set_inertial_parameters(2.0 * model.inertial_parameters)
    assert copy.total_mass == pytest.approx(2.0 * model.total_mass)
    assert model.total_mass == pytest.approx(dynid.Model.load("kid_humanoid").total_mass)
    # A Model read from the URDF alone has the same dynamics as the bundled robot (the sidecar adds frames).
    urdf = dynid.Model.from_urdf(model.source_path)
    q, v, a = dynid.random_state(model, seed=11)
    assert np.array_equal(dynid.rnea(urdf, dynid.Data(urdf), q, v, a), dynid.rnea(model, data, q, v, a))
