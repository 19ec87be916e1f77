#!/usr/bin/env python3
"""shardlp benchmark driver (called by bench/run.sh; see bench/README.md).

Writes into bench/results/ (or --out):
  machine.txt       lscpu summary, memory, solver versions, the exact command
  stream.csv        STREAM-like bandwidth (1 thread and --threads threads)
  runs.csv          one row per (instance, solver, tol): status, objective, seconds, iterations
  bandwidth.csv     shardlp's achieved bandwidth per iteration (fixed-iteration runs)
  scaling.csv       fixed-iteration scaling over 1, 2, 4 MPI ranks on a generated instance
  traces.csv        convergence traces (relative KKT error vs time) on a few instances
  summary.md        the Markdown tables (and the two "done when" figures)
  sgm.png, times.png, convergence.png, scaling.png
"""
import argparse
import csv
import json
import math
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402
import solvers  # noqa: E402

LP = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "lp"))

# Fixed instance list: varied size (1e2 .. 1e6 nonzeros), all with a known optimum.
INSTANCES = [
    "netlib/afiro", "netlib/adlittle", "netlib/sctap3", "netlib/25fv47", "netlib/scsd8",
    "netlib/ship12l", "netlib/czprob", "netlib/dfl001", "netlib/qap12", "netlib/qap15",
    "netlib/truss", "netlib/d6cube", "netlib/woodw",
    "kennington/ken-11", "kennington/pds-06", "kennington/cre-c", "kennington/osa-14",
    "kennington/ken-18", "kennington/pds-20",
    "meszaros/lp22", "meszaros/pcb3000", "meszaros/sws", "meszaros/nemsemm1",
    "meszaros/dbir1", "mittelmann/rail516",
    "miplib3/air05", "miplib3/cap6000",
]
QUICK = ["netlib/afiro", "netlib/adlittle", "netlib/sctap3", "netlib/25fv47", "netlib/qap12",
         "kennington/ken-11", "meszaros/pcb3000"]
# Generated instances (rows, cols, nnz per column); "large" is used for bandwidth + scaling.
GENERATED = {"gen-small": (20000, 50000, 6), "gen-medium": (50000, 125000, 6),
             "gen-large": (200000, 500000, 8)}
QUICK_GENERATED = {"gen-small": (20000, 50000, 6), "gen-large": (100000, 250000, 8)}

PDLP = list(solvers.PDLP_SOLVERS)
EXACT = ["highs-simplex", "highs-ipm", "clp"]
FIELDS = ["instance", "rows", "cols", "nnz", "solver", "tol", "threads", "status", "objective",
          "ref_objective", "obj_rel_err", "seconds", "iterations", "native_status"]


def sh(cmd):
    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout


def read_index():
    out = {}
    with open(os.path.join(LP, "INDEX.tsv")) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            key = r["file"].replace(".mps.gz", "")
            try:
                ref = float(r["clp_1.17.6_check"].split()[1])
            except (IndexError, ValueError):
                ref = None
            out[key] = dict(rows=int(r["rows"]), cols=int(r["cols"]), nnz=int(r["nonzeros"]),
                            ref=ref)
    return out


def stream(out, threads):
    exe = os.path.join(out, "stream")
    subprocess.run(["gcc", "-O3", "-march=native", "-fopenmp", "-o", exe,
                    os.path.join(HERE, "stream.c")], check=True)
    rows = []
    for t in sorted({1, threads}):
        env = dict(os.environ, OMP_NUM_THREADS=str(t), OMP_PROC_BIND="close")
        txt = subprocess.run([exe, str(1 << 25), "20"], capture_output=True, text=True,
                             env=env).stdout
        line = [x for x in txt.splitlines() if x.startswith("csv,")][0].split(",")
        rows.append(dict(threads=int(line[1]), n=int(line[2]), copy=float(line[3]),
                         scale=float(line[4]), add=float(line[5]), triad=float(line[6]),
                         read=float(line[7])))
    with open(os.path.join(out, "stream.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return rows


def bytes_per_iter(m, n, nnz):
    """Compulsory memory traffic of one (non-major) shardlp iteration, 1 rank, CPU backend:
    A^T y and A xbar (CSR each): 12 B per nonzero (8 value + 4 column index) + 8 B per row
    pointer + one read of the gathered vector + one write of the result; the fused primal
    pass reads x, x0, g, c, l, u and writes xbar, x (8 n-vectors); the fused dual pass reads
    y, y0, h, l, u and writes y (6 m-vectors). Write-allocate not counted (as in STREAM)."""
    spmv_t = 12 * nnz + 8 * (n + 1) + 8 * m + 8 * n
    spmv = 12 * nnz + 8 * (m + 1) + 8 * n + 8 * m
    primal = 8 * 8 * n
    dual = 6 * 8 * m
    return spmv_t + spmv + primal + dual


def sgm(times, shift=10.0):
    if not times:
        return float("nan")
    return math.exp(sum(math.log(t + shift) for t in times) / len(times)) - shift


def fmt(x, nd=3):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if isinstance(x, float):
        return ("%." + str(nd) + "g") % x
    return str(x)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="a few-minute subset")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--tols", default="1e-4,1e-8")
    ap.add_argument("--solvers", default=",".join(PDLP + EXACT))
    ap.add_argument("--instances", default="", help="comma list overriding the fixed list")
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    ap.add_argument("--skip-solve", action="store_true", help="only STREAM/bandwidth/scaling")
    ap.add_argument("--skip-bandwidth", action="store_true")
    ap.add_argument("--skip-scaling", action="store_true")
    ap.add_argument("--command", default=" ".join(sys.argv))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    tols = [float(t) for t in a.tols.split(",")]
    sel = a.solvers.split(",")
    idx = read_index()
    t_start = time.time()

    # ---- machine and versions
    vers = solvers.versions()
    with open(os.path.join(a.out, "machine.txt"), "w") as f:
        f.write("command: %s\n" % a.command)
        f.write("date: %s\n" % time.strftime("%Y-%m-%d %H:%M:%S %Z"))
        f.write("kernel: %s\n" % platform.platform())
        f.write(sh("lscpu | grep -E 'Model name|^CPU\\(s\\)|Thread|Core|Socket|L1d|L2|L3|MHz|NUMA node\\(s\\)'"))
        f.write(sh("free -g | head -2"))
        f.write("versions: %s\n" % json.dumps(vers))
    print("versions:", vers, flush=True)

    # ---- STREAM
    st = stream(a.out, a.threads)
    print("stream:", st, flush=True)

    # ---- generated instances
    gdir = os.path.join(HERE, "work")
    os.makedirs(gdir, exist_ok=True)
    gens = QUICK_GENERATED if a.quick else GENERATED
    gpaths = {}
    for name, (m, n, k) in gens.items():
        p = os.path.join(gdir, "%s-%dx%d-k%d.mps" % (name, m, n, k))
        if not os.path.exists(p):
            print("generating", p, flush=True)
            gen.generate(m, n, k, 1, p + ".tmp")
            os.replace(p + ".tmp", p)
        gpaths[name] = p
        idx[name] = dict(rows=m, cols=n, nnz=n * k, ref=None)

    insts = a.instances.split(",") if a.instances else (QUICK if a.quick else INSTANCES)
    insts = insts + [g for g in gpaths if g != "gen-large" or a.quick]
    # ---- achieved bandwidth (fixed-iteration shardlp runs)
    bw_rows = []
    big = sorted([i for i in insts if i in idx and not i.startswith("gen")],
                 key=lambda i: -idx[i]["nnz"])[:2]
    for inst in ([] if a.skip_bandwidth else ["gen-large"] + big):
        path = gpaths.get(inst) or os.path.join(LP, inst + ".mps.gz")
        iters = 600 if a.quick else 1000
        for thr in sorted({1, a.threads}):
            r = solvers.shardlp(path, 1e-30, 600, thr, iter_limit=iters)
            if r["status"] == "error" or not r.get("iterations"):
                print("bandwidth run failed:", inst, r.get("native_status"), flush=True)
                continue
            ex = r["extra"]
            m, n, nnz = ex["rows"], ex["cols"], ex["nnz"]
            b = bytes_per_iter(m, n, nnz)
            tpi = r["solve_seconds"] / r["iterations"]
            ref = [s for s in st if s["threads"] == thr][0]
            bw = b / tpi / 1e9
            bw_rows.append(dict(instance=inst, threads=thr, rows=m, cols=n, nnz=nnz,
                                iterations=r["iterations"], seconds_per_iter=tpi,
                                bytes_per_iter=b, achieved_GBs=bw, stream_triad_GBs=ref["triad"],
                                stream_copy_GBs=ref["copy"], frac_of_triad=bw / ref["triad"]))
            print("bandwidth %s thr=%d: %.1f us/iter, %.2f GB/s = %.0f%% of triad %.1f" % (
                inst, thr, 1e6 * tpi, bw, 100 * bw / ref["triad"], ref["triad"]), flush=True)
    if bw_rows:
        with open(os.path.join(a.out, "bandwidth.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(bw_rows[0]))
            w.writeheader()
            w.writerows(bw_rows)

    # ---- fixed-iteration rank scaling (1, 2, 4 ranks, 1 thread each) on gen-large
    sc_rows = []
    iters = 600 if a.quick else 1000
    for ranks in (() if a.skip_scaling else (1, 2, 4)):
        r = solvers.shardlp(gpaths["gen-large"], 1e-30, 600, 1, ranks=ranks, iter_limit=iters)
        if r["status"] == "error":
            print("scaling run failed:", ranks, r.get("native_status"), flush=True)
            continue
        tpi = r["solve_seconds"] / max(1, r["iterations"])
        sc_rows.append(dict(instance="gen-large", ranks=ranks, threads_per_rank=1,
                            iterations=r["iterations"], solve_seconds=r["solve_seconds"],
                            seconds_per_iter=tpi))
        print("scaling ranks=%d: %.1f us/iter" % (ranks, 1e6 * tpi), flush=True)
    for s in sc_rows:
        s["speedup"] = sc_rows[0]["seconds_per_iter"] / s["seconds_per_iter"]
    if sc_rows:
        with open(os.path.join(a.out, "scaling.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(sc_rows[0]))
            w.writeheader()
            w.writerows(sc_rows)

    # ---- solver runs
    runs_csv = os.path.join(a.out, "runs.csv")
    results = []
    traces = []
    if not a.skip_solve:
        f = open(runs_csv, "w", newline="")
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        for inst in insts:
            path = gpaths.get(inst) or os.path.join(LP, inst + ".mps.gz")
            info = idx.get(inst, {})
            jobs = [(s, t) for s in sel if s in PDLP for t in tols]
            jobs += [(s, 0.0) for s in sel if s not in PDLP]
            for s, t in jobs:
                r = solvers.run_isolated(s, path, t if t else 1e-8, a.time_limit, a.threads)
                ref = info.get("ref")
                obj = r.get("objective")
                err = (abs(obj - ref) / (1 + abs(ref))
                       if (ref is not None and obj is not None) else None)
                row = dict(instance=inst, rows=info.get("rows"), cols=info.get("cols"),
                           nnz=info.get("nnz"), solver=s, tol=t if t else "exact",
                           threads=a.threads, status=r["status"], objective=obj,
                           ref_objective=ref, obj_rel_err=err, seconds=r["seconds"],
                           iterations=r["iterations"],
                           native_status=str(r.get("native_status", ""))[:120])
                w.writerow(row)
                f.flush()
                results.append(row)
                for (sec, rel) in r.get("trace") or []:
                    traces.append(dict(instance=inst, solver=s, tol=t, seconds=sec, rel_kkt=rel))
                print("%-22s %-14s %-6s %-16s %9.3fs %8s it  obj %s" % (
                    inst, s, row["tol"], r["status"], r["seconds"] or float("nan"),
                    r["iterations"], fmt(obj, 10)), flush=True)
        f.close()
        with open(os.path.join(a.out, "traces.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["instance", "solver", "tol", "seconds", "rel_kkt"])
            w.writeheader()
            w.writerows(traces)

    # ---- report (tables + plots); report.py can also be rerun on its own
    import report
    report.main([a.out])
    print("total benchmark time %.0f s" % (time.time() - t_start), flush=True)


if __name__ == "__main__":
    main()
