#!/usr/bin/env bash
# The parallel reader of CPLEX LP files (docs/parallel-input.md "LP files"). Files made to
# be cut awkwardly (tests/data/pieces_lp.py: an objective over many lines, constraints
# with and without labels and over several lines, ranges both ways, bounds of every
# form, markers, comments, CRLF, a second constraint section, repeated objective terms
# far apart, constants), the LP files of tests/data/lp, generated and corpus models
# written as LP files, random LP files (tests/data/random_lp.py) and compressed ones are
# read on 1 rank (--parallel-read on), 2 and 4 ranks; each run must give what the
# one-process reader gives: the same model fingerprint, or the same warning and error
# lines and exit status. The files the parallel reader takes must be taken, so that the
# test cannot pass by always falling back. (Shards written by the ranks from LP files:
# tests/mpi/shard_ranks.sh.)
# Args: $1 shardlp binary, $2 repository root, $3 shared directory (optional).
BIN=$1
ROOT=$2
SHARED=${3:-$2/../shared}
MPIRUN=${MPIRUN:-mpirun --allow-run-as-root --oversubscribe --mca btl self,vader}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
source "$ROOT/tests/lib/read_checks.sh" # signature, run, check, same_solve
source "$ROOT/tests/lib/corpus.sh"      # need

mkdir -p "$T/lp"
python3 "$ROOT/tests/data/pieces_lp.py" "$T/lp" || bad "pieces_lp.py"
for f in pieces pieces-crlf shuffled max repeat-far constants two-sections no-labels \
    keyword-lines head-pulp head-comments head-comments-crlf; do
    check "$T/lp/$f.lp" 1
done
check "$T/lp/markers.lp" 1 --relax # General, Binary and Semi-continuous columns, relaxed
check "$T/lp/markers.lp" 0         # refused without --relax: the one-process reader says so
# refused by the one-process reader (a name twice, R3 both generated and a label), or
# not cut (a block comment among the statements, a statement after a head comment's
# close, a head comment longer than rank 0's share): rank 0 reads them and says what it
# says alone
for f in duplicate-row generated-clash block-comment head-text-after-close head-long; do
    check "$T/lp/$f.lp" 0
done
# and they do: the file is not read in parallel on 2 and 4 ranks
for f in block-comment head-text-after-close head-long; do
    for np in 2 4; do
        run $np "$T/lp/$f.lp"
        grep -q "rank 0 reads the file instead" "$T/out" && ok ||
            bad "$f.lp on $np ranks: read in parallel ($(grep -E 'Parallel|Model' "$T/out" | head -2))"
    done
done
for f in "$ROOT"/tests/data/lp/*.lp; do check "$f" 0 --relax; done

# generated models and corpus LPs written as LP files
"$BIN" gen mcf --commodities 12 --factories 3 --warehouses 8 --stores 6 --mps "$T/mcf.mps" \
    >/dev/null || bad "gen mcf"
"$BIN" convert "$T/mcf.mps" "$T/mcf.lp" --quiet || bad "convert mcf.lp"
check "$T/mcf.lp" 1
"$BIN" gen mcf --commodities 100 --factories 5 --warehouses 100 --stores 50 \
    --mps "$T/rounds.mps" >/dev/null && "$BIN" convert "$T/rounds.mps" "$T/rounds.lp" --quiet ||
    bad "gen mcf (rounds)"
same_solve "$T/rounds.lp" 4 2x2
same_solve "$T/rounds.lp" 2 1x2
for lp in netlib/afiro netlib/sc50a netlib/scagr7 netlib/boeing1; do
    need "$SHARED/lp/$lp.mps.gz" || continue
    "$BIN" convert "$SHARED/lp/$lp.mps.gz" "$T/$(basename $lp).lp" --quiet || bad "convert $lp"
    check "$T/$(basename $lp).lp" 1
done

# random LP files: spellings of numbers and names, line breaks inside terms, comments,
# stray tokens (most are refused; both readers must say the same)
for s in $(seq 1 30); do
    python3 "$ROOT/tests/data/random_lp.py" "$s" >"$T/random-$s.lp"
    check "$T/random-$s.lp" 0 --relax
done

# compressed: BGZF and seekable zstd (units each rank decodes alone) are read in
# parallel, a plain gzip stream goes to rank 0
BC="python3 $ROOT/tests/data/block_compress.py"
$BC bgzf 3000 "$T/lp/pieces.lp" "$T/pieces-bgzf.lp.gz" || bad "bgzf pieces.lp"
check "$T/pieces-bgzf.lp.gz" 1
$BC zstd 5000 "$T/mcf.lp" "$T/mcf-seek.lp.zst" || bad "zstd mcf.lp"
check "$T/mcf-seek.lp.zst" 1
gzip -c "$T/lp/pieces.lp" >"$T/pieces.lp.gz"
check "$T/pieces.lp.gz" 0

echo "parallel_read_lp: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
