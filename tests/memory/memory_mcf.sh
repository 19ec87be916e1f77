#!/usr/bin/env bash
# Memory test of issue 19 (not in `make test`: it writes ~0.5 GB of shards and runs for
# about a minute; run with `make test-memory`). The vector-heavy mcf of docs/memory.md
# (1000 commodities, 5 factories, 100 warehouses, 50 stores; 11.5 million nonzeros) is
# generated as 1x1 shards and as shards on the grid `--grid auto --ranks 4` picks, then
# solved for 200 iterations with 1 thread per rank: the 1-rank peak must stay within 60
# bytes per nonzero and the largest 4-rank peak within 0.30 of the 1-rank peak. (A
# presolve pass once raised the ratio to 0.347 unnoticed for a day.)
set -u
BIN=${1:-build/shardlp}
MPIRUN="mpirun --allow-run-as-root --oversubscribe --mca btl self,vader"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
GEN="mcf --commodities 1000 --factories 5 --warehouses 100 --stores 50"
"$BIN" gen $GEN --grid 1x1 --out "$TMP/one" --quiet >/dev/null || exit 1
"$BIN" gen $GEN --grid auto --ranks 4 --out "$TMP/four" --quiet >/dev/null || exit 1
RUN="--iter-limit 200 --tol 1e-30 --threads 1 --quiet"
"$BIN" solve "$TMP/one" $RUN --json "$TMP/one.json" || exit 1
$MPIRUN -np 4 "$BIN" solve "$TMP/four" $RUN --json "$TMP/four.json" || exit 1
python3 - "$TMP/one.json" "$TMP/four.json" <<'PY'
import json, sys
one, four = (json.load(open(p))["memory"] for p in sys.argv[1:3])
grid = json.load(open(sys.argv[2]))["grid"]
per_nnz = one["bytes_per_nonzero"]
ratio = four["peak_bytes_largest_rank"] / one["peak_bytes_largest_rank"]
print(f"1 rank: {one['peak_bytes_largest_rank'] / 2**20:.1f} MiB, {per_nnz:.1f} bytes per nonzero (limit 60)")
print(f"4 ranks ({grid[0]}x{grid[1]}): largest {four['peak_bytes_largest_rank'] / 2**20:.1f} MiB, "
      f"{ratio:.3f} of the 1-rank peak (limit 0.30)")
ok = per_nnz <= 60.0 and ratio <= 0.30
print("1 passed, 0 failed" if ok else "0 passed, 1 failed")
sys.exit(0 if ok else 1)
PY
