#!/usr/bin/env bash
# --precision fp32-matrix (docs/memory.md, "FP32 matrix values"): the iterations read
# FP32 copies of the matrix values until the residuals reach 1e-5, then the doubles, so a
# tight tolerance is still met: e226 and boeing1 at 1e-8 end optimal at their published
# optima (1e-6 relative) and the log names the hand-over; the guarded backend (the CPU
# kernels on guarded memory) ends bit for bit as the CPU backend; the options it cannot
# serve (checkpoints) are refused with one line; polishing's phases read the doubles. (The CUDA backend's FP32 products are
# compared with the CPU's by bench/gpu-check.sh on a device.)
set -u
BIN=$1; ROOT=$2; SHARED=$3
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

for spec in e226:-11.63892907 boeing1:-335.2135675; do
    name=${spec%%:*}; ref=${spec#*:}
    "$BIN" solve "$SHARED/lp/netlib/$name.mps.gz" --precision fp32-matrix --tol 1e-8 --threads 1 \
        --verbosity 2 --json "$T/$name.json" > "$T/$name.log" 2>&1 || bad "$name: exit $?"
    python3 - "$T/$name.json" "$ref" "$name" <<'PY' && ok || bad "$name: see above"
import json, sys
j, ref = json.load(open(sys.argv[1])), float(sys.argv[2])
good = j["status"] == "optimal" and abs(j["objective"] - ref) <= 1e-6 * abs(ref)
print(sys.argv[3], j["status"], j["iterations"], j["objective"], "reference", ref)
sys.exit(0 if good else 1)
PY
    grep -q "^precision: the iterations read the FP64 matrix from iteration" "$T/$name.log" && ok ||
        bad "$name: no hand-over in the log"
    grep -q "^Matrix: .*plain + fp32" "$T/$name.log" && ok || bad "$name: $(grep '^Matrix' "$T/$name.log")"
done

model="$SHARED/lp/netlib/e226.mps.gz"
for backend in cpu guarded; do
    "$BIN" solve "$model" --precision fp32-matrix --tol 1e-6 --threads 2 --backend $backend \
        --json "$T/$backend.json" --quiet || bad "backend $backend: exit $?"
done
python3 - "$T/cpu.json" "$T/guarded.json" <<'PY' && ok || bad "guarded differs from cpu"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
sys.exit(0 if all(a[k] == b[k] for k in ("status", "iterations", "objective", "dual_objective")) else 1)
PY

for extra in "--checkpoint $T/ck"; do
    # shellcheck disable=SC2086
    "$BIN" solve "$model" --precision fp32-matrix $extra --quiet > "$T/out" 2> "$T/err"
    code=$?
    [ $code -ne 0 ] && [ "$(wc -l < "$T/err")" -eq 1 ] && grep -q "precision" "$T/err" && ok ||
        bad "fp32-matrix with $extra: exit $code, $(cat "$T/err")"
done
# Feasibility polishing under the benchmark's criterion (absolute 1e-8): its phases read the
# doubles, since FP32 values put a floor above 1e-8 under their residuals. A generated
# heat-source LP must meet the criterion with FP32 values in at most 3 times the
# iterations the doubles take (when the phases read FP32 too: 246,248 against 8,704).
"$BIN" gen heat-source --grid-size 6 --candidates 8 --sources 2 --measurements 6 --scale benchmark \
    --mps "$T/hs.mps" --quiet || bad "gen heat-source"
CRIT="--termination detailed --eps-abs 1e-8 --eps-rel 0 --gap-rel 1e-2 --norm linf --polish --threads 1"
for p in fp64 fp32-matrix; do
    # shellcheck disable=SC2086
    timeout 120 "$BIN" solve "$T/hs.mps" $CRIT --precision $p --quiet --json "$T/hs-$p.json" ||
        bad "heat-source --precision $p: exit $?"
done
python3 - "$T/hs-fp64.json" "$T/hs-fp32-matrix.json" <<'PY' && ok || bad "heat-source with polishing: see above"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
print("heat-source, polishing: fp64", a["status"], a["iterations"], "fp32-matrix", b["status"], b["iterations"])
sys.exit(0 if a["status"] == b["status"] == "optimal" and b["iterations"] <= 3 * a["iterations"] else 1)
PY
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
