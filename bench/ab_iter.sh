#!/usr/bin/env bash
# Time per iteration of two option sets side by side (docs/memory.md, "Compact values"
# and "FP32 matrix values"): each LP solved for ITERS iterations (--tol 1e-30) with the
# options A and then B, in turn, REPS times, on $THREADS threads (default 1). Prints one
# CSV row per LP: the Matrix line of B's log, the matrix's bytes per nonzero in A and B,
# the median milliseconds per iteration of each, B / A, and whether the two ended with
# the same iterations and objective bits.
# Usage: A="--matrix-values plain" B="--matrix-values auto" \
#        bench/ab_iter.sh [BIN] [ITERS] [REPS] LP...   (LP: MPS file or shard directory)
set -u
BIN=${1:-build/shardlp}; ITERS=${2:-1000}; REPS=${3:-3}; shift 3
A=${A:---matrix-values plain}; B=${B:---matrix-values auto}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
echo "# bench/ab_iter.sh $BIN $ITERS $REPS; A: $A; B: $B; threads ${THREADS:-1}; $(date -u +%Y-%m-%dT%H:%M:%SZ); $(uptime | sed 's/.*load/load/')"
echo "lp,b_matrix,a_bytes_per_nnz,b_bytes_per_nnz,a_ms_per_iter,b_ms_per_iter,b_over_a,same_bits"
for lp in "$@"; do
    for ((r = 0; r < REPS; r++)); do
        for v in A B; do
            # shellcheck disable=SC2086
            "$BIN" solve "$lp" ${!v} --iter-limit "$ITERS" --tol 1e-30 --threads "${THREADS:-1}" \
                --json "$T/$v.$r.json" > "$T/$v.log" 2>&1
        done
    done
    python3 - "$T" "$REPS" "$(basename "$lp")" "$(grep -m1 '^Matrix:' "$T/B.log" | sed 's/^[^(]*(//; s/)$//')" <<'PY'
import json, statistics, sys
t, reps, name, forms = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
runs = {v: [json.load(open(f"{t}/{v}.{r}.json")) for r in range(reps)] for v in "AB"}
ms = {v: statistics.median(1e3 * j["solve_seconds"] / max(j["iterations"], 1) for j in runs[v])
      for v in runs}
same = all(a["objective"] == b["objective"] and a["iterations"] == b["iterations"]
           for a, b in zip(runs["A"], runs["B"]))
bpn = {v: runs[v][0]["matrix"]["bytes_per_nonzero"] for v in runs}
print(f'{name},"{forms}",{bpn["A"]:.2f},{bpn["B"]:.2f},{ms["A"]:.3f},{ms["B"]:.3f},'
      f'{ms["B"] / ms["A"]:.3f},{same}')
PY
done
