"""The shardlp binary driven by modelling tools: PuLP's HiGHS_CMD(path=...) and
the Pyomo plugin (shardlp.pyomo_plugin), checked against PuLP's bundled CBC."""
import numpy as np
import pytest

pulp = pytest.importorskip("pulp")


def build_pulp(seed=11, n=300, m=120):
    """A maximisation with equality, inequality and ranged constraints."""
    rng = np.random.default_rng(seed)
    prob = pulp.LpProblem("shardlp_pulp", pulp.LpMaximize)
    ub = rng.uniform(1, 10, n)
    x = [pulp.LpVariable(f"x{j}", 0, ub[j]) for j in range(n)]
    prob += pulp.lpSum(float(rng.normal()) * x[j] for j in range(n)) + 3.0
    xs = ub * rng.uniform(0.2, 0.8, n)
    cons = []
    for i in range(m):
        cols = rng.choice(n, 8, replace=False)
        coef = rng.uniform(-3, 3, 8)
        expr = pulp.lpSum(float(a) * x[j] for a, j in zip(coef, cols))
        act = float(coef @ xs[cols])
        k = i % 4
        if k == 0:
            cons.append((f"eq{i}", expr == round(act, 3)))
        elif k == 1:
            cons.append((f"le{i}", expr <= round(act + 1, 3)))
        elif k == 2:
            cons.append((f"ge{i}", expr >= round(act - 1, 3)))
        else:  # a ranged constraint, as PuLP writes one: two rows over one expression
            cons.append((f"rl{i}", expr >= round(act - 2, 3)))
            cons.append((f"ru{i}", expr <= round(act + 2, 3)))
    for name, con in cons:
        prob += con, name
    return prob


def max_violation(prob):
    worst = 0.0
    for con in prob.constraints.values():
        v = con.value()  # expr - rhs
        rhs = abs(con.constant)
        if con.sense == pulp.LpConstraintEQ:
            worst = max(worst, abs(v) / (1 + rhs))
        elif con.sense == pulp.LpConstraintLE:
            worst = max(worst, max(v, 0) / (1 + rhs))
        else:
            worst = max(worst, max(-v, 0) / (1 + rhs))
    for var in prob.variables():
        worst = max(worst, max(var.lowBound - var.varValue, 0), max(var.varValue - var.upBound, 0))
    return worst


def test_pulp_highs_cmd(binary):
    ref = build_pulp()
    assert ref.solve(pulp.PULP_CBC_CMD(msg=False)) == pulp.LpStatusOptimal
    ref_obj = pulp.value(ref.objective)

    prob = build_pulp()
    solver = pulp.HiGHS_CMD(path=binary, msg=False, timeLimit=300,
                            options=["primal_feasibility_tolerance=1e-10"])
    status = prob.solve(solver)
    assert pulp.LpStatus[status] == "Optimal"
    obj = pulp.value(prob.objective)
    assert abs(obj - ref_obj) <= 1e-6 * abs(ref_obj), (obj, ref_obj)
    assert max_violation(prob) <= 1e-6


def test_pyomo_plugin(binary):
    pe = pytest.importorskip("pyomo.environ")
    import shardlp.pyomo_plugin  # noqa: F401  registers SolverFactory('shardlp')

    rng = np.random.default_rng(5)
    n, m = 300, 120
    ub = rng.uniform(1, 10, n)
    xs = ub * rng.uniform(0.2, 0.8, n)
    rows = []
    for i in range(m):
        cols = rng.choice(n, 8, replace=False)
        coef = rng.uniform(-3, 3, 8)
        rows.append((cols, coef, float(coef @ xs[cols]), i % 4))
    cobj = rng.normal(size=n)

    def build():
        mod = pe.ConcreteModel()
        mod.x = pe.Var(range(n), bounds=lambda _, j: (0, ub[j]))
        mod.obj = pe.Objective(expr=sum(cobj[j] * mod.x[j] for j in range(n)) + 3,
                               sense=pe.maximize)
        mod.c = pe.ConstraintList()
        for cols, coef, act, k in rows:
            e = sum(coef[t] * mod.x[int(cols[t])] for t in range(8))
            if k == 0:
                mod.c.add(e == act)
            elif k == 1:
                mod.c.add(e <= act + 1)
            elif k == 2:
                mod.c.add(e >= act - 1)
            else:
                mod.c.add(pe.inequality(act - 2, e, act + 2))  # ranged
        return mod

    ref = build()
    cbc = pulp.PULP_CBC_CMD().path  # PuLP's bundled CBC, through Pyomo's CBC interface
    pe.SolverFactory("cbc", executable=cbc).solve(ref)
    ref_obj = pe.value(ref.obj)

    mod = build()
    mod.dual = pe.Suffix(direction=pe.Suffix.IMPORT)
    opt = pe.SolverFactory("shardlp", executable=binary)
    opt.options["tol"] = 1e-10
    res = opt.solve(mod, timelimit=300)
    assert res.solver.termination_condition == pe.TerminationCondition.optimal
    obj = pe.value(mod.obj)
    assert abs(obj - ref_obj) <= 1e-6 * abs(ref_obj), (obj, ref_obj)
    for con in mod.c.values():
        body = pe.value(con.body)
        lo, up = con.lower, con.upper
        if lo is not None:
            assert body >= pe.value(lo) - 1e-6 * (1 + abs(pe.value(lo)))
        if up is not None:
            assert body <= pe.value(up) + 1e-6 * (1 + abs(pe.value(up)))
    assert len(mod.dual) == m


def test_pyomo_timelimit_leaves_time_to_write(binary, tmp_path):
    """Pyomo's own kill comes 1 s after `timelimit`; shardlp's limit counts the solve only.
    A program that takes 2.5 s before it starts solving (standing in for reading a large
    model) with timelimit=1 must still deliver its solution: the plugin moves Pyomo's kill
    out by its grace period."""
    pe = pytest.importorskip("pyomo.environ")
    import shardlp.pyomo_plugin  # noqa: F401
    slow = tmp_path / "slow_shardlp"
    slow.write_text(f'#!/bin/sh\nsleep 2.5\nexec "{binary}" "$@"\n')
    slow.chmod(0o755)
    m = pe.ConcreteModel()
    m.x = pe.Var([0, 1], bounds=(0, 10))
    m.obj = pe.Objective(expr=3 * m.x[0] + 2 * m.x[1], sense=pe.maximize)
    m.total = pe.Constraint(expr=m.x[0] + m.x[1] <= 12)
    res = pe.SolverFactory("shardlp", executable=str(slow)).solve(m, timelimit=1)
    assert res.solver.termination_condition == pe.TerminationCondition.optimal
    assert abs(pe.value(m.obj) - 34) < 1e-5
