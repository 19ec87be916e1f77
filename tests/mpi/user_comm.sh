#!/usr/bin/env bash
# C API on a user communicator (issue 10): a program that starts MPI itself splits 4
# ranks into two groups of 2 and solves afiro in each; both must be optimal with the
# same objective, which must match the published optimum; with a missing input file
# every rank ends (non-zero exit, the error named) instead of some waiting in the solve.
set -u
BIN=$1; ROOT=$2; SHARED=$3
EXAMPLE="$(dirname "$BIN")/example_user_comm"
[ -x "$EXAMPLE" ] || { echo "missing $EXAMPLE"; echo "0 passed, 1 failed"; exit 1; }
out=$(timeout 300 mpirun --allow-run-as-root --oversubscribe --mca btl self,vader -np 4 \
      "$EXAMPLE" "$SHARED/lp/netlib/afiro.mps.gz" 2>&1); code=$?
echo "$out" | tail -3
obj=$(echo "$out" | sed -n 's/^two groups of 2 ranks: objective \([^,]*\), ok$/\1/p')
pass=0; fail=0
if [ $code -eq 0 ] && [ -n "$obj" ] && python3 -c "import sys; sys.exit(abs($obj + 464.7531428571) > 1e-6 * 464.75)"; then
    pass=$((pass + 1))
else
    echo "FAIL: the two groups"; fail=$((fail + 1))
fi
out=$(timeout 60 mpirun --allow-run-as-root --oversubscribe --mca btl self,vader -np 4 \
      "$EXAMPLE" /nonexistent/model.mps 2>&1); code=$?
if [ $code -ne 0 ] && [ $code -ne 124 ] && echo "$out" | grep -q "/nonexistent/model.mps"; then
    pass=$((pass + 1))
else
    echo "FAIL: a missing file: exit $code (124: a rank hung)"; echo "$out" | tail -3; fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
