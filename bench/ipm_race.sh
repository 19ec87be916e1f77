#!/usr/bin/env bash
# The race a user would run (docs/method-experiments.md, "Against HiGHS's interior point"):
# one MPS file of the mcf family, solved to 1e-4 from the file by shardlp (1 thread, its
# defaults plus EXTRA) and by HiGHS's interior-point method (1 thread, presolve on, no
# crossover, ipm_optimality_tolerance 1e-4), each timed end to end (reading included),
# in the same run, one after the other. Each --also "OPTS" adds a shardlp run with its
# defaults plus EXTRA plus OPTS (its row is labelled "shardlp OPTS"). Prints one CSV row
# per solver and writes OUT/race.csv.
#
# usage: bench/ipm_race.sh [--bin BIN] [--python PY] [--extra "OPTS"] [--also "OPTS"]...
#                          [--out DIR] [--mcf "COMMODITIES FACTORIES WAREHOUSES STORES"]
#   default member: mcf 200/5/50/100 (31,050 rows, 1,050,050 columns, 2.15M nonzeros)
set -eu
BIN=build/shardlp; PY=build/pyenv/bin/python; EXTRA=""; OUT=bench/results/ipm_race
ALSO=("")
MCF="200 5 50 100"
while [ $# -gt 0 ]; do
    case $1 in
        --bin) BIN=$2; shift ;;
        --python) PY=$2; shift ;;
        --extra) EXTRA=$2; shift ;;
        --also) ALSO+=("$2"); shift ;;
        --out) OUT=$2; shift ;;
        --mcf) MCF=$2; shift ;;
        *) echo "ipm_race.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
"$PY" -c "import highspy" 2>/dev/null || { echo "ipm_race.sh: $PY has no highspy (make test-slow builds build/pyenv)" >&2; exit 2; }
read -r K F W S <<<"$MCF"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"
"$BIN" gen mcf --commodities "$K" --factories "$F" --warehouses "$W" --stores "$S" \
    --out "$TMP/g.shards" --mps "$TMP/mcf.mps" --quiet
echo "# bench/ipm_race.sh --mcf \"$MCF\" --extra \"$EXTRA\" --also: ${ALSO[*]:1}; $(date -u +%Y-%m-%dT%H:%M:%SZ); $(uptime | sed 's/.*load/load/')" | tee "$OUT/race.csv"
echo "solver,status,objective,wall_s,iterations" | tee -a "$OUT/race.csv"

for opts in "${ALSO[@]}"; do
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$BIN" solve "$TMP/mcf.mps" --tol 1e-4 --threads 1 --quiet --json "$TMP/s.json" $EXTRA $opts || true
    end=$(date +%s.%N)
    python3 - "$TMP/s.json" "$start" "$end" "$opts" <<'PY' | tee -a "$OUT/race.csv"
import json, sys
j = json.load(open(sys.argv[1]))
label = ("shardlp " + sys.argv[4]).strip()
print(f"{label},{j['status']},{j['objective']!r},{float(sys.argv[3]) - float(sys.argv[2]):.2f},{j['iterations']}")
PY
done

# (highspy prints its banner on stdout whatever output_flag says: only the row is kept)
"$PY" - "$TMP/mcf.mps" <<'PY' | grep '^highs-ipm,' | tee -a "$OUT/race.csv"
import sys, time
import highspy
t0 = time.perf_counter()
h = highspy.Highs()
h.setOptionValue("output_flag", False)
for k, v in (("solver", "ipm"), ("run_crossover", "off"), ("presolve", "on"), ("threads", 1),
             ("ipm_optimality_tolerance", 1e-4)):
    h.setOptionValue(k, v)
h.readModel(sys.argv[1])
h.run()
wall = time.perf_counter() - t0
info = h.getInfo()
print(f"highs-ipm,{h.modelStatusToString(h.getModelStatus())},{info.objective_function_value!r},"
      f"{wall:.2f},{info.ipm_iteration_count}")
PY
