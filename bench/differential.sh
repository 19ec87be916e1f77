#!/usr/bin/env bash
# Differential run of issue 40 (docs/reliability.md, "Differential testing"): COUNT
# random LPs with decimal coefficients and planted structure (tests/differential/lpgen.py)
# solved by HiGHS's simplex (presolve off) and by shardlp at --tol 1e-8 on each GRID
# (one process per grid: 1x1 in-process, larger grids under one mpirun through mpi4py);
# prints the counts per grid (wrong statuses, wrong objectives, certificates rejected by
# `shardlp check`). Needs the Python venv that make test builds (build/pyenv).
# Usage: bash bench/differential.sh [COUNT] [SEED] [GRID ...]
set -uo pipefail
cd "$(dirname "$0")/.."
COUNT=${1:-5000}; SEED=${2:-20261203}; GRIDS=("${@:3}")
[ ${#GRIDS[@]} -eq 0 ] && GRIDS=(1x1 2x2)
PY=${PY:-build/pyenv/bin/python}
export SHARDLP_LIB=${SHARDLP_LIB:-$PWD/build/libshardlp.so} PYTHONPATH=$PWD/python
BIN=${SHARDLP_BIN:-$PWD/build/shardlp}
D=tests/differential/differential.py
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$PY" $D gen "$T" "$COUNT" "$SEED" && "$PY" $D highs "$T" "$T/ref.json" > /dev/null || exit 1
rc=0
for grid in "${GRIDS[@]}"; do
    ranks=$(( ${grid%x*} * ${grid#*x} ))
    launch=(); [ "$ranks" -gt 1 ] && launch=(mpirun --allow-run-as-root --oversubscribe -np "$ranks" -x SHARDLP_LIB -x PYTHONPATH)
    start=$(date +%s)
    "${launch[@]}" "$PY" $D solve "$T" "$T/out-$grid.json" --grid "$grid" --sol || rc=1
    echo "grid $grid ($(( $(date +%s) - start )) s): $("$PY" $D compare "$T/ref.json" "$T/out-$grid.json" --check "$BIN" | head -1)"
    "$PY" $D compare "$T/ref.json" "$T/out-$grid.json" --check "$BIN" > /dev/null || rc=1
done
exit $rc
