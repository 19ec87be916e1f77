"""Crossover on corpus LPs (docs/session.md, "Vertex solutions"): for each LP of
../shared/lp/INDEX.tsv with status optimal and at most --max-nnz nonzeros, shardlp solves
(Model.solve, --tol, --limit seconds, 1 thread), HiGHS's crossover starts from that
solution, and the vertex is checked: HiGHS's optimal status, m basic variables, and
`shardlp check --tol 1e-6` of its solution file against the model as written for HiGHS. HiGHS from scratch (its default LP
solver, its default threads) is timed beside it. One CSV row per LP.

    python3 bench/crossover_corpus.py --binary build/shardlp --max-nnz 20000 \\
        --csv bench/results/crossover/corpus.csv
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "python"))
sys.path.insert(0, os.path.join(REPO, "scripts"))


def highs_from_scratch(model, tmp):
    """HiGHS's default LP solver on the model as shardlp read it (written as MPS: HiGHS
    reads no compressed files here)."""
    import highspy
    from shardlp._lib import check, lib
    path = os.path.join(tmp, "model.mps")
    check(lib().shardlp_problem_write(model._h, path.encode()), "write")
    h = highspy.Highs()
    # threads: HiGHS's default; its scheduler starts once per process, and the crossover
    # before this started it (a later threads=1 makes run() fail)
    h.setOptionValue("output_flag", False)
    if h.readModel(path) != highspy.HighsStatus.kOk:
        return float("nan"), "unreadable"
    from shardlp.crossover import relax
    relax(h, highspy)  # the LP relaxation, as shardlp solves it
    t0 = time.perf_counter()
    h.run()
    return time.perf_counter() - t0, h.modelStatusToString(h.getModelStatus())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(REPO, "build", "shardlp"))
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(REPO), "shared"))
    ap.add_argument("--max-nnz", type=int, default=20000)
    ap.add_argument("--tol", type=float, default=1e-6)
    ap.add_argument("--limit", type=float, default=30.0)
    ap.add_argument("--csv", required=True)
    a = ap.parse_args()
    os.environ.setdefault("SHARDLP_LIB", os.path.join(os.path.dirname(a.binary), "libshardlp.so"))
    import shardlp
    from corpus import load_index
    from shardlp._lib import check, lib
    rows = [r for r in load_index(a.shared)
            if r["status"] == "optimal" and int(r["nonzeros"]) <= a.max_nnz]
    os.makedirs(os.path.dirname(os.path.abspath(a.csv)), exist_ok=True)
    fields = ["name", "nonzeros", "shardlp_status", "shardlp_seconds", "vertex_status",
              "basic", "rows", "check", "cleanup_iterations", "crossover_seconds", "highs_seconds", "highs_status"]
    with open(a.csv, "w", newline="") as f, tempfile.TemporaryDirectory() as tmp:
        out = csv.DictWriter(f, fieldnames=fields)
        out.writeheader()
        for r in rows:
            path = os.path.join(a.shared, "lp", r["file"])
            row = {"name": r["name"], "nonzeros": r["nonzeros"]}
            try:
                model = shardlp.read(path)
                t0 = time.perf_counter()
                res = model.solve(tol=a.tol, time_limit=a.limit, threads=1, relax=True)
                row.update(shardlp_status=res.status, rows=model.m,
                           shardlp_seconds=f"{time.perf_counter() - t0:.3f}")
                if res.optimal:
                    v = shardlp.crossover(model, res)
                    sol = os.path.join(tmp, "v.sol")
                    v.write_solution(sol)
                    # checked against the model as handed to HiGHS (the same LP, written
                    # exactly; a model with blank names gets generated ones there)
                    written = os.path.join(tmp, "model.mps")
                    check(lib().shardlp_problem_write(model._h, written.encode()), "write")
                    chk = subprocess.run([a.binary, "check", written, sol, "--tol", "1e-6"],
                                         capture_output=True, text=True)
                    row.update(vertex_status=v.status, basic=v.basic,
                               check="passed" if chk.returncode == 0 else "failed",
                               cleanup_iterations=v.cleanup_iterations,
                               crossover_seconds=f"{v.seconds:.3f}")
            except Exception as e:  # noqa: BLE001 - one row says what failed
                row["vertex_status"] = f"error: {e}"[:120]
            if "rows" in row:
                hs, hst = highs_from_scratch(model, tmp)
                row.update(highs_seconds=f"{hs:.3f}", highs_status=hst)
            out.writerow(row)
            f.flush()
            print(row, flush=True)


if __name__ == "__main__":
    main()
