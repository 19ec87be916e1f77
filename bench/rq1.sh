#!/usr/bin/env bash
# RQ1 at this machine's scale (docs/experiments.md): every generator family of the
# large-scale PDLP benchmark, generated as shards with the benchmark's rescaling
# (--scale benchmark: the published criterion is stated on the scaled LP), solved under
# the published criterion (absolute 1e-8 in the L-infinity norm, relative gap 1e-2,
# feasibility polishing on), then checked by `shardlp check --tol 1e-6` in original
# coordinates. One row per (family, size): met (the solver's verdict under the
# criterion), solver time, end-to-end time, iterations, the checker's maximum and
# verdict. Writes bench/results/rq1/runs.csv and table.md (or under --out DIR).
#
# usage: bench/rq1.sh [--quick] [--np P] [--threads T] [--time-limit SEC] [--extra "OPTS"]
#                     [--out DIR] [--bin BIN]
#   --quick        one small member per family (a few minutes)
#   --np P         MPI ranks (grid from shardlp's default for P; default 1)
#   --threads T    threads per rank (default 1: iteration counts and times comparable)
#   --time-limit   per solve (default 60 with --quick, 600 otherwise)
#   --extra OPTS   more solver options (a method variant against the defaults)
set -eu
QUICK=0; NP=1; THREADS=1; LIMIT=""; EXTRA=""; OUT=bench/results/rq1; BIN=build/shardlp
while [ $# -gt 0 ]; do
    case $1 in
        --quick) QUICK=1 ;;
        --np) NP=$2; shift ;;
        --threads) THREADS=$2; shift ;;
        --extra) EXTRA=$2; shift ;;
        --time-limit) LIMIT=$2; shift ;;
        --out) OUT=$2; shift ;;
        --bin) BIN=$2; shift ;;
        *) echo "rq1.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
[ -n "$LIMIT" ] || { [ $QUICK -eq 1 ] && LIMIT=60 || LIMIT=600; }
[ -x "$BIN" ] || make build >/dev/null
MPIRUN=${MPIRUN:-"mpirun --allow-run-as-root --oversubscribe --mca btl self,vader"}
LAUNCH=""; [ "$NP" -gt 1 ] && LAUNCH="$MPIRUN -np $NP"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"

if [ $QUICK -eq 1 ]; then
    MEMBERS=("mcf --commodities 20 --factories 3 --warehouses 10 --stores 20"
             "design-match --treated 50 --controls 200 --covariates 4 --neighbors 10"
             "qap --size 5"
             "transport --sources 100 --sinks 300 --neighbors 10"
             "heat-source --grid-size 6 --candidates 8 --sources 2 --measurements 6"
             "production-inventory --factories 2 --stages 12")
else
    MEMBERS=("mcf --commodities 20 --factories 3 --warehouses 10 --stores 20"
             "mcf --commodities 200 --factories 5 --warehouses 50 --stores 100"
             "design-match --treated 50 --controls 200 --covariates 4 --neighbors 10"
             "design-match --treated 2000 --controls 20000 --covariates 8 --neighbors 10"
             "qap --size 5" "qap --size 8"
             "transport --sources 100 --sinks 300 --neighbors 10"
             "transport --sources 20000 --sinks 60000 --neighbors 20"
             "heat-source --grid-size 6 --candidates 8 --sources 2 --measurements 6"
             "heat-source --grid-size 20 --candidates 50 --sources 3 --measurements 20"
             "production-inventory --factories 2 --stages 12"
             "production-inventory --factories 10 --stages 20")
fi
CRITERION="--termination detailed --eps-abs 1e-8 --eps-rel 0 --gap-rel 1e-2 --norm linf --polish"
OPTS="$CRITERION --threads $THREADS $EXTRA"

{
    echo "# bench/rq1.sh $([ $QUICK -eq 1 ] && echo --quick) --np $NP --time-limit $LIMIT"
    echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ); $(nproc) cores; $("$BIN" --version 2>/dev/null | head -1)"
    echo "# solve: $OPTS --time-limit $LIMIT; check: --tol 1e-6"
} >"$OUT/header.txt"
echo "member,rows,cols,nonzeros,ranks,status,met,solver_s,end_to_end_s,iterations,polish_iterations,check_max,check_worst,check" >"$OUT/runs.csv"
for spec in "${MEMBERS[@]}"; do
    rm -rf "$TMP/lp.shards" "$TMP/sol"
    # shellcheck disable=SC2086
    $LAUNCH "$BIN" gen $spec --scale benchmark --out "$TMP/lp.shards" --quiet
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    $LAUNCH "$BIN" solve "$TMP/lp.shards" $OPTS --time-limit "$LIMIT" --json "$TMP/s.json" \
        --out "$TMP/sol" --quiet >/dev/null 2>"$TMP/err" || true
    end=$(date +%s.%N)
    # shellcheck disable=SC2086
    $LAUNCH "$BIN" check "$TMP/lp.shards" "$TMP/sol" --tol 1e-6 --json "$TMP/c.json" --quiet \
        >/dev/null 2>>"$TMP/err" || true
    python3 - "$spec" "$TMP" "$NP" "$start" "$end" >>"$OUT/runs.csv" <<'PY'
import json, os, sys
spec, tmp, np_, start, end = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
def load(name):
    try:
        return json.load(open(os.path.join(tmp, name)))
    except (OSError, ValueError):
        return {}
s, c = load("s.json"), load("c.json")
met = "yes" if s.get("status") == "optimal" else "no"
check = "pass" if c.get("passed") else ("fail" if c else "none")
crit = c.get("criteria", {})
worst = max(crit, key=lambda k: crit[k]) if crit else ""
print(",".join(str(v) for v in [
    spec.replace(",", ";"), s.get("rows", ""), s.get("cols", ""), s.get("nonzeros", ""), np_,
    s.get("status", "error"), met, "%.3f" % s.get("solve_seconds", float("nan")),
    "%.3f" % (end - start), s.get("iterations", ""), s.get("polish_iterations", ""),
    "%.3g" % c["max"] if "max" in c else "", worst, check]))
PY
    tail -1 "$OUT/runs.csv"
done
met=$(grep -c ',yes,' "$OUT/runs.csv" || true)
passed=$(grep -c ',pass$' "$OUT/runs.csv" || true)
total=$(($(wc -l <"$OUT/runs.csv") - 1))
python3 bench/csv_table.py "$OUT" member=member rows=m cols=n nonzeros=nnz ranks=ranks met=met \
    status=status solver_s="solver s" end_to_end_s="end-to-end s" \
    iterations+polish_iterations="iterations (polish)" check_max="check max" \
    check_worst="worst criterion" check=check --footer "met: $met of $total; checker passed: $passed of $total"
