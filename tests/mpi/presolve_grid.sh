#!/usr/bin/env bash
# The presolve unit test (tests/unit/test_presolve.c) on 2x2, 4x1 and 1x4 MPI
# grids: every hand-made LP, the design-match instance and the Netlib cases must
# give the same removal counts and pass the checker on the original model, as on
# 1x1. Arguments: shardlp binary, repository root, shared corpus directory; the
# test binary sits next to shardlp in the build directory.
set -u
BIN=$1; ROOT=$2; SHARED=$3
TEST="$(dirname "$BIN")/test_presolve"
MPIRUN="mpirun --allow-run-as-root --oversubscribe --mca btl self,vader"
[ -x "$TEST" ] || { echo "missing $TEST"; exit 1; }
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
pass=0; fail=0
timeout 300 "$TEST" "$SHARED" "$ROOT" >"$TMP/1x1.log" 2>&1 || { echo "1x1 failed"; cat "$TMP/1x1.log"; fail=$((fail+1)); }
for grid in 2x2 4x1 1x4; do
    if timeout 600 $MPIRUN -np 4 "$TEST" "$SHARED" "$ROOT" "$grid" >"$TMP/$grid.log" 2>&1; then
        # removal counts printed by rank 0 must match the 1x1 run (objectives are
        # checked against the reference inside each run)
        if diff <(grep -E '^(design|netlib)' "$TMP/1x1.log" | sed -E 's/;? obj.*//') \
                <(grep -E '^(design|netlib)' "$TMP/$grid.log" | sed -E 's/;? obj.*//') >"$TMP/diff"; then
            echo "$grid: ok ($(tail -1 "$TMP/$grid.log"))"; pass=$((pass+1))
        else
            echo "$grid: counts or objectives differ from 1x1"; cat "$TMP/diff"; fail=$((fail+1))
        fi
    else
        echo "$grid: failed"; cat "$TMP/$grid.log"; fail=$((fail+1))
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
