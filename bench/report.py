#!/usr/bin/env python3
"""Build summary.md and the PNG plots from the CSVs in a results directory.

    report.py [RESULTS_DIR]    (default bench/results)
"""
import csv
import math
import os
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
PDLP = ["shardlp", "highs-pdlp", "highs-hipdlp", "ortools-pdlp"]
EXACT = ["highs-simplex", "highs-ipm", "clp"]
SHIFT = 10.0


def load(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.DictReader(f))


def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return float("nan")


def sgm(ts, shift=SHIFT):
    if not ts:
        return float("nan")
    return math.exp(sum(math.log(t + shift) for t in ts) / len(ts)) - shift


def g(x, nd=3):
    if isinstance(x, str):
        return x
    if x is None or math.isnan(x):
        return "-"
    return ("%." + str(nd) + "g") % x


def objective_mark(tol):
    """How close to the reference a solve at `tol` must end to count as solved: 1e-3
    relative at tolerances looser than 1e-6 (the 1e-4 runs), 1e-6 at tighter ones."""
    return 1e-3 if float(tol) > 1e-6 else 1e-6


def has_reference(r):
    ref = num(r.get("ref_objective")) if r else float("nan")
    return ref == ref  # not NaN


def solved(r, tol):
    """Optimal by the solver's own criterion AND the objective within the mark of the
    reference (a solver's "optimal" with a wrong objective does not count). Instances
    without a reference (no exact solver finished) are left out of the counts."""
    if not r or r.get("status") != "optimal":
        return False
    err = num(r.get("obj_rel_err"))
    return err == err and err <= objective_mark(tol)


def main(argv):
    out = argv[0] if argv else os.path.join(HERE, "results")
    runs = load(os.path.join(out, "runs.csv"))
    stream = load(os.path.join(out, "stream.csv"))
    bw = load(os.path.join(out, "bandwidth.csv"))
    sc = load(os.path.join(out, "scaling.csv"))
    traces = load(os.path.join(out, "traces.csv"))
    limit = max([num(r["seconds"]) for r in runs if r["status"] == "time_limit"] + [0.0])
    md = []
    md.append("# shardlp benchmark results\n")
    if os.path.exists(os.path.join(out, "machine.txt")):
        md.append("```\n" + open(os.path.join(out, "machine.txt")).read().strip() + "\n```\n")

    # ---- per-instance tables
    by = {}
    insts, tols = [], []
    for r in runs:
        by[(r["instance"], r["solver"], r["tol"])] = r
        if r["instance"] not in insts:
            insts.append(r["instance"])
        if r["tol"] != "exact" and r["tol"] not in tols:
            tols.append(r["tol"])
    solvers_present = [s for s in PDLP + EXACT if any(k[1] == s for k in by)]
    sgm_rows = {}
    for tol in tols:
        md.append("## Time to relative tolerance %s (seconds; the status, or \"obj off\" when an "
                  "optimal objective misses the reference by more than %g)\n"
                  % (tol, objective_mark(tol)))
        hdr = ["instance", "nnz"] + [s for s in PDLP if s in solvers_present] + \
              ["%s iters" % s for s in PDLP if s in solvers_present]
        md.append("| " + " | ".join(hdr) + " |")
        md.append("|" + "---|" * len(hdr))
        for inst in insts:
            cells = [inst, by.get((inst, PDLP[0], tol), {}).get("nnz", "")]
            its = []
            for s in PDLP:
                if s not in solvers_present:
                    continue
                r = by.get((inst, s, tol))
                if not r:
                    cells.append("")
                    its.append("")
                    continue
                t = g(num(r["seconds"]))
                if solved(r, tol):
                    cells.append(t)
                elif r["status"] == "optimal" and not has_reference(r):
                    cells.append("%s (optimal, no reference)" % t)
                elif r["status"] == "optimal":
                    cells.append("%s (obj off %s)" % (t, g(num(r["obj_rel_err"]), 2)))
                else:
                    cells.append("%s (%s)" % (t, r["status"]))
                its.append(r["iterations"])
            md.append("| " + " | ".join(str(c) for c in cells + its) + " |")
        md.append("")
        # SGM over instances where all PDLP solvers succeed
        ok = [i for i in insts
              if all(solved(by.get((i, s, tol)), tol) for s in PDLP if s in solvers_present)]
        all_i = [i for i in insts if all((i, s, tol) in by for s in PDLP if s in solvers_present)
                 and has_reference(by.get((i, PDLP[0], tol)))]
        res = {}
        for s in PDLP:
            if s not in solvers_present:
                continue
            res[s] = (sgm([num(by[(i, s, tol)]["seconds"]) for i in ok]),
                      sgm([num(by[(i, s, tol)]["seconds"]) if solved(by[(i, s, tol)], tol)
                           else max(limit, num(by[(i, s, tol)]["seconds"])) for i in all_i]),
                      sum(solved(by[(i, s, tol)], tol) for i in all_i))
        sgm_rows[tol] = (ok, all_i, res)
        md.append("Shifted geometric mean (shift %g s) at tol %s: on the %d instances where all "
                  "PDLP solvers solve it (optimal and the objective within %g of the reference), and "
                  "on all %d with a reference objective (failures counted at the time limit):\n"
                  % (SHIFT, tol, len(ok), objective_mark(tol), len(all_i)))
        md.append("| solver | SGM (all succeed) | SGM (all, failures at limit) | solved |")
        md.append("|---|---|---|---|")
        for s, (a, b, c) in res.items():
            md.append("| %s | %s | %s | %d/%d |" % (s, g(a), g(b), c, len(all_i)))
        md.append("")

    # ---- exact references
    if any(r["tol"] == "exact" for r in runs):
        md.append("## Exact references (seconds, status, objective)\n")
        ex = [s for s in EXACT if s in solvers_present]
        md.append("| instance | reference objective | " + " | ".join(ex) +
                  " | shardlp 1e-8 obj rel err |")
        md.append("|" + "---|" * (3 + len(ex)))
        for inst in insts:
            ref = None
            cells = []
            for s in ex:
                r = by.get((inst, s, "exact"))
                if not r:
                    cells.append("")
                    continue
                ref = ref or r["ref_objective"]
                cells.append("%s %s %s" % (g(num(r["seconds"])),
                                           "" if r["status"] == "optimal" else r["status"],
                                           g(num(r["objective"]), 10)))
            s8 = by.get((inst, "shardlp", tols[-1] if tols else ""), {})
            md.append("| %s | %s | %s | %s |" % (inst, ref or "-", " | ".join(cells),
                                                  g(num(s8.get("obj_rel_err")))))
        md.append("")

    # ---- STREAM, bandwidth, scaling
    if stream:
        md.append("## STREAM (GB/s, best of 20, arrays of %s doubles)\n" % stream[0]["n"])
        md.append("| threads | copy | scale | add | triad | read |")
        md.append("|---|---|---|---|---|---|")
        for s in stream:
            md.append("| %s | %s | %s | %s | %s | %s |" % (s["threads"], s["copy"], s["scale"],
                                                         s["add"], s["triad"], s["read"]))
        md.append("")
    if bw:
        md.append("## shardlp achieved bandwidth per iteration (fixed-iteration runs)\n")
        md.append("| instance | threads | rows | cols | nnz | MB/iter (model) | us/iter | GB/s | "
                  "STREAM triad GB/s | fraction |")
        md.append("|---|---|---|---|---|---|---|---|---|---|")
        for b in bw:
            md.append("| %s | %s | %s | %s | %s | %.1f | %.1f | %.2f | %s | %.0f%% |" % (
                b["instance"], b["threads"], b["rows"], b["cols"], b["nnz"],
                num(b["bytes_per_iter"]) / 1e6, 1e6 * num(b["seconds_per_iter"]),
                num(b["achieved_GBs"]), b["stream_triad_GBs"], 100 * num(b["frac_of_triad"])))
        md.append("")
    if sc:
        md.append("## Fixed-iteration rank scaling (gen-large, 1 thread per rank)\n")
        md.append("| ranks | iterations | solve s | us/iter | speedup |")
        md.append("|---|---|---|---|---|")
        for s in sc:
            md.append("| %s | %s | %.2f | %.1f | %.2f |" % (
                s["ranks"], s["iterations"], num(s["solve_seconds"]),
                1e6 * num(s["seconds_per_iter"]), num(s["speedup"])))
        md.append("")

    # ---- done-when figures
    md.append("## The two \"done when\" figures\n")
    t4 = tols[0] if tols else None
    if t4 and t4 in sgm_rows:
        ok, _, res = sgm_rows[t4]
        if res:
            md.append("- SGM time to %s on the %d instances where all PDLP solvers succeed: %s." % (
                t4, len(ok), ", ".join("%s %s s" % (s, g(v[0])) for s, v in res.items())))
            if all(k in res for k in PDLP):
                good = res["shardlp"][0] < min(res["highs-pdlp"][0], res["ortools-pdlp"][0])
                md.append("  shardlp below both: **%s**." % ("yes" if good else "no"))
    if bw:
        big = max(bw, key=lambda b: (num(b["nnz"]), -int(b["threads"])))
        best = max([b for b in bw if b["instance"] == big["instance"]],
                   key=lambda b: num(b["frac_of_triad"]))
        md.append("- Achieved bandwidth on the largest instance (%s, %s nnz): %.2f GB/s with %s "
                  "thread(s) = %.0f%% of STREAM triad (%s GB/s); target 60%%: **%s**." % (
                      best["instance"], best["nnz"], num(best["achieved_GBs"]), best["threads"],
                      100 * num(best["frac_of_triad"]), best["stream_triad_GBs"],
                      "reached" if num(best["frac_of_triad"]) >= 0.6 else "not reached"))
    md.append("")
    md.append("Plots: sgm.png, times.png, convergence.png, scaling.png\n")
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("\n".join(md))
    print("\n".join(md))
    plots(out, by, insts, tols, sgm_rows, traces, sc)


def plots(out, by, insts, tols, sgm_rows, traces, sc):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plots")
        return
    colors = {"shardlp": "C0", "highs-pdlp": "C1", "highs-hipdlp": "C3", "ortools-pdlp": "C2"}
    # SGM bars
    if sgm_rows:
        fig, ax = plt.subplots(figsize=(7, 4))
        width = 0.25
        for k, s in enumerate(PDLP):
            xs, ys = [], []
            for t_i, tol in enumerate(tols):
                res = sgm_rows[tol][2]
                if s in res:
                    xs.append(t_i + (k - 1) * width)
                    ys.append(res[s][1])
            ax.bar(xs, ys, width, label=s, color=colors[s])
        ax.set_xticks(range(len(tols)))
        ax.set_xticklabels(["tol %s (%d inst.)" % (t, len(sgm_rows[t][1])) for t in tols])
        ax.set_ylabel("shifted geometric mean time (s, shift 10)")
        ax.set_title("SGM over all instances (failures at the time limit)")
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(out, "sgm.png"), dpi=110)
        plt.close(fig)
    # per-instance times
    if tols:
        fig, axes = plt.subplots(len(tols), 1, figsize=(12, 4 * len(tols)), squeeze=False)
        for t_i, tol in enumerate(tols):
            ax = axes[t_i][0]
            for k, s in enumerate(PDLP):
                xs, ys, fail = [], [], []
                for i, inst in enumerate(insts):
                    r = by.get((inst, s, tol))
                    if not r:
                        continue
                    xs.append(i + (k - 1.5) * 0.2)
                    ys.append(max(num(r["seconds"]), 1e-3))
                    fail.append(not solved(r, tol))
                ax.bar(xs, ys, 0.2, label=s, color=colors[s],
                       hatch=None)
                for x, y, f in zip(xs, ys, fail):
                    if f:
                        ax.text(x, y, "x", ha="center", va="bottom", fontsize=8, color="red")
            ax.set_yscale("log")
            ax.set_xticks(range(len(insts)))
            ax.set_xticklabels(insts, rotation=60, ha="right", fontsize=7)
            ax.set_ylabel("seconds")
            ax.set_title("time to tol %s (red x: not solved)" % tol)
            ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(out, "times.png"), dpi=110)
        plt.close(fig)
    # convergence
    if traces:
        per = defaultdict(list)
        for t in traces:
            per[(t["instance"], t["solver"], t["tol"])].append((num(t["seconds"]), num(t["rel_kkt"])))
        tol = tols[-1] if tols else None
        cand = [i for i in insts if (i, "shardlp", tol) in per and (i, "ortools-pdlp", tol) in per]
        cand = sorted(cand, key=lambda i: -len(per[(i, "shardlp", tol)]))[:4]
        if cand:
            fig, axes = plt.subplots(1, len(cand), figsize=(4.5 * len(cand), 3.8), squeeze=False)
            for ax, inst in zip(axes[0], cand):
                for s in PDLP:
                    pts = per.get((inst, s, tol))
                    if pts:
                        ax.plot([p[0] for p in pts], [p[1] for p in pts], label=s,
                                color=colors[s])
                ax.set_yscale("log")
                ax.set_xlabel("seconds")
                ax.set_title(inst, fontsize=9)
                ax.grid(True, alpha=0.3)
            axes[0][0].set_ylabel("relative KKT error (max of rel. primal, dual, gap)")
            axes[0][0].legend(fontsize=8)
            fig.tight_layout()
            fig.savefig(os.path.join(out, "convergence.png"), dpi=110)
            plt.close(fig)
    if sc:
        fig, ax = plt.subplots(figsize=(5, 3.5))
        r = [int(s["ranks"]) for s in sc]
        ax.plot(r, [num(s["speedup"]) for s in sc], "o-", label="measured")
        ax.plot(r, r, "k--", alpha=0.4, label="ideal")
        ax.set_xlabel("MPI ranks (1 thread each)")
        ax.set_ylabel("speedup per iteration")
        ax.set_title("fixed-iteration scaling, gen-large")
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(out, "scaling.png"), dpi=110)
        plt.close(fig)


if __name__ == "__main__":
    main(sys.argv[1:])
