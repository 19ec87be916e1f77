#!/usr/bin/env bash
# Sessions on grids (docs/session.md): the C API session test (tests/unit/test_api_session.c:
# 20 updates against hand-solved optima, two interleaved sessions against fresh ones,
# refused updates) run on 2 ranks (grid 2x1) and 4 ranks (grid 2x2), rank 0 holding the
# data; every rank must pass every check.
set -u
BIN=$1; ROOT=$2
TEST="$(dirname "$BIN")/test_api_session"
[ -x "$TEST" ] || { echo "missing $TEST"; echo "0 passed, 1 failed"; exit 1; }
pass=0; fail=0
for np in 2 4; do
    out=$(timeout 300 mpirun --allow-run-as-root --oversubscribe --mca btl self,vader -np $np \
          "$TEST" "" "$ROOT" 2>&1); code=$?
    if [ $code -eq 0 ] && echo "$out" | grep -q " 0 failed"; then
        pass=$((pass + 1))
    else
        echo "FAIL: $np ranks (exit $code)"; echo "$out" | grep -m5 FAIL; fail=$((fail + 1))
    fi
    echo "$np ranks: $(echo "$out" | grep -E '^updates|passed' | tr '\n' ' ')"
done
# A separate process (the command line) on afiro with the session's settings: the
# session's first afiro solve, interleaved with another session's, is bitwise its run.
json=$(mktemp); trap 'rm -f "$json"' EXIT
"$BIN" solve "$ROOT/examples/data/afiro.mps" --tol 1e-6 --threads 1 --quiet --json "$json" \
    >/dev/null 2>&1
cli=$(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(f\"objective {j['objective']!r} iterations {j['iterations']}\")" "$json")
lib=$("$(dirname "$BIN")/test_api_session" "" "$ROOT" 2>/dev/null | sed -n 's/^afiro in a session: //p')
if [ -n "$cli" ] && [ -n "$lib" ] && python3 -c "import sys; a, b = sys.argv[1].split(), sys.argv[2].split(); sys.exit(not (float(a[1]) == float(b[1]) and a[3] == b[3]))" "$cli" "$lib"; then
    pass=$((pass + 1))
else
    echo "FAIL: separate process '$cli', session '$lib'"; fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
