#!/usr/bin/env bash
# RQ3 at this machine's scale (docs/experiments.md): does communication limit scaling?
# Fixed-iteration runs (--iter-limit ITERS --tol 1e-30: every run does the same
# iterations) of design-match and qap on 1, 2 and 4 ranks, 1 x P and 2-D grids, dense
# and support-aware plans. Per run: the a-priori modelled logical scalar-hops per
# iteration, the scalars and messages the plan counted per iteration (sums and syncs,
# whole grid, from the JSON), seconds per iteration and rank 0's seconds inside the
# plan's sums and syncs. Medians of REPS repetitions.
# Writes bench/results/rq3/runs.csv and table.md (or under --out DIR).
#
# usage: bench/rq3.sh [--reps N] [--iters N] [--out DIR] [--bin BIN]
set -eu
REPS=3; ITERS=500; OUT=bench/results/rq3; BIN=build/shardlp
while [ $# -gt 0 ]; do
    case $1 in
        --reps) REPS=$2; shift ;;
        --iters) ITERS=$2; shift ;;
        --out) OUT=$2; shift ;;
        --bin) BIN=$2; shift ;;
        *) echo "rq3.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
[ -x "$BIN" ] || make build >/dev/null
MPIRUN=${MPIRUN:-"mpirun --allow-run-as-root --oversubscribe --mca btl self,vader"}
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"
MEMBERS=("design-match --treated 2000 --controls 20000 --covariates 8 --neighbors 10"
         "qap --size 14")
GRIDS="1x1 1x2 2x1 1x4 2x2"
{
    echo "# bench/rq3.sh --reps $REPS --iters $ITERS"
    echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ); $(nproc) cores; $($MPIRUN --version 2>/dev/null | head -1)"
    echo "# solve: --iter-limit $ITERS --tol 1e-30 --threads 1; medians of $REPS runs"
} >"$OUT/header.txt"
echo "member,grid,ranks,plan,modelled_hops_per_iter,counted_scalars_per_iter,messages_per_iter,ms_per_iter,comm_ms_per_iter" >"$OUT/runs.csv"
for spec in "${MEMBERS[@]}"; do
    for grid in $GRIDS; do
        P=$(( ${grid%x*} * ${grid#*x} ))
        rm -rf "$TMP/lp.shards"
        # shellcheck disable=SC2086
        "$BIN" gen $spec --grid "$grid" --out "$TMP/lp.shards" --quiet
        for plan in dense support; do
            [ "$P" -eq 1 ] && [ "$plan" = support ] && continue
            for rep in $(seq "$REPS"); do
                launch=""; [ "$P" -gt 1 ] && launch="$MPIRUN -np $P"
                $launch "$BIN" solve "$TMP/lp.shards" --comm "$plan" --iter-limit "$ITERS" \
                    --tol 1e-30 --threads 1 --json "$TMP/$rep.json" --quiet >/dev/null
            done
            python3 - "$spec" "$grid" "$P" "$plan" "$TMP" "$REPS" >>"$OUT/runs.csv" <<'PY'
import json, os, statistics, sys
spec, grid, P, plan, tmp, reps = sys.argv[1:7]
runs = [json.load(open(os.path.join(tmp, f"{r}.json"))) for r in range(1, int(reps) + 1)]
c = runs[0]["comm"]
hops = c["support_hops_per_iter" if plan == "support" else "dense_hops_per_iter"] if int(P) > 1 else 0
counted = c.get("sum_scalars_per_iter", 0) + c.get("sync_scalars_per_iter", 0)
sec = statistics.median(r["solve_seconds"] / max(r["iterations"], 1) for r in runs)
comm = statistics.median(r["comm"]["comm_seconds_per_iter"] for r in runs)
print(",".join(str(v) for v in [spec.split(" ")[0], grid, P, plan, "%.6g" % hops, "%.6g" % counted,
                                 "%.4g" % c.get("messages_per_iter", 0), "%.3f" % (1e3 * sec),
                                 "%.3f" % (1e3 * comm)]))
PY
            tail -1 "$OUT/runs.csv"
        done
    done
done
python3 bench/csv_table.py "$OUT" member=member grid=grid ranks=ranks plan=plan \
    modelled_hops_per_iter="modelled hops/iter" counted_scalars_per_iter="counted scalars/iter" \
    messages_per_iter="messages/iter" ms_per_iter="ms/iter" comm_ms_per_iter="comm ms/iter (rank 0)"
