#!/usr/bin/env bash
# The parallel MPS reader (docs/parallel-input.md). Every MPS file of tests/data/mps and
# ../shared/mps-edge, a few corpus LPs, generated models and files made here to cut
# awkwardly (columns split over pieces, bounds of every type over pieces, other BOUNDS
# sets, CRLF, comments, fixed format, an error deep in COLUMNS, integer blocks across
# pieces) is read on 1 rank (--parallel-read on), 2 and 4 ranks; each run must give what
# the one-process reader gives: the same model (the grid-independent fingerprint
# `--verbose` logs), or the same warning and error lines and exit status. The files that
# the parallel reader takes must be taken (the log says "read by N ranks in parallel"),
# so the test cannot pass by always falling back.
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

python3 - "$T" <<'PY'
import random, sys
d = sys.argv[1]
rnd = random.Random(7)
m, n = 60, 900

def write(name, lines, eol="\n"):
    with open(f"{d}/{name}", "w", newline="") as f:
        f.write(eol.join(lines) + eol)

def model(split_col=None, other_set=None, unknown_bound=None, bad_number_at=None,
          neg_up=None, markers=(), unknown_name="NOSUCH", shuffled=False):
    # column j is named X<name[j]>: in increasing order (the reader needs no directory
    # of names), or shuffled (it needs one)
    name = list(range(n))
    if shuffled:
        random.Random(11).shuffle(name)
    L = ["NAME          PIECES", "OBJSENSE", "    MAX", "ROWS", " N  COST", " N  SPARE"]
    L += [f" {'LGE'[i % 3]}  R{i}" for i in range(m)]
    L.append("COLUMNS")
    cols = []
    for j in range(n):
        entries = [("COST", rnd.choice([1, -2.5, 0.0, 3e-3]))]
        entries += [(f"R{i}", rnd.choice([1.0, -1.0, 0.0, 2.25, 1e-7]))
                    for i in sorted(rnd.sample(range(m), rnd.randint(1, 5)))]
        if j % 7 == 0:
            entries.append(("SPARE", 9.0))
        cols.append(entries)
    for j, entries in enumerate(cols):
        if j in markers:
            kind = "INTORG" if markers.index(j) % 2 == 0 else "INTEND"
            L.append(f"    M{j:<8} 'MARKER'                 '{kind}'")
        if j % 50 == 0:
            L.append("* a comment inside COLUMNS")
            L.append("")
        rows = entries if split_col != j else entries[:1]
        for k in range(0, len(rows), 2):
            pair = rows[k:k + 2]
            L.append(f"    X{name[j]:<8} " + "   ".join(f"{r:<8} {v!r:>12}" for r, v in pair))
        if bad_number_at == j:
            L.append(f"    X{name[j]:<8} R0       1.2.3")
    if split_col is not None:
        for r, v in cols[split_col][1:]:
            L.append(f"    X{name[split_col]:<8} {r:<8} {v!r:>12}")
    L.append("RHS")
    L += [f"    RHS1      R{i:<8} {rnd.uniform(-5, 5)!r}" for i in range(0, m, 2)]
    L.append("    RHS1      COST      -12.5")
    L.append("RANGES")
    L += [f"    RNG1      R{i:<8} {rnd.uniform(0.5, 3)!r}" for i in range(0, m, 5)]
    L.append("BOUNDS")
    for j in range(n):
        if j % 40 == 0:
            L.append("* bounds comment")
        kind = j % 9
        s = "BND1" if other_set != j else "BND2"
        if unknown_bound == j:
            L.append(f" UP {s}      {unknown_name:<9} 4")
        if kind == 0:
            L.append(f" UP {s}      X{name[j]:<8} {rnd.uniform(1, 9)!r}")
        elif kind == 1:
            L.append(f" LO {s}      X{name[j]:<8} {rnd.uniform(-9, -1)!r}")
            L.append(f" UP {s}      X{name[j]:<8} {rnd.uniform(1, 9)!r}")
        elif kind == 2:
            L.append(f" FX {s}      X{name[j]:<8} 2.5")
        elif kind == 3:
            L.append(f" FR {s}      X{name[j]:<8}")
        elif kind == 4:
            L.append(f" MI {s}      X{name[j]:<8}")
            L.append(f" UP {s}      X{name[j]:<8} -1")
        elif kind == 5:
            L.append(f" PL {s}      X{name[j]:<8}")
        elif kind == 6:
            L.append(f" UP {s}      X{name[j]:<8} 1e30")
        if neg_up == j:
            L.append(f" UP {s}      X{name[j]:<8} -3")
    L.append("ENDATA")
    return L

write("pieces.mps", model())
write("pieces-crlf.mps", model(), eol="\r\n")
write("split-column.mps", model(split_col=3))
write("other-set.mps", model(other_set=820))
write("unknown-bound.mps", model(unknown_bound=700))
write("unknown-inside.mps", model(unknown_bound=300, unknown_name="X05"))  # X0 < X05 < X10
write("shuffled.mps", model(shuffled=True))
write("shuffled-split.mps", model(shuffled=True, split_col=5))
write("shuffled-unknown.mps", model(shuffled=True, unknown_bound=200))
write("bad-number.mps", model(bad_number_at=850))
write("neg-up.mps", model(neg_up=806))
write("markers.mps", model(markers=(100, 700, 820)))  # the last block stays open
# fixed format with a blank inside names: the pieces cut between column runs anyway
F = ["NAME          FIXEDSP", "ROWS", " N  OBJ", " G  ROW A", " L  ROW B", "COLUMNS"]
for j in range(400):
    F.append(f"    COL {j:<4}  OBJ       {1 + j % 3:>12}   ROW A     {1.0:>12}")
    F.append(f"    COL {j:<4}  ROW B     {2.0:>12}")
F += ["RHS", "    RHS       ROW A     1            ROW B     800", "BOUNDS",
      " UP BND       COL 7     3", "ENDATA"]
write("fixed-spaces.mps", F)
# Few costs and bounds (src/grid/read_blocks.c sends them as exceptions to 0 and +inf):
# a cost on one column in 10, a bound on one in 20, among them -0 and +0 bits
S = ["NAME          SPARSE", "ROWS", " N  OBJ", " G  R0", " L  R1", "COLUMNS"]
for j in range(600):
    if j % 10 == 0:
        S.append(f"    Y{j:<8} OBJ       {1 + j % 7:>12}")
    S.append(f"    Y{j:<8} R0        {1.0:>12}   R1        {0.5 + j % 3:>12}")
S += ["RHS", "    RHS       R0        5            R1        900", "BOUNDS"]
for j in range(0, 600, 20):
    S.append(f" {['UP', 'LO', 'UP', 'LO'][j // 20 % 4]} BND       Y{j:<8} "
             f"{['3', '-0', '-0', '1.5'][j // 20 % 4]}")
S.append("ENDATA")
write("sparse-vectors.mps", S)
# Upper bounds on the first half of the columns only: too many for exceptions, so the
# pieces of the second half (which made no bounds arrays) send their defaults in full
H = ["NAME          HALF", "ROWS", " N  OBJ", " G  R0", "COLUMNS"]
for j in range(600):
    H.append(f"    Z{j:<8} OBJ       {1 + j % 5:>12}   R0        {1.0:>12}")
H += ["RHS", "    RHS       R0        5", "BOUNDS"]
H += [f" UP BND       Z{j:<8} {2 + j % 3}" for j in range(300)]
H.append("ENDATA")
write("half-bounds.mps", H)
PY

"$BIN" gen mcf --commodities 12 --factories 3 --warehouses 8 --stores 6 --mps "$T/mcf.mps" \
    >/dev/null || bad "gen mcf"

for f in mcf pieces pieces-crlf shuffled; do check "$T/$f.mps" 1; done
check "$T/fixed-spaces.mps" 0
for f in split-column other-set unknown-bound unknown-inside bad-number neg-up shuffled-split \
    shuffled-unknown; do check "$T/$f.mps" 0; done
# Which way the names were resolved: names in increasing order need no directory.
route() { # file expected-words
    run 4 "$1"
    grep -q "($2)" "$T/out" && ok || bad "$(basename "$1"): the log does not say '($2)'"
}
route "$T/pieces.mps" "names in order"
route "$T/mcf.mps" "names in order"
route "$T/shuffled.mps" "directory of names"
# Which column vectors went as exceptions to their defaults: all three where few columns
# differ, none where most do, the lower bounds alone where half the columns have an upper
# bound; the same model either way (check)
check "$T/sparse-vectors.mps" 1
route "$T/sparse-vectors.mps" "columns' c, l, u sent as exceptions: clu; rank 0's clock"
route "$T/pieces.mps" "columns' c, l, u sent as exceptions: none; rank 0's clock"
check "$T/half-bounds.mps" 1
route "$T/half-bounds.mps" "columns' c, l, u sent as exceptions: l; rank 0's clock"
check "$T/markers.mps" 1 --relax # integer blocks across pieces, relaxed
check "$T/markers.mps" 0         # refused without --relax: the one-process reader says so
for f in "$ROOT"/tests/data/mps/*.mps; do check "$f" 0 --relax; done
check "$ROOT/tests/data/mps/max.mps" 1
if [ -d "$SHARED/mps-edge" ]; then
    for f in "$SHARED"/mps-edge/*.mps; do check "$f" 0 --relax; done
    for lp in netlib/afiro netlib/sc50a netlib/scagr7; do
        gunzip -c "$SHARED/lp/$lp.mps.gz" >"$T/$(basename $lp).mps" && check "$T/$(basename $lp).mps" 1
    done
else
    echo "SKIP: no $SHARED/mps-edge (the shared corpus is not beside this clone)"
fi

# The same cuts and blocks as rank 0's split: on one grid, a solve from the parallel
# reader is bit for bit the solve from rank 0's reading (the JSON summary's numbers).
same_solve "$T/mcf.mps" 4 2x2
# Pieces of more than 2^18 entries go to the blocks in several rounds (src/grid/
# read_entries.c): each row's columns must still end in order, or the products differ.
"$BIN" gen mcf --commodities 100 --factories 5 --warehouses 100 --stores 50 \
    --mps "$T/mcf-rounds.mps" >/dev/null || bad "gen mcf (rounds)"
same_solve "$T/mcf-rounds.mps" 4 2x2
same_solve "$T/mcf-rounds.mps" 2 1x2
same_solve "$T/pieces.mps" 3 1x3
same_solve "$T/pieces.mps" 4 4x1

# The layout is found from the head and the tail (src/grid/read_layout.c): a header
# inside what it takes for COLUMNS makes the pieces give the file to one process; a
# file without RHS is scanned whole
awk 'NR == 400 { print "RANGES" } { print }' "$T/pieces.mps" >"$T/ranges-inside.mps"
awk 'NR == 400 { print "RHS" } { print }' "$T/pieces.mps" >"$T/rhs-twice.mps"
awk '/^RHS/ { skip = 1; next } /^[A-Z]/ { skip = 0 } !skip' "$T/pieces.mps" >"$T/no-rhs.mps"
check "$T/ranges-inside.mps" 0
check "$T/rhs-twice.mps" 0
check "$T/no-rhs.mps" 1

# The ENDATA line is read as one process reads it: a NUL byte on it is an error there;
# words after ENDATA are not
{ head -n -1 "$T/pieces.mps"; printf 'ENDATA\0 NAME\n'; } >"$T/endata-nul.mps"
{ head -n -1 "$T/pieces.mps"; printf 'ENDATA  and more\n'; } >"$T/endata-words.mps"
check "$T/endata-nul.mps" 0
check "$T/endata-words.mps" 1

# Compressed files in units (docs/parallel-input.md "Compressed files"): BGZF members and
# seekable zstd frames of a few KiB, so that the layout's parts, the pieces and their
# lines cross unit boundaries: read in parallel, the same model or the same messages.
BC="python3 $ROOT/tests/data/block_compress.py"
for f in mcf pieces shuffled split-column bad-number; do
    $BC bgzf 3000 "$T/$f.mps" "$T/$f-bgzf.mps.gz" || bad "bgzf $f"
    $BC zstd 5000 "$T/$f.mps" "$T/$f-seek.mps.zst" || bad "zstd $f"
done
for f in mcf pieces shuffled; do check "$T/$f-bgzf.mps.gz" 1; check "$T/$f-seek.mps.zst" 1; done
for f in split-column bad-number; do check "$T/$f-bgzf.mps.gz" 0; check "$T/$f-seek.mps.zst" 0; done
# what convert writes: read in parallel, and the same solve as rank 0's reading
"$BIN" convert "$T/mcf-rounds.mps" "$T/rounds.mps.gz" >/dev/null || bad "convert .gz"
"$BIN" convert "$T/mcf-rounds.mps" "$T/rounds.mps.zst" >/dev/null || bad "convert .zst"
check "$T/rounds.mps.gz" 1
same_solve "$T/rounds.mps.zst" 4 2x2
# damaged, cut or mixed files go to rank 0, which reports them as one process does
damage() { # file offset: one byte changed
    python3 -c "import sys; f=open(sys.argv[1],'r+b'); f.seek(int(sys.argv[2])); b=f.read(1); \
f.seek(int(sys.argv[2])); f.write(bytes([b[0]^0x55]))" "$1" "$2"
}
cp "$T/pieces-bgzf.mps.gz" "$T/damaged.mps.gz" && damage "$T/damaged.mps.gz" 5000
cp "$T/pieces-seek.mps.zst" "$T/damaged.mps.zst" && damage "$T/damaged.mps.zst" 5000
head -c 9000 "$T/pieces-bgzf.mps.gz" >"$T/cut.mps.gz"
head -c 30000 "$T/pieces.mps" >"$T/head.part" && tail -c +30001 "$T/pieces.mps" >"$T/tail.part"
$BC bgzf 3000 "$T/head.part" "$T/head.gz" && gzip -c "$T/tail.part" >"$T/tail.gz"
cat "$T/head.gz" "$T/tail.gz" >"$T/mixed.mps.gz" # BGZF, then one plain gzip member
for f in damaged.mps.gz damaged.mps.zst cut.mps.gz mixed.mps.gz; do check "$T/$f" 0; done
run 4 "$T/mixed.mps.gz"
grep -q "read by 4 ranks in parallel" "$T/out" && bad "mixed.mps.gz: read in parallel" || ok

# a single-member gzip file goes through rank 0, with the same model
gzip -c "$T/pieces.mps" >"$T/pieces.mps.gz"
check "$T/pieces.mps.gz" 0

echo "parallel_read: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
