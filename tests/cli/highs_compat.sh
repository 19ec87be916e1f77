#!/usr/bin/env bash
# HiGHS compatibility of `shardlp solve` (docs/cli.md, "HiGHS compatibility"):
#  1. the options file highspy 1.16's writeOptions writes (tests/data) is accepted:
#     inf, empty values, HiGHS's other options silent at their defaults;
#     output_flag = false prints nothing;
#  2. `presolve = off` in a file, `--presolve off` and `--no-presolve` give the same run;
#  3. HiGHS options without use here are named in one warning; unknown names warned;
#  4. write_solution_to_file = false keeps solution_file from being written;
#  5. --time-limit 0: status time_limit, a solution file still written;
#  6. --start / --read_solution_file: a warm start from the solver's own solution ends at
#     the published optimum in fewer iterations than the cold start; one from a PuLP-style
#     file (primal values only, its duals 0: no fewer iterations to expect) reads the
#     column values and ends at the optimum too;
#  7. a HiGHS-style run that sets no tolerance (`shardlp MODEL`, an options file, a HiGHS
#     option name) solves to HiGHS's 1e-7: 25fv47 (whose 1e-4 answer misses a row by
#     1.3e-2) then passes `check --tol 1e-5` on every criterion; `shardlp solve` keeps
#     1e-4 and fails that check, and a tolerance given by any name wins;
#  8. options files read as HiGHS reads them: in the file writeOptions writes, a
#     tolerance set off its default is not overridden by the later ones at their
#     defaults (primal_feasibility_tolerance, kkt_tolerance: the run is the --tol 1e-9
#     run), kkt_tolerance takes precedence over a single tolerance; a '#' inside a
#     value is part of it (solution_file = out#1.sol).
set -u
BIN=$1; ROOT=$2; SHARED=$3
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { echo "ok: $*"; pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
json() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }
AFIRO=$ROOT/examples/data/afiro.mps
ADLITTLE=$SHARED/lp/netlib/adlittle.mps.gz; ADLITTLE_OPT=225494.96316

# 1.
"$BIN" solve "$AFIRO" --options-file "$ROOT/tests/data/highs-1.16-write-options.opt" \
    --json "$T/w.json" >"$T/w.out" 2>"$T/w.err" || bad "writeOptions file refused: $(cat "$T/w.err")"
[ ! -s "$T/w.out" ] && [ ! -s "$T/w.err" ] && ok "writeOptions file: silent (output_flag = false)" \
    || bad "writeOptions file printed: $(head -3 "$T/w.out" "$T/w.err")"
[ "$(json "$T/w.json" status)" = optimal ] && ok "writeOptions file: optimal" || bad "status"

# 2.
printf 'presolve = off\ntol = 1e-4\n' > "$T/p.opt" # the file's run: the same tolerance (7.)
"$BIN" solve "$AFIRO" --options-file "$T/p.opt" --quiet --json "$T/p1.json" || bad "file presolve"
"$BIN" solve "$AFIRO" --presolve off --quiet --json "$T/p2.json" || bad "--presolve off"
"$BIN" solve "$AFIRO" --no-presolve --quiet --json "$T/p3.json" || bad "--no-presolve"
"$BIN" solve "$AFIRO" --quiet --json "$T/p4.json" || bad "presolve on"
python3 - "$T" <<'PY' && ok "presolve off: three spellings, one run" || bad "presolve spellings differ"
import json, sys
runs = [json.load(open(f"{sys.argv[1]}/p{k}.json")) for k in (1, 2, 3, 4)]
key = lambda r: (r["status"], r["iterations"], r["objective"], json.dumps(r["presolve"], sort_keys=True))
same = key(runs[0]) == key(runs[1]) == key(runs[2])
differs = key(runs[3]) != key(runs[0])  # presolve on removes rows of afiro
print([key(r)[:3] for r in runs])
sys.exit(0 if same and differs else 1)
PY

# 3.
"$BIN" solve "$AFIRO" --quiet --parallel on --mip_rel_gap 0.05 --mip_abs_gap 1e-06 \
    2>"$T/i.err" || bad "HiGHS options on the command line refused: $(cat "$T/i.err")"
[ "$(grep -c warning "$T/i.err")" = 1 ] && grep -q "parallel=on, mip_rel_gap=0.05" "$T/i.err" &&
    ! grep -q mip_abs_gap "$T/i.err" && ok "one warning names the non-default HiGHS options" ||
    bad "warnings: $(cat "$T/i.err")"
printf 'tim_limit = 3\n' > "$T/u.opt"
"$BIN" solve "$AFIRO" --quiet --options-file "$T/u.opt" 2>"$T/u.err" &&
    grep -q "u.opt:1: 'tim_limit' is neither a shardlp nor a HiGHS option" "$T/u.err" &&
    ok "unknown name warned with FILE:LINE" || bad "unknown name: $(cat "$T/u.err")"

# 4.
printf 'write_solution_to_file = false\n' > "$T/nw.opt"
"$BIN" solve "$AFIRO" --quiet --solution_file "$T/nw.sol" --options-file "$T/nw.opt" ||
    bad "write_solution_to_file run"
[ ! -e "$T/nw.sol" ] && ok "write_solution_to_file = false: no file" || bad "solution file written"
"$BIN" solve "$AFIRO" --quiet --options-file "$T/nw.opt" --solution_file "$T/nw2.sol" &&
    [ -s "$T/nw2.sol" ] && ok "a later solution_file turns writing back on" || bad "later solution_file"

# 5.
"$BIN" solve "$ADLITTLE" --quiet --time-limit 0 --json "$T/t.json" --sol "$T/t.sol" ||
    bad "time limit 0 run failed"
[ "$(json "$T/t.json" status)" = time_limit ] && [ -s "$T/t.sol" ] &&
    grep -q "Time limit reached" "$T/t.sol" && ok "time limit 0: time_limit with a solution file" ||
    bad "time limit 0: $(json "$T/t.json" status)"

# 6.
"$BIN" solve "$ADLITTLE" --quiet --tol 1e-8 --json "$T/cold.json" --sol "$T/cold.sol" || bad "cold"
"$BIN" solve "$ADLITTLE" --quiet --tol 1e-8 --start "$T/cold.sol" --json "$T/warm.json" || bad "warm"
python3 - "$T/cold.sol" "$T/pulp.mst" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
start = lines.index("# Primal solution values")
cols = next(i for i in range(start, len(lines)) if lines[i].startswith("# Columns"))
n = int(lines[cols].split()[2])
out = ["Model status", "None", "", "# Primal solution values", "Feasible", "", f"# Columns {n}"]
out += lines[cols + 1: cols + 1 + n]
open(sys.argv[2], "w").write("\n".join(out))  # PuLP's HiGHS_CMD.writesol layout
PY
"$BIN" solve "$ADLITTLE" --tol 1e-8 --read_solution_file "$T/pulp.mst" \
    --json "$T/pulp.json" > "$T/pulp.log" || bad "PuLP-style start"
grep -q "^Warm start from .*pulp.mst: column values$" "$T/pulp.log" &&
    ok "PuLP-style start: the column values read" || bad "PuLP-style start: $(grep -i warm "$T/pulp.log")"
python3 - "$T" "$ADLITTLE_OPT" <<'PY' && ok "warm starts: the same optimum, fewer iterations from a full start" || bad "warm start"
import json, sys
d, ref = sys.argv[1], float(sys.argv[2])
cold, warm, pulp = (json.load(open(f"{d}/{k}.json")) for k in ("cold", "warm", "pulp"))
print("iterations cold", cold["iterations"], "warm", warm["iterations"], "primal only", pulp["iterations"])
good = all(r["status"] == "optimal" and abs(r["objective"] - ref) <= 1e-6 * abs(ref) for r in (cold, warm, pulp))
sys.exit(0 if good and warm["iterations"] < cold["iterations"] else 1)
PY
"$BIN" gen qap --size 4 --grid 1x1 --out "$T/q.shards" --quiet
"$BIN" solve "$T/q.shards" --quiet --start "$T/cold.sol" 2>"$T/s.err"; rc=$?
[ $rc -ne 0 ] && grep -q -- "--start FILE needs a model file" "$T/s.err" && ok "--start on shards refused" ||
    bad "--start on shards: rc $rc $(cat "$T/s.err")"

# 7.
F25=$SHARED/lp/netlib/25fv47.mps.gz
iters() { json "$T/$1.json" iterations; }
checks() { "$BIN" check "$F25" "$T/$1.sol" --tol 1e-5 --quiet >/dev/null 2>&1; }
"$BIN" "$F25" --quiet --json "$T/h1.json" --sol "$T/h1.sol" || bad "bare run"
printf 'threads = 1\n' > "$T/h.opt"
"$BIN" solve "$F25" --quiet --options-file "$T/h.opt" --json "$T/h2.json" || bad "options file run"
"$BIN" solve "$F25" --quiet --kkt_tolerance 1e-7 --json "$T/h3.json" || bad "HiGHS-named tolerance"
"$BIN" solve "$F25" --quiet --json "$T/n1.json" --sol "$T/n1.sol" || bad "solve run"
"$BIN" "$F25" --quiet --tol 1e-4 --json "$T/n2.json" || bad "bare run with --tol"
"$BIN" solve "$F25" --quiet --options-file "$T/h.opt" --primal_feasibility_tolerance 1e-4 \
    --json "$T/n3.json" || bad "options file with a HiGHS-named tolerance"
[ "$(json "$T/h1.json" status)" = optimal ] && checks h1 && ! checks n1 &&
    ok "bare run: 1e-7 by default, passes check --tol 1e-5 where solve's 1e-4 fails" ||
    bad "bare run: $(json "$T/h1.json" status), checks $(checks h1; echo $?) / $(checks n1; echo $?)"
[ "$(iters h1)" = "$(iters h2)" ] && [ "$(iters h1)" = "$(iters h3)" ] &&
    [ "$(iters n1)" = "$(iters n2)" ] && [ "$(iters n1)" = "$(iters n3)" ] &&
    [ "$(iters h1)" != "$(iters n1)" ] && ok "HiGHS-style default in every form; a given tolerance wins" ||
    bad "iterations: h $(iters h1) $(iters h2) $(iters h3), n $(iters n1) $(iters n2) $(iters n3)"

# 8.
WO=$ROOT/tests/data/highs-1.16-write-options.opt
sed 's/^primal_feasibility_tolerance = .*/primal_feasibility_tolerance = 1e-09/' "$WO" > "$T/p.opt"
sed 's/^kkt_tolerance = .*/kkt_tolerance = 1e-09/' "$WO" > "$T/k.opt"
sed 's/^kkt_tolerance = .*/kkt_tolerance = 1e-09/; s/^dual_feasibility_tolerance = .*/dual_feasibility_tolerance = 1e-05/' \
    "$WO" > "$T/kd.opt"
"$BIN" solve "$AFIRO" --quiet --tol 1e-9 --json "$T/t9.json" || bad "--tol 1e-9 run"
for f in p k kd; do
    "$BIN" solve "$AFIRO" --quiet --options-file "$T/$f.opt" --json "$T/$f.json" || bad "$f.opt run"
    [ "$(iters $f)" = "$(iters t9)" ] && ok "$f.opt: the tolerance set off its default holds (1e-9)" ||
        bad "$f.opt: $(iters $f) iterations, the --tol 1e-9 run $(iters t9)"
done
printf 'solution_file = %s/out#1.sol\nwrite_solution_to_file = true\n' "$T" > "$T/hash.opt"
"$BIN" "$AFIRO" --options-file "$T/hash.opt" > /dev/null 2>&1 && [ -s "$T/out#1.sol" ] &&
    ok "a '#' inside a value is part of it" || bad "solution_file = out#1.sol: $(ls "$T")"

echo "highs_compat: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
