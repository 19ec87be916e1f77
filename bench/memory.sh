#!/usr/bin/env bash
# Peak memory per rank (docs/memory.md): generated LPs written as shards and solved for
# a fixed 200 iterations (--tol 1e-30, 1 thread per rank), on 1 rank (with the default
# copies and with `--block-copies rows`) and on 4 ranks with the grid
# `--grid auto --ranks 4` picks; the JSON summary's memory object and the
# modelled peak (slp_shard_solver_bytes, docs/memory.md "The model") per run, one
# Markdown table.
#
#   bench/memory.sh [--out DIR] [--quick] [BIN]     (BIN: build/shardlp)
#
# LPs (bench/lps.sh): the issue's mcf-400 and the vector-heavy mcf-1000, a matrix-heavy
# design-match, and the random-pattern LP. --quick: the first only.
set -euo pipefail
OUT=bench/results/memory
QUICK=0
while [ $# -gt 0 ]; do
    case $1 in
    --out) OUT=$2; shift 2 ;;
    --quick) QUICK=1; shift ;;
    *) break ;;
    esac
done
BIN=$(readlink -f "${1:-build/shardlp}")
HERE=$(cd "$(dirname "$0")" && pwd)
MPIRUN="mpirun --allow-run-as-root --oversubscribe --mca btl self,vader"
PY=python3
[ -x "$HERE/../build/pyenv/bin/python" ] && PY="$HERE/../build/pyenv/bin/python"
mkdir -p "$OUT"
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
CSV="$OUT/memory.csv"
echo "lp,m,n,nnz,ranks,grid,peak_largest_bytes,peak_sum_bytes,bytes_per_nonzero,modelled_largest_bytes,ms_per_iter" > "$CSV"

# shellcheck source=bench/lps.sh
. "$HERE/lps.sh"
LPS=(mcf-400)
if [ "$QUICK" = 0 ]; then LPS+=(mcf-1000 design-match random); fi

record() { # name ranks json
    "$PY" - "$1" "$2" "$3" >> "$CSV" <<'PY'
import json, sys
name, ranks, path = sys.argv[1:4]
d = json.load(open(path))
mem = d["memory"]
grid = "x".join(str(v) for v in d["grid"])
print(f"{name},{d['rows']},{d['cols']},{d['nonzeros']},{ranks},{grid},"
      f"{mem['peak_bytes_largest_rank']:.0f},{mem['peak_bytes_all_ranks']:.0f},"
      f"{mem['bytes_per_nonzero']:.2f},{mem['modelled_peak_bytes_largest_rank']:.0f},"
      f"{1e3 * d['solve_seconds'] / d['iterations']:.3f}")
PY
}

for name in "${LPS[@]}"; do
    make_shards "$name" "--grid 1x1" "$WORK/one"
    "$BIN" solve "$WORK/one" --iter-limit 200 --tol 1e-30 --threads 1 --quiet --json "$WORK/one.json"
    record "$name" 1 "$WORK/one.json"
    # the least memory: A_rc alone, no transpose at any point (docs/memory.md "The matrix")
    "$BIN" solve "$WORK/one" --iter-limit 200 --tol 1e-30 --threads 1 --quiet \
        --block-copies rows --json "$WORK/rows.json"
    record "$name rows" 1 "$WORK/rows.json"
    rm -rf "$WORK/one"
    make_shards "$name" "--grid auto --ranks 4" "$WORK/four"
    $MPIRUN -np 4 "$BIN" solve "$WORK/four" --iter-limit 200 --tol 1e-30 --quiet \
        --json "$WORK/four.json"
    record "$name" 4 "$WORK/four.json"
    rm -rf "$WORK/four"
done

"$PY" - "$CSV" <<'PY' | tee "$OUT/memory.md"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("| LP | rows x columns, nonzeros | ranks, grid | largest peak | bytes per nonzero (all ranks) | modelled largest | largest / 1-rank peak | ms per iteration |")
print("|---|---|---|---|---|---|---|---|")
one = {}
for r in rows:
    peak = int(float(r["peak_largest_bytes"]))
    if r["ranks"] == "1":
        one[r["lp"]] = peak
    ratio = f"{peak / one[r['lp']]:.3f}" if r["ranks"] != "1" and r["lp"] in one else ""
    if r["lp"].endswith(" rows"):
        r["lp"] = r["lp"][:-5] + ", `--block-copies rows`"
    model = f"{float(r['modelled_largest_bytes']) / 2**20:.1f} MiB"
    print(f"| {r['lp']} | {int(r['m']):,} x {int(r['n']):,}, {int(r['nnz']):,} | {r['ranks']}, {r['grid']} | "
          f"{peak / 2**20:.1f} MiB | {float(r['bytes_per_nonzero']):.1f} | {model} | {ratio} | {r['ms_per_iter']} |")
PY
echo "wrote $CSV and $OUT/memory.md"
