"""A small economic-dispatch LP (docs/modelling-tools.md, "One tolerance"): three buses
on a line, two generators per bus with distinct costs, 24 hours of demand, line limits,
and a ramp limit on one generator. The row duals of the bus balances are the nodal
prices. The data are chosen so that HiGHS's optimal basis is nondegenerate (every basic
variable strictly inside its bounds), which makes the dual solution unique:
`reference()` checks that before the routes' duals are compared with HiGHS's."""
import math

import numpy as np

BUSES = 3
HOURS = 24
# (bus, cost EUR/MWh, capacity MW)
GENERATORS = [(0, 10.0, 150.0), (0, 25.0, 200.0), (1, 30.0, 120.0), (1, 45.0, 150.0),
              (2, 50.0, 100.0), (2, 70.0, 200.0)]
LINES = [(0, 1, 180.0), (1, 2, 90.0)]          # (from, to, capacity MW), flow may go both ways
RAMPED, RAMP = 1, 41.0                         # generator 1 moves at most 41 MW per hour
BASE = [61.0, 143.0, 117.0]                    # MW per bus at the mean hour


def demand(bus, hour):
    return BASE[bus] * (1.0 + 0.37 * math.sin(2 * math.pi * (hour + 1.3 * bus) / HOURS))


def arrays():
    """The LP as arrays: min c'x, lc <= A x <= uc, lv <= x <= uv. Columns: g[k,t]
    (generator k, hour t), then f[l,t] (line l). Rows: balance[b,t], then ramp[t]
    (t >= 1). Returns (c, A dense, lc, uc, lv, uv, balance row indices [b][t])."""
    G, L = len(GENERATORS), len(LINES)
    n = (G + L) * HOURS
    gcol = lambda k, t: k * HOURS + t
    fcol = lambda l, t: (G + l) * HOURS + t
    rows, lc, uc, balance = [], [], [], [[0] * HOURS for _ in range(BUSES)]
    for b in range(BUSES):
        for t in range(HOURS):
            r = np.zeros(n)
            for k, (bus, _, _) in enumerate(GENERATORS):
                if bus == b:
                    r[gcol(k, t)] = 1.0
            for l, (fr, to, _) in enumerate(LINES):
                if fr == b:
                    r[fcol(l, t)] -= 1.0
                if to == b:
                    r[fcol(l, t)] += 1.0
            balance[b][t] = len(rows)
            rows.append(r); lc.append(demand(b, t)); uc.append(demand(b, t))
    for t in range(1, HOURS):
        r = np.zeros(n)
        r[gcol(RAMPED, t)], r[gcol(RAMPED, t - 1)] = 1.0, -1.0
        rows.append(r); lc.append(-RAMP); uc.append(RAMP)
    c = np.zeros(n); lv = np.zeros(n); uv = np.zeros(n)
    for k, (_, cost, cap) in enumerate(GENERATORS):
        for t in range(HOURS):
            c[gcol(k, t)], uv[gcol(k, t)] = cost, cap
    for l, (_, _, cap) in enumerate(LINES):
        for t in range(HOURS):
            lv[fcol(l, t)], uv[fcol(l, t)] = -cap, cap
    return c, np.array(rows), np.array(lc), np.array(uc), lv, uv, balance


def reference():
    """HiGHS's simplex optimum: (objective, x, row duals in HiGHS's convention), after
    checking that the optimal basis is nondegenerate (so the duals are unique)."""
    import highspy
    c, A, lc, uc, lv, uv, _ = arrays()
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("solver", "simplex")
    lp = highspy.HighsLp()
    m, n = A.shape
    lp.num_col_, lp.num_row_ = n, m
    lp.col_cost_, lp.col_lower_, lp.col_upper_ = c, lv, uv
    lp.row_lower_, lp.row_upper_ = lc, uc
    csc = [(i, j, A[i, j]) for j in range(n) for i in range(m) if A[i, j] != 0]
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.searchsorted([j for _, j, _ in csc], np.arange(n + 1)).tolist()
    lp.a_matrix_.index_ = [i for i, _, _ in csc]
    lp.a_matrix_.value_ = [v for _, _, v in csc]
    h.passModel(lp)
    h.run()
    assert h.modelStatusToString(h.getModelStatus()) == "Optimal"
    sol, basis = h.getSolution(), h.getBasis()
    x, act = np.array(sol.col_value), np.array(sol.row_value)
    basic = highspy.HighsBasisStatus.kBasic
    margin = 1e-6
    for j, st in enumerate(basis.col_status):
        if st == basic:
            assert lv[j] + margin < x[j] < uv[j] - margin, f"degenerate basic column {j}"
    for i, st in enumerate(basis.row_status):
        if st == basic:
            assert lc[i] + margin < act[i] < uc[i] - margin, f"degenerate basic row {i}"
    return h.getInfo().objective_function_value, x, np.array(sol.row_dual)
