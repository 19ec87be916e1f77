#!/bin/sh
# shardlp with --backend $SLP_TEST_BACKEND added to every solve, so that a test
# script written for the default backend runs on another one (tests/tests.cmake
# registers the MPI suite a second time through this wrapper).
bin=${SLP_REAL_BIN:?SLP_REAL_BIN is not set}
if [ "${1:-}" = solve ]; then
    shift
    exec "$bin" solve --backend "${SLP_TEST_BACKEND:?SLP_TEST_BACKEND is not set}" "$@"
fi
exec "$bin" "$@"
