#!/usr/bin/env bash
# --block-copies rows (docs/memory.md "The matrix"): A_rc alone, no transpose built at
# any point (the scaling streams the rows). A generated design-match LP, whose presolve
# removes a quarter of the entries (its record of runs, then the recovery with the record
# dropped before the original is read back from shards), and a generated transport are
# solved to 1e-6 with the default layout and with rows on grids 1x1, 2x2 and 1x4 (from
# the MPS file) and from 1x1 shards: every run optimal, the log saying only A is held,
# objectives within 1e-6 relative of the default 1x1 run's and, where highspy is
# installed (build/pyenv), of HiGHS's optimum. With a --mem-limit between the two
# layouts' modelled peaks, the default takes rows (and solves to the same objective)
# and two copies asked for are refused with a hint.
set -u
BIN=$1; ROOT=$2; dm_objective=0
MPIRUN="mpirun --allow-run-as-root --oversubscribe --mca btl self,vader"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
PY="$ROOT/build/pyenv/bin/python"

"$BIN" gen design-match --treated 300 --controls 600 --covariates 6 --neighbors 4 --grid 1x1 \
    --mps "$T/dm.mps" --out "$T/dm.shards" --quiet || bad "gen design-match"
"$BIN" gen transport --sources 60 --sinks 180 --neighbors 6 --grid 1x1 --mps "$T/tr.mps" \
    --out "$T/tr.shards" --quiet || bad "gen transport"

for lp in dm tr; do
    ref=""
    if [ -x "$PY" ] && "$PY" -c "import highspy" 2>/dev/null; then
        ref=$("$PY" - "$T/$lp.mps" <<'PY'
import sys, highspy
h = highspy.Highs()
h.setOptionValue("output_flag", False)
h.readModel(sys.argv[1])
h.run()
print(repr(h.getInfo().objective_function_value) if h.getModelStatus() == highspy.HighsModelStatus.kOptimal else "")
PY
)
        ref=$(tail -1 <<<"$ref") # the last line: HiGHS prints its banner first
    fi
    "$BIN" solve "$T/$lp.mps" --tol 1e-6 --json "$T/base.json" >"$T/base.log" 2>&1 ||
        { bad "$lp default 1x1: $(tail -2 "$T/base.log")"; continue; }
    [ "$lp" = dm ] && dm_objective=$(python3 -c "import json; print(repr(json.load(open('$T/base.json'))['objective']))")
    runs=("1x1:$T/$lp.mps" "2x2:$T/$lp.mps" "1x4:$T/$lp.mps" "1x1:$T/$lp.shards")
    for run in "${runs[@]}"; do
        grid=${run%%:*}; model=${run#*:}
        np=$(( ${grid%x*} * ${grid#*x} ))
        timeout 300 $MPIRUN -np "$np" "$BIN" solve "$model" --grid "$grid" --tol 1e-6 \
            --block-copies rows --json "$T/rows.json" >"$T/rows.log" 2>&1 ||
            { bad "$lp rows $grid $(basename "$model"): $(tail -2 "$T/rows.log")"; continue; }
        python3 - "$T/base.json" "$T/rows.json" "$lp rows $grid $(basename "$model")" "$ref" \
            "$(grep -m1 '^Matrix:' "$T/rows.log")" <<'PY' && ok || bad "$lp $grid: see above"
import json, sys
base, rows = (json.load(open(f)) for f in sys.argv[1:3])
what, ref, matrix = sys.argv[3], sys.argv[4], sys.argv[5]
close = lambda a, b: abs(a - b) <= 1e-6 * max(1.0, abs(b))
good = base["status"] == rows["status"] == "optimal" and close(rows["objective"], base["objective"])
good = good and "A^T" not in matrix and "A:" in matrix
if ref:
    good = good and close(base["objective"], float(ref)) and close(rows["objective"], float(ref))
print(what, rows["status"], rows["objective"], "default", base["objective"], "HiGHS", ref or "-",
      matrix, "" if good else "DIFFERENT")
sys.exit(0 if good else 1)
PY
    done
done
# --mem-limit between the two layouts' modelled peaks: the default (auto) takes rows and
# says so; two copies asked for are refused in one line that names --block-copies rows.
for c in auto rows; do
    "$BIN" solve "$T/dm.shards" --iter-limit 1 --block-copies $c --quiet --json "$T/$c.json" ||
        bad "dm shards --block-copies $c"
done
limit=$(python3 -c "
import json, sys
a, r = (json.load(open(f))['memory']['modelled_peak_bytes_largest_rank'] for f in sys.argv[1:3])
print(int((a + r) / 2) if r < a else 0)" "$T/auto.json" "$T/rows.json")
# shardlp info prints the directory's modelled peak with rows: the solve's own figure.
info_rows=$("$BIN" info "$T/dm.shards" | sed -n 's/^ *1x1 *\([0-9]*\) bytes.*--block-copies rows.*/\1/p')
json_rows=$(python3 -c "import json; print(json.load(open('$T/rows.json'))['memory']['modelled_peak_bytes_largest_rank'])")
[ -n "$info_rows" ] && [ "$info_rows" = "$json_rows" ] && ok ||
    bad "shardlp info's peak with rows '$info_rows' against the solve's $json_rows"
if [ "$limit" -gt 0 ]; then
    "$BIN" solve "$T/dm.shards" --tol 1e-6 --mem-limit "$limit" --json "$T/lim.json" \
        >"$T/lim.log" 2>&1 || bad "--mem-limit $limit: $(tail -2 "$T/lim.log")"
    if grep -q "block-copies rows taken" "$T/lim.log" && grep -q "^Matrix:.*(A: plain)" "$T/lim.log" &&
        python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d['status'] == 'optimal' and abs(d['objective'] - float(sys.argv[2])) <= 1e-6 * abs(float(sys.argv[2])) else 1)" \
            "$T/lim.json" "$dm_objective"; then ok; else
        bad "--mem-limit $limit with auto copies: $(grep -E 'Memory|Matrix|Status' "$T/lim.log")"; fi
    "$BIN" solve "$T/dm.shards" --iter-limit 1 --mem-limit "$limit" --block-copies two --quiet \
        2>"$T/err" && bad "--mem-limit $limit: two copies were not refused"
    if [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "block-copies rows" "$T/err"; then ok; else
        bad "--mem-limit $limit, two copies: $(cat "$T/err")"; fi
else
    bad "the modelled peak with rows is not below the default's"
fi
# The same on 2x2 shards: a rank whose block fits only with rows makes every rank take it.
$MPIRUN -np 4 "$BIN" gen design-match --treated 300 --controls 600 --covariates 6 --neighbors 4 \
    --grid 2x2 --out "$T/dm22" --quiet || bad "gen design-match 2x2"
for c in auto rows; do
    $MPIRUN -np 4 "$BIN" solve "$T/dm22" --iter-limit 1 --block-copies $c --quiet \
        --json "$T/$c.json" || bad "dm 2x2 shards --block-copies $c"
done
limit=$(python3 -c "
import json, sys
a, r = (json.load(open(f))['memory']['modelled_peak_bytes_largest_rank'] for f in sys.argv[1:3])
print(int((a + r) / 2) if r < a else 0)" "$T/auto.json" "$T/rows.json")
timeout 300 $MPIRUN -np 4 "$BIN" solve "$T/dm22" --tol 1e-6 --mem-limit "$limit" \
    --json "$T/lim.json" >"$T/lim.log" 2>&1 || bad "2x2 --mem-limit $limit: $(tail -2 "$T/lim.log")"
if grep -q "block-copies rows taken" "$T/lim.log" && python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d['status'] == 'optimal' and abs(d['objective'] - float(sys.argv[2])) <= 1e-6 * abs(float(sys.argv[2])) else 1)" \
        "$T/lim.json" "$dm_objective"; then ok; else
    bad "2x2 --mem-limit $limit: $(grep -E 'Memory|Matrix|Status|Objective' "$T/lim.log")"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
