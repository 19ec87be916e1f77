#!/usr/bin/env bash
# shardlp gen under MPI: the shard directory written by 1 rank and by mpirun with 2, 3
# and 4 ranks (fewer ranks than blocks: blocks go round-robin; more ranks than blocks:
# some ranks write nothing) is byte-identical, file by file; an error on every rank
# (bad parameters) or on the output directory ends every rank with a message, no hang.
# Args: $1 shardlp binary, $2 repository root, $3 shared directory.
BIN=$1
MPIRUN=${MPIRUN:-mpirun --allow-run-as-root --oversubscribe}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
same_dirs() { # same_dirs A B: same file names and bytes
    [ "$(ls "$1")" = "$(ls "$2")" ] || return 1
    for f in "$1"/*; do cmp -s "$f" "$2/$(basename "$f")" || return 1; done
}

SPECS=("mcf --commodities 3 --factories 2 --warehouses 4 --stores 5"
       "design-match --treated 8 --controls 12 --covariates 2 --neighbors 5"
       "qap --size 3"
       "transport --sources 6 --sinks 14 --neighbors 4")
for spec in "${SPECS[@]}"; do
    kind=${spec%% *}
    for grid in 2x2 1x3; do
        "$BIN" gen $spec --grid $grid --seed 11 --out "$T/ref.shards" --quiet || bad "$kind $grid: 1 rank"
        for np in 2 3 4; do
            rm -rf "$T/mpi.shards"
            timeout 120 $MPIRUN -np $np "$BIN" gen $spec --grid $grid --seed 11 \
                --out "$T/mpi.shards" >"$T/out" 2>"$T/err"
            rc=$?
            if [ $rc -ne 0 ]; then bad "$kind $grid np $np: exit $rc"; cat "$T/err"; continue; fi
            same_dirs "$T/ref.shards" "$T/mpi.shards" && ok || bad "$kind $grid np $np: files differ"
            grep -q "by $np ranks" "$T/out" && ok || bad "$kind $grid np $np: summary line"
        done
        rm -rf "$T/ref.shards"
    done
done
# The 4-rank 2x2 directory is read back collectively by 4 ranks.
"$BIN" gen qap --size 3 --grid 2x2 --out "$T/q.shards" --quiet
timeout 60 $MPIRUN -np 4 "$BIN" info "$T/q.shards" --verify >"$T/out" 2>&1 \
    && grep -q "4 ranks each read their own block" "$T/out" && ok || { bad "np 4 read"; cat "$T/out"; }

# Errors: bad parameters on every rank, an unwritable output on rank 0.
timeout 60 $MPIRUN -np 3 "$BIN" gen qap --size 1 --out "$T/x" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && [ "$(grep -c 'size must be at least 2' "$T/err")" -ge 1 ] && ok \
    || { bad "bad size under MPI: exit $rc"; cat "$T/err"; }
mkdir -p "$T/taken" && echo data >"$T/taken/keep.txt"
timeout 60 $MPIRUN -np 3 "$BIN" gen qap --size 3 --grid 1x3 --out "$T/taken" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "refusing to overwrite" "$T/err" && [ -f "$T/taken/keep.txt" ] \
    && ok || { bad "occupied output under MPI: exit $rc"; cat "$T/err"; }

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
