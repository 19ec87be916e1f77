#!/usr/bin/env bash
# Threads beside a busy process (docs/threads.md): each LP solved with --threads 1,
# --threads 2 and the default count (the governor), first on the quiet machine, then
# with one `yes >/dev/null` running beside it. Prints one CSV row per run; the short
# LPs are run REPS times (default 3), the three thread settings in turn, since single
# runs of a second vary by 30% on a shared machine.
# Usage: bench/threads_load.sh [BIN] [SHARED]   (defaults build/shardlp, ../shared)
set -u
BIN=${1:-build/shardlp}; SHARED=${2:-../shared}
T=$(mktemp -d); trap 'rm -rf "$T"; [ -n "${YES:-}" ] && kill "$YES" 2>/dev/null' EXIT
"$BIN" gen transport --sources 20000 --sinks 60000 --neighbors 20 --scale benchmark --grid 1x1 \
    --out "$T/transport" --quiet
"$BIN" gen mcf --commodities 100 --factories 5 --warehouses 50 --stores 30 --grid 1x1 \
    --out "$T/mcf" --quiet
MODELS=("$T/transport" "$T/mcf" "$SHARED/lp/kennington/osa-14.mps.gz"
        "$SHARED/lp/mittelmann/rail516.mps.gz" "$SHARED/lp/kennington/pds-06.mps.gz")
run() { # load model threads-option
    local json=$T/run.json
    "$BIN" solve "$2" --quiet --time-limit 300 --json "$json" $3 >/dev/null 2>&1
    python3 - "$json" "$1" "$(basename "$2")" "${3:-default}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"{sys.argv[2]},{sys.argv[3]},{sys.argv[4]},{d['status']},{d['iterations']},"
      f"{d['objective']!r},{d['solve_seconds']:.2f}")
PY
}
uptime
echo "load,model,threads,status,iterations,objective,solve_seconds"
for load in quiet busy; do
    if [ $load = busy ]; then yes >/dev/null & YES=$!; sleep 1; fi
    for m in "${MODELS[@]}"; do
        reps=${REPS:-3}; [ "$m" = "$T/transport" ] && reps=1
        for ((k = 0; k < reps; k++)); do
            for t in "--threads 1" "--threads 2" ""; do run $load "$m" "$t"; done
        done
    done
done
