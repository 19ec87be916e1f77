#!/usr/bin/env bash
# shardlp convert (docs/cli.md, "convert") and the MPS other solvers read:
#  1. adlittle through MPS.gz -> LP -> shards (2x2) -> MPS -> MPS.gz -> LP: every file
#     solves to the published optimum (1e-6) and to the same objective (1e-9);
#  2. Clp and GLPK (glpsol --freemps) read the converted MPS and the MPS written by
#     `shardlp gen --mps` and find the objective shardlp finds (1e-6);
#  2b. ranged rows (boeing1: RANGES) written to LP are read by GLPK (--lp), Clp and
#     shardlp to the published optimum (the writer's range columns, docs/lp-format.md);
#  3. integer columns: kept as markers in MPS and LP, refused for shards unless --relax;
#  4. bad input: one error line, non-zero exit, no output file;
#  5. names round-trip: columns named as LP keywords (end, st, bounds) are written so that
#     shardlp, HiGHS's reader rules and GLPK read the same model back (hand-solved -5.5);
#     a coefficient glued to its name ("2x + 3y") reads as HiGHS reads it (4.5).
set -u
BIN=$1; ROOT=$2; SHARED=$3
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { echo "ok: $*"; pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
MPIRUN=(mpirun --allow-run-as-root --oversubscribe --mca btl self,vader)
solve_obj() { # a 2x2 shard directory runs on 4 ranks
    local launch=(); [ -d "$1" ] && launch=("${MPIRUN[@]}" -np 4)
    "${launch[@]}" "$BIN" solve "$1" --tol 1e-9 --quiet --json "$T/s.json" >/dev/null 2>&1 &&
    python3 -c "import json,sys; print(repr(json.load(open(sys.argv[1]))['objective']))" "$T/s.json"; }
close() { python3 -c "import sys; a,b,t=map(float,sys.argv[1:4]); sys.exit(0 if abs(a-b) <= t*max(1,abs(b)) else 1)" "$1" "$2" "$3"; }

# 1.
AD=$SHARED/lp/netlib/adlittle.mps.gz; AD_OPT=225494.96316
chain=("$T/a.lp" "$T/a.shards" "$T/b.mps" "$T/c.mps.gz" "$T/d.lp")
prev=$AD
for out in "${chain[@]}"; do
    extra=(); [ "$out" = "$T/a.shards" ] && extra=(--grid 2x2)
    "$BIN" convert "$prev" "$out" "${extra[@]}" --quiet 2>"$T/err" || { bad "convert $prev $out: $(cat "$T/err")"; continue; }
    prev=$out
done
first=$(solve_obj "$AD")
for f in "${chain[@]}"; do
    got=$(solve_obj "$f") || { bad "solve $f"; continue; }
    close "$got" "$AD_OPT" 1e-6 && close "$got" "$first" 1e-9 && ok "$(basename "$f"): $got" ||
        bad "$(basename "$f"): $got vs $first"
done

# 2b.
BO=$SHARED/lp/netlib/boeing1.mps.gz; BO_OPT=-335.21356751
"$BIN" convert "$BO" "$T/boeing1.lp" --quiet 2>"$T/err" || bad "convert boeing1: $(cat "$T/err")"
grep -q -- '- ~r_' "$T/boeing1.lp" && ok "boeing1.lp has range columns" || bad "boeing1.lp: no range columns"
got=$(solve_obj "$T/boeing1.lp") && close "$got" "$BO_OPT" 1e-6 && ok "shardlp boeing1.lp: $got" ||
    bad "shardlp boeing1.lp: '$got'"
clp_obj=$(timeout 60 clp "$T/boeing1.lp" -solve 2>&1 | sed -n 's/^Optimal objective \([^ ]*\).*/\1/p')
[ -n "$clp_obj" ] && close "$clp_obj" "$BO_OPT" 1e-6 && ok "Clp reads boeing1.lp: $clp_obj" ||
    bad "Clp on boeing1.lp: '$clp_obj'"
if command -v glpsol >/dev/null 2>&1; then
    glpsol --lp "$T/boeing1.lp" -o "$T/glp.txt" >/dev/null 2>&1
    glp_obj=$(sed -n 's/^Objective: *[^ ]* = \([^ ]*\).*/\1/p' "$T/glp.txt")
    [ -n "$glp_obj" ] && close "$glp_obj" "$BO_OPT" 1e-6 && ok "GLPK reads boeing1.lp: $glp_obj" ||
        bad "GLPK on boeing1.lp: '$glp_obj'"
fi

# 2.
"$BIN" gen mcf --commodities 3 --factories 3 --warehouses 4 --stores 6 --grid 1x1 \
    --out "$T/g.shards" --mps "$T/g.mps" --quiet || bad "gen --mps"
for f in "$T/b.mps" "$T/g.mps"; do
    ours=$(solve_obj "$f")
    clp_obj=$(timeout 60 clp "$f" -solve 2>&1 | sed -n 's/^Optimal objective \([^ ]*\).*/\1/p')
    [ -n "$clp_obj" ] && close "$clp_obj" "$ours" 1e-6 && ok "Clp reads $(basename "$f"): $clp_obj" ||
        bad "Clp on $(basename "$f"): '$clp_obj' vs $ours"
    if command -v glpsol >/dev/null 2>&1; then
        glpsol --freemps "$f" -o "$T/glp.txt" >/dev/null 2>&1
        glp_obj=$(sed -n 's/^Objective: *[^ ]* = \([^ ]*\).*/\1/p' "$T/glp.txt")
        [ -n "$glp_obj" ] && close "$glp_obj" "$ours" 1e-6 && ok "GLPK reads $(basename "$f"): $glp_obj" ||
            bad "GLPK on $(basename "$f"): '$glp_obj' vs $ours"
    else
        echo "skip: glpsol not installed (scripts/install-deps.sh installs glpk-utils)"
    fi
done

# 3.
INT=$ROOT/tests/data/statuses/integer.mps
"$BIN" convert "$INT" "$T/i.lp" --quiet && "$BIN" convert "$T/i.lp" "$T/i.mps" --quiet &&
    "$BIN" solve "$T/i.mps" --quiet 2>"$T/err"; grep -q "integer column" "$T/err" &&
    ok "integer markers survive MPS -> LP -> MPS" || bad "integer markers: $(cat "$T/err")"
"$BIN" convert "$INT" "$T/i.shards" --quiet 2>"$T/err"; rc=$?
[ $rc -ne 0 ] && [ ! -e "$T/i.shards" ] && grep -q "integer column" "$T/err" &&
    ok "integer model to shards refused" || bad "integer to shards: rc $rc $(cat "$T/err")"
"$BIN" convert "$INT" "$T/i2.shards" --relax --quiet && [ -f "$T/i2.shards/manifest.json" ] &&
    ok "--relax writes the relaxation as shards" || bad "--relax to shards"

# 4.
"$BIN" convert "$ROOT/tests/data/lp/quadratic.lp" "$T/q.mps" 2>"$T/err"; rc=$?
[ $rc -ne 0 ] && [ ! -e "$T/q.mps" ] && [ "$(wc -l < "$T/err")" = 1 ] &&
    ok "bad input: $(cat "$T/err")" || bad "bad input: rc $rc $(cat "$T/err")"
"$BIN" convert "$T/missing.mps" "$T/m.lp" 2>"$T/err"; rc=$?
[ $rc -ne 0 ] && [ ! -e "$T/m.lp" ] && grep -q "missing.mps" "$T/err" &&
    ok "missing input: $(cat "$T/err")" || bad "missing input: rc $rc"
"$BIN" convert "$AD" "$T/no/such/dir/x.mps" 2>"$T/err"; rc=$?
[ $rc -ne 0 ] && [ "$(wc -l < "$T/err")" = 1 ] && ok "unwritable output: $(cat "$T/err")" ||
    bad "unwritable output: rc $rc $(cat "$T/err")"

# 5.
KW=$ROOT/tests/data/lp/keyword-names.mps
"$BIN" convert "$KW" "$T/kw.lp" > /dev/null 2>&1 || bad "convert keyword-names.mps"
for f in "$KW" "$T/kw.lp"; do
    o=$(solve_obj "$f")
    python3 -c "import sys; sys.exit(abs($o + 5.5) > 1e-6)" 2>/dev/null &&
        ok "keyword names: $(basename "$f") solves to -5.5" || bad "keyword names: $(basename "$f"): '$o'"
done
if command -v glpsol > /dev/null; then
    glpsol --lp "$T/kw.lp" -o "$T/kw.glpk" > /dev/null 2>&1
    grep -q "Objective:  obj = -5.5 " "$T/kw.glpk" && ok "GLPK reads the keyword-names LP to -5.5" ||
        bad "GLPK on kw.lp: $(grep Objective "$T/kw.glpk")"
fi
o=$(solve_obj "$ROOT/tests/data/lp/glued-coefficient.lp")
python3 -c "import sys; sys.exit(abs($o - 4.5) > 1e-6)" 2>/dev/null && ok "2x + 3y reads as 2 x + 3 y" ||
    bad "glued coefficient: '$o', want 4.5"

echo "convert: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
