#!/usr/bin/env bash
# The MPS reader's result on every MPS file of ../shared, one line per file: the
# checksum bench_mps prints (every entry's indices and value bits, objective, bounds and
# row bounds) and any warning or error line. Run it with two builds and diff the outputs
# to show that a change of the reader keeps every model and message (docs/mps.md
# "Reading speed").
#   bash bench/mps_checksums.sh build/bench_mps [SHARED] > sums.txt
# (`make bench_mps` in build/ builds the binary.)
set -u
BIN=$1
SHARED=${2:-../shared}
for f in $(find "$SHARED/lp" -name "*.mps*" | sort) "$SHARED"/mps-edge/*; do
    r=$("$BIN" "$f" 1 2>&1 | grep -v "^parse " | sed "s/[0-9.]* MB//" | tr '\n' ' ')
    echo "$(basename "$f") $r"
done
