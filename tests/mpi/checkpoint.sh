#!/usr/bin/env bash
# Checkpoint and restart on a 2x2 grid (issue 9):
#  1. a 4-rank solve killed with SIGKILL right after its first checkpoint, resumed with
#     --resume, ends with the uninterrupted run's status, objective (1e-9 relative) and
#     total iteration count;
#  2. a deterministic variant: stop at --iter-limit after checkpoints, resume, same result;
#     and one job line (--checkpoint D --resume D) that starts cold on an empty D and
#     resumes on the next run; SIGTERM and --time-limit leave a last checkpoint (2c);
#     the deterministic variant again with --weight-rule hpr (2d);
#  3. corrupted or mismatched checkpoints are refused with a clear message, non-zero exit.
# Expected values come from the uninterrupted run of the same binary on the same shards
# (the method is deterministic for a fixed grid).
set -u
BIN=$(realpath "$1")
MPIRUN=(mpirun --allow-run-as-root --oversubscribe --mca btl self,vader)
T=$(mktemp -d /tmp/slp_ckpt.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$T" || exit 1
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }
same_result() { # ref.json got.json
  python3 - "$1" "$2" <<'PY' || exit 1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
ok = (a["status"] == b["status"] and a["iterations"] == b["iterations"] and
      abs(a["objective"] - b["objective"]) <= 1e-9 * max(1.0, abs(a["objective"])))
print(f"reference {a['status']} {a['iterations']} {a['objective']!r}; "
      f"resumed {b['status']} {b['iterations']} {b['objective']!r}")
sys.exit(0 if ok else 1)
PY
}

"$BIN" gen qap --size 11 --grid 2x2 --out ckmodel.shards --quiet || fail "gen"
"$BIN" gen qap --size 11 --seed 2 --grid 2x2 --out other.shards --quiet || fail "gen other"
OPTS=(--tol 1e-6 --quiet)

# Reference: uninterrupted.
timeout 120 "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/ckmodel.shards" "${OPTS[@]}" --json ref.json \
  || fail "reference run"
[ "$(field ref.json status)" = optimal ] || fail "reference not optimal"

# 1. SIGKILL after the first checkpoint.
"${MPIRUN[@]}" -np 4 "$BIN" solve "$T/ckmodel.shards" "${OPTS[@]}" --checkpoint "$T/ck" \
  --checkpoint-every 0.5 --json killed.json > killed.log 2>&1 &
MPI_PID=$!
for _ in $(seq 1 600); do
  [ -f "$T/ck/checkpoint.json" ] && break
  kill -0 "$MPI_PID" 2>/dev/null || break
  sleep 0.05
done
[ -f "$T/ck/checkpoint.json" ] || fail "no checkpoint was written: $(cat killed.log)"
for p in $(pgrep -f "^$BIN solve $T/ckmodel.shards"); do kill -KILL "$p" 2>/dev/null; done
kill -KILL "$MPI_PID" 2>/dev/null
wait "$MPI_PID" 2>/dev/null
[ ! -f killed.json ] || fail "the killed run finished before the kill (model too small?)"
echo "killed after: $(cat "$T/ck/checkpoint.json")"
timeout 120 "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/ckmodel.shards" "${OPTS[@]}" --resume "$T/ck" \
  --json resumed.json || fail "resume after SIGKILL"
same_result ref.json resumed.json || fail "resumed run differs from the uninterrupted one"

# 2. Deterministic: checkpoint at every check, stop at 1000 iterations, resume.
timeout 120 "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/ckmodel.shards" "${OPTS[@]}" --checkpoint "$T/ck2" \
  --checkpoint-every 1e-9 --iter-limit 1000 --json part.json || fail "partial run"
[ "$(field part.json status)" = iteration_limit ] || fail "partial run status"
timeout 120 "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/ckmodel.shards" "${OPTS[@]}" --resume "$T/ck2" \
  --json resumed2.json || fail "resume after the iteration limit"
same_result ref.json resumed2.json || fail "resumed (iteration limit) differs"

# 2d. The same with --weight-rule hpr, whose weight depends on the smallest fixed-point
#     residual of every earlier check (the checkpoint carries it, format version 4).
HPR=(--weight-rule hpr)
timeout 120 "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/ckmodel.shards" "${OPTS[@]}" "${HPR[@]}" \
  --json ref_hpr.json || fail "reference run (hpr)"
[ "$(field ref_hpr.json status)" = optimal ] || fail "reference (hpr) not optimal"
timeout 120 "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/ckmodel.shards" "${OPTS[@]}" "${HPR[@]}" \
  --checkpoint "$T/ck6" --checkpoint-every 1e-9 --iter-limit 1000 --json part6.json || fail "partial run (hpr)"
timeout 120 "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/ckmodel.shards" "${OPTS[@]}" "${HPR[@]}" \
  --resume "$T/ck6" --json resumed6.json || fail "resume (hpr)"
same_result ref_hpr.json resumed6.json || fail "resumed (hpr) differs from the uninterrupted run"

# 2b. One job line for the first run and every requeue: --resume DIR on a directory with
#     no checkpoint yet starts cold; the same line then resumes what the first left.
JOB=(--checkpoint "$T/ck3" --resume "$T/ck3" --checkpoint-every 1e-9)
timeout 120 "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/ckmodel.shards" --tol 1e-6 "${JOB[@]}" \
  --iter-limit 1000 --json first.json > first.log 2>&1 || fail "first run of the job line: $(tail -2 first.log)"
grep -q "holds no checkpoint yet; starting cold" first.log || fail "no cold start: $(head -5 first.log)"
[ "$(field first.json status)" = iteration_limit ] || fail "first run status"
timeout 120 "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/ckmodel.shards" --tol 1e-6 "${JOB[@]}" \
  --json second.json > second.log 2>&1 || fail "requeued run of the job line"
grep -q "^Resumed from" second.log || fail "the requeued run did not resume"
same_result ref.json second.json || fail "cold start then resume differs from the uninterrupted run"

# 2c. A batch job's end (docs/reliability.md): SIGTERM to every rank, as a scheduler sends
#     it before a requeue, stops the run at its next check with a last checkpoint (the
#     interval, 300 s, never came), and the resume ends bitwise as the uninterrupted run;
#     a run ended by --time-limit leaves one too, and the resume (its own clock: the
#     same limit again) goes on to the optimum.
"${MPIRUN[@]}" -np 4 "$BIN" solve "$T/ckmodel.shards" --tol 1e-6 --checkpoint "$T/ck4" \
  --json termed.json > termed.log 2>&1 &
MPI_PID=$!
for _ in $(seq 1 400); do
  grep -q "^ *[0-9]" termed.log 2>/dev/null && break
  kill -0 "$MPI_PID" 2>/dev/null || break
  sleep 0.05
done
signalled=0 # the ranks (process name shardlp, also behind tests/data/with_backend.sh), not mpirun
for p in $(pgrep -x shardlp); do
  tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -q "$T/ckmodel.shards" || continue
  kill -TERM "$p" && signalled=$((signalled + 1))
done
[ "$signalled" -eq 4 ] || fail "signalled $signalled solver processes, not 4"
timeout 60 tail --pid="$MPI_PID" -f /dev/null
wait "$MPI_PID"
[ "$(field termed.json status)" = interrupted ] || fail "SIGTERM: status $(field termed.json status)"
[ -f "$T/ck4/checkpoint.json" ] || fail "SIGTERM left no checkpoint: $(tail -3 termed.log)"
echo "SIGTERM after $(field termed.json iterations) iterations: $(cat "$T/ck4/checkpoint.json")"
timeout 120 "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/ckmodel.shards" "${OPTS[@]}" --resume "$T/ck4" \
  --json resumed4.json || fail "resume after SIGTERM"
python3 - ref.json resumed4.json <<'PY' || fail "resumed after SIGTERM: not bitwise the uninterrupted run"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
keys = ["status", "iterations", "objective", "dual_objective"]
print("uninterrupted", [a[k] for k in keys], "SIGTERM + resume", [b[k] for k in keys])
sys.exit(0 if all(a[k] == b[k] for k in keys) else 1)
PY
timeout 120 "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/ckmodel.shards" "${OPTS[@]}" --checkpoint "$T/ck5" \
  --time-limit 1 --json limited.json || fail "time-limited run"
[ "$(field limited.json status)" = time_limit ] || fail "time limit: status $(field limited.json status)"
[ -f "$T/ck5/checkpoint.json" ] || fail "the time limit left no checkpoint"
timeout 120 "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/ckmodel.shards" "${OPTS[@]}" --resume "$T/ck5" \
  --checkpoint "$T/ck5" --time-limit 60 --json resumed5.json || fail "resume after the time limit"
python3 - ref.json resumed5.json limited.json <<'PY' || fail "resumed after the time limit"
import json, sys
a, b, c = (json.load(open(p)) for p in sys.argv[1:4])
print(f"time limit at {c['iterations']}; resumed: {b['status']} at {b['iterations']} "
      f"{b['objective']!r} (uninterrupted {a['iterations']} {a['objective']!r})")
ok = b["status"] == "optimal" and b["iterations"] > c["iterations"]
ok = ok and abs(b["objective"] - a["objective"]) <= 1e-5 * max(1.0, abs(a["objective"]))
sys.exit(0 if ok else 1)
PY

# 3. Refusals: each must fail fast with a one-line message naming the problem.
expect_refusal() { # pattern, then the command
  local pat=$1; shift
  timeout 30 "$@" > out.log 2>&1
  local rc=$?
  [ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "expected a refusal (rc=$rc): $*"
  grep -q -- "$pat" out.log || { cat out.log; fail "message '$pat' missing"; }
  echo "refused ($pat): $(grep -m1 error out.log)"
}
gen=$(python3 -c "import json; print(json.load(open('$T/ck2/checkpoint.json'))['generation'])")
cp -r ck2 bad
python3 - "$T/bad/g$gen/rank_2.ckpt" <<'PY'
import sys
p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[len(b) // 2] ^= 0xFF
open(p, "wb").write(b)
PY
expect_refusal "checksum mismatch" "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/ckmodel.shards" "${OPTS[@]}" --resume "$T/bad"
cp -r ck2 trunc && truncate -s 100 "trunc/g$gen/rank_1.ckpt"
expect_refusal "truncated" "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/ckmodel.shards" "${OPTS[@]}" --resume "$T/trunc"
expect_refusal "different model" "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/other.shards" "${OPTS[@]}" --resume "$T/ck2"
"$BIN" gen qap --size 11 --grid 1x4 --out grid14.shards --quiet || fail "gen 1x4"
expect_refusal "grid" "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/grid14.shards" "${OPTS[@]}" --resume "$T/ck2"
echo '{"format": "something else"}' > ck2/checkpoint.json
expect_refusal "not a shardlp checkpoint" "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/ckmodel.shards" "${OPTS[@]}" --resume "$T/ck2"
expect_refusal "cannot open" "$BIN" solve "$T/../no-such-model-$$.mps" --resume "$T/none"
# A model of the same shape, bounds and objective whose matrix differs in one sign
# (so even the scaling factors, from absolute values, agree):
# the fingerprint covers the block's matrix, so the resume is refused.
cat > same1.mps <<'MPS'
NAME SAME
ROWS
 N obj
 L r1
 L r2
COLUMNS
    x obj -1 r1 1
    x r2 1
    y obj -1 r1 2
    y r2 3
RHS
    rhs r1 4 r2 6
ENDATA
MPS
sed 's/    y r2 3/    y r2 -3/' same1.mps > same2.mps
"$BIN" solve "$T/same1.mps" --quiet --tol 1e-12 --iter-limit 400 --checkpoint "$T/cks" \
  --checkpoint-every 1e-9 --no-presolve > /dev/null || fail "same1 partial run"
expect_refusal "different model" "$BIN" solve "$T/same2.mps" --quiet --tol 1e-12 --no-presolve --resume "$T/cks"
echo "checkpoint: all passed"
