"""dynid.fit_physically_consistent (ident/physical_consistency.hpp) from Python, checked with what
the C++ fit does not use: every body's pseudo-inertia built and tested in numpy (eigvalsh), numpy's
own least squares on exact data, and first-order optimality over the convex set of consistent
parameters (the variational inequality) against feasible points made here."""

import numpy as np
import pytest

import dynid


def pseudo_inertia(p):
    """[[tr(I)/2 1 - I, h], [h^T, m]] of one body's 10 parameters (m, h, Ixx, Ixy, Iyy, Ixz, Iyz, Izz)."""
    m, h = p[0], p[1:4]
    inertia = np.array([[p[4], p[5], p[7]], [p[5], p[6], p[8]], [p[7], p[8], p[9]]])
    J = np.zeros((4, 4))
    J[:3, :3] = 0.5 * np.trace(inertia) * np.eye(3) - inertia
    J[:3, 3] = J[3, :3] = h
    J[3, 3] = m
    return J


def smallest_pseudo_inertia_eigenvalue(pi):
    return min(np.linalg.eigvalsh(pseudo_inertia(pi[10 * b : 10 * b + 10]))[0] for b in range(len(pi) // 10))


def from_com(m, c, inertia_com):
    """10 parameters of a body of mass m, COM c, rotational inertia inertia_com about the COM."""
    inertia = inertia_com + m * (c @ c * np.eye(3) - np.outer(c, c))
    return np.array([m, *(m * c), inertia[0, 0], inertia[0, 1], inertia[1, 1], inertia[0, 2], inertia[1, 2],
                     inertia[2, 2]])


def com_form(p):
    m = p[0]
    c = p[1:4] / m
    inertia = np.array([[p[4], p[5], p[7]], [p[5], p[6], p[8]], [p[7], p[8], p[9]]])
    return m, c, inertia - m * (c @ c * np.eye(3) - np.outer(c, c))


def perturbed(pi, rng, spread=0.2):
    """A physically consistent neighbour of pi: each body's mass and rotational inertia scaled by
    1 +- spread, its COM moved by up to 1 cm."""
    out = pi.copy()
    for b in range(len(pi) // 10):
        m, c, inertia_com = com_form(pi[10 * b : 10 * b + 10])
        s_m, s_i = 1.0 + spread * rng.uniform(-1, 1, 2)
        out[10 * b : 10 * b + 10] = from_com(s_m * m, c + rng.uniform(-0.01, 0.01, 3), s_i * inertia_com)
    return out


@pytest.fixture(scope="module", params=["arm7", "kid_humanoid"])
def problem(request):
    """The joint-torque regressor of a model stacked over 30 random states, its base parameters, and
    a physically consistent 'true' parameter vector off the nominal one."""
    model = dynid.Model.load(request.param)
    data = dynid.Data(model)
    Y = np.vstack([dynid.joint_torque_regressor(model, data, *dynid.random_state(model, seed=s)) for s in range(1, 31)])
    base = dynid.base_parameters(model)
    nominal = model.inertial_parameters
    assert smallest_pseudo_inertia_eigenvalue(nominal) > 0
    truth = perturbed(nominal, np.random.default_rng(7))
    assert smallest_pseudo_inertia_eigenvalue(truth) > 0
    return model, Y, base, nominal, truth


def factor(base, Y, b):
    """R, z of the base-parameter least squares, ||Y_b x - b||^2 = ||R x - z||^2 + const."""
    Yb = base.regressor(Y)
    stream = dynid.StreamingLeastSquares(base.num_base)
    stream.add(Yb, b)
    return stream.information_factor(), stream.factor_rhs(), Yb


def test_on_exact_data_the_consistent_fit_is_the_plain_least_squares(problem):
    model, Y, base, nominal, truth = problem
    b = Y @ truth
    R, z, Yb = factor(base, Y, b)
    x_lsq = np.linalg.lstsq(Yb, b, rcond=None)[0]
    assert np.allclose(x_lsq, base.K @ truth, rtol=0, atol=1e-9 * np.abs(x_lsq).max())  # the data are exact
    # The pull toward the prior (prior_weight, relative to the data) biases what the data barely see
    # by about that much: measured 2e-7 (arm7) and 2e-6 (kid) of the largest base parameter at the
    # default 1e-10, 2e-11 and 3e-9 at 1e-14.
    for prior_weight, agreement in ((1e-10, 1e-5), (1e-14, 1e-7)):
        fit = dynid.fit_physically_consistent(R, z, base.K, nominal, prior_weight=prior_weight)
        assert fit.converged
        assert fit.pi.shape == nominal.shape
        # Consistent: every body's pseudo-inertia positive definite (numpy's eigenvalues)
        assert smallest_pseudo_inertia_eigenvalue(fit.pi) > 0
        # ... and on exact data from a consistent model it is the plain least squares' base parameters.
        x_fit = base.K @ fit.pi
        error = np.abs(x_fit - x_lsq).max()
        assert error < agreement * np.abs(x_lsq).max(), (prior_weight, error)
        assert np.isclose(fit.data_cost, np.sum((R @ x_fit - z) ** 2), rtol=1e-9, atol=1e-20)
        assert fit.data_cost < 1e-10 * np.sum(z**2)


def test_data_from_an_impossible_model_give_the_best_consistent_one(problem):
    """Data from the true parameters negated: the plain least squares fits them exactly, no consistent
    model can (a floating base's total mass, a fixed base's inertia about its first axis, both base
    parameters, would be negative; one body negated, or its rotational inertia made impossible, is
    mostly reachable by consistent bodies through the regrouping). The result is consistent and no
    consistent point does better to first order: g . (pi_c - pi_fit) >= 0 for feasible pi_c, g the
    data cost's gradient (the optimality condition of a convex problem, not what the barrier uses)."""
    model, Y, base, nominal, truth = problem
    bad = -truth
    assert smallest_pseudo_inertia_eigenvalue(bad) < 0
    b = Y @ bad
    R, z, _ = factor(base, Y, b)
    fit = dynid.fit_physically_consistent(R, z, base.K, nominal)
    assert fit.converged
    assert smallest_pseudo_inertia_eigenvalue(fit.pi) > 0
    A = R @ base.K
    cost = lambda pi: np.sum((A @ pi - z) ** 2)  # noqa: E731
    assert np.isclose(fit.data_cost, cost(fit.pi), rtol=1e-9)
    assert fit.data_cost > 1e-3 * np.sum(z**2)  # the constraint is active: the impossible fit is out of reach
    gradient = 2.0 * A.T @ (A @ fit.pi - z)
    rng = np.random.default_rng(3)
    candidates = [nominal, truth] + [perturbed(truth, rng, 0.5) for _ in range(5)]
    for candidate in candidates:
        assert smallest_pseudo_inertia_eigenvalue(candidate) > 0
        assert cost(candidate) >= fit.data_cost * (1 - 1e-9)
        step = candidate - fit.pi
        assert gradient @ step >= -1e-6 * np.linalg.norm(gradient) * np.linalg.norm(step)


def test_fixed_entries_stay_at_the_prior(problem):
    model, Y, base, nominal, truth = problem
    R, z, _ = factor(base, Y, Y @ truth)
    fixed = np.zeros(len(nominal), dtype=bool)
    for k in range(4):
        fixed[k::10] = True  # masses and first moments kept at the nominal (the two-phase mode)
    fit = dynid.fit_physically_consistent(R, z, base.K, nominal, fixed=fixed)
    assert np.array_equal(fit.pi[fixed], nominal[fixed])
    assert not np.array_equal(fit.pi, nominal)
    assert smallest_pseudo_inertia_eigenvalue(fit.pi) > 0
    free = dynid.fit_physically_consistent(R, z, base.K, nominal, fixed=[False] * len(nominal))
    assert fit.data_cost > 1e3 * free.data_cost  # the nominal masses and COMs are not the data's


def test_pseudo_inertia_is_numpys():
    rng = np.random.default_rng(5)
    for _ in range(5):
        p = rng.normal(size=10)
        assert np.allclose(dynid.pseudo_inertia(p), pseudo_inertia(p), rtol=0, atol=1e-15 * np.abs(p).max())
    with pytest.raises(ValueError, match="^parameters: expected 10 values"):
        dynid.pseudo_inertia(np.zeros(9))


def test_bad_input_names_the_argument(problem):
    model, Y, base, nominal, truth = problem
    R, z, _ = factor(base, Y, Y @ truth)
    K = base.K
    with pytest.raises(ValueError, match="^R: expected a square factor"):
        dynid.fit_physically_consistent(R[:-1], z, K, nominal)
    with pytest.raises(ValueError, match="^z: expected"):
        dynid.fit_physically_consistent(R, z[:-1], K, nominal)
    with pytest.raises(ValueError, match="^K: expected shape"):
        dynid.fit_physically_consistent(R, z, K[:-1], nominal)
    with pytest.raises(ValueError, match="^pi_prior: expected"):
        dynid.fit_physically_consistent(R, z, K, nominal[:-1])
    with pytest.raises(TypeError, match="^pi_prior: expected real numbers"):
        dynid.fit_physically_consistent(R, z, K, nominal.astype(complex))
    impossible = nominal.copy()
    impossible[10] = -1.0  # body 1's mass
    with pytest.raises(ValueError, match=r"^pi_prior: body 1 \(entries 10\.\.19\) is not physically consistent"):
        dynid.fit_physically_consistent(R, z, K, impossible)
    with pytest.raises(ValueError, match="^fixed: expected"):
        dynid.fit_physically_consistent(R, z, K, nominal, fixed=[True])
    with pytest.raises(TypeError, match="^fixed: expected bools"):
        dynid.fit_physically_consistent(R, z, K, nominal, fixed=[1] * len(nominal))
    for weight in (-1.0, 0.0, np.inf):
        with pytest.raises(ValueError, match="^prior_weight: must be positive"):
            dynid.fit_physically_consistent(R, z, K, nominal, prior_weight=weight)
    nan_z = z.copy()
    nan_z[0] = np.nan
    with pytest.raises(ValueError, match="^z: not finite"):
        dynid.fit_physically_consistent(R, nan_z, K, nominal)
