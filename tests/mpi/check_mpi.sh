#!/usr/bin/env bash
# `shardlp check` under mpirun on the model's grid (docs/checker.md, "Under MPI"): each
# rank reads only its own block and slices, and the verdicts and values equal the
# one-process check's (to rounding: 1e-6 relative, 1e-14 absolute) on 2x2, 1x4 and 4x1
# design-match directories, for a passing solution (1e-8) and a failing one (1e-2,
# checked at 1e-6); the wrong rank count is one error line.
set -u
BIN=$1; ROOT=$2; SHARED=$3
MPIRUN=(mpirun --allow-run-as-root --oversubscribe --mca btl self,vader)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { echo "ok: $*"; pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

same_json() { # one.json mpi.json
    python3 - "$1" "$2" <<'PY'
import json, math, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
def close(x, y):
    if isinstance(x, (int, float)) and isinstance(y, (int, float)):
        # the one-process check sums in long double, the grid's sums go through doubles
        return x == y or abs(x - y) <= 1e-6 * abs(y) + 1e-14
    return x == y
diff = [k for k in a if k not in ("solution", "model", "criteria") and not close(a[k], b.get(k))]
crit = a.get("criteria", {})
if isinstance(crit, dict):
    diff += [f"criteria.{k}" for k in crit if not close(crit[k], b["criteria"].get(k))]
print("passed", a.get("passed"), b.get("passed"), "max", a.get("max"), b.get("max"),
      "differ:", diff)
sys.exit(0 if not diff and a.get("passed") == b.get("passed") else 1)
PY
}

for grid in 2x2 1x4 4x1; do
    dir=$T/dm$grid
    "$BIN" gen design-match --treated 30 --controls 150 --covariates 4 --neighbors 8 \
        --grid "$grid" --out "$dir" --quiet || { bad "gen $grid"; continue; }
    for tol in 1e-8 1e-2; do
        sol=$T/sol$grid-$tol
        timeout 300 "${MPIRUN[@]}" -np 4 "$BIN" solve "$dir" --tol "$tol" --quiet --out "$sol" \
            > /dev/null 2>&1 || { bad "solve $grid $tol"; continue; }
        "$BIN" check "$dir" "$sol" --tol 1e-6 --json "$T/one.json" > "$T/one.txt" 2>&1
        rc1=$?
        timeout 300 "${MPIRUN[@]}" -np 4 "$BIN" check "$dir" "$sol" --tol 1e-6 --json "$T/mpi.json" \
            > "$T/mpi.txt" 2>&1
        rc2=$?
        expect=0; [ "$tol" = 1e-2 ] && expect=1
        if [ $rc1 = $expect ] && [ $rc2 = $expect ] && same_json "$T/one.json" "$T/mpi.json"; then
            ok "$grid, solved at $tol: exit $rc1 in both, the same values"
        else
            bad "$grid at $tol: exit $rc1 (one process) / $rc2 (mpirun); $(tail -3 "$T/mpi.txt")"
        fi
        [ "$(grep -c '^check ' "$T/mpi.txt")" = 1 ] && ok "one report from $grid" ||
            bad "reports printed: $(grep -c '^check ' "$T/mpi.txt")"
    done
done
timeout 120 "${MPIRUN[@]}" -np 2 "$BIN" check "$T/dm2x2" "$T/sol2x2-1e-8" > "$T/np2.txt" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "2x2 grid" "$T/np2.txt" && ok "wrong rank count refused" ||
    bad "wrong rank count: rc $rc $(head -3 "$T/np2.txt")"

echo "check_mpi: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
