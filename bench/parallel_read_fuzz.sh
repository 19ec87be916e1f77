#!/usr/bin/env bash
# Differential fuzzing of the parallel readers: mutated copies of a base file
# (tests/data/mutate_mps.py), or with BASE `random-lp` random LP files
# (tests/data/random_lp.py, seed = the run's number), read by one process and by NP ranks
# must give the same fingerprint, warnings, errors and exit status. Usage:
#   bash bench/parallel_read_fuzz.sh BASE.mps|random-lp COUNT [NP] [shardlp]
BASE=$1
COUNT=${2:-100}
NP=${3:-4}
BIN=${4:-build/shardlp}
HERE=$(cd "$(dirname "$0")/.." && pwd)
MPIRUN=${MPIRUN:-mpirun --allow-run-as-root --oversubscribe --mca btl self,vader}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
same=0 differ=0 taken=0
sig() { grep -E "^Model fingerprint|integer columns? relaxed" "$T/out"; grep -E "shardlp: (warning|error):" "$T/err"; echo "exit $1"; }
for seed in $(seq 1 "$COUNT"); do
    if [ "$BASE" = random-lp ]; then
        python3 "$HERE/tests/data/random_lp.py" "$seed" >"$T/f.mps" # an LP file: read by content
    else
        python3 "$HERE/tests/data/mutate_mps.py" "$BASE" "$T/f.mps" "$seed" $((1 + seed % 4))
    fi
    opts="--verbose --iter-limit 1 --threads 1 --presolve off --relax"
    timeout 120 "$BIN" solve "$T/f.mps" $opts --parallel-read off >"$T/out" 2>"$T/err"
    rc=$?; [ $rc -ne 0 ] && rc=1; sig $rc >"$T/ref"
    timeout 120 $MPIRUN -np "$NP" "$BIN" solve "$T/f.mps" $opts >"$T/out" 2>"$T/err"
    rc=$?; [ $rc -ne 0 ] && rc=1; sig $rc >"$T/par"
    grep -q "in parallel" "$T/out" && taken=$((taken + 1))
    if cmp -s "$T/ref" "$T/par"; then
        same=$((same + 1))
    else
        differ=$((differ + 1))
        cp "$T/f.mps" "/tmp/parallel-read-differs-$seed.mps"
        echo "DIFFERS: seed $seed (kept as /tmp/parallel-read-differs-$seed.mps)"
        diff "$T/ref" "$T/par" | head -4
    fi
done
echo "fuzz: $same the same, $differ different; $taken read in parallel on $NP ranks"
