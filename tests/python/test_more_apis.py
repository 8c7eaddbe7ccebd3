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
    plain = dynid.identify_inertial("biped16", str(data), sensors="full", source="sensors", prior=1e-6,
                                    holdout=0.5)
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
