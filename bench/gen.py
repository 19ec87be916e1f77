#!/usr/bin/env python3
"""Generate a random, feasible, bounded LP in free MPS (until `shardlp gen` exists).

    gen.py --rows M --cols N --nnz-per-col K --seed S --out FILE.mps

Structure: every column has K nonzeros in distinct random rows (one per window of m/K rows) (values N(0,1)), so
nnz = N*K. A feasible point x0 ~ U(0, 10) is drawn; rows alternate between equalities
(A x = A x0) and <= rows with a positive slack (A x <= A x0 + U(0.1, 1)). Columns are
boxed 0 <= x <= 10 (plus every 7th column free above: 0 <= x), so the LP is feasible and
bounded; the objective is c = A^T y0 + z with y0 ~ N(0,1) and a random reduced cost z, so
the dual is well behaved. Deterministic for a given seed.
"""
import argparse

import numpy as np


def generate(m, n, k, seed, out):
    rng = np.random.default_rng(seed)
    rows = np.empty(n * k, dtype=np.int64)
    for j in range(0, n, 65536):
        jj = min(n, j + 65536)
        # K distinct rows per column (sample with replacement, then fix duplicates by offset)
        # one row from each of K disjoint windows of width m // K: distinct rows
        wdt = max(1, m // k)
        r = rng.integers(0, m, size=(jj - j, 1)) + rng.integers(0, wdt, size=(jj - j, k))
        r = (r + np.arange(k)[None, :] * wdt) % m
        rows[j * k:jj * k] = r.ravel()
    cols = np.repeat(np.arange(n, dtype=np.int64), k)
    vals = rng.standard_normal(n * k)
    x0 = rng.uniform(0.0, 10.0, n)
    ax0 = np.bincount(rows, weights=vals * x0[cols], minlength=m)
    is_eq = (np.arange(m) % 2) == 0
    rhs = np.where(is_eq, ax0, ax0 + rng.uniform(0.1, 1.0, m))
    y0 = rng.standard_normal(m)
    aty0 = np.bincount(cols, weights=vals * y0[rows], minlength=n)
    c = aty0 + rng.uniform(-1.0, 1.0, n)
    upper_free = (np.arange(n) % 7) == 3
    c = np.where(upper_free, np.abs(c) + 0.1, c)  # keep the objective bounded below
    with open(out, "w") as f:
        w = f.write
        w("NAME GEN_%dx%d_k%d_s%d\nROWS\n N OBJ\n" % (m, n, k, seed))
        w("".join((" E R%d\n" if e else " L R%d\n") % i for i, e in enumerate(is_eq)))
        w("COLUMNS\n")
        order = np.argsort(cols, kind="stable")
        rr, cc, vv = rows[order], cols[order], vals[order]
        buf = []
        for j in range(n):
            buf.append("    C%d OBJ %.17g\n" % (j, c[j]))
            s = j * k
            for t in range(s, s + k):
                buf.append("    C%d R%d %.17g\n" % (j, rr[t], vv[t]))
            if len(buf) > 200000:
                w("".join(buf))
                buf = []
        w("".join(buf))
        w("RHS\n")
        w("".join("    RHS R%d %.17g\n" % (i, rhs[i]) for i in range(m)))
        w("BOUNDS\n")
        w("".join((" PL BND C%d\n" % j) if upper_free[j] else (" UP BND C%d 10\n" % j)
                  for j in range(n)))
        w("ENDATA\n")
    return dict(rows=m, cols=n, nnz=n * k)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, required=True)
    ap.add_argument("--cols", type=int, required=True)
    ap.add_argument("--nnz-per-col", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    print(generate(a.rows, a.cols, a.nnz_per_col, a.seed, a.out))


if __name__ == "__main__":
    main()
