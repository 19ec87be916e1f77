#!/bin/sh
# Issue 21's solve criterion: every LP of the presolve comparison solved at --tol 1e-8
# with presolve on (GRID: mpirun on that grid), the objective compared with INDEX.tsv's
# reference, and the solution checked on the ORIGINAL model by `shardlp check --tol 1e-6`.
#   bench/presolve_solve.sh [GRID] > bench/results/presolve/solve-1x1.txt
set -u
cd "$(dirname "$0")/.."
B=${SHARDLP:-build/shardlp}
GRID=${1:-1x1}
LIST=${LIST:-"netlib/25fv47 netlib/bnl1 netlib/degen2 netlib/ship08l netlib/scfxm2 netlib/pilotnov netlib/fffff800 netlib/perold netlib/nesm kennington/ken-07 kennington/pds-02 meszaros/nemspmm1"}
R=${GRID%x*}; C=${GRID#*x}; NP=$((R * C))
RUN=""
[ "$NP" -gt 1 ] && RUN="mpirun --allow-run-as-root --oversubscribe --mca btl self,vader -np $NP"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
printf "%-10s %-8s %-18s %-18s %-9s %s\n" instance grid objective reference rel_err check
for f in $LIST; do
  name=$(basename "$f")
  ref=$(awk -F'\t' -v n="$name" '$1==n{print ($11 ~ /^optimal/ ? substr($11, 9) : $6)}' ../shared/lp/INDEX.tsv)
  $RUN $B solve ../shared/lp/$f.mps.gz --grid "$GRID" --tol 1e-8 --time-limit 120 --threads 1 \
      --sol "$T/$name.sol" --json "$T/$name.json" --quiet
  obj=$(python3 -c "import json;d=json.load(open('$T/$name.json'));print(d['status'], repr(d['objective']))")
  chk=$($B check ../shared/lp/$f.mps.gz "$T/$name.sol" --tol 1e-6 2>&1 | tail -1)
  err=$(python3 -c "o=float('${obj#* }');r=float('$ref');print('%.1e'%(abs(o-r)/max(1,abs(r))))")
  printf "%-10s %-8s %-18s %-18s %-9s %s\n" "$name" "$GRID" "$obj" "$ref" "$err" "$chk"
done
