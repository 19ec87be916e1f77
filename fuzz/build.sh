#!/usr/bin/env bash
# Build the libFuzzer targets and their seed corpora.
#
#   bash fuzz/build.sh            -> build-fuzz/fuzz_{mps,mps_parallel,lp,shard,solution} and build-fuzz/corpus/*
#   bash fuzz/build.sh run [SEC]  -> also run each target SEC seconds (default 600), one at a
#                                    time under nice -n 19; findings land in build-fuzz/findings/
#
# Needs clang with the libFuzzer runtime (Debian: clang-14 + libclang-rt-14-dev or the
# llvm packages that ship libclang_rt.fuzzer-x86_64.a). The project's sources are compiled
# with -fsanitize=fuzzer-no-link,address,undefined; docs/fuzzing.md has the results.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${SLP_FUZZ_OUT:-$ROOT/build-fuzz}
SHARED=${SLP_SHARED_DIR:-$ROOT/../shared}
CC=${CC_FUZZ:-clang}
JOBS=${JOBS:-2}
mkdir -p "$OUT/obj" "$OUT/corpus"

MPI_INC=$(mpicc -showme:compile 2>/dev/null || echo "-I/usr/lib/x86_64-linux-gnu/openmpi/include")
MPI_LIB=$(mpicc -showme:link 2>/dev/null || echo "-lmpi")
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
CFLAGS="-std=c11 -O1 -g $SAN -D_POSIX_C_SOURCE=200809L -I$ROOT/src -I$ROOT/include $MPI_INC"

# The library, instrumented for coverage (everything but main.c and CUDA).
srcs=$(cd "$ROOT" && find src -name '*.c' ! -path 'src/cli/main.c' ! -path 'src/backend/cuda/*' | sort)
objs=()
n=0
for s in $srcs; do
  o="$OUT/obj/$(echo "$s" | tr / _ | sed 's/\.c$/.o/')"
  objs+=("$o")
  if [ ! -f "$o" ] || [ "$ROOT/$s" -nt "$o" ]; then
    $CC -fsanitize=fuzzer-no-link $CFLAGS -DSLP_VERSION='"fuzz"' -c "$ROOT/$s" -o "$o" &
    n=$((n + 1))
    if [ $((n % JOBS)) -eq 0 ]; then wait; fi
  fi
done
wait

for t in mps mps_parallel lp shard solution; do
  $CC -fsanitize=fuzzer $CFLAGS -I"$ROOT/fuzz" "$ROOT/fuzz/fuzz_$t.c" "${objs[@]}" -DSLP_VERSION='"fuzz"' \
      $MPI_LIB -lz -lbz2 -llzma -lm -o "$OUT/fuzz_$t"
done

# ---- seed corpora ------------------------------------------------------------------
C="$OUT/corpus"
mkdir -p "$C/mps" "$C/lp" "$C/shard" "$C/solution"
cp "$ROOT"/tests/data/mps/*.mps "$ROOT"/tests/data/check/*.mps "$C/mps/" 2>/dev/null || true
cp "$ROOT"/tests/data/lp/*.lp "$C/lp/" 2>/dev/null || true
for s in 1 2 3 4 5 6 7 8; do python3 "$ROOT/tests/data/random_lp.py" "$s" > "$C/lp/random-$s.lp"; done
if [ -d "$SHARED/mps-edge" ]; then
  find "$SHARED/mps-edge" -name '*.mps' -size -20k -exec cp {} "$C/mps/" \;
fi
# A few small LPs from the shared corpus (gunzipped, and one still compressed).
for f in afiro sc50a sc50b adlittle blend kb2 share2b; do
  g=$(find "$SHARED/lp" -name "$f.mps.gz" 2>/dev/null | head -n1)
  if [ -n "$g" ]; then gunzip -c "$g" > "$C/mps/$f.mps"; fi
done
g=$(find "$SHARED/lp" -name 'afiro.mps.gz' 2>/dev/null | head -n1)
[ -n "$g" ] && cp "$g" "$C/mps/afiro.mps.gz"
SLP_FUZZ_SHARD_SEEDS="$C/shard" "$OUT/fuzz_shard" >/dev/null 2>&1 || true
# A solution.json seed (mode byte 1) and solution files written by the solver.
BIN=$ROOT/build/shardlp
if [ -x "$BIN" ]; then
  tmp=$(mktemp -d)
  "$BIN" solve "$ROOT/tests/data/check/lp1.mps" --quiet --out "$tmp/sol" >/dev/null 2>&1 || true
  if [ -f "$tmp/sol/solution.json" ]; then
    { printf '\001'; cat "$tmp/sol/solution.json"; } > "$C/shard/seed_solution.json"
  fi
  rm -rf "$tmp"
fi
for f in "$ROOT"/tests/data/check/*.sol "$ROOT"/fuzz/seeds/solution/*; do
  [ -f "$f" ] && cp "$f" "$C/solution/"
done
# The parallel reader's target: the MPS and LP seeds behind a form byte (0 plain, 1 BGZF).
mkdir -p "$C/mps_parallel"
for f in "$C"/mps/*.mps "$C"/lp/*.lp; do
  b=$(basename "$f")
  { printf '\000'; cat "$f"; } > "$C/mps_parallel/plain-$b"
  { printf '\001'; cat "$f"; } > "$C/mps_parallel/bgzf-$b"
done
# Regression inputs are seeds too.
for t in mps mps_parallel lp shard solution; do
  [ -d "$ROOT/tests/data/fuzz/$t" ] && cp "$ROOT/tests/data/fuzz/$t"/* "$C/$t/" 2>/dev/null || true
done

if [ "${1:-}" = run ]; then
  SEC=${2:-600}
  mkdir -p "$OUT/findings"
  for t in ${SLP_FUZZ_TARGETS:-mps mps_parallel lp shard solution}; do
    mkdir -p "$OUT/findings/$t" "$OUT/work/$t"
    ( cd "$OUT/findings/$t" &&
      nice -n 19 "$OUT/fuzz_$t" -max_total_time="$SEC" -rss_limit_mb=2048 -malloc_limit_mb=1024 \
        -timeout=10 -close_fd_mask=3 -print_final_stats=1 "$OUT/work/$t" "$C/$t" \
        > "$OUT/findings/$t.log" 2>&1 ) || echo "fuzz_$t stopped: see $OUT/findings/$t.log"
  done
fi
