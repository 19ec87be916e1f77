#!/usr/bin/env bash
# Python package (callbacks, Ctrl-C, mpi4py), PuLP, Pyomo, cvxpy and linopy, the plot
# command, and the docs examples.
# Usage: python_interfaces.sh BUILD/shardlp REPO SHARED
# Creates (once) a virtual environment in the build directory with what the tests
# need, puts the tree's python/ on PYTHONPATH, points the package at BUILD/libshardlp.so
# and runs pytest on python/tests. Exit status: pytest's.
set -euo pipefail
BIN=$(readlink -f "$1"); REPO=$(readlink -f "$2"); SHARED=$(readlink -f "$3")
BUILD=$(dirname "$BIN")
LIB="$BUILD/libshardlp.so"
[ -f "$LIB" ] || { echo "python_interfaces: $LIB not built"; exit 1; }
VENV="$BUILD/pyenv"
PY="$VENV/bin/python"
if [ ! -x "$PY" ] || ! "$PY" -c "import numpy, scipy, pytest, pulp, pyomo, highspy, cvxpy, linopy, matplotlib, mpi4py" 2>/dev/null; then
    [ -x "$PY" ] || python3 -m venv "$VENV" || { echo "python_interfaces: cannot create a venv (apt-get install python3-venv)"; exit 1; }
    # PuLP < 4 still bundles CBC, the reference solver of the PuLP and Pyomo tests;
    # mpi4py builds against the system's OpenMPI (the one libshardlp.so links).
    "$PY" -m pip install -q --disable-pip-version-check numpy scipy pytest "pulp>=2.7,<4" \
        "pyomo>=6.4" highspy cvxpy linopy matplotlib mpi4py
fi
# The package from the tree as it is (PYTHONPATH) with the build's library: building a
# wheel is the packaging test's job (tests/cli/python_package.sh, make test-packaging).
export PYTHONPATH="$REPO/python${PYTHONPATH:+:$PYTHONPATH}"
export SHARDLP_LIB="$LIB" SHARDLP_BIN="$BIN" SHARDLP_SHARED="$SHARED" SHARDLP_REPO="$REPO"
cd "$BUILD"
"$PY" -m pytest -q -p no:cacheprovider -c "$REPO/python/tests/pytest.ini" "$REPO/python/tests"
