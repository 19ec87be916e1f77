"""Random small LPs with decimal coefficients and planted structure, for the differential
tests against HiGHS (docs/reliability.md, "Differential testing").

Decimal values (0.1, 0.3, 0.7, ...) are not exact in binary, so reductions that cancel
them (c_k - 3 * 0.1 ...) meet rounding; the planted structure makes every presolve pass
fire: parallel and scaled columns and rows, doubleton equations, singleton rows and
columns, dominated and free columns, empty and fixed lines, ranged rows, both senses.

    rng = random.Random(seed); text = random_lp(rng)   # an MPS file's text
"""
import random

DECIMALS = (0.1, 0.2, 0.3, 0.7, 1.1, 1.5, 2.5, 3.0, 1.0, 0.05, 0.15, 4.2)
SCALES = (3.0, 0.1, -0.7, 0.3, -1.0, 2.5, 10.0)


def decimal(rng, positive=False):
    v = rng.choice(DECIMALS)
    return v if positive or rng.random() < 0.6 else -v


def bound_value(rng):
    return round(rng.choice((-1, 1)) * rng.randint(0, 40) * 0.1, 10) + 0.0  # no -0.0


class Lp:
    """A dense small LP: min/max c^T x, lc <= A x <= uc, lv <= x <= uv."""

    def __init__(self, m, n, sense):
        self.m, self.n, self.sense = m, n, sense
        self.a = [[0.0] * n for _ in range(m)]
        self.c = [0.0] * n
        self.lc = [0.0] * m
        self.uc = [0.0] * m
        self.lv = [0.0] * n
        self.uv = [float("inf")] * n
        self.equalities = set()  # rows that must stay equations (doubletons)
        self.preset = set()      # rows whose bounds are set already (empty rows)

    def add_row(self):
        self.a.append([0.0] * self.n)
        self.lc.append(0.0)
        self.uc.append(0.0)
        self.m += 1
        return self.m - 1

    def add_col(self):
        for row in self.a:
            row.append(0.0)
        self.c.append(0.0)
        self.lv.append(0.0)
        self.uv.append(float("inf"))
        self.n += 1
        return self.n - 1


def inner_point(rng, lp):
    """A point inside the column bounds (the row bounds are set around its activity)."""
    point = []
    for j in range(lp.n):
        lo = lp.lv[j] if lp.lv[j] > -1e30 else -2.0
        hi = lp.uv[j] if lp.uv[j] < 1e30 else lo + 3.0
        point.append(lo + (hi - lo) * rng.choice((0.0, 0.5, 1.0, 0.3)))
    return point


def row_bounds(rng, lp, i, point):
    """Bounds of row i around the point's activity, so that most LPs are feasible;
    sometimes shifted clearly out (infeasible) or opened. An equality row stays one.
    No shift is of the size of a solver's feasibility tolerance (1e-7): there
    "infeasible" and "optimal within tolerance" are both right."""
    act = round(sum(lp.a[i][j] * point[j] for j in range(lp.n)), 6)
    kind = "E" if i in lp.equalities else rng.choice("LGEERN")
    b = act + (0.0 if rng.random() < 0.9 else rng.choice((-5.0, 5.0, 1e-3)))
    if kind == "L":
        lp.lc[i], lp.uc[i] = float("-inf"), b + rng.choice((0.0, 0.1, 1.0))
    elif kind == "G":
        lp.lc[i], lp.uc[i] = b - rng.choice((0.0, 0.1, 1.0)), float("inf")
    elif kind == "E":
        lp.lc[i] = lp.uc[i] = b
    elif kind == "R":
        lp.lc[i], lp.uc[i] = b - rng.choice((0.0, 0.3, 2.0)), b + rng.choice((0.0, 0.7))
    else:  # free row
        lp.lc[i], lp.uc[i] = float("-inf"), float("inf")


def column_bounds(rng, lp, j):
    kind = rng.choice(("default", "box", "free", "mi", "fx", "lo", "up", "box"))
    lo, hi = sorted((bound_value(rng), bound_value(rng)))
    if kind == "box":
        lp.lv[j], lp.uv[j] = lo, hi
    elif kind == "free":
        lp.lv[j], lp.uv[j] = float("-inf"), float("inf")
    elif kind == "mi":
        lp.lv[j], lp.uv[j] = float("-inf"), hi
    elif kind == "fx":
        lp.lv[j] = lp.uv[j] = lo
    elif kind == "lo":
        lp.lv[j] = lo
    elif kind == "up":
        lp.uv[j] = max(hi, 0.0)


def plant(rng, lp):
    """One structure a presolve pass acts on."""
    what = rng.choice(("parallel_col", "scaled_row", "doubleton", "singleton_row",
                       "singleton_col", "dominated", "empty_row", "empty_col", "fixed",
                       "free_singleton", "cancel"))
    if what == "parallel_col" and lp.n:
        j, k = rng.randrange(lp.n), lp.add_col()
        lam = rng.choice(SCALES)
        for i in range(lp.m):
            lp.a[i][k] = lam * lp.a[i][j]
        lp.c[k] = lam * lp.c[j] if rng.random() < 0.5 else decimal(rng)
        column_bounds(rng, lp, k)
    elif what == "scaled_row" and lp.m:
        i, l = rng.randrange(lp.m), lp.add_row()
        lam = rng.choice(SCALES)
        lp.a[l] = [lam * v for v in lp.a[i]]
    elif what == "doubleton" and lp.n >= 2:
        i = lp.add_row()
        j, k = rng.sample(range(lp.n), 2)
        lp.a[i][j], lp.a[i][k] = decimal(rng), decimal(rng)
        lp.equalities.add(i)
    elif what == "singleton_row" and lp.n:
        i = lp.add_row()
        lp.a[i][rng.randrange(lp.n)] = decimal(rng)
    elif what in ("singleton_col", "free_singleton") and lp.m:
        k = lp.add_col()
        lp.a[rng.randrange(lp.m)][k] = decimal(rng)
        lp.c[k] = 0.0 if rng.random() < 0.4 else decimal(rng)
        if what == "free_singleton":
            lp.lv[k], lp.uv[k] = float("-inf"), float("inf")
        else:
            column_bounds(rng, lp, k)
    elif what == "dominated" and lp.m:
        k = lp.add_col()
        sign = rng.choice((-1.0, 1.0))
        for i in range(lp.m):
            if rng.random() < 0.5:
                lp.a[i][k] = sign * rng.choice(DECIMALS)
        lp.c[k] = sign * rng.choice(DECIMALS)
        column_bounds(rng, lp, k)
    elif what == "empty_row":
        i = lp.add_row()
        lp.lc[i], lp.uc[i] = rng.choice(((-1.0, 1.0), (float("-inf"), 0.3), (0.1, 0.2), (0.0, 0.0)))
        lp.preset.add(i)
    elif what == "empty_col":
        k = lp.add_col()
        lp.c[k] = rng.choice((0.0, 0.3, -0.3))
        column_bounds(rng, lp, k)
    elif what == "fixed" and lp.n:
        j = rng.randrange(lp.n)
        lp.lv[j] = lp.uv[j] = bound_value(rng)
    elif what == "cancel" and lp.n >= 2 and lp.m:
        # the pattern: a free column whose substitution cancels another's cost
        i, j, k = lp.add_row(), rng.randrange(lp.n), lp.add_col()
        t = rng.choice((3.0, 7.0, 0.3))
        lp.a[i] = [0.0] * lp.n
        lp.a[i][j], lp.a[i][k] = t, 1.0
        lp.c[k] = rng.choice((0.1, 0.7, 0.3))
        lp.c[j] = t * lp.c[k]
        lp.lv[k], lp.uv[k] = float("-inf"), float("inf")
        lp.equalities.add(i)


def random_lp(rng, name="RND"):
    """The MPS text of one random LP."""
    m, n = rng.randint(1, 5), rng.randint(1, 5)
    lp = Lp(m, n, rng.choice((1, -1)))
    for j in range(n):
        lp.c[j] = decimal(rng) if rng.random() < 0.8 else 0.0
        column_bounds(rng, lp, j)
        for i in range(m):
            if rng.random() < 0.6:
                lp.a[i][j] = decimal(rng)
    for _ in range(rng.randint(1, 4)):
        plant(rng, lp)
    point = inner_point(rng, lp)
    for i in range(lp.m):
        if i not in lp.preset:
            row_bounds(rng, lp, i, point)
    return to_mps(lp, name)


def num(v):
    return repr(float(v))


def to_mps(lp, name):
    lines = ["NAME " + name, "OBJSENSE", "    " + ("MAX" if lp.sense < 0 else "MIN"), "ROWS", " N obj"]
    kinds, rhs, ranges = [], [], []
    for i in range(lp.m):
        lo, hi = lp.lc[i], lp.uc[i]
        if lo == float("-inf") and hi == float("inf"):
            kinds.append("N")
        elif lo == hi:
            kinds.append("E")
            rhs.append((i, lo))
        elif lo == float("-inf"):
            kinds.append("L")
            rhs.append((i, hi))
        elif hi == float("inf"):
            kinds.append("G")
            rhs.append((i, lo))
        else:
            kinds.append("G")
            rhs.append((i, lo))
            ranges.append((i, hi - lo))
    lines += [" %s r%d" % (k, i) for i, k in enumerate(kinds)]
    lines.append("COLUMNS")
    for j in range(lp.n):
        lines.append("    x%d obj %s" % (j, num(lp.c[j])))
        for i in range(lp.m):
            if lp.a[i][j] != 0.0:
                lines.append("    x%d r%d %s" % (j, i, num(lp.a[i][j])))
    lines.append("RHS")
    lines += ["    rhs r%d %s" % (i, num(v)) for i, v in rhs]
    if ranges:
        lines.append("RANGES")
        lines += ["    rng r%d %s" % (i, num(v)) for i, v in ranges]
    lines.append("BOUNDS")
    for j in range(lp.n):
        lo, hi = lp.lv[j], lp.uv[j]
        if lo == float("-inf") and hi == float("inf"):
            lines.append(" FR bnd x%d" % j)
        elif lo == hi:
            lines.append(" FX bnd x%d %s" % (j, num(lo)))
        else:
            if lo == float("-inf"):
                lines.append(" MI bnd x%d" % j)
            elif lo != 0.0:
                lines.append(" LO bnd x%d %s" % (j, num(lo)))
            if hi != float("inf"):
                lines.append(" UP bnd x%d %s" % (j, num(hi)))
    lines.append("ENDATA")
    return "\n".join(lines) + "\n"


def write_batch(directory, count, seed):
    """count LPs as directory/rnd<k>.mps from one seed; returns their paths."""
    import os
    rng = random.Random(seed)
    paths = []
    for k in range(count):
        path = os.path.join(directory, "rnd%05d.mps" % k)
        with open(path, "w") as f:
            f.write(random_lp(rng, "RND%d" % k))
        paths.append(path)
    return paths
