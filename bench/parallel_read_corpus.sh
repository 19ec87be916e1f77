#!/usr/bin/env bash
# Every MPS file of the corpus (../shared/lp, decompressed to a temporary directory, since
# compressed input goes through rank 0) read by one process and by NP ranks in parallel:
# the model fingerprints (`--verbose`) and the warning/error lines must agree; prints
# how many files the parallel reader took. With FORMAT lp, each file is first written as
# an LP file by `shardlp convert` and the LP files are compared (grid/read_lp.c). Usage:
#   bash bench/parallel_read_corpus.sh [shardlp] [shared dir] [NP] [mps|lp]
BIN=${1:-build/shardlp}
SHARED=${2:-../shared}
NP=${3:-3}
FORMAT=${4:-mps}
MPIRUN=${MPIRUN:-mpirun --allow-run-as-root --oversubscribe --mca btl self,vader}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
same=0 differ=0 taken=0
sig() { grep -E "^Model fingerprint|integer columns? relaxed" "$T/out"; grep -E "shardlp: (warning|error):" "$T/err"; }
for gz in $(find "$SHARED/lp" -name '*.mps.gz' | sort); do
    f="$T/$(basename "${gz%.gz}")"
    gunzip -c "$gz" >"$f"
    if [ "$FORMAT" = lp ]; then
        "$BIN" convert "$f" "${f%.mps}.lp" --quiet --relax 2>/dev/null || { rm -f "$f"; continue; }
        rm -f "$f"
        f="${f%.mps}.lp"
    fi
    opts="--verbose --iter-limit 1 --threads 1 --presolve off --relax"
    timeout 600 "$BIN" solve "$f" $opts --parallel-read off >"$T/out" 2>"$T/err"
    sig >"$T/ref"
    timeout 600 $MPIRUN -np "$NP" "$BIN" solve "$f" $opts >"$T/out" 2>"$T/err"
    sig >"$T/par"
    grep -q "in parallel" "$T/out" && taken=$((taken + 1))
    if cmp -s "$T/ref" "$T/par"; then
        same=$((same + 1))
    else
        differ=$((differ + 1))
        echo "DIFFERS: ${gz#$SHARED/}"
        diff "$T/ref" "$T/par" | head -4
    fi
    rm -f "$f"
done
echo "corpus ($FORMAT): $same the same, $differ different; $taken read in parallel on $NP ranks"
