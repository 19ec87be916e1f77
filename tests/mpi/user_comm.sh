#!/usr/bin/env bash
# C API on a user communicator (issue 10): a program that starts MPI itself splits 4
# ranks into two groups of 2 and solves afiro in each; both must be optimal with the
# same objective, which must match the published optimum.
set -u
BIN=$1; ROOT=$2; SHARED=$3
EXAMPLE="$(dirname "$BIN")/example_user_comm"
[ -x "$EXAMPLE" ] || { echo "missing $EXAMPLE"; echo "0 passed, 1 failed"; exit 1; }
out=$(timeout 300 mpirun --allow-run-as-root --oversubscribe --mca btl self,vader -np 4 \
      "$EXAMPLE" "$SHARED/lp/netlib/afiro.mps.gz" 2>&1); code=$?
echo "$out" | tail -3
obj=$(echo "$out" | sed -n 's/^two groups of 2 ranks: objective \([^,]*\), ok$/\1/p')
if [ $code -eq 0 ] && [ -n "$obj" ] && python3 -c "import sys; sys.exit(abs($obj + 464.7531428571) > 1e-6 * 464.75)"; then
    echo "1 passed, 0 failed"; exit 0
fi
echo "0 passed, 1 failed"; exit 1
