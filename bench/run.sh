#!/usr/bin/env bash
# One command for the shardlp benchmarks: installs what is missing, builds shardlp and the
# STREAM benchmark, runs everything, writes bench/results/{*.csv,summary.md,*.png}.
#   bench/run.sh [--quick] [--threads N] [--time-limit SEC] [--tols 1e-4,1e-8] [--out DIR]
# Environment: SHARDLP=/path/to/shardlp to use another binary (default build/shardlp).
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v clp >/dev/null 2>&1 || need_apt+=(coinor-clp)
command -v glpsol >/dev/null 2>&1 || need_apt+=(glpk-utils)
command -v mpirun >/dev/null 2>&1 || need_apt+=(openmpi-bin)
command -v gcc >/dev/null 2>&1 || need_apt+=(gcc)
command -v lscpu >/dev/null 2>&1 || need_apt+=(util-linux)
if [ ${#need_apt[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
python3 - <<'PY' || python3 -m pip install -q highspy ortools matplotlib numpy
import highspy, ortools, matplotlib, numpy  # noqa: F401
PY

if [ -z "${SHARDLP:-}" ]; then
    make build >/dev/null
    export SHARDLP="$PWD/build/shardlp"
fi
[ -x "$SHARDLP" ] || { echo "run.sh: no shardlp binary at $SHARDLP" >&2; exit 1; }
mkdir -p bench/results
python3 bench/run.py --command "bench/run.sh $*" "$@" 2>&1 | tee bench/results/run.log
