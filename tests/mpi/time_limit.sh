#!/usr/bin/env bash
# Every rank ends a time-limited solve on the same check (docs/reliability.md, "One
# clock"): a presolved run of Netlib pilot4 on 2x2 that cannot reach its tolerance ends
# with status time_limit and its JSON summary, never with the watchdog's kill (exit 3),
# for limits that fall in presolve's follow-up solve at different points. Before the
# agreed clock each rank gave the solve its own remaining time and the ranks deadlocked.
# Usage: time_limit.sh BUILD/shardlp REPO SHARED
set -uo pipefail
BIN=$(readlink -f "$1"); REPO=$(readlink -f "$2")
MPIRUN="mpirun --allow-run-as-root --oversubscribe"
MODEL="$REPO/tests/data/corpus/lp/netlib/pilot4.mps.gz"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
fails=0; passes=0
for limit in 1 2 3; do
    json="$TMP/run$limit.json"
    timeout 120 $MPIRUN -np 4 "$BIN" solve "$MODEL" --grid 2x2 --tol 1e-12 --threads 1 \
        --time-limit $limit --json "$json" > "$TMP/log$limit" 2>&1
    rc=$?
    status=$(python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['status'])" "$json" 2>/dev/null)
    if [ $rc -eq 0 ] && [ "$status" = time_limit ]; then
        passes=$((passes + 1))
    else
        echo "FAIL: --time-limit $limit: exit $rc, status '$status'"; tail -3 "$TMP/log$limit"
        fails=$((fails + 1))
    fi
done
echo "time_limit: $passes passed, $fails failed"
[ $fails -eq 0 ]
