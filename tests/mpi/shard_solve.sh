#!/usr/bin/env bash
# Round trip (issue 4): MPS -> shards -> solve gives the same result as solving the
# MPS directly, on grids 1x1, 2x2, 1x4 and 4x1; the sharded solution (--out) and
# the text solution streamed from shards (--sol) pass the checker on the original
# model; a wrong rank count and a corrupted block fail cleanly on every rank.
set -u
BIN=$1; ROOT=$2; SHARED=$3
MPIRUN="mpirun --allow-run-as-root --oversubscribe --mca btl self,vader"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
pass=0; fail=0
ok()  { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
MODEL="$SHARED/lp/netlib/sc50b.mps.gz"

"$BIN" solve "$MODEL" --tol 1e-8 --quiet --json "$TMP/direct.json" || bad "direct solve"
for grid in 1x1 2x2 1x4 4x1; do
    np=$(( ${grid%x*} * ${grid#*x} ))
    "$BIN" shard "$MODEL" --grid "$grid" --out "$TMP/s$grid" >/dev/null || { bad "shard $grid"; continue; }
    timeout 300 $MPIRUN -np "$np" "$BIN" solve "$TMP/s$grid" --tol 1e-8 --quiet \
        --json "$TMP/$grid.json" --sol "$TMP/$grid.sol" --out "$TMP/$grid.out" >"$TMP/log" 2>&1 \
        || { bad "solve shards $grid: $(tail -3 "$TMP/log")"; continue; }
    python3 - "$TMP/direct.json" "$TMP/$grid.json" "$grid" <<'PY' && ok || bad "same result $grid"
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
g = [int(v) for v in sys.argv[3].split("x")]
assert b["status"] == a["status"] == "optimal", (a["status"], b["status"])
assert abs(a["objective"] - b["objective"]) <= 1e-8 * max(1, abs(a["objective"])), (a["objective"], b["objective"])
assert abs(a["iterations"] - b["iterations"]) <= 200, (a["iterations"], b["iterations"])
assert b["grid"] == g and b["ranks"] == g[0] * g[1] and len(b["nnz_per_rank"]) == g[0] * g[1]
assert sum(b["nnz_per_rank"]) == a["nnz_per_rank"][0]
PY
    "$BIN" check "$MODEL" "$TMP/$grid.sol" --tol 1e-6 --quiet >/dev/null && ok || bad "check text solution $grid"
    [ -f "$TMP/$grid.out/solution.json" ] && ok || bad "sharded solution $grid"
    # The sharded solution checked block by block against the shard model, and whole
    # against the MPS model.
    "$BIN" check "$TMP/s$grid" "$TMP/$grid.out" --tol 1e-6 --quiet >/dev/null && ok || bad "check shards $grid"
    "$BIN" check "$MODEL" "$TMP/$grid.out" --tol 1e-6 --quiet >/dev/null && ok || bad "check MPS + sharded solution $grid"
done

# A solution stopped after 200 iterations must fail the streaming check (exit 1), and a
# solution of another model is refused (exit 2).
timeout 300 $MPIRUN -np 4 "$BIN" solve "$TMP/s2x2" --iter-limit 200 --quiet --out "$TMP/early.out" >/dev/null 2>&1
"$BIN" check "$TMP/s2x2" "$TMP/early.out" --tol 1e-6 --quiet >/dev/null; code=$?
[ $code -eq 1 ] && ok || bad "unconverged sharded solution should fail the check (exit $code)"
"$BIN" shard "$SHARED/lp/netlib/afiro.mps.gz" --grid 2x2 --out "$TMP/afiro2x2" >/dev/null
"$BIN" check "$TMP/afiro2x2" "$TMP/2x2.out" --quiet >/dev/null 2>"$TMP/err"; code=$?
[ $code -eq 2 ] && grep -q "model" "$TMP/err" && ok || bad "solution of another model (exit $code)"

# Wrong rank count: clear message, non-zero exit, no hang.
timeout 60 $MPIRUN -np 3 "$BIN" solve "$TMP/s2x2" >"$TMP/out" 2>"$TMP/err"; code=$?
[ $code -ne 0 ] && [ $code -ne 124 ] && grep -q "cut for a 2x2 grid" "$TMP/err" && ok || bad "wrong rank count (exit $code)"
# Corrupted block: every rank exits non-zero, the message names the file.
printf 'x' | dd of="$TMP/s2x2/block_1_1.bin" bs=1 seek=150 conv=notrunc 2>/dev/null
timeout 60 $MPIRUN -np 4 "$BIN" solve "$TMP/s2x2" >"$TMP/out" 2>"$TMP/err"; code=$?
[ $code -ne 0 ] && [ $code -ne 124 ] && grep -q "block_1_1.bin" "$TMP/err" && ok || bad "corrupted block (exit $code)"
[ "$(grep -c '^shardlp: error' "$TMP/err")" -eq 1 ] && ok || bad "one error line: $(cat "$TMP/err")"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
