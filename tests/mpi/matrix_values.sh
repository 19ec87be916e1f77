#!/usr/bin/env bash
# Compact matrix values (docs/memory.md, "Compact values"): a solve with the values in
# the exact compact forms (--matrix-values auto, the default) must end bit for bit as
# the same solve with plain doubles (--matrix-values plain) -- same status, iterations,
# objective and dual objective bits -- on grids 1x1, 2x2 and 1x4, and the compact runs
# must really hold a compact form (the log's Matrix line). LPs: a generated transport
# and mcf (+-1 matrices, a handful of values after scaling), pds-02 (a 1-byte table of
# 51 values), ship04s (a 2-byte table of 771 on 1x1; scsd8 was here until Curtis-Reid
# scaling left its 1x1 block too many distinct values for a table), e226 (plain: the
# control). The 1x1 objectives of the corpus LPs are also held to their published
# optima (1e-6 relative). Usage: matrix_values.sh BIN ROOT SHARED [OPTIONS]: OPTIONS go
# to every solve (bench/gpu-check.sh passes the device backend); GRIDS (environment)
# replaces the grids.
set -u
BIN=$1; ROOT=$2; SHARED=$3; EXTRA=${4:-}
GRIDS=${GRIDS:-1x1 2x2 1x4}
MPIRUN="mpirun --allow-run-as-root --oversubscribe --mca btl self,vader"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

"$BIN" gen transport --sources 60 --sinks 180 --neighbors 6 --grid 1x1 --mps "$T/transport.mps" \
    --out "$T/tr.shards" --quiet || bad "gen transport"
"$BIN" gen mcf --commodities 6 --factories 2 --warehouses 5 --stores 8 --grid 1x1 \
    --mps "$T/mcf.mps" --out "$T/mcf.shards" --quiet || bad "gen mcf"
models=("$T/transport.mps::1e-8" "$T/mcf.mps::1e-8"
        "$SHARED/lp/kennington/pds-02.mps.gz:2.885786201e10:1e-8"
        "$SHARED/lp/netlib/ship04s.mps.gz:1798714.7004:1e-8"
        "$SHARED/lp/netlib/e226.mps.gz:-11.63892907:1e-8")
for spec in "${models[@]}"; do
    IFS=: read -r model ref tol <<<"$spec"
    name=$(basename "$model")
    for grid in $GRIDS; do
        np=$(( ${grid%x*} * ${grid#*x} ))
        for v in plain auto; do
            timeout 300 $MPIRUN -np "$np" "$BIN" solve "$model" --grid "$grid" --tol "$tol" \
                --matrix-values $v $EXTRA --json "$T/$v.json" >"$T/$v.log" 2>&1 ||
                { bad "$name $grid $v: $(tail -3 "$T/$v.log")"; continue 2; }
        done
        compact=$(grep -m1 '^Matrix:' "$T/auto.log")
        python3 - "$T/plain.json" "$T/auto.json" "$name $grid" "$ref" "$compact" <<'PY' && ok || bad "$name $grid: see above"
import json, sys
p, a = (json.load(open(f)) for f in sys.argv[1:3])
what, ref, compact = sys.argv[3], sys.argv[4], sys.argv[5]
keys = ["status", "iterations", "objective", "dual_objective"]
same = all(p[k] == a[k] for k in keys)
held = "table" in compact or "signed-unit" in compact
wants_compact = "e226" not in what
good = same and p["status"] == "optimal" and held == wants_compact
if ref and what.endswith("1x1"):
    good = good and abs(p["objective"] - float(ref)) <= 1e-6 * abs(float(ref))
print(what, [p[k] for k in keys], "compact:" if good else "DIFFERENT:", [a[k] for k in keys], compact)
sys.exit(0 if good else 1)
PY
    done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
