#!/usr/bin/env bash
# Column fixing's copy in the memory model (not in `make test`: peaks of resident memory
# belong to `make test-memory`). An mcf of 262,550 columns (50 commodities, 5 factories,
# 50 warehouses, 100 stores) as 1x1 and 2x2 shards, solved to 1e-4 with --fix-columns
# 1e-2 (the offer is taken: the copy of the LP is held from phase 1's scaling to the
# end, and phase 2's reduced LPs are built from it) and for 200 iterations without it.
# On each grid the largest rank's measured peak over the modelled one (the JSON's, docs/
# memory.md "The model") must be the same with column fixing as without, within 0.15:
# the model counts the copy (2026-12-07: 1 rank 0.88 without and 0.97 with, 2x2 1.07 and
# 1.07). The build before, whose model left it out: 1 rank 0.92 and 1.30, 2x2 1.11 and
# 1.29.
set -u
BIN=${1:-build/shardlp}
MPIRUN="mpirun --allow-run-as-root --oversubscribe --mca btl self,vader"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
GEN="mcf --commodities 50 --factories 5 --warehouses 50 --stores 100"
"$BIN" gen $GEN --grid 1x1 --out "$TMP/one" --quiet >/dev/null || exit 1
"$BIN" gen $GEN --grid 2x2 --out "$TMP/four" --quiet >/dev/null || exit 1
FIX="--tol 1e-4 --fix-columns 1e-2 --threads 1 --quiet"
PLAIN="--iter-limit 200 --tol 1e-30 --threads 1 --quiet"
"$BIN" solve "$TMP/one" $FIX --json "$TMP/one-fix.json" || exit 1
"$BIN" solve "$TMP/one" $PLAIN --json "$TMP/one-plain.json" || exit 1
$MPIRUN -np 4 "$BIN" solve "$TMP/four" $FIX --json "$TMP/four-fix.json" || exit 1
$MPIRUN -np 4 "$BIN" solve "$TMP/four" $PLAIN --json "$TMP/four-plain.json" || exit 1
python3 - "$TMP" <<'PY'
import json, sys
passed = failed = 0
for grid, label in (("one", "1 rank"), ("four", "4 ranks 2x2")):
    fix, plain = (json.load(open(f"{sys.argv[1]}/{grid}-{k}.json")) for k in ("fix", "plain"))
    ratio = {}
    for name, j in (("fix", fix), ("plain", plain)):
        mem = j["memory"]
        ratio[name] = mem["peak_bytes_largest_rank"] / mem["modelled_peak_bytes_largest_rank"]
    ok = fix["status"] == "optimal" and fix["fixing_rounds"] >= 1
    ok = ok and abs(ratio["fix"] - ratio["plain"]) <= 0.15
    print(f"{label}: measured / modelled peak {ratio['plain']:.3f} without column fixing, "
          f"{ratio['fix']:.3f} with ({fix['status']}, {fix['fixing_rounds']} rounds)")
    passed, failed = passed + ok, failed + (not ok)
print(f"{passed} passed, {failed} failed")
sys.exit(0 if failed == 0 else 1)
PY
