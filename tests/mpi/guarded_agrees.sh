#!/usr/bin/env bash
# The guarded backend (vectors host code cannot touch, sums staged through host
# buffers as for CUDA; docs/gpu.md) against the CPU backend: on grids 1x1, 2x2,
# 1x4 and 4x1 with the dense and the support plan, with presolve, polishing,
# --sol/--out and checkpoint/resume, both backends must give the same status,
# iteration count and objective (bitwise: the staged sums keep the summation
# order), and byte-identical solution files. The CPU runs are also held to the
# published optimum. A host touch of a guarded vector kills the run (SIGSEGV).
set -u
BIN=$(readlink -f "$1"); ROOT=$2; SHARED=$3
MPIRUN=(mpirun --allow-run-as-root --oversubscribe --mca btl self,vader)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

run() { # tag grid model extra-args...
    local tag=$1 grid=$2 model=$3; shift 3
    local np=$(( ${grid%x*} * ${grid#*x} ))
    timeout 300 "${MPIRUN[@]}" -np "$np" "$BIN" solve "$model" --grid "$grid" --quiet \
        --json "$T/$tag.json" "$@" >"$T/$tag.log" 2>&1 || { cat "$T/$tag.log"; return 1; }
}

# Status, iterations, objective and dual objective identical; print one line.
agree() { # label cpu.json guarded.json [reference objective]
    python3 - "$@" <<'PY'
import json, sys
label, a, b = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
ref = float(sys.argv[4]) if len(sys.argv) > 4 else None
keys = ["status", "iterations", "objective", "dual_objective"]
same = all(a[k] == b[k] for k in keys)
near = ref is None or abs(a["objective"] - ref) <= 1e-6 * max(1.0, abs(ref))
print(f"{label}: cpu {a['status']} {a['iterations']} {a['objective']!r}; "
      f"guarded {b['status']} {b['iterations']} {b['objective']!r}"
      f"{'' if same else ' MISMATCH'}{'' if near else ' OFF THE REFERENCE'}")
sys.exit(0 if same and near else 1)
PY
}

both() { # label grid model ref extra-args... (ref "-" for none)
    local label=$1 grid=$2 model=$3 ref=$4; shift 4
    local ok=1
    for be in cpu guarded; do
        run "$label-$be" "$grid" "$model" --backend "$be" "$@" || { bad "$label on $be"; return; }
    done
    if [ "$ref" = - ]; then agree "$label" "$T/$label-cpu.json" "$T/$label-guarded.json" || ok=0
    else agree "$label" "$T/$label-cpu.json" "$T/$label-guarded.json" "$ref" || ok=0; fi
    [ $ok = 1 ] && pass=$((pass+1)) || fail=$((fail+1))
}

AFIRO=$SHARED/lp/netlib/afiro.mps.gz
ADLITTLE=$SHARED/lp/netlib/adlittle.mps.gz
for grid in 1x1 2x2 1x4 4x1; do
    for comm in dense support; do
        both "afiro-$grid-$comm" "$grid" "$AFIRO" -464.7531428571 --comm "$comm" --tol 1e-8
        both "adlittle-$grid-$comm-presolve" "$grid" "$ADLITTLE" 225494.96316 --comm "$comm" \
            --presolve --tol 1e-6
    done
done
# polishing under the published criterion (its phases run on scagr7: polish_iterations > 0)
both "scagr7-2x2-polish" 2x2 "$SHARED/lp/netlib/scagr7.mps.gz" - --comm support --polish \
    --eps-abs 1e-8 --eps-rel 0 --gap-rel 1e-2 --norm linf --time-limit 60
python3 -c "import json,sys; sys.exit(json.load(open(sys.argv[1]))['polish_iterations'] <= 0)" \
    "$T/scagr7-2x2-polish-guarded.json" || bad "no polishing phase ran on the guarded backend"
both "infeasible-2x2" 2x2 "$ROOT/tests/data/statuses/fixed-cancel-infeasible.mps" - --comm support
both "bgprtr-1x4" 1x4 "$SHARED/lp/netlib-infeas/bgprtr.mps.gz" - --comm support

# Solution files: --sol (one text file) and --out (sharded) byte-identical.
for be in cpu guarded; do
    run "files-$be" 2x2 "$ADLITTLE" --backend "$be" --comm support --tol 1e-6 \
        --sol "$T/$be.sol" --out "$T/$be.out" || bad "solution files on $be"
done
if cmp -s "$T/cpu.sol" "$T/guarded.sol" && diff -r "$T/cpu.out" "$T/guarded.out" >/dev/null; then
    echo "solution files: identical"; pass=$((pass+1))
else bad "solution files differ between the backends"; fi

# Checkpoint on the guarded backend, resumed on the CPU backend (and the reverse): the
# checkpoint holds downloaded values, so either resume must end like a straight run.
"$BIN" gen qap --size 9 --grid 2x2 --out "$T/q.shards" --quiet || bad "gen"
Q=(--tol 1e-6 --quiet)
timeout 120 "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/q.shards" "${Q[@]}" --json "$T/q-ref.json" \
    >/dev/null 2>&1 || bad "qap reference"
for pair in guarded:cpu cpu:guarded; do
    first=${pair%%:*}; second=${pair#*:}
    rm -rf "$T/ck"
    timeout 120 "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/q.shards" "${Q[@]}" --backend "$first" \
        --checkpoint "$T/ck" --checkpoint-every 1e-9 --iter-limit 400 --json "$T/q-a.json" \
        >"$T/q-a.log" 2>&1 || { cat "$T/q-a.log"; bad "checkpointed run on $first"; continue; }
    timeout 120 "${MPIRUN[@]}" -np 4 "$BIN" solve "$T/q.shards" "${Q[@]}" --backend "$second" \
        --resume "$T/ck" --json "$T/q-b.json" >"$T/q-b.log" 2>&1 \
        || { cat "$T/q-b.log"; bad "resume on $second"; continue; }
    if python3 - "$T/q-ref.json" "$T/q-b.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
ok = a["status"] == b["status"] and a["iterations"] == b["iterations"] and a["objective"] == b["objective"]
print(f"straight {a['status']} {a['iterations']} {a['objective']!r}; resumed {b['status']} "
      f"{b['iterations']} {b['objective']!r}")
sys.exit(0 if ok else 1)
PY
    then echo "checkpoint $first -> resume $second: same"; pass=$((pass+1))
    else bad "checkpoint $first -> resume $second"; fi
done

echo "guarded_agrees: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
