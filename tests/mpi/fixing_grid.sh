#!/usr/bin/env bash
# Column fixing on grids (docs/algorithm.md section 10): the held columns are chosen per
# grid column from sums over the grid, the reduced LP keeps every rank's block and
# shifts the row bounds by sums over the grid row, so every grid shape must end at the
# optimum: fit1d at its published optimum, and the bounded transport LP as a
# maximisation (columns held at nonzero lower and at upper bounds) at minus Clp's
# minimum, on 1x1, 2x2, 1x4 and 4x1, with columns held on each.
set -u
BIN=$1; ROOT=$2; SHARED=$3
MPIRUN="mpirun --allow-run-as-root --oversubscribe --mca btl self,vader"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

python3 "$ROOT/tests/data/bounded_transport.py" 3 > "$T/bt.mps"
python3 "$ROOT/tests/data/bounded_transport.py" 3 max > "$T/btmax.mps"
ref=$(clp "$T/bt.mps" -solve 2>&1 | sed -n 's/^Optimal objective \([-0-9.e+]*\).*/\1/p' | head -1)
[ -n "$ref" ] && ok || bad "clp gave no objective"
neg=$(python3 -c "print(-float('${ref:-0}'))")
for spec in "$SHARED/lp/netlib/fit1d.mps.gz:-9146.3780924" "$T/btmax.mps:$neg"; do
    model=${spec%%:*}; want=${spec#*:}
    for grid in 1x1 2x2 1x4 4x1; do
        np=$(( ${grid%x*} * ${grid#*x} ))
        name=$(basename "$model" | cut -d. -f1)-$grid
        $MPIRUN -np $np "$BIN" solve "$model" --grid $grid --fix-columns 1e-2 --tol 1e-8 \
            --threads 1 --json "$T/$name.json" > "$T/$name.log" 2>&1 || bad "$name: exit $?"
        python3 - "$T/$name.json" "$want" <<'PY' && ok || bad "$name: $(grep '^Column' "$T/$name.log")"
import json, sys
j, ref = json.load(open(sys.argv[1])), float(sys.argv[2])
print(sys.argv[1].split("/")[-1], j["status"], j["iterations"], j["objective"], "ref", ref,
      "rounds", j["fixing_rounds"], "held", j["fixed_columns"])
sys.exit(0 if j["status"] == "optimal" and abs(j["objective"] - ref) <= 1e-6 * abs(ref)
         and j["fixing_rounds"] >= 1 and j["fixed_columns"] > 0 else 1)
PY
    done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
