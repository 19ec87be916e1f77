#!/usr/bin/env bash
# Threads (docs/threads.md): the thread governor changes the count between windows,
# so a solve must end bitwise the same whatever the counts it ran on. A transport LP
# large enough for every kernel to run threaded, solved with 3 fixed threads and with
# the default count of 3 (OMP_NUM_THREADS) under SLP_TEST_GOVERNOR_FLIP, which moves
# the count (3, 1, 3, ...) after every window: the same status, iterations and
# objective bits, and the log's thread line. The same with the default count of 3
# started on 1 (SLP_TEST_BUSY_CPUS=2: two other runnable tasks seen at the start): the
# work is cut for 3 whatever runs it, so the same bits again. Bad --threads values are
# refused.
set -u
BIN=$1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

"$BIN" gen transport --sources 3000 --sinks 9000 --neighbors 10 --scale benchmark --grid 1x1 \
    --out "$T/tr" --quiet || bad "gen"
"$BIN" solve "$T/tr" --threads 3 --quiet --json "$T/fixed.json" >/dev/null 2>&1 || bad "--threads 3"
OMP_NUM_THREADS=3 SLP_TEST_GOVERNOR_FLIP=1 "$BIN" solve "$T/tr" --json "$T/moved.json" \
    --verbosity 2 >"$T/moved.log" 2>&1 || bad "default count, flipped"
grep -Eq "^threads: the governor changed the count [0-9]{2,} times" "$T/moved.log" \
    && ok || bad "the count did not move"
grep -q "^Threads: 3 (OMP_NUM_THREADS); fewer while other processes hold the cores" "$T/moved.log" \
    && ok || { bad "thread line"; head -3 "$T/moved.log"; }
OMP_NUM_THREADS=3 SLP_TEST_BUSY_CPUS=2 "$BIN" solve "$T/tr" --json "$T/busy.json" \
    >"$T/busy.log" 2>&1 || bad "default count, busy start"
grep -q "^Threads: 1 of 3 (OMP_NUM_THREADS): 2 other runnable tasks now" "$T/busy.log" \
    && ok || { bad "busy start's thread line"; head -3 "$T/busy.log"; }
for run in moved busy; do
    python3 - "$T/fixed.json" "$T/$run.json" "$run" <<'PY' && ok || bad "$run: the count changed the solve"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
keys = ["status", "iterations", "objective", "dual_objective"]
print("3 threads:", [a[k] for k in keys], sys.argv[3] + ":", [b[k] for k in keys])
sys.exit(0 if a["status"] == "optimal" and all(a[k] == b[k] for k in keys) else 1)
PY
done
for v in -1 abc 5000; do
    "$BIN" solve "$T/tr" --threads "$v" --quiet >/dev/null 2>"$T/err" && bad "--threads $v accepted" \
        || { grep -q "option threads" "$T/err" && ok || bad "--threads $v: $(cat "$T/err")"; }
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
