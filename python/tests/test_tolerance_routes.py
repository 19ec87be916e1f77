"""One tolerance story (docs/modelling-tools.md, "One tolerance"): every modelling-tool
route -- the CLI's HiGHS style, PuLP's HiGHS_CMD, the Pyomo plugin, linopy, cvxpy --
solves with the same default, shardlp.TOOL_TOL, and at that default the nodal prices of
a small dispatch model (tests/dispatch_model.py, whose duals are unique) agree with
HiGHS's simplex to 1e-6 relative. Each route is called with its defaults."""
import os
import subprocess

import numpy as np
import pytest

import shardlp
import dispatch_model as dm

REF_OBJ, REF_X, REF_Y = dm.reference()
_, _, _, _, _, _, BALANCE = dm.arrays()
REF_PRICES = np.array([[REF_Y[BALANCE[b][t]] for t in range(dm.HOURS)] for b in range(dm.BUSES)])


def assert_prices(prices, route):
    prices = np.asarray(prices, dtype=float).reshape(dm.BUSES, dm.HOURS)
    rel = np.abs(prices - REF_PRICES) / np.abs(REF_PRICES)
    assert rel.max() <= 1e-6, f"{route}: nodal prices off by {rel.max():.2e} relative"


def assert_objective(obj, route):
    assert abs(obj - REF_OBJ) <= 1e-6 * abs(REF_OBJ), f"{route}: objective {obj} vs {REF_OBJ}"


def pulp_model():
    pulp = pytest.importorskip("pulp")
    prob = pulp.LpProblem("dispatch", pulp.LpMinimize)
    g = {(k, t): pulp.LpVariable(f"g_{k}_{t}", 0, cap)
         for k, (_, _, cap) in enumerate(dm.GENERATORS) for t in range(dm.HOURS)}
    f = {(l, t): pulp.LpVariable(f"f_{l}_{t}", -cap, cap)
         for l, (_, _, cap) in enumerate(dm.LINES) for t in range(dm.HOURS)}
    prob += pulp.lpSum(cost * g[k, t] for k, (_, cost, _) in enumerate(dm.GENERATORS)
                       for t in range(dm.HOURS))
    for b in range(dm.BUSES):
        for t in range(dm.HOURS):
            prob += (pulp.lpSum(g[k, t] for k, (bus, _, _) in enumerate(dm.GENERATORS) if bus == b)
                     + pulp.lpSum(f[l, t] for l, (_, to, _) in enumerate(dm.LINES) if to == b)
                     - pulp.lpSum(f[l, t] for l, (fr, _, _) in enumerate(dm.LINES) if fr == b)
                     == dm.demand(b, t)), f"bal_{b}_{t}"
    for t in range(1, dm.HOURS):
        step = g[dm.RAMPED, t] - g[dm.RAMPED, t - 1]
        prob += step <= dm.RAMP, f"rampup_{t}"
        prob += step >= -dm.RAMP, f"rampdown_{t}"
    return prob


def read_highs_solution_duals(path):
    """Row name -> dual from a HiGHS raw solution file (docs/solution-format.md)."""
    lines = open(path).read().splitlines()
    duals, section = {}, None
    for i, line in enumerate(lines):
        if line == "# Dual solution values":
            section = "dual"
        elif section == "dual" and line.startswith("# Rows"):
            for row in lines[i + 1:i + 1 + int(line.split()[-1])]:
                name, value = row.rsplit(" ", 1)
                duals[name] = float(value)
            break
    return duals


def test_tool_tol_is_the_cli_highs_style_default(binary, tmp_path):
    mps = tmp_path / "dispatch.mps"
    pulp_model().writeMPS(str(mps))
    log = subprocess.run([str(binary), str(mps)], capture_output=True, text=True, check=True).stdout
    assert f"Tolerance {shardlp.TOOL_TOL:g}: a HiGHS-style run's default" in log, log


def test_cli_highs_style(binary, tmp_path):
    mps, sol = tmp_path / "dispatch.mps", tmp_path / "dispatch.sol"
    pulp_model().writeMPS(str(mps))
    subprocess.run([str(binary), str(mps), "--solution_file", str(sol)], check=True,
                   capture_output=True)
    duals = read_highs_solution_duals(sol)
    assert_prices([[duals[f"bal_{b}_{t}"] for t in range(dm.HOURS)] for b in range(dm.BUSES)],
                  "CLI HiGHS style")


def test_pulp_highs_cmd(binary):
    pulp = pytest.importorskip("pulp")
    prob = pulp_model()
    assert prob.solve(pulp.HiGHS_CMD(path=str(binary), msg=False)) == pulp.LpStatusOptimal
    assert_objective(pulp.value(prob.objective), "PuLP")
    # PuLP's HiGHS_CMD reads values only: no duals come back on this route (documented)
    assert all(c.pi is None for c in prob.constraints.values())


def test_pyomo_plugin(binary):
    pe = pytest.importorskip("pyomo.environ")
    import shardlp.pyomo_plugin  # noqa: F401
    m = pe.ConcreteModel()
    G, L, T = range(len(dm.GENERATORS)), range(len(dm.LINES)), range(dm.HOURS)
    m.g = pe.Var(G, T, bounds=lambda m, k, t: (0, dm.GENERATORS[k][2]))
    m.f = pe.Var(L, T, bounds=lambda m, l, t: (-dm.LINES[l][2], dm.LINES[l][2]))
    m.obj = pe.Objective(expr=sum(dm.GENERATORS[k][1] * m.g[k, t] for k in G for t in T))
    m.bal = pe.Constraint(range(dm.BUSES), T, rule=lambda m, b, t: (
        sum(m.g[k, t] for k in G if dm.GENERATORS[k][0] == b)
        + sum(m.f[l, t] for l in L if dm.LINES[l][1] == b)
        - sum(m.f[l, t] for l in L if dm.LINES[l][0] == b) == dm.demand(b, t)))
    m.ramp = pe.Constraint(range(1, dm.HOURS), rule=lambda m, t: pe.inequality(
        -dm.RAMP, m.g[dm.RAMPED, t] - m.g[dm.RAMPED, t - 1], dm.RAMP))
    m.dual = pe.Suffix(direction=pe.Suffix.IMPORT)
    res = pe.SolverFactory("shardlp", executable=str(binary)).solve(m)
    assert res.solver.termination_condition == pe.TerminationCondition.optimal
    assert_objective(pe.value(m.obj), "Pyomo")
    assert_prices([[m.dual[m.bal[b, t]] for t in T] for b in range(dm.BUSES)], "Pyomo")


def test_linopy():
    linopy = pytest.importorskip("linopy")
    pd = pytest.importorskip("pandas")
    import shardlp.linopy
    m = linopy.Model()
    hours = pd.RangeIndex(dm.HOURS, name="t")
    g = [m.add_variables(lower=0, upper=cap, coords=[hours], name=f"g{k}")
         for k, (_, _, cap) in enumerate(dm.GENERATORS)]
    f = [m.add_variables(lower=-cap, upper=cap, coords=[hours], name=f"f{l}")
         for l, (_, _, cap) in enumerate(dm.LINES)]
    bal = []
    for b in range(dm.BUSES):
        expr = sum(g[k] for k, (bus, _, _) in enumerate(dm.GENERATORS) if bus == b)
        for l, (fr, to, _) in enumerate(dm.LINES):
            if to == b:
                expr = expr + f[l]
            if fr == b:
                expr = expr - f[l]
        rhs = pd.Series([dm.demand(b, t) for t in range(dm.HOURS)], index=hours)
        bal.append(m.add_constraints(expr == rhs, name=f"bal{b}"))
    for t in range(1, dm.HOURS):
        step = g[dm.RAMPED].sel(t=t, drop=True) - g[dm.RAMPED].sel(t=t - 1, drop=True)
        m.add_constraints(step <= dm.RAMP, name=f"rampup{t}")
        m.add_constraints(step >= -dm.RAMP, name=f"rampdown{t}")
    m.add_objective(sum(cost * g[k] for k, (_, cost, _) in enumerate(dm.GENERATORS)).sum())
    assert shardlp.linopy.solve(m) == ("ok", "optimal")
    assert_objective(m.objective.value, "linopy")
    assert_prices([m.constraints[f"bal{b}"].dual.values for b in range(dm.BUSES)], "linopy")


def test_cvxpy():
    cp = pytest.importorskip("cvxpy")
    from shardlp.cvxpy import SHARDLP
    c, A, lc, uc, lv, uv, _ = dm.arrays()
    eq = lc == uc
    x = cp.Variable(len(c))
    balance = A[eq] @ x == lc[eq]
    prob = cp.Problem(cp.Minimize(c @ x), [balance, A[~eq] @ x <= uc[~eq],
                                           A[~eq] @ x >= lc[~eq], x >= lv, x <= uv])
    prob.solve(solver=SHARDLP())
    assert prob.status == cp.OPTIMAL
    assert_objective(prob.value, "cvxpy")
    # cvxpy's dual of `A x == b` is minus the HiGHS-convention row dual
    assert_prices(-balance.dual_value, "cvxpy")


def test_python_api_default_is_documented_apart():
    """Model.solve's own default stays the method's 1e-4 (docs/python.md), read from the
    library's option table (the signature's None): the routes' default is the tighter
    TOOL_TOL."""
    import inspect
    assert inspect.signature(shardlp.Model.solve).parameters["tol"].default is None
    assert float(shardlp.Settings()["tol"]) == 1e-4
    assert shardlp.TOOL_TOL < 1e-4
