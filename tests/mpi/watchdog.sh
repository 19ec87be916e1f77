#!/usr/bin/env bash
# The time limit holds when a rank stops answering (docs/reliability.md): one of two
# ranks is SIGSTOPped during the main loop; the time-limit watchdog ends the job within
# --time-limit + 30 s with one message and a non-zero exit, and no rank is left behind.
# Usage: watchdog.sh BUILD/shardlp REPO SHARED
set -uo pipefail
BIN=$(readlink -f "$1")
MPIRUN=(mpirun --allow-run-as-root --oversubscribe)
T=$(mktemp -d); trap 'pkill -KILL -f "^$BIN solve $T/" 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$BIN" gen qap --size 12 --grid 1x2 --out "$T/q.shards" --quiet || fail "gen"
LIMIT=3
start=$(date +%s)
timeout 120 "${MPIRUN[@]}" -np 2 "$BIN" solve "$T/q.shards" --tol 1e-300 --time-limit $LIMIT \
    > "$T/log" 2>&1 &
job=$!
for _ in $(seq 100); do # both ranks in their main loop
    [ "$(pgrep -fc "^$BIN solve $T/q.shards")" -ge 2 ] && break
    sleep 0.1
done
sleep 1.5
victim=$(pgrep -f "^$BIN solve $T/q.shards" | tail -1)
[ -n "$victim" ] || fail "no rank to stop"
kill -STOP "$victim"
wait "$job"
rc=$?
took=$(( $(date +%s) - start ))
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || fail "exit $rc (124: the job hung until timeout)"
[ "$took" -le $((LIMIT + 30)) ] || fail "the job ended after $took s, limit $LIMIT s + 30 s"
[ "$(grep -c "overran --time-limit" "$T/log")" -eq 1 ] || fail "message: $(grep error "$T/log")"
sleep 1
pgrep -f "^$BIN solve $T/q.shards" > /dev/null && fail "a rank is still alive"
echo "watchdog: the job ended after $took s (limit $LIMIT s), one message"
