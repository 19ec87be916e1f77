"""cvxpy and linopy through shardlp (docs/modelling-tools.md), against the same tools'
HiGHS: objective, primal values and duals."""
import numpy as np
import pytest

cp = pytest.importorskip("cvxpy")
linopy = pytest.importorskip("linopy")
pd = pytest.importorskip("pandas")

from shardlp.cvxpy import SHARDLP  # noqa: E402
import shardlp.linopy  # noqa: E402


def random_lp(seed):
    """A feasible, bounded random LP with inequalities, bounds and one equality."""
    rng = np.random.default_rng(seed)
    m, n = 15 + seed, 25 + 2 * seed
    A = rng.standard_normal((m, n))
    b = A @ rng.random(n) + rng.random(m)
    c = rng.standard_normal(n)
    x = cp.Variable(n)
    constraints = [A @ x <= b, x >= 0, x <= 2, cp.sum(x) == n / 3]
    return cp.Problem(cp.Minimize(c @ x), constraints), constraints


@pytest.mark.parametrize("seed", range(5))
def test_cvxpy_matches_highs(seed):
    prob, cons = random_lp(seed)
    prob.solve(solver=SHARDLP(), tol=1e-9)
    ours = (prob.status, prob.value, [np.copy(c.dual_value) for c in cons])
    prob.solve(solver=cp.HIGHS)
    assert ours[0] == cp.OPTIMAL == prob.status
    assert abs(ours[1] - prob.value) <= 1e-4 * max(1.0, abs(prob.value))
    for mine, theirs in zip(ours[2], (c.dual_value for c in cons)):
        scale = max(1.0, float(np.max(np.abs(theirs))))
        assert np.max(np.abs(np.asarray(mine) - np.asarray(theirs))) <= 1e-4 * scale


def test_cvxpy_infeasible():
    x = cp.Variable(2)
    prob = cp.Problem(cp.Minimize(cp.sum(x)), [x >= 1, cp.sum(x) <= 1])
    prob.solve(solver=SHARDLP())
    assert prob.status == cp.INFEASIBLE


def linopy_model():
    m = linopy.Model()
    idx = pd.RangeIndex(6, name="i")
    x = m.add_variables(lower=0, upper=3, coords=[idx], name="x")
    y = m.add_variables(lower=-1, name="y")
    m.add_constraints(x.sum() + y >= 4, name="total")
    m.add_constraints(x - y <= 2, name="link")
    m.add_constraints(2 * x.sel(i=0, drop=True) + x.sel(i=1, drop=True) == 1.5, name="pair")
    m.add_objective((np.arange(1, 7) * x).sum() + 2 * y)
    return m


def test_linopy_matches_highs():
    ours = linopy_model()
    assert shardlp.linopy.solve(ours, tol=1e-9) == ("ok", "optimal")
    ref = linopy_model()
    ref.solve(solver_name="highs")
    assert abs(ours.objective.value - ref.objective.value) <= 1e-6 * max(1, abs(ref.objective.value))
    for name in ("x", "y"):
        np.testing.assert_allclose(ours.variables[name].solution.values,
                                   ref.variables[name].solution.values, atol=1e-6)
    for name in ("total", "link", "pair"):
        np.testing.assert_allclose(ours.constraints[name].dual.values,
                                   ref.constraints[name].dual.values, atol=1e-6)
