#!/usr/bin/env python3
"""Compare shardlp's distributed presolve with HiGHS's presolve on corpus LPs.

For every instance: the nonzeros, rows and columns each presolve removes, and
shardlp's share of HiGHS's removed nonzeros (summed over the list: the figure
of issue 21). shardlp runs `solve --iter-limit 1 --json` (presolve counts come
from the JSON; the one iteration is not timed here), optionally under mpirun on
a grid; HiGHS runs `Highs.presolve()` with default options (highspy).

    python3 bench/presolve_compare.py --binary build/shardlp \
        --markdown bench/results/presolve/summary.md --csv bench/results/presolve/runs.csv
    python3 bench/presolve_compare.py --grid 2x2     # 4 ranks under mpirun

Default list: the 12 LPs of issue 21. --only a,b,c picks others by INDEX.tsv name.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = ("25fv47,bnl1,degen2,ship08l,scfxm2,pilotnov,fffff800,perold,nesm,ken-07,pds-02,"
           "nemspmm1")
MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader"]


def index(shared):
    with open(os.path.join(shared, "lp", "INDEX.tsv")) as f:
        return {r["name"]: r for r in csv.DictReader(f, delimiter="\t")}


def highs_presolve(path):
    import highspy
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(path)
    lp = h.getLp()
    before = (lp.num_row_, lp.num_col_, len(lp.a_matrix_.index_))
    h.presolve()
    status = h.modelStatusToString(h.getModelStatus()) if hasattr(h, "modelStatusToString") else ""
    pstat = str(h.getModelPresolveStatus()).split(".")[-1]
    p = h.getPresolvedLp()
    after = (p.num_row_, p.num_col_, len(p.a_matrix_.index_))
    if pstat in ("kReducedToEmpty",):
        after = (0, 0, 0)
    return before, after, pstat or status


def shardlp_presolve(binary, path, grid):
    with tempfile.TemporaryDirectory() as tmp:
        js = os.path.join(tmp, "run.json")
        cmd = [binary, "solve", path, "--iter-limit", "1", "--quiet", "--json", js,
               "--threads", "1"]
        if grid:
            r, c = (int(v) for v in grid.split("x"))
            cmd = MPIRUN + ["-np", str(r * c)] + cmd + ["--grid", grid]
        subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        with open(js) as f:
            d = json.load(f)
    p = d["presolve"]
    return p["rows_removed"], p["cols_removed"], p["nnz_removed"], p.get("seconds", ""), \
        d.get("status", "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", default=os.path.join(HERE, "..", "build", "shardlp"))
    ap.add_argument("--shared", default=os.path.join(HERE, "..", "..", "shared"))
    ap.add_argument("--only", default=DEFAULT)
    ap.add_argument("--grid", default="", help="RxC: run shardlp on this grid under mpirun")
    ap.add_argument("--csv")
    ap.add_argument("--markdown")
    a = ap.parse_args()
    idx = index(a.shared)
    rows = []
    for name in a.only.split(","):
        path = os.path.join(a.shared, "lp", idx[name]["file"])
        (m, n, nnz), (hm, hn, hnz), hst = highs_presolve(path)
        sr, sc, snz, ssec, sst = shardlp_presolve(a.binary, path, a.grid)
        rows.append(dict(instance=name, rows=m, cols=n, nnz=nnz,
                         highs_rows=m - hm, highs_cols=n - hn, highs_nnz=nnz - hnz,
                         shardlp_rows=sr, shardlp_cols=sc, shardlp_nnz=snz,
                         share=(snz / (nnz - hnz)) if nnz > hnz else float("nan")))
        print("%-10s nnz %7d  HiGHS -%6d  shardlp -%6d  (%5.1f%%)" %
              (name, nnz, nnz - hnz, snz, 100.0 * rows[-1]["share"]), flush=True)
    th = sum(r["highs_nnz"] for r in rows)
    ts = sum(r["shardlp_nnz"] for r in rows)
    print("total      HiGHS -%d  shardlp -%d  (%.1f%% of HiGHS's)" % (th, ts, 100.0 * ts / th))
    if a.csv:
        os.makedirs(os.path.dirname(os.path.abspath(a.csv)), exist_ok=True)
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    if a.markdown:
        os.makedirs(os.path.dirname(os.path.abspath(a.markdown)), exist_ok=True)
        with open(a.markdown, "w") as f:
            f.write("Command: `python3 bench/presolve_compare.py %s`\n\n" % " ".join(sys.argv[1:]))
            f.write("| instance | nnz | HiGHS rows/cols/nnz removed | shardlp rows/cols/nnz removed"
                    " | shardlp nnz / HiGHS nnz |\n|---|---|---|---|---|\n")
            for r in rows:
                f.write("| %s | %d | %d / %d / %d | %d / %d / %d | %.0f%% |\n" % (
                    r["instance"], r["nnz"], r["highs_rows"], r["highs_cols"], r["highs_nnz"],
                    r["shardlp_rows"], r["shardlp_cols"], r["shardlp_nnz"], 100.0 * r["share"]))
            f.write("| **total** | | %d | %d | **%.0f%%** |\n" % (th, ts, 100.0 * ts / th))
    return 0


if __name__ == "__main__":
    sys.exit(main())
