# Sourced by the tests of the parallel readers (tests/mpi/parallel_read*.sh): a file read
# by one process and by 1 (--parallel-read on), 2 and 4 ranks must give the same model
# or the same messages. Expects BIN, T (a scratch directory), MPIRUN and the counters'
# functions ok and bad.

# What must agree: the fingerprint (standard output), every warning and error line
# (standard error: kept apart, since lines of the two streams of several ranks can
# interleave), success or failure.
signature() { # exit-status
    grep -E "^Model fingerprint|integer columns? relaxed" "$T/out"
    grep -E "shardlp: (warning|error):" "$T/err"
    [ "$1" -eq 0 ] && echo "exit 0" || echo "exit non-zero"
}

run() { # ranks file [extra options]: the log in $T/out and $T/err, the signature in $T/sig
    local np=$1 f=$2; shift 2
    local opts="--verbose --iter-limit 1 --threads 1 --presolve off $*"
    if [ "$np" = serial ]; then
        timeout 120 "$BIN" solve "$f" $opts --parallel-read off >"$T/out" 2>"$T/err"
    elif [ "$np" = 1 ]; then
        timeout 120 "$BIN" solve "$f" $opts --parallel-read on >"$T/out" 2>"$T/err"
    else
        timeout 120 $MPIRUN -np "$np" "$BIN" solve "$f" $opts >"$T/out" 2>"$T/err"
    fi
    local rc=$?
    [ $rc -eq 124 ] && echo "timeout" >>"$T/err"
    signature $rc >"$T/sig"
}

# check FILE TAKEN [options]: TAKEN = 1 when the parallel reader must read it.
check() {
    local f=$1 taken=$2; shift 2
    run serial "$f" "$@"
    cp "$T/sig" "$T/ref"
    grep -q "^Model fingerprint" "$T/ref" || grep -q "shardlp: error:" "$T/ref" ||
        { bad "$(basename "$f"): the one-process run gave neither a model nor an error"; return; }
    for np in 1 2 4; do
        run $np "$f" "$@"
        if ! cmp -s "$T/ref" "$T/sig"; then
            bad "$(basename "$f") on $np ranks differs from one process:"
            diff "$T/ref" "$T/sig" | head -8
            continue
        fi
        if [ "$taken" = 1 ] && ! grep -q "read by $np ranks\? in parallel" "$T/out"; then
            bad "$(basename "$f") on $np ranks: not read in parallel"
            grep -E "Model|error" "$T/out" "$T/err" | head -3
            continue
        fi
        ok
    done
}

same_solve() { # file ranks grid
    for pr in off on; do
        timeout 120 $MPIRUN -np "$2" "$BIN" solve "$1" --grid "$3" --threads 1 --iter-limit 300 \
            --quiet --parallel-read $pr --json "$T/$pr.json" >/dev/null 2>&1 ||
            { bad "$(basename "$1") $3 parallel-read $pr: solve failed"; return; }
    done
    python3 - "$T/off.json" "$T/on.json" <<'PY' && ok || bad "$(basename "$1") on $3: solves differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
keys = ["status", "objective", "dual_objective", "iterations", "restarts", "rel_primal_residual",
        "rel_dual_residual", "rel_gap", "rows", "cols", "nonzeros", "grid"]
diff = [k for k in keys if a.get(k) != b.get(k)]
if diff:
    print("differs in", diff, [(a.get(k), b.get(k)) for k in diff])
sys.exit(1 if diff else 0)
PY
}
