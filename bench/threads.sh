#!/usr/bin/env bash
# Threads and setup on one rank (docs/memory.md "Time per iteration and threads"):
# STREAM (bench/stream.c) with 1 and 2 threads, then fixed-iteration solves
# (--iter-limit 1000 --tol 1e-30, from 1x1 shards) of generated LPs with --threads 1
# and 2: milliseconds per iteration, the speed-up, the achieved bandwidth by the
# traffic model of bench/README.md (24 nnz + 88 n + 72 m bytes per iteration) against
# the triad of the same thread count, and the setup (scaling + step size) as a share
# of the 1000 iterations. One Markdown table.
#
#   bench/threads.sh [--out DIR] [--iters N] [BIN]      (BIN: build/shardlp)
set -euo pipefail
OUT=bench/results/threads
ITERS=1000
while [ $# -gt 0 ]; do
    case $1 in
    --out) OUT=$2; shift 2 ;;
    --iters) ITERS=$2; shift 2 ;;
    *) break ;;
    esac
done
BIN=$(readlink -f "${1:-build/shardlp}")
HERE=$(cd "$(dirname "$0")" && pwd)
PY=python3
[ -x "$HERE/../build/pyenv/bin/python" ] && PY="$HERE/../build/pyenv/bin/python"
mkdir -p "$OUT"
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT

gcc -O3 -march=native -fopenmp "$HERE/stream.c" -o "$WORK/stream"
for t in 1 2; do
    OMP_NUM_THREADS=$t "$WORK/stream" | sed -n 's/^csv,/stream,/p'
done > "$OUT/stream.csv"

# shellcheck source=bench/lps.sh
. "$HERE/lps.sh"
for lp in mcf-400 random design-match; do
    make_shards "$lp" "--grid 1x1" "$WORK/$lp"
done
rm -f "$WORK/random.mps"

echo "lp,threads,ms_per_iter,setup_seconds,scaling_seconds,step_seconds,m,n,nnz" > "$OUT/runs.csv"
for lp in mcf-400 random design-match; do
    for t in 1 2; do
        "$BIN" solve "$WORK/$lp" --iter-limit "$ITERS" --tol 1e-30 --threads "$t" --quiet \
            --json "$WORK/run.json"
        "$PY" - "$lp" "$t" "$WORK/run.json" >> "$OUT/runs.csv" <<'PY'
import json, sys
lp, t, path = sys.argv[1:4]
d = json.load(open(path))
print(f"{lp},{t},{1e3 * d['solve_seconds'] / d['iterations']:.3f},"
      f"{d['scaling_seconds'] + d['power_iteration_seconds']:.3f},{d['scaling_seconds']:.3f},"
      f"{d['power_iteration_seconds']:.3f},{d['rows']},{d['cols']},{d['nonzeros']}")
PY
    done
done

"$PY" - "$OUT" "$ITERS" <<'PY' | tee "$OUT/threads.md"
import csv, os, sys
out, iters = sys.argv[1], int(sys.argv[2])
triad = {}
for line in open(os.path.join(out, "stream.csv")):
    f = line.strip().split(",")
    triad[int(f[1])] = float(f[6])
print("STREAM triad: " + ", ".join(f"{t} thread{'s' if t > 1 else ''} {v:.1f} GB/s"
                                   for t, v in sorted(triad.items()))
      + f" (x{triad[2] / triad[1]:.2f})\n")
print("| LP | threads | ms per iteration | speed-up | GB/s (model) | of the triad | setup s | setup / iterations |")
print("|---|---|---|---|---|---|---|---|")
rows = list(csv.DictReader(open(os.path.join(out, "runs.csv"))))
one = {r["lp"]: float(r["ms_per_iter"]) for r in rows if r["threads"] == "1"}
for r in rows:
    t, ms = int(r["threads"]), float(r["ms_per_iter"])
    traffic = 24 * int(r["nnz"]) + 88 * int(r["n"]) + 72 * int(r["m"])
    gbs = traffic / (ms * 1e-3) / 1e9
    setup = float(r["setup_seconds"])
    print(f"| {r['lp']} | {t} | {ms:.2f} | {one[r['lp']] / ms:.2f} | {gbs:.2f} | "
          f"{100 * gbs / triad[t]:.0f}% | {setup:.2f} | {100 * setup / (ms * 1e-3 * iters):.1f}% |")
PY
echo "wrote $OUT/runs.csv, $OUT/stream.csv and $OUT/threads.md"
