#!/usr/bin/env python3
"""Run shardlp over the shared LP corpus and write a results table.

For every instance of ../shared/lp/INDEX.tsv selected by the filters (default:
feasible, at most 100,000 nonzeros), solve at each requested tolerance with a
time limit, and compare the objective with the reference value (Clp 1.17.6's
where INDEX.tsv has one, else the published optimum).

  python3 scripts/corpus.py --binary build/shardlp --tol 1e-4:60 --tol 1e-8:120 \
      --jobs 2 --markdown docs/corpus.md --csv docs/corpus.csv
"""
import argparse
import concurrent.futures as cf
import csv
import hashlib
import json
import math
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def load_index(shared):
    rows = []
    with open(os.path.join(shared, "lp", "INDEX.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            rows.append(dict(zip(header, line.rstrip("\n").split("\t"))))
    return rows


def corpus_half(shared, half):
    """The names of the development or the validation half (docs/method-experiments.md,
    "The split"): within each folder of lp/ (netlib, kennington, ...), every LP of
    INDEX.tsv (whatever its status or size), ordered by the SHA-256 of its name, goes
    alternately to dev (even places) and val (odd), so both halves keep every group."""
    groups = {}
    for r in load_index(shared):
        groups.setdefault(os.path.dirname(r["file"]), []).append(r)
    keep = set()
    for members in groups.values():
        members.sort(key=lambda r: hashlib.sha256(r["name"].encode()).hexdigest())
        keep.update(r["name"] for k, r in enumerate(members) if (k % 2 == 0) == (half == "dev"))
    return keep


def shifted_geomean(values, shift=10.0):
    return math.exp(sum(math.log(v + shift) for v in values) / len(values)) - shift


def compare(paths, names=None):
    """Iterations of two or more results CSVs on the LPs every one of them solves (of
    names only, when given)."""
    runs = []
    for path in paths:
        with open(path) as f:
            runs.append({(r["name"], r["tol"]): r for r in csv.DictReader(f)
                         if names is None or r["name"] in names})
    common = [k for k in runs[0] if all(k in run and run[k]["pass"] == "True" for run in runs)]
    for path, run in zip(paths, runs):
        solved = sum(r["pass"] == "True" for r in run.values())
        its = [float(run[k]["iterations"]) for k in common]
        print(f"{path}: {solved}/{len(run)} within the reference; shifted geometric mean "
              f"of iterations (shift 10) on the {len(common)} all solve: {shifted_geomean(its):,.0f}")
    return 0


def reference_objective(row):
    clp = row.get("clp_1.17.6_check", "")
    parts = clp.split()
    if len(parts) == 2 and parts[0] == "optimal":
        return float(parts[1]), "clp"
    try:
        return float(row["optimal_objective"]), "published"
    except ValueError:
        return None, "none"


def rel_error(value, ref):
    if value is None or ref is None or not math.isfinite(value):
        return math.inf
    return abs(value - ref) / max(1.0, abs(ref))


def run_check(binary, path, sol, tol):
    """Independent check of an optimal solution: (passed, max criterion, worst
    coordinatewise violation of a row or a bound)."""
    js = sol + ".check.json"
    proc = subprocess.run([binary, "check", path, sol, "--tol", str(tol), "--json", js, "--quiet"],
                          capture_output=True, text=True, timeout=600)
    worst = violation = None
    if os.path.exists(js):
        with open(js) as f:
            d = json.load(f)
        worst = d.get("max")
        crit = d.get("criteria", {})
        violation = max(crit.get("primal_row_max", 0.0), crit.get("primal_bound_max", 0.0))
    return proc.returncode == 0, worst, violation


def run_one(binary, shared, row, tol, limit, extra, check_tol):
    path = os.path.join(shared, "lp", row["file"])
    with tempfile.TemporaryDirectory() as tmp:
        js = os.path.join(tmp, "run.json")
        sol = os.path.join(tmp, "run.sol")
        # --relax: the MIPLIB members of the corpus are solved as their LP relaxations
        # (shardlp refuses integer columns otherwise); it changes nothing for an LP.
        cmd = [binary, "solve", path, "--tol", str(tol), "--time-limit", str(limit), "--relax",
               "--json", js, "--quiet"] + (["--sol", sol] if check_tol and tol <= check_tol else []) + extra
        start = time.time()
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=limit * 3 + 60)
            code = proc.returncode
            err = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
        except subprocess.TimeoutExpired:
            code, err = -1, "killed after timeout"
        wall = time.time() - start
        result = {"name": row["name"], "tol": tol, "wall": wall, "exit": code, "error": err}
        if code == 0 and os.path.exists(js):
            with open(js) as f:
                result.update(json.load(f))
            result["matrix_bytes_per_nonzero"] = result.get("matrix", {}).get("bytes_per_nonzero")
        if check_tol and tol <= check_tol and result.get("status") == "optimal":
            (result["check_pass"], result["check_max"],
             result["check_violation"]) = run_check(binary, path, sol, check_tol)
        return result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "shardlp"))
    ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    ap.add_argument("--tol", action="append", help="TOL:SECONDS (repeatable)")
    ap.add_argument("--max-nnz", type=int, default=100000)
    ap.add_argument("--include-infeasible", action="store_true")
    ap.add_argument("--only", help="comma-separated instance names")
    ap.add_argument("--half", choices=["dev", "val"],
                    help="only the development or the validation half of the corpus")
    ap.add_argument("--compare", nargs="+", metavar="CSV",
                    help="compare results CSVs (solved, iterations on the LPs all solve); no run")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--csv")
    ap.add_argument("--markdown")
    ap.add_argument("--extra", default="", help="extra solver options")
    ap.add_argument("--check", type=float, default=None,
                    help="run `shardlp check --tol CHECK` on every optimal solution of a "
                         "solve whose tolerance is at most CHECK")
    ap.add_argument("--previous", help="results CSV of an earlier run: its rows are kept "
                    "except for the instances run now (use with --only to rerun a few)")
    args = ap.parse_args()
    if args.compare:
        names = None
        if args.half:
            names = corpus_half(args.shared, args.half)
        return compare(args.compare, names)
    tols = [(float(t.split(":")[0]), float(t.split(":")[1])) for t in (args.tol or ["1e-4:60"])]
    rows = [r for r in load_index(args.shared) if int(r["nonzeros"]) <= args.max_nnz]
    if not args.include_infeasible:
        rows = [r for r in rows if r["status"] == "optimal"]
    if args.half:
        half = corpus_half(args.shared, args.half)
        rows = [r for r in rows if r["name"] in half]
    if args.only:
        names = set(args.only.split(","))
        rows = [r for r in rows if r["name"] in names]
    extra = args.extra.split()
    jobs = []
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for tol, limit in tols:
            for r in rows:
                jobs.append(pool.submit(run_one, args.binary, args.shared, r, tol, limit, extra,
                                        args.check))
        results = [j.result() for j in jobs]
    if args.previous:
        results = merge_previous(args.previous, results, {r["name"] for r in rows})
        rows = [r for r in load_index(args.shared) if r["name"] in {x["name"] for x in results}]
    for res in results:  # a check result only counts for solves at least as tight as the check
        if args.check is None or res["tol"] > args.check:
            res.pop("check_pass", None)
            res.pop("check_max", None)
            res.pop("check_violation", None)
    by_name = {r["name"]: r for r in rows}
    table = []
    for res in results:
        ref, origin = reference_objective(by_name[res["name"]])
        err = rel_error(res.get("objective"), ref)
        res["reference"] = ref
        res["reference_origin"] = origin
        res["obj_rel_error"] = err
        threshold = 1e-3 if res["tol"] >= 1e-4 else 1e-6
        res["pass"] = res.get("status") == "optimal" and err <= threshold
        table.append(res)
    summary = []
    for tol, limit in tols:
        sel = [r for r in table if r["tol"] == tol]
        npass = sum(r["pass"] for r in sel)
        nopt = sum(r.get("status") == "optimal" for r in sel)
        summary.append((tol, limit, len(sel), nopt, npass))
        checked = [r for r in sel if "check_pass" in r]
        if checked:
            bad = [r["name"] for r in checked if not r["check_pass"]]
            print(f"tol {tol:g}: check --tol {args.check:g}: {len(checked) - len(bad)}/{len(checked)} "
                  f"optimal solutions pass; failing: {', '.join(bad) or 'none'}")
        print(f"tol {tol:g} ({limit:g} s): {nopt}/{len(sel)} optimal, {npass}/{len(sel)} within "
              f"{'1e-3' if tol >= 1e-4 else '1e-6'} of the reference ({100.0 * npass / max(1, len(sel)):.1f}%)")
    if args.csv:
        keys = ["name", "tol", "status", "iterations", "polish_iterations", "solve_seconds",
                "wall", "objective",
                "reference", "reference_origin", "obj_rel_error", "rel_primal_residual",
                "rel_dual_residual", "rel_gap", "pass", "check_pass", "check_max", "check_violation",
                "matrix_bytes_per_nonzero", "exit", "error"]
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
            w.writeheader()
            for r in table:
                w.writerow(r)
    if args.markdown:
        write_markdown(args.markdown, table, tols, summary, args)
    return 0


def merge_previous(path, results, rerun):
    """Rows of an earlier CSV for instances not rerun now, plus the new results."""
    numeric = {"tol": float, "iterations": int, "polish_iterations": int,
               "solve_seconds": float, "wall": float,
               "objective": float, "rel_primal_residual": float, "rel_dual_residual": float,
               "rel_gap": float, "exit": int, "check_max": float, "check_violation": float}
    kept = []
    with open(path) as f:
        for row in csv.DictReader(f):
            if row["name"] in rerun:
                continue
            res = {}
            for key, value in row.items():
                if value == "" or key in ("reference", "reference_origin", "obj_rel_error", "pass"):
                    continue
                if key in numeric:
                    res[key] = numeric[key](float(value)) if numeric[key] is int else float(value)
                elif key == "check_pass":
                    res[key] = value == "True"
                else:
                    res[key] = value
            kept.append(res)
    return kept + results


def fmt(v, spec):
    if v is None:
        return "-"
    try:
        return format(v, spec)
    except (TypeError, ValueError):
        return str(v)


def write_markdown(path, table, tols, summary, args):
    names = sorted({r["name"] for r in table})
    by = {(r["name"], r["tol"]): r for r in table}
    with open(path, "w") as f:
        f.write("# Corpus results\n\n")
        f.write("Command: `python3 scripts/corpus.py " + " ".join(sys.argv[1:]) + "`\n\n")
        checked = [r for r in table if "check_pass" in r]
        for tol, limit, n, nopt, npass in summary:
            f.write(f"- tol {tol:g}, {limit:g} s limit: {nopt}/{n} optimal, **{npass}/{n}** "
                    f"({100.0 * npass / max(1, n):.1f}%) within "
                    f"{'1e-3' if tol >= 1e-4 else '1e-6'} relative of the reference objective\n")
            sel = [r for r in checked if r["tol"] == tol]
            if sel:
                bad = sorted(r["name"] for r in sel if not r["check_pass"])
                f.write(f"- tol {tol:g}: `shardlp check --tol {args.check:g}` passes on "
                        f"{len(sel) - len(bad)}/{len(sel)} optimal solutions; fails on: "
                        f"{', '.join(bad) or 'none'}\n")
        f.write("\n| instance |")
        for tol, _ in tols:
            f.write(f" status {tol:g} | iters | time s | obj rel err |")
        f.write("\n|---|" + "---|---|---|---|" * len(tols) + "\n")
        for name in names:
            f.write(f"| {name} |")
            for tol, _ in tols:
                r = by.get((name, tol), {})
                status = r.get("status", "error" if r else "-")
                if r and not r.get("pass") and status == "optimal":
                    status = "optimal (obj off)"
                f.write(f" {status} | {fmt(r.get('iterations'), 'd')} | "
                        f"{fmt(r.get('solve_seconds'), '.2f')} | {fmt(r.get('obj_rel_error'), '.1e')} |")
            f.write("\n")


if __name__ == "__main__":
    sys.exit(main())
