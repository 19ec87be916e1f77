#!/usr/bin/env bash
# shardlp shard / info on netlib afiro (27 rows, 32 columns, 83 nonzeros, INDEX.tsv):
# conversion, bounded-memory path byte-identical to the in-memory one, --grid auto,
# info output, corrupted directories and bad options.
# Args: $1 shardlp binary, $2 repository root, $3 shared directory.
BIN=$1
SHARED=${3:-$2/../shared}
MODEL=$SHARED/lp/netlib/afiro.mps.gz
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
expect() { # expect DESCRIPTION STATUS-WANTED PATTERN -- command...
    local what=$1 want=$2 pattern=$3
    shift 4
    "$@" >"$T/out" 2>"$T/err"
    local got=$?
    if [ "$got" -ne "$want" ]; then bad "$what: exit $got, expected $want"; cat "$T/err"; return; fi
    if [ -n "$pattern" ] && ! grep -q -- "$pattern" "$T/out" "$T/err"; then
        bad "$what: output lacks '$pattern'"; cat "$T/out" "$T/err"; return
    fi
    ok
}

expect "shard 2x2" 0 "27 rows, 32 columns, 83 nonzeros on a 2x2 grid" -- \
    "$BIN" shard "$MODEL" --grid 2x2 --out "$T/a.shards"
expect "shard 2x2 bounded" 0 "bounded-memory streaming path" -- \
    "$BIN" shard "$MODEL" --grid 2x2 --out "$T/b.shards" --mem-budget 64
same=1
for f in "$T"/a.shards/*; do cmp -s "$f" "$T/b.shards/$(basename "$f")" || same=0; done
[ "$(ls "$T/a.shards" | wc -l)" -eq 13 ] && [ $same -eq 1 ] && ok || bad "bounded path not byte-identical"

# info: block counts sum to 83; dense hops 2(C-1)m + 2(R-1)n = 54 + 64 = 118.
expect "info" 0 "dense plan 118 logical scalar-hops" -- "$BIN" info "$T/a.shards"
grep -q "grid             : 2x2 (4 ranks), with names" "$T/out" && ok || bad "info grid line"
grep -q "imbalance        : max/mean" "$T/out" && ok || bad "info imbalance line"
grep -q "bytes per rank   : matrix max" "$T/out" && ok || bad "info bytes line"
sum=$(awk '/^  [0-9]+ / {for (i = 2; i <= NF; i++) s += $i} END {print s}' "$T/out")
[ "$sum" = 83 ] && ok || bad "info block nonzeros sum to $sum, expected 83"
expect "info --verify" 0 "checksums ok" -- "$BIN" info "$T/a.shards" --verify
# the value survey: a transport member's coefficients are all 1 by construction
# (docs/generators.md): every block signed-unit, no bytes for values
"$BIN" gen transport --sources 30 --sinks 90 --neighbors 4 --grid 2x2 --out "$T/t.shards" \
    --quiet || bad "gen transport"
expect "info --verify values" 0 "signed-unit 4 blocks, table8 0 blocks, table16 0 blocks; 0.00 bytes" \
    -- "$BIN" info "$T/t.shards" --verify

# --compact-values (docs/shard-format.md): the transport member's blocks store signs, no
# values (version 2 block files); the converter's in-memory and streaming paths write the
# same files; the compact and the plain directories solve with the same iterations and
# objective bits (the reader gives back the very doubles).
"$BIN" gen transport --sources 30 --sinks 90 --neighbors 4 --grid 2x2 --out "$T/tc.shards" \
    --compact-values --quiet || bad "gen transport --compact-values"
expect "info compact blocks" 0 "4 of 4 blocks with compact values" -- "$BIN" info "$T/tc.shards"
expect "info plain blocks" 0 "0 of 4 blocks with compact values" -- "$BIN" info "$T/t.shards"
expect "info --verify compact" 0 "signed-unit 4 blocks" -- "$BIN" info "$T/tc.shards" --verify
"$BIN" convert "$T/t.shards" "$T/t.mps" --quiet || bad "convert transport"
"$BIN" shard "$T/t.mps" --grid 1x2 --out "$T/tm.shards" --compact-values --quiet || bad "shard compact"
"$BIN" shard "$T/t.mps" --grid 1x2 --out "$T/ts.shards" --compact-values --mem-budget 64 --quiet ||
    bad "shard compact, streaming"
diff -r "$T/tm.shards" "$T/ts.shards" >/dev/null && ok || bad "compact: streaming and in-memory differ"
"$BIN" shard "$MODEL" --grid 1x1 --out "$T/ac.shards" --compact-values --quiet || bad "afiro compact"
for m in t ac; do
    "$BIN" shard "$([ $m = t ] && echo "$T/t.mps" || echo "$MODEL")" --grid 1x1 --out "$T/$m-p1" \
        --quiet || bad "$m plain 1x1"
    [ $m = t ] && { "$BIN" shard "$T/t.mps" --grid 1x1 --out "$T/t-c1" --compact-values --quiet ||
        bad "t compact 1x1"; }
    c=$([ $m = t ] && echo "$T/t-c1" || echo "$T/ac.shards")
    "$BIN" solve "$T/$m-p1" --threads 1 --json "$T/p.json" --quiet
    "$BIN" solve "$c" --threads 1 --json "$T/c.json" --quiet
    python3 - "$T/p.json" "$T/c.json" <<'PY' && ok || bad "$m: compact and plain shards solve differently"
import json, sys
p, c = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(0 if p["status"] == "optimal" and (p["iterations"], repr(p["objective"])) ==
         (c["iterations"], repr(c["objective"])) else 1)
PY
done
# convert rewrites a plain directory compact: the files shard --compact-values writes
"$BIN" convert "$T/t-p1" "$T/t-conv" --compact-values --quiet || bad "convert --compact-values"
diff -r "$T/t-conv" "$T/t-c1" >/dev/null && ok || bad "convert --compact-values differs from shard's"
expect "convert --compact-values to MPS" 1 "applies to a shard directory, not to" -- \
    "$BIN" convert "$T/t-p1" "$T/x.mps" --compact-values
[ ! -e "$T/x.mps" ] && ok || bad "convert --compact-values to MPS left a file"
expect "gen --compact-values without --out" 2 "is for a shard directory (--out)" -- \
    "$BIN" gen qap --size 3 --mps "$T/q.mps" --compact-values

# --grid auto: 1x1 needs 2420 bytes, 1x2 1544, 2x1 1616, so 1500 needs three ranks.
expect "grid auto" 0 "picked 1x3 (3 ranks)" -- \
    "$BIN" shard "$MODEL" --grid auto --mem-per-rank 1500 --out "$T/c.shards"
expect "grid auto large budget" 0 "picked 1x1" -- \
    "$BIN" shard "$MODEL" --grid auto --mem-per-rank 1G --out "$T/d.shards"

# --grid auto --ranks P: every factorisation listed with its modelled peak; the pick is
# the smallest peak (ties: fewer hops) and the directory is cut that way. A vector-heavy
# mcf (220,100 columns, 6,300 rows) must go 1 x P: its column slices dominate.
auto_ranks() { # MODEL P DIR EXPECTED-GRID (empty: any)
    "$BIN" shard "$1" --grid auto --ranks "$2" --out "$3" >"$T/out" 2>&1 || { bad "auto ranks $2: $(cat "$T/out")"; return; }
    python3 - "$T/out" "$2" "$4" "$3/manifest.json" <<'PY' && ok || { bad "auto ranks $2"; cat "$T/out"; }
import json, re, sys
text, P, want, manifest = open(sys.argv[1]).read(), int(sys.argv[2]), sys.argv[3], sys.argv[4]
rows = re.findall(r"^\s+(\d+)x(\d+)\s+(\d+) bytes \([0-9.]+ MiB\)\s+(\d+) hops per iteration(\s+<- picked)?$", text, re.M)
assert rows and all(int(r) * int(c) == P for r, c, *_ in rows), rows
picked = [(int(r), int(c)) for r, c, _, _, mark in rows if mark]
best = min(rows, key=lambda t: (int(t[2]), int(t[3])))
assert picked == [(int(best[0]), int(best[1]))], (picked, best)
m = json.load(open(manifest))
assert m["grid"] == list(picked[0]), m["grid"]
assert not want or "%dx%d" % picked[0] == want, (picked, want)
PY
}
"$BIN" gen mcf --commodities 40 --factories 5 --warehouses 100 --stores 50 --mps "$T/mcf.mps" --quiet
auto_ranks "$T/mcf.mps" 4 "$T/mcf4.shards" 1x4
auto_ranks "$MODEL" 6 "$T/af6.shards" ""

# info lists the same alternatives for a directory's rank count, from its blocks: the
# 1x4 directory is both its own grid and auto's pick; a 2x2 cut of the same LP marks 2x2
# as the directory's and still 1x4 as auto's, with the same bytes as `shard` printed.
"$BIN" shard "$T/mcf.mps" --grid auto --ranks 4 --out "$T/mcf4b.shards" >"$T/shard.out" 2>&1
"$BIN" shard "$T/mcf.mps" --grid 2x2 --out "$T/mcf22.shards" >/dev/null 2>&1
"$BIN" info "$T/mcf4.shards" >"$T/info4" 2>&1 && "$BIN" info "$T/mcf22.shards" >"$T/info22" 2>&1 &&
python3 - "$T/shard.out" "$T/info4" "$T/info22" <<'PY' && ok || { bad "info grid choices"; cat "$T/info4" "$T/info22"; }
import re, sys
shard, info4, info22 = (open(p).read() for p in sys.argv[1:4])
line = r"^\s+(\d+x\d+)\s+(\d+) bytes \([0-9.]+ MiB\)\s+\d+ hops per iteration(.*)$"
want = {g: b for g, b, _ in re.findall(line, shard, re.M)}
for text, own in ((info4, "1x4"), (info22, "2x2")):
    rows = re.findall(line, text, re.M)
    assert {g: b for g, b, _ in rows} == want, (rows, want)
    assert [g for g, _, mark in rows if "this directory" in mark] == [own], rows
    assert [g for g, _, mark in rows if "--grid auto" in mark] == ["1x4"], rows
PY

# Corrupted and mismatched directories: a clear message naming the file, exit 1.
cp -r "$T/a.shards" "$T/x.shards"; truncate -s 100 "$T/x.shards/block_1_1.bin"
expect "truncated block" 1 "block_1_1.bin: file is 100 bytes" -- "$BIN" info "$T/x.shards" --verify
rm -rf "$T/x.shards"; cp -r "$T/a.shards" "$T/x.shards"
printf '\x77' | dd of="$T/x.shards/col_1.bin" bs=1 seek=150 conv=notrunc 2>/dev/null
expect "flipped byte" 1 "col_1.bin: checksum mismatch" -- "$BIN" info "$T/x.shards" --verify
rm -rf "$T/x.shards"; cp -r "$T/a.shards" "$T/x.shards"; rm "$T/x.shards/rownames_0.bin"
expect "missing file" 1 "rownames_0.bin: cannot open" -- "$BIN" info "$T/x.shards" --verify
rm -rf "$T/x.shards"; cp -r "$T/a.shards" "$T/x.shards"
sed -i 's/"grid": \[2, 2\]/"grid": [4, 1]/' "$T/x.shards/manifest.json"
expect "wrong manifest grid" 1 "manifest.json: field 'row_off' must be an array of 5" -- \
    "$BIN" info "$T/x.shards"
rm -rf "$T/x.shards"; cp -r "$T/a.shards" "$T/x.shards"
sed -i 's/"version": 1/"version": 2/' "$T/x.shards/manifest.json"
expect "wrong manifest version" 1 "format version 2, this reader supports 1" -- \
    "$BIN" info "$T/x.shards"
expect "not a shard directory" 1 "manifest.json: cannot open" -- "$BIN" info "$T"

# Bad options and no partial output.
expect "bad grid" 2 "bad grid '0x2'" -- "$BIN" shard "$MODEL" --grid 0x2 --out "$T/e"
expect "bad byte count" 2 "not a positive byte count" -- \
    "$BIN" shard "$MODEL" --grid 2x2 --out "$T/e" --mem-budget abc
expect "auto without budget" 2 "needs --ranks P or --mem-per-rank" -- "$BIN" shard "$MODEL" --grid auto --out "$T/e"
expect "ranks without auto" 2 "--ranks is for --grid auto" -- "$BIN" shard "$MODEL" --grid 2x2 --ranks 4 --out "$T/e"
expect "missing --out" 2 "--out DIR is required" -- "$BIN" shard "$MODEL" --grid 2x2
expect "missing model" 1 "" -- "$BIN" shard "$T/nope.mps" --grid 2x2 --out "$T/e"
[ ! -e "$T/e" ] && [ -z "$(ls -d "$T"/e.tmp.* 2>/dev/null)" ] && ok || bad "partial output left behind"
mkdir "$T/user"; echo keep >"$T/user/file.txt"
expect "foreign directory" 1 "refusing to overwrite" -- \
    "$BIN" shard "$MODEL" --grid 1x2 --out "$T/user"
[ -f "$T/user/file.txt" ] && ok || bad "foreign directory modified"
expect "replace shard directory" 0 "on a 1x2 grid" -- "$BIN" shard "$MODEL" --grid 1x2 --out "$T/a.shards"
expect "help" 0 "usage: shardlp shard" -- "$BIN" shard --help

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
