#!/usr/bin/env python3
"""Iterations to a tolerance on the corpus: shardlp against HiGHS's two first-order
solvers (cuPDLP-C, `solver=pdlp`, and its own Halpern PDLP, `solver=hipdlp`), in one run.

Every feasible corpus LP of at most --max-nnz nonzeros (scripts/corpus.py's selection) is
solved by each solver in its own process (bench/solvers.py run_isolated), 1 thread, the
matched relative L2 criterion at --tol (bench/README.md, "Matched criterion"), --limit
seconds each, --jobs solves at a time. A solve counts as solved when the solver says
optimal and its objective is within 1e-3 (tol >= 1e-4; else 1e-6) of the reference
(scripts/corpus.py reference_objective). Writes one CSV row per (LP, solver) and prints,
and with --markdown writes, the table of docs/corpus.md "Against HiGHS's PDLPs": solved
counts, and the shifted geometric mean of iterations (shift 10) on the LPs every solver
solves. With --solvers and --previous, the solvers not named are not run again: their rows
come from an earlier CSV of the same corpus and tolerance (after a change to shardlp, only
shardlp reruns; the iteration counts of the others do not depend on the run).

    build/pyenv/bin/python bench/corpus_pdlp.py --tol 1e-4 --limit 60 --jobs 2 \\
        --csv bench/results/method/pdlp-1e-4.csv --markdown bench/results/method/pdlp-1e-4.md
"""
import argparse
import concurrent.futures
import csv
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "scripts"))
import corpus  # noqa: E402
import solvers  # noqa: E402

SOLVERS = ("shardlp", "highs-pdlp", "highs-hipdlp")
FIELDS = ["name", "nonzeros", "solver", "status", "iterations", "seconds", "objective",
          "reference", "obj_rel_error", "solved"]


def run(row, solver, shared, tol, limit):
    path = os.path.join(shared, "lp", row["file"])
    r = solvers.run_isolated(solver, path, tol, limit, 1)
    ref, _ = corpus.reference_objective(row)
    err = corpus.rel_error(r.get("objective"), ref)
    threshold = 1e-3 if tol >= 1e-4 else 1e-6
    return dict(name=row["name"], nonzeros=int(row["nonzeros"]), solver=solver,
                status=r["status"], iterations=r.get("iterations", 0), seconds=r["seconds"],
                objective=r.get("objective"), reference=ref, obj_rel_error=err,
                solved=r["status"] == "optimal" and err <= threshold)


def previous_rows(path, rows, run_now):
    """The rows of an earlier CSV for the LPs in `rows` and the solvers not in `run_now`."""
    names = {r["name"] for r in rows}
    kept = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["name"] in names and r["solver"] not in run_now:
                r["nonzeros"] = int(r["nonzeros"])
                r["iterations"] = int(r["iterations"] or 0)
                r["seconds"] = float(r["seconds"])
                r["solved"] = r["solved"] == "True"
                kept.append(r)
    missing = len(names) * (len(SOLVERS) - len(run_now)) - len(kept)
    if missing:
        sys.exit(f"{path}: {missing} (LP, solver) rows missing for the solvers not run")
    return kept


def sgm(values, shift=10.0):
    return math.exp(sum(math.log(v + shift) for v in values) / len(values)) - shift


def table(results, tol, limit):
    names = sorted({r["name"] for r in results})
    by = {(r["name"], r["solver"]): r for r in results}
    common = [n for n in names if all(by[(n, s)]["solved"] for s in SOLVERS)]
    lines = [f"Corpus LPs: {len(names)}; tolerance {tol:g}, {limit:g} s each, 1 thread; "
             f"solved by all three: {len(common)}.", "",
             "| solver | solved (objective within the threshold) | SGM iterations, "
             "LPs all solve (shift 10) | SGM seconds, LPs all solve (shift 1) |",
             "|---|---|---|---|"]
    for s in SOLVERS:
        solved = sum(by[(n, s)]["solved"] for n in names)
        it = sgm([by[(n, s)]["iterations"] for n in common]) if common else float("nan")
        sec = sgm([by[(n, s)]["seconds"] for n in common], 1.0) if common else float("nan")
        lines.append(f"| {s} | {solved}/{len(names)} | {it:,.0f} | {sec:.3f} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(HERE), "..", "shared"))
    ap.add_argument("--tol", type=float, default=1e-4)
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--max-nnz", type=int, default=100000)
    ap.add_argument("--only", help="comma-separated instance names")
    ap.add_argument("--solvers", default=",".join(SOLVERS),
                    help="comma-separated solvers to run (default: all three)")
    ap.add_argument("--previous", help="CSV of an earlier run: the rows of the solvers not "
                    "run come from it")
    ap.add_argument("--csv")
    ap.add_argument("--markdown")
    a = ap.parse_args()
    run_now = a.solvers.split(",")
    unknown = [s for s in run_now if s not in SOLVERS]
    if unknown or (len(run_now) < len(SOLVERS) and not a.previous):
        ap.error(f"--solvers: choose from {','.join(SOLVERS)}; fewer than all needs --previous")
    rows = [r for r in corpus.load_index(a.shared)
            if int(r["nonzeros"]) <= a.max_nnz and r["status"] == "optimal"]
    if a.only:
        wanted = set(a.only.split(","))
        rows = [r for r in rows if r["name"] in wanted]
    results = previous_rows(a.previous, rows, run_now) if a.previous else []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        jobs = [pool.submit(run, r, s, a.shared, a.tol, a.limit) for r in rows for s in run_now]
        results += [j.result() for j in jobs]
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=FIELDS)
            w.writeheader()
            w.writerows(results)
    text = table(results, a.tol, a.limit)
    print(text, end="")
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(f"`{' '.join(sys.argv)}`\n\n{text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
