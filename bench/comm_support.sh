#!/usr/bin/env bash
# Dense vs support-aware communication plan, side by side in one run (issue 8).
# For each grid (1x4, 2x2) a design-match LP is generated as shards, then solved
# with --comm dense and --comm support alternately, REPS times each, for a fixed
# number of iterations (--iter-limit ITERS --tol 1e-30, so both plans do the same
# work). Reports the modelled logical scalar-hops per iteration of both plans
# (from the --json summary), the median solve seconds, seconds per iteration, and
# rank 0's seconds inside the plan's sums and syncs (from --verbose), split into
# communication and computation per iteration.
#
# usage: bench/comm_support.sh [BIN] [REPS] [ITERS]     (run from the repository root)
#   env: NP (4), GRIDS ("1x4 2x2"), DM ("--treated 200 --controls 2000 --covariates 8
#        --neighbors 20"), MPIRUN (mpirun --allow-run-as-root --oversubscribe --mca btl self,vader)
set -eu
BIN=${1:-build/shardlp}; REPS=${2:-3}; ITERS=${3:-2000}
NP=${NP:-4}; GRIDS=${GRIDS:-"1x4 2x2"}
DM=${DM:-"--treated 200 --controls 2000 --covariates 8 --neighbors 20"}
MPIRUN=${MPIRUN:-"mpirun --allow-run-as-root --oversubscribe --mca btl self,vader"}
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT

echo "# machine: $(nproc) cores, $(uname -srm); $($MPIRUN --version 2>/dev/null | head -1)"
echo "# design-match $DM; $NP ranks; --iter-limit $ITERS --tol 1e-30; $REPS repetitions, medians"
printf "%-5s %-8s %11s %10s %9s %12s %12s %12s\n" grid plan hops/iter solve_s iters \
    us/iter comm_us/iter comp_us/iter
for grid in $GRIDS; do
    # shellcheck disable=SC2086
    "$BIN" gen design-match $DM --grid "$grid" --out "$TMP/dm_$grid.shards" --quiet
    # the model per direction (stored matrix, before presolve)
    "$BIN" info "$TMP/dm_$grid.shards" | sed -n '/^communication/,$p' | sed "s/^/# $grid /" >&2
    for rep in $(seq "$REPS"); do
        for plan in dense support; do
            $MPIRUN -np "$NP" "$BIN" solve "$TMP/dm_$grid.shards" --comm "$plan" \
                --iter-limit "$ITERS" --tol 1e-30 --verbose --json "$TMP/$grid.$plan.$rep.json" \
                >"$TMP/$grid.$plan.$rep.log" 2>&1
        done
    done
    python3 - "$TMP" "$grid" "$REPS" <<'PY'
import json, re, statistics, sys, os
tmp, grid, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
for plan in ("dense", "support"):
    solve, comm, iters, hops = [], [], None, None
    for rep in range(1, reps + 1):
        j = json.load(open(os.path.join(tmp, f"{grid}.{plan}.{rep}.json")))
        log = open(os.path.join(tmp, f"{grid}.{plan}.{rep}.log")).read()
        m = re.search(r"communication plan \((\w+)\): ([0-9.eE+-]+) s in", log)
        solve.append(j["solve_seconds"]); comm.append(float(m.group(2)) if m else float("nan"))
        iters = j["iterations"]
        hops = j["comm"]["support_hops_per_iter" if plan == "support" else "dense_hops_per_iter"]
    s, c = statistics.median(solve), statistics.median(comm)
    us = 1e6 / max(iters, 1)
    print(f"{grid:<5} {plan:<8} {hops:11.6g} {s:10.3f} {iters:9d} {s*us:12.1f} {c*us:12.1f} {(s-c)*us:12.1f}")
PY
done
