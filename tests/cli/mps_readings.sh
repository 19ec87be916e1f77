#!/usr/bin/env bash
# MPS readings that once changed the model silently (docs/mps.md): a NUL byte is an
# error naming file:line; a UTF-8 byte-order mark is skipped; a second OBJSENSE is an
# error; RHS/BOUNDS lines without a set name are read (as HiGHS reads them).
# Usage: mps_readings.sh BUILD/shardlp REPO SHARED
set -uo pipefail
BIN=$(readlink -f "$1"); REPO=$(readlink -f "$2")
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
fails=0; passes=0
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
objective() { sed -n 's/^Objective value *: //p' "$1"; }

# min -x - y, x + y <= 4 (r1), x <= 1: optimum -4
base='NAME T\nROWS\n N obj\n L r1\nCOLUMNS\n    x obj -1 r1 1\n    y obj -1 r1 1\nRHS\n    rhs r1 4\nBOUNDS\n UP bnd x 1\nENDATA\n'
printf "$base" > "$TMP/base.mps"

printf "$base" | sed 's/ UP bnd x 1/ UP bnd x 1\x00 2/' > "$TMP/nul.mps"
"$BIN" solve "$TMP/nul.mps" > "$TMP/out" 2> "$TMP/err"
[ $? -ne 0 ] && grep -q "nul.mps:11: NUL byte" "$TMP/err" && [ "$(wc -l < "$TMP/err")" -eq 1 ] && ok ||
    bad "NUL byte: $(cat "$TMP/err")"

{ printf '\xef\xbb\xbf'; printf "$base"; } > "$TMP/bom.mps"
"$BIN" solve "$TMP/bom.mps" --tol 1e-8 > "$TMP/out" 2>&1
awk -v v="$(objective "$TMP/out")" 'BEGIN { exit !(v + 4 < 1e-6 && v + 4 > -1e-6) }' && ok || bad "BOM: $(tail -2 "$TMP/out")"

printf "$base" | sed 's/^ROWS/OBJSENSE MAX\nOBJSENSE MIN\nROWS/' > "$TMP/sense.mps"
"$BIN" solve "$TMP/sense.mps" > "$TMP/out" 2> "$TMP/err"
[ $? -ne 0 ] && grep -q "sense.mps:3: second OBJSENSE" "$TMP/err" && ok || bad "OBJSENSE twice: $(cat "$TMP/err")"

# RHS r2 without a set name after the named set: min -x - y, x <= 4, y <= 3 -> -7
printf 'NAME T\nROWS\n N obj\n L r1\n L r2\nCOLUMNS\n    x obj -1 r1 1\n    y obj -1 r2 1\nRHS\n    rhs r1 4\n    r2 3\nENDATA\n' > "$TMP/noset.mps"
"$BIN" solve "$TMP/noset.mps" --tol 1e-8 > "$TMP/out" 2>&1
awk -v v="$(objective "$TMP/out")" 'BEGIN { exit !(v + 7 < 1e-6 && v + 7 > -1e-6) }' && ok || bad "name-less RHS line: $(tail -2 "$TMP/out")"

# One COLUMNS line with 60,000 row/value pairs (free format has no field limit):
# min -x, x <= k + 1 on rows r0..r59999 -> x = 1, objective -1.
awk 'BEGIN { n = 60000; print "NAME LONG"; print "ROWS"; print " N obj";
             for (k = 0; k < n; k++) print " L r" k;
             print "COLUMNS"; printf "    x obj -1";
             for (k = 0; k < n; k++) printf " r%d 1", k; print "";
             print "RHS"; for (k = 0; k < n; k++) print "    rhs r" k " " k + 1; print "ENDATA" }' > "$TMP/long.mps"
"$BIN" solve "$TMP/long.mps" --tol 1e-8 > "$TMP/out" 2>&1
awk -v v="$(objective "$TMP/out")" 'BEGIN { exit !(v + 1 < 1e-6 && v + 1 > -1e-6) }' && ok || bad "60,000 pairs on a line: $(tail -2 "$TMP/out")"

# Names that a solution file must encode (docs/solution-format.md): fixed-format names
# with spaces ("A B" next to "A_B", "R 1"), a leading '#' ("#R"), a '%' ("50%"). Hand
# solved: max x1 + 2 x2 + 3 x3, x1 + x3 <= 1, x2 <= 1, x3 <= 0.5 -> -4 (minimised form).
NAMES="$REPO/tests/data/mps/special_names.mps"
"$BIN" solve "$NAMES" --tol 1e-9 --sol "$TMP/names.sol" > "$TMP/out" 2>&1
awk -v v="$(objective "$TMP/out")" 'BEGIN { exit !(v + 4 < 1e-6 && v + 4 > -1e-6) }' && ok || bad "special names: $(tail -2 "$TMP/out")"
for name in 'A%20B ' 'A_B ' '50%25 ' '%23R ' 'R%201 '; do
    grep -q "^$name" "$TMP/names.sol" && ok || bad "no line '$name' in the solution file"
done
"$BIN" check "$NAMES" "$TMP/names.sol" > "$TMP/out" 2>&1 && ok || bad "check of encoded names: $(tail -3 "$TMP/out")"

# The reader registry (src/io/input_format.c): a model is read by its content, whatever
# its name (gzip, bzip2, xz; MPS or CPLEX LP), by solve, check and shard alike; a cut
# compressed file is refused with one line.
gzip -c "$TMP/base.mps" > "$TMP/zipped.model"
bzip2 -c "$TMP/base.mps" > "$TMP/bzipped.model"
xz -c "$TMP/base.mps" > "$TMP/xzipped.model"
for file in zipped.model bzipped.model xzipped.model; do
    "$BIN" solve "$TMP/$file" --tol 1e-8 --sol "$TMP/z.sol" > "$TMP/out" 2>&1
    awk -v v="$(objective "$TMP/out")" 'BEGIN { exit !(v + 4 < 1e-6 && v + 4 > -1e-6) }' && ok ||
        bad "$file: $(tail -2 "$TMP/out")"
    "$BIN" check "$TMP/$file" "$TMP/z.sol" > "$TMP/out" 2>&1 && ok || bad "check $file: $(tail -2 "$TMP/out")"
    rm -rf "$TMP/o.shards"
    "$BIN" shard "$TMP/$file" --grid 1x1 --out "$TMP/o.shards" > "$TMP/out" 2>&1 && ok ||
        bad "shard $file: $(tail -2 "$TMP/out")"
done
printf 'BZh91AY&SY' > "$TMP/m.mps.bz2"; printf '\xfd7zXZ\x00\x00' > "$TMP/m.mps.xz"
for file in m.mps.bz2 m.mps.xz; do
    for cmd in "solve $TMP/$file" "check $TMP/$file $TMP/z.sol" "shard $TMP/$file --grid 1x1 --out $TMP/o2.shards"; do
        # shellcheck disable=SC2086
        "$BIN" $cmd > "$TMP/out" 2> "$TMP/err"
        [ $? -ne 0 ] && [ "$(wc -l < "$TMP/err")" -eq 1 ] && grep -q "$file:1: unexpected end of compressed data" "$TMP/err" && ok ||
            bad "$cmd: $(cat "$TMP/err")"
    done
done

echo "mps_readings: $passes passed, $fails failed"
[ $fails -eq 0 ]
