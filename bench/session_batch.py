"""A batch of LPs sharing A: one shardlp.Solver session against one-shot solves
(docs/session.md, "Measured"). A generated family member (`shardlp gen ... --mps`) is
read with highspy; K LPs are made from it with costs moved by a relative --cost-change and
variable upper bounds set above the base optimum (so every LP stays feasible); each LP
is solved (1) in one session, warm from the previous LP, (2) in one session, cold, and
(3) one-shot: a new shardlp.Model and Model.solve, as a user without sessions would.
Every result is checked against HiGHS's optimum of the same LP. Prints one CSV row per
mode and the ratios.

    python3 bench/session_batch.py --binary build/shardlp --lps 50 \\
        --gen "transport --sources 200 --sinks 600 --neighbors 5" --tol 1e-6 --threads 1
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy.sparse as sp

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "python"))


def highs_arrays(path):
    import highspy
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(path)
    lp = h.getLp()
    a = lp.a_matrix_
    n, m = lp.num_col_, lp.num_row_
    A = sp.csc_matrix((np.array(a.value_), np.array(a.index_), np.array(a.start_)), shape=(m, n))
    inf = highspy.kHighsInf

    def arr(v):
        x = np.array(v, dtype=float)
        x[x >= inf] = np.inf
        x[x <= -inf] = -np.inf
        return x

    sense = -1 if lp.sense_ == highspy.ObjSense.kMaximize else 1
    return (arr(lp.col_cost_), A, arr(lp.row_lower_), arr(lp.row_upper_), arr(lp.col_lower_),
            arr(lp.col_upper_), float(lp.offset_), sense)


def highs_optimum(c, A, lc, uc, lv, uv, c0, sense):
    import highspy
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    inf = highspy.kHighsInf
    fin = lambda v: np.clip(v, -inf, inf)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = A.shape[1], A.shape[0]
    lp.col_cost_, lp.col_lower_, lp.col_upper_ = c, fin(lv), fin(uv)
    lp.row_lower_, lp.row_upper_ = fin(lc), fin(uc)
    lp.offset_ = c0
    lp.sense_ = highspy.ObjSense.kMaximize if sense < 0 else highspy.ObjSense.kMinimize
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = A.indptr, A.indices, A.data
    h.passModel(lp)
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal, h.getModelStatus()
    return h.getInfo().objective_function_value


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(REPO, "build", "shardlp"))
    ap.add_argument("--gen", default="transport --sources 200 --sinks 600 --neighbors 5")
    ap.add_argument("--lps", type=int, default=50)
    ap.add_argument("--cost-change", type=float, default=0.01)
    ap.add_argument("--tol", type=float, default=1e-6)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    os.environ.setdefault("SHARDLP_LIB", os.path.join(os.path.dirname(a.binary), "libshardlp.so"))
    import shardlp

    with tempfile.TemporaryDirectory() as tmp:
        mps = os.path.join(tmp, "member.mps")
        subprocess.run([a.binary, "gen", *a.gen.split(), "--grid", "1x1", "--out",
                        os.path.join(tmp, "shards"), "--mps", mps, "--quiet"], check=True)
        c, A, lc, uc, lv, uv, c0, sense = highs_arrays(mps)
    opts = dict(tol=a.tol, threads=a.threads)
    base = shardlp.Model(c, A, lc, uc, lv, uv, c0=c0, sense="max" if sense < 0 else "min")
    x_star = base.solve(**opts).x
    rng = np.random.default_rng(a.seed)
    lps = []
    for _ in range(a.lps):
        c2 = c * (1.0 + a.cost_change * rng.uniform(-1.0, 1.0, c.size))
        uv2 = np.minimum(uv, np.maximum(x_star, 0.0) * rng.uniform(1.1, 2.0, c.size) + 1.0)
        lps.append({"c": c2, "uv": uv2})
    refs = [highs_optimum(lp["c"], A, lc, uc, lv, lp["uv"], c0, sense) for lp in lps]

    def checked(results):
        bad = [k for k, (r, ref) in enumerate(zip(results, refs))
               if not (r.optimal and abs(r.objective - ref) <= 1e-4 * max(1.0, abs(ref)))]
        return len(results) - len(bad)

    rows = []
    for mode in ("session-warm", "session-cold", "one-shot"):
        t0 = time.perf_counter()
        if mode.startswith("session"):
            with shardlp.Solver(base, **opts) as s:
                results = s.solve_batch(lps, warm=mode == "session-warm")
        else:
            results = []
            for lp in lps:
                model = shardlp.Model(lp["c"], A, lc, uc, lv, lp["uv"], c0=c0,
                                      sense="max" if sense < 0 else "min")
                results.append(model.solve(**opts))
        seconds = time.perf_counter() - t0
        its = sum(r.iterations for r in results)
        rows.append((mode, seconds, its, checked(results)))
    print(f"# {a.gen}: m={A.shape[0]} n={A.shape[1]} nnz={A.nnz}, {a.lps} LPs, costs "
          f"+-{a.cost_change:g}, tol {a.tol:g}, {a.threads} thread(s)")
    print("mode,seconds,iterations,optimal_matching_highs")
    for mode, seconds, its, ok in rows:
        print(f"{mode},{seconds:.2f},{its},{ok}/{a.lps}")
    one = rows[2][1]
    print(f"# one-shot / session-warm time: {one / rows[0][1]:.2f}; one-shot / session-cold: "
          f"{one / rows[1][1]:.2f}; iterations warm / cold: {rows[0][2] / rows[1][2]:.2f}")


if __name__ == "__main__":
    main()
