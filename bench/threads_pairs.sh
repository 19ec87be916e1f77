#!/usr/bin/env bash
# The default thread count against --threads 1 beside a busy process (docs/threads.md):
# one `yes >/dev/null` runs throughout; the LP is solved PAIRS times with each setting,
# the order alternating (default first, then --threads 1 first), since single runs on a
# shared machine vary by 10%. Prints one CSV row per run and the ratio of the sums.
# Usage: bench/threads_pairs.sh [BIN] [PAIRS] [MODEL]
#   defaults: build/shardlp, 4, the transport LP of issue 47 (generated here)
set -u
BIN=${1:-build/shardlp}; PAIRS=${2:-4}; MODEL=${3:-}
T=$(mktemp -d); trap 'rm -rf "$T"; [ -n "${YES:-}" ] && kill "$YES" 2>/dev/null' EXIT
if [ -z "$MODEL" ]; then
    MODEL=$T/transport
    "$BIN" gen transport --sources 20000 --sinks 60000 --neighbors 20 --scale benchmark \
        --grid 1x1 --out "$MODEL" --quiet
fi
yes >/dev/null & YES=$!; sleep 1
uptime
echo "setting,status,iterations,objective,solve_seconds"
for ((k = 0; k < PAIRS; k++)); do
    order=("default" "--threads 1"); [ $((k % 2)) -eq 1 ] && order=("--threads 1" "default")
    for s in "${order[@]}"; do
        opt=$s; [ "$s" = default ] && opt=
        "$BIN" solve "$MODEL" --quiet --time-limit 300 --json "$T/run.json" $opt >/dev/null 2>&1
        python3 - "$T/run.json" "$s" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"{sys.argv[2]},{d['status']},{d['iterations']},{d['objective']!r},{d['solve_seconds']:.2f}")
PY
    done
done | tee "$T/rows.csv"
python3 - "$T/rows.csv" <<'PY'
import sys
t = {}
for line in open(sys.argv[1]):
    s, *_, sec = line.strip().split(",")
    t[s] = t.get(s, 0.0) + float(sec)
print(f"sum default {t['default']:.2f} s, --threads 1 {t['--threads 1']:.2f} s, "
      f"ratio {t['default'] / t['--threads 1']:.3f}")
PY
uptime
