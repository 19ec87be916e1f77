#!/usr/bin/env bash
# `mpirun -np P shardlp shard F --grid RxC --out D` (docs/parallel-input.md "Shards from P
# ranks"): the ranks read the file in parallel and each writes its own block, slices and
# names; the directory must be byte for byte the one the one-process converter writes
# (every file and the manifest), on grids 2x2, 1x3 and 3x1, from plain, BGZF and
# seekable zstd MPS files and from LP files, and the run must say it was read in
# parallel, with plain or compact values. Files the parallel
# reader leaves to one process (warnings, integer columns, errors) are converted by
# rank 0: the same directory or the same error line, printed once. Grids that do not
# match the rank count, --grid auto and an output directory that may not be replaced
# fail on every rank with one message and no directory left behind.
# Args: $1 shardlp binary, $2 repository root, $3 shared directory (optional).
BIN=$1
ROOT=$2
SHARED=${3:-$2/../shared}
MPIRUN=${MPIRUN:-mpirun --allow-run-as-root --oversubscribe --mca btl self,vader}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
source "$ROOT/tests/lib/corpus.sh"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# same FILE GRID PARALLEL [options]: one process and R x C ranks give the same directory
# (or the same error lines and exit status); PARALLEL = 1 when the ranks must have read
# the file themselves.
same() {
    local f=$1 g=$2 parallel=$3; shift 3
    local np=$((${g%x*} * ${g#*x}))
    rm -rf "$T/one" "$T/ranks"
    "$BIN" shard "$f" --grid "$g" --out "$T/one" "$@" >"$T/one.out" 2>"$T/one.err"
    local rc1=$?
    timeout 120 $MPIRUN -np "$np" "$BIN" shard "$f" --grid "$g" --out "$T/ranks" "$@" \
        >"$T/ranks.out" 2>"$T/ranks.err"
    local rc2=$?
    local name
    name="$(basename "$f") $g"
    if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ]; then
        diff -r "$T/one" "$T/ranks" >/dev/null && ok || bad "$name: the directories differ"
    elif [ $rc1 -ne 0 ] && [ $rc2 -ne 0 ] && [ $rc2 -ne 124 ]; then
        diff <(grep "error:" "$T/one.err") <(grep "error:" "$T/ranks.err") >/dev/null && ok ||
            bad "$name: the errors differ: $(cat "$T/one.err" "$T/ranks.err")"
    else
        bad "$name: exit $rc1 on one process, $rc2 on $np ranks"
        head -3 "$T/one.err" "$T/ranks.err"
    fi
    if [ "$parallel" = 1 ]; then
        grep -q "read and written by the ranks in parallel" "$T/ranks.out" && ok ||
            bad "$name: not read in parallel ($(cat "$T/ranks.out"))"
    fi
}

"$BIN" gen mcf --commodities 12 --factories 3 --warehouses 8 --stores 6 --mps "$T/mcf.mps" \
    >/dev/null || bad "gen mcf"
python3 "$ROOT/tests/data/block_compress.py" bgzf 3000 "$T/mcf.mps" "$T/mcf-bgzf.mps.gz"
python3 "$ROOT/tests/data/block_compress.py" zstd 5000 "$T/mcf.mps" "$T/mcf-seek.mps.zst"
"$BIN" convert "$T/mcf.mps" "$T/mcf.lp" --quiet || bad "convert mcf.lp"
python3 "$ROOT/tests/data/pieces_lp.py" "$T" || bad "pieces_lp.py" # pieces.lp, shuffled.lp, ...
for g in 2x2 1x3 3x1; do
    for f in mcf.mps mcf-bgzf.mps.gz mcf-seek.mps.zst mcf.lp pieces.lp shuffled.lp \
        two-sections.lp; do
        same "$T/$f" $g 1
    done
done
# --compact-values (docs/shard-format.md): the ranks write each block in the same form
same "$T/mcf.mps" 2x2 1 --compact-values
same "$T/mcf.lp" 1x3 1 --compact-values
same "$ROOT/examples/data/afiro.mps" 2x2 1 --compact-values
same "$T/markers.lp" 2x2 1 --relax
same "$T/duplicate-row.lp" 2x2 0 # refused by both: the same error line

# integer columns: relaxed by both, refused by both
cat >"$T/int.mps" <<'EOF'
NAME          INTS
ROWS
 N  COST
 L  LIM1
 G  LIM2
COLUMNS
    MARKER                 'MARKER'                 'INTORG'
    X1        COST         1.0   LIM1         1.0
    X1        LIM2         1.0
    MARKER                 'MARKER'                 'INTEND'
    X2        COST         2.0   LIM1         1.0
    X3        COST        -1.0   LIM2         1.0
RHS
    RHS       LIM1         4.0   LIM2         1.0
BOUNDS
 UP BND       X1           4.0
ENDATA
EOF
same "$T/int.mps" 2x2 1 --relax
same "$T/int.mps" 2x2 0
# files with warnings or errors: rank 0 converts them as one process does
for f in "$ROOT"/tests/data/mps/*.mps; do same "$f" 2x2 0 --relax; done
for f in netlib/25fv47 kennington/osa-07; do
    need "$SHARED/lp/$f.mps.gz" || continue
    zcat "$SHARED/lp/$f.mps.gz" >"$T/c.mps"
    same "$T/c.mps" 2x2 1
    same "$T/c.mps" 1x3 1
done

# refusals: one message, a non-zero exit on every rank, no directory
refuse() { # ranks expected-words options...
    local np=$1 words=$2; shift 2
    rm -rf "$T/r"
    timeout 60 $MPIRUN -np "$np" "$BIN" shard "$T/mcf.mps" --out "$T/r" "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    [ $rc -ne 0 ] && [ $rc -ne 124 ] && ok || bad "np $np $*: exit $rc"
    [ "$(grep -c "shardlp: error:.*$words" "$T/err")" -eq 1 ] && ok ||
        { bad "np $np $*: want one error with '$words'"; cat "$T/err"; }
    [ ! -e "$T/r" ] && [ -z "$(ls -d "$T"/r.tmp.* 2>/dev/null)" ] && ok ||
        bad "np $np $*: a directory was left"
}
refuse 4 "R x C = 4" --grid 1x3
refuse 2 "R x C = 2" --grid auto --ranks 2
mkdir -p "$T/r" && echo keep >"$T/r/other.txt"
timeout 60 $MPIRUN -np 4 "$BIN" shard "$T/mcf.mps" --grid 2x2 --out "$T/r" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && [ "$(grep -c "refusing to overwrite" "$T/err")" -eq 1 ] &&
    [ -f "$T/r/other.txt" ] && [ -z "$(ls -d "$T"/r.tmp.* 2>/dev/null)" ] && ok ||
    { bad "non-empty output directory: exit $rc"; cat "$T/err"; }

echo "shard_ranks: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
