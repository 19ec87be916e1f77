#!/usr/bin/env bash
# SIGINT / SIGTERM (issue 9): a running solve stops at its next check, reports status
# `interrupted` (JSON; "Interrupted by user" in the text solution), writes its outputs
# and exits 0 -- on one process and on every rank of a 4-rank job (all ranks signalled,
# or only one: the stop is agreed by a max-reduction at the check).
set -u
BIN=$(realpath "$1"); REPO=$(realpath "$2")
MPIRUN=(mpirun --allow-run-as-root --oversubscribe --mca btl self,vader)
T=$(mktemp -d /tmp/slp_intr.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$T" || exit 1

"$BIN" gen qap --size 10 --grid 1x1 --out one.shards --quiet || fail gen
"$BIN" gen qap --size 10 --grid 2x2 --out four.shards --quiet || fail gen

# run_and_signal NAME SIGNAL WHICH(all|one) LAUNCH...
run_and_signal() {
  local name=$1 sig=$2 which=$3 model=$4; shift 4
  "$@" "$BIN" solve "$T/$model" --tol 1e-12 --json "$name.json" --sol "$name.sol" > "$name.log" 2>&1 &
  local pid=$!
  # Wait until the iteration table starts (every rank has installed its handler by then).
  for _ in $(seq 1 400); do
    grep -q "^ *[0-9]" "$name.log" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  local pids
  pids=$(pgrep -f "^$BIN solve $T/$model")
  [ -n "$pids" ] || fail "$name: solver processes not found: $(cat "$name.log")"
  [ "$which" = one ] && pids=$(echo "$pids" | head -n1)
  for p in $pids; do kill "-$sig" "$p"; done
  local waited=0
  while kill -0 "$pid" 2>/dev/null; do
    sleep 0.2; waited=$((waited + 1))
    if [ $waited -gt 150 ]; then kill -KILL "$pid"; fail "$name: no exit 30 s after SIG$sig (hang)"; fi
  done
  wait "$pid"
  local rc=$?
  [ $rc -eq 0 ] || { cat "$name.log"; fail "$name: exit status $rc after SIG$sig"; }
  python3 - "$name.json" <<'PY' || fail "$name: JSON status"
import json, sys
d = json.load(open(sys.argv[1]))
print(f"  status {d['status']} after {d['iterations']} iterations, objective {d['objective']}")
sys.exit(0 if d["status"] == "interrupted" and d["iterations"] > 0 else 1)
PY
  grep -q "Interrupted by user" "$name.sol" || fail "$name: text solution not written"
  [ "$(grep -c . "$name.sol")" -gt 10 ] || fail "$name: text solution incomplete"
  echo "$name: ok (SIG$sig, $which)"
}

run_and_signal single_int INT all one.shards
run_and_signal single_term TERM all one.shards
run_and_signal single_usr1 USR1 all one.shards # Slurm's --signal=USR1@T
run_and_signal mpi_int INT all four.shards "${MPIRUN[@]}" -np 4
run_and_signal mpi_term_one TERM one four.shards "${MPIRUN[@]}" -np 4
# Signals while reading the input: a pipe with no writer (blocked in open) and a pipe
# whose writer stalls mid-file (blocked in read) end within 2 s with one line, on one
# rank and under mpirun (rank 0 reads, the others wait for it): the time is until the
# last rank process has ended.
signal_while_reading() { # NAME FEED(0 none / 1 stalled) LAUNCHER...
  local name="$1" feed="$2"; shift 2
  rm -f "$name.mps"; mkfifo "$name.mps"
  local writer=""
  if [ "$feed" = 1 ]; then
    (head -c 300 "$REPO/examples/data/afiro.mps"; sleep 60) > "$name.mps" & writer=$!
  fi
  "$@" "$BIN" solve "$T/$name.mps" > "$name.log" 2>&1 &
  local pid=$!
  sleep 2
  # to the ranks, as a scheduler sends it (mpirun itself forwards SIGTERM only after
  # its own delay of about 2 s)
  pkill -TERM -f "^$BIN solve $T/$name.mps"
  local t0; t0=$(date +%s%N)
  # the ranks themselves must end within 2 s (mpirun's own teardown comes after)
  while pgrep -f "^$BIN solve $T/$name.mps" > /dev/null; do sleep 0.05; done
  local ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  wait "$pid"; local rc=$?
  [ -n "$writer" ] && kill "$writer" 2>/dev/null
  [ "$rc" -ne 0 ] || fail "$name: exit 0 after SIGTERM"
  [ "$ms" -le 2000 ] || fail "$name: took $ms ms to stop"
  # one process prints why; under mpirun the job kill may take rank 0 down first
  [ $# -gt 0 ] || grep -q "interrupted by signal 15" "$name.log" || fail "$name: no message: $(cat "$name.log")"
  echo "$name: ok (stopped $ms ms after SIGTERM)"
}
signal_while_reading fifo_open 0
signal_while_reading fifo_read 1
signal_while_reading fifo_mpi 1 "${MPIRUN[@]}" -np 2
# SIGTERM at any moment of a run (reading, presolve, setup, main loop, verification,
# output): the process ends within 2 s, with status interrupted (main loop, exit 0), an
# interrupted read (exit 1) or one line and exit 143 (the other phases), and never
# leaves a partial --json.
"$BIN" gen qap --size 16 --grid 1x1 --out any.shards --mps "$T/any.mps" --quiet || fail "gen any"
for delay in 0.05 0.15 0.3 0.45 0.6 0.8 1.0; do
  rm -f any.json
  "$BIN" solve "$T/any.mps" --tol 1e-9 --json any.json > any.log 2>&1 &
  pid=$!
  sleep "$delay"
  kill -TERM "$pid" 2>/dev/null
  t0=$(date +%s%N)
  wait "$pid"; rc=$?
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  [ "$ms" -le 2000 ] || fail "SIGTERM after $delay s: $ms ms to stop"
  case $rc in
    0) python3 -c "import json,sys; sys.exit(json.load(open('any.json'))['status'] not in ('interrupted', 'optimal'))" ||
         fail "SIGTERM after $delay s: exit 0 without an interrupted or optimal summary" ;;
    1|143) [ ! -e any.json ] || fail "SIGTERM after $delay s: exit $rc but a JSON summary was written"
           grep -q "interrupted" any.log || fail "SIGTERM after $delay s: no message: $(cat any.log)" ;;
    *) fail "SIGTERM after $delay s: exit $rc" ;;
  esac
  echo "SIGTERM after $delay s: exit $rc in $ms ms"
done
echo "interrupt: all passed"
