#!/usr/bin/env bash
# SIGINT / SIGTERM (issue 9): a running solve stops at its next check, reports status
# `interrupted` (JSON; "Interrupted by user" in the text solution), writes its outputs
# and exits 0 -- on one process and on every rank of a 4-rank job (all ranks signalled,
# or only one: the stop is agreed by a max-reduction at the check).
set -u
BIN=$(realpath "$1")
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
run_and_signal mpi_int INT all four.shards "${MPIRUN[@]}" -np 4
run_and_signal mpi_term_one TERM one four.shards "${MPIRUN[@]}" -np 4
echo "interrupt: all passed"
