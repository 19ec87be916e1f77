#!/usr/bin/env bash
# Collective shard reading under MPI: each of 4 ranks reads its own block of a 2x2
# directory; 3 ranks on a 2x2 directory, or a corrupted block on one rank, fail on
# every rank with a clear message and a non-zero exit, never a hang (timeout 60).
# `info --verify` gives the one-process verdicts: the same summary, and a corrupted
# name file fails in both (each name file is read by one rank under MPI).
# Args: $1 shardlp binary, $2 repository root, $3 shared directory.
BIN=$1
SHARED=${3:-$2/../shared}
MODEL=$SHARED/lp/netlib/afiro.mps.gz
MPIRUN=${MPIRUN:-mpirun --allow-run-as-root --oversubscribe}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

"$BIN" shard "$MODEL" --grid 2x2 --out "$T/a.shards" >/dev/null || bad "shard 2x2"

timeout 60 $MPIRUN -np 4 "$BIN" info "$T/a.shards" --verify >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && grep -q "4 ranks each read their own block and slices and name files (83 nonzeros" "$T/out" \
    && ok || { bad "np 4 read: exit $rc"; cat "$T/out" "$T/err"; }
# each rank surveys its own block's values: the same report as one process reading all
"$BIN" info "$T/a.shards" --verify >"$T/serial" 2>&1
[ -n "$(grep "^matrix values" "$T/out")" ] && \
    [ "$(grep "^matrix values" "$T/out")" = "$(grep "^matrix values" "$T/serial")" ] && ok ||
    bad "value survey under MPI differs: $(grep "^matrix values" "$T/out" "$T/serial")"

timeout 60 $MPIRUN -np 3 "$BIN" info "$T/a.shards" --verify >"$T/out" 2>"$T/err"
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && ok || bad "np 3 on 2x2: exit $rc (want non-zero, no timeout)"
n=$(grep -c "cut for a 2x2 grid (4 ranks) but the job has 3 ranks" "$T/err")
[ "$n" -eq 3 ] && ok || { bad "np 3: message on $n of 3 ranks"; cat "$T/err"; }

cp -r "$T/a.shards" "$T/x.shards"
printf '\x01' | dd of="$T/x.shards/block_1_0.bin" bs=1 seek=200 conv=notrunc 2>/dev/null
timeout 60 $MPIRUN -np 4 "$BIN" info "$T/x.shards" --verify >"$T/out" 2>"$T/err"
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && ok || bad "corrupted block: exit $rc"
grep -q "block_1_0.bin: checksum mismatch" "$T/err" && ok || { bad "corrupted block message"; cat "$T/err"; }
grep -q "failed on rank 2" "$T/err" && ok || bad "other ranks do not name the failing rank"

rm -rf "$T/x.shards"; cp -r "$T/a.shards" "$T/x.shards"; rm "$T/x.shards/row_1.bin"
timeout 60 $MPIRUN -np 4 "$BIN" info "$T/x.shards" --verify >"$T/out" 2>"$T/err"
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "row_1.bin: cannot open" "$T/err" && ok \
    || { bad "missing row slice: exit $rc"; cat "$T/err"; }

# The same summary from one process and from 4 ranks (all but the "verified" line).
"$BIN" info "$T/a.shards" --verify | grep -v '^verified' >"$T/one"
timeout 60 $MPIRUN -np 4 "$BIN" info "$T/a.shards" --verify | grep -v '^verified' >"$T/four"
cmp -s "$T/one" "$T/four" && ok || { bad "info summaries differ"; diff "$T/one" "$T/four"; }
# and of compact blocks (version 2 files, docs/shard-format.md): each rank decodes its own
"$BIN" shard "$MODEL" --grid 2x2 --compact-values --out "$T/c.shards" >/dev/null ||
    bad "shard 2x2 --compact-values"
"$BIN" info "$T/c.shards" --verify | grep -v '^verified' >"$T/one"
timeout 60 $MPIRUN -np 4 "$BIN" info "$T/c.shards" --verify | grep -v '^verified' >"$T/four"
cmp -s "$T/one" "$T/four" && grep -q "blocks with compact values" "$T/one" && ok ||
    { bad "info summaries of compact blocks differ"; diff "$T/one" "$T/four"; }
rm -rf "$T/x.shards"; cp -r "$T/a.shards" "$T/x.shards"
printf 'XX' | dd of="$T/x.shards/colnames_1.bin" bs=1 seek=30 conv=notrunc 2>/dev/null
"$BIN" info "$T/x.shards" --verify >/dev/null 2>"$T/err1"; rc1=$?
timeout 60 $MPIRUN -np 4 "$BIN" info "$T/x.shards" --verify >"$T/out" 2>"$T/err"; rc=$?
[ $rc1 -ne 0 ] && [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "colnames_1.bin: .*checksum" "$T/err1" &&
    grep -q "colnames_1.bin: .*checksum" "$T/err" && grep -q "failed on rank 1" "$T/err" && ok ||
    { bad "corrupted name file: exit $rc1 / $rc"; cat "$T/err1" "$T/err"; }

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
