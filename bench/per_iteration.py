#!/usr/bin/env python3
"""Time per iteration and peak memory of shardlp, HiGHS's PDLP (cuPDLP-C) and OR-Tools'
PDLP on the same generated LPs, in one run (docs/memory.md, bench/README.md).

Every solver runs a fixed number of iterations (no tolerance can stop it) on the same
MPS file, 1 thread, each in its own child process:
    shardlp   solve FILE --iter-limit N --tol 1e-30 --threads 1 (the loop's
              solve_seconds / iterations from its JSON)
    HiGHS     solver=pdlp, pdlp_iteration_limit N, tolerances 1e-30 (run time / iterations)
    OR-Tools  primal_dual_hybrid_gradient with iteration_limit N, optimality 1e-30
              (solve time / iterations)
The peak memory is the child's maximum resident set (wait4's ru_maxrss): the whole
process, the Python interpreter and the solver's module included for HiGHS and
OR-Tools (the `python -c 'import ...'` baseline is printed beside them).

    python3 bench/per_iteration.py [--iters N] [--out DIR] [--quick]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARDLP = os.environ.get("SHARDLP", os.path.join(ROOT, "build", "shardlp"))

# name, `shardlp gen` arguments (or None: bench/gen.py's random pattern)
LPS = [
    ("mcf-400", "mcf --commodities 400 --factories 5 --warehouses 100 --stores 50"),
    ("random-4M", None),
    ("design-match-5M",
     "design-match --treated 4000 --controls 10000 --covariates 20 --neighbors 10"),
]

CHILD = r'''
import json, sys, time
solver, path, iters = sys.argv[1], sys.argv[2], int(sys.argv[3])
if solver == "highs":
    import highspy
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(path)
    h.setOptionValue("solver", "pdlp")
    h.setOptionValue("threads", 1)
    h.setOptionValue("pdlp_iteration_limit", iters)
    for k in ("primal_feasibility_tolerance", "dual_feasibility_tolerance",
              "pdlp_optimality_tolerance"):
        h.setOptionValue(k, 1e-30)
    t0 = time.perf_counter()
    h.run()
    sec = time.perf_counter() - t0
    done = h.getInfo().pdlp_iteration_count
elif solver == "ortools":
    from ortools.pdlp import solvers_pb2
    from ortools.pdlp.python import pdlp
    qp = pdlp.read_quadratic_program_or_die(path, False)
    p = solvers_pb2.PrimalDualHybridGradientParams()
    p.termination_criteria.iteration_limit = iters
    p.termination_criteria.simple_optimality_criteria.eps_optimal_absolute = 1e-30
    p.termination_criteria.simple_optimality_criteria.eps_optimal_relative = 1e-30
    p.num_threads = 1
    t0 = time.perf_counter()
    res = pdlp.primal_dual_hybrid_gradient(qp, p)
    sec = time.perf_counter() - t0
    done = res.solve_log.iteration_count
else:  # baseline: the interpreter with the modules imported
    import highspy  # noqa: F401
    from ortools.pdlp.python import pdlp  # noqa: F401
    sec, done = 0.0, 0
print(json.dumps({"seconds": sec, "iterations": done}))
'''


def run_child(cmd):
    """Run cmd; its stdout, wall seconds and peak RSS in bytes (Linux ru_maxrss is KiB)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    out = proc.stdout.read()
    err = proc.stderr.read()
    if os.WEXITSTATUS(status) != 0:
        raise RuntimeError(f"{cmd[0]} failed: {err[-400:]}")
    return out, time.perf_counter() - t0, usage.ru_maxrss * 1024


def make_mps(name, args, work):
    path = os.path.join(work, name + ".mps")
    if args is None:
        subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), "--rows", "200000",
                        "--cols", "500000", "--nnz-per-col", "8", "--seed", "1", "--out", path],
                       check=True, stdout=subprocess.DEVNULL)
    else:
        subprocess.run([SHARDLP, "gen"] + args.split() +
                       ["--grid", "1x1", "--out", os.path.join(work, name + ".shards"),
                        "--mps", path, "--quiet"], check=True, stdout=subprocess.DEVNULL)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iters", type=int, default=1000)
    ap.add_argument("--out", default=os.path.join(HERE, "results", "per_iteration"))
    ap.add_argument("--quick", action="store_true", help="the first LP only")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory() as work:
        out, _, base_rss = run_child([sys.executable, "-c", CHILD, "baseline", "-", "0"])
        for name, args in LPS[:1] if a.quick else LPS:
            path = make_mps(name, args, work)
            js = os.path.join(work, "run.json")
            _, _, rss = run_child([SHARDLP, "solve", path, "--iter-limit", str(a.iters), "--tol",
                                   "1e-30", "--threads", "1", "--quiet", "--json", js])
            d = json.load(open(js))
            rows.append(dict(lp=name, solver="shardlp", nnz=d["nonzeros"],
                             ms=1e3 * d["solve_seconds"] / d["iterations"],
                             iterations=d["iterations"], peak=rss))
            for solver in ("highs", "ortools"):
                out, _, rss = run_child([sys.executable, "-c", CHILD, solver, path,
                                         str(a.iters)])
                r = json.loads(out.strip().splitlines()[-1])
                rows.append(dict(lp=name, solver=solver, nnz=d["nonzeros"],
                                 ms=1e3 * r["seconds"] / max(r["iterations"], 1),
                                 iterations=r["iterations"], peak=rss))
            os.remove(path)
            print(f"{name}: done", file=sys.stderr)
    with open(os.path.join(a.out, "per_iteration.csv"), "w") as f:
        f.write("lp,solver,nnz,iterations,ms_per_iteration,peak_rss_bytes\n")
        for r in rows:
            f.write(f"{r['lp']},{r['solver']},{r['nnz']},{r['iterations']},{r['ms']:.3f},"
                    f"{r['peak']}\n")
    label = {"shardlp": "shardlp", "highs": "HiGHS PDLP", "ortools": "OR-Tools PDLP"}
    lines = [f"Fixed {a.iters} iterations, 1 thread; peak = the process's maximum RSS "
             f"(the Python solvers' interpreter and modules alone: {base_rss / 2**20:.0f} MiB).",
             "", "| LP | nonzeros | solver | iterations | ms per iteration | peak | bytes per nonzero |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['lp']} | {r['nnz']:,} | {label[r['solver']]} | {r['iterations']} | "
                     f"{r['ms']:.2f} | {r['peak'] / 2**20:.0f} MiB | {r['peak'] / r['nnz']:.0f} |")
    text = "\n".join(lines) + "\n"
    open(os.path.join(a.out, "per_iteration.md"), "w").write(text)
    print(text)


if __name__ == "__main__":
    main()
