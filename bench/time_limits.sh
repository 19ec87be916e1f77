#!/usr/bin/env bash
# Time limits under MPI (issue 40, docs/reliability.md "One clock"): RUNS presolved solves
# of a model on 2x2 with --time-limit cycling through 1..6 s; each must end with status
# time_limit or optimal and a JSON summary, none killed by the watchdog.
# Usage: bash bench/time_limits.sh [BUILD/shardlp] [MODEL] [RUNS]
set -uo pipefail
BIN=$(readlink -f "${1:-build/shardlp}")
MODEL=${2:-tests/data/corpus/lp/netlib/pilot4.mps.gz}
RUNS=${3:-50}
MPIRUN="mpirun --allow-run-as-root --oversubscribe"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
declare -A count
for k in $(seq 1 "$RUNS"); do
    limit=$(( (k - 1) % 6 + 1 ))
    rm -f "$TMP/run.json"
    timeout 300 $MPIRUN -np 4 "$BIN" solve "$MODEL" --grid 2x2 --threads 1 --time-limit $limit \
        --json "$TMP/run.json" > "$TMP/log" 2>&1
    rc=$?
    status=$(python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['status'])" \
             "$TMP/run.json" 2>/dev/null || echo "none(exit $rc)")
    count[$status]=$(( ${count[$status]:-0} + 1 ))
    case "$status" in time_limit|optimal) ;; *) echo "run $k (--time-limit $limit): $status"; tail -20 "$TMP/log";; esac
done
for s in "${!count[@]}"; do echo "$s ${count[$s]}"; done | sort
