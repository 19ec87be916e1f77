#!/usr/bin/env bash
# The GPU check of issue 11 (docs/gpu.md), one script for a GPU machine:
#
#   1. build with CUDA (build-gpu/), fail early if the CUDA backend is not in it
#   2. unit tests; test_kernels compares every backend operation CUDA vs CPU
#   3. the same instances with --backend cpu and --backend cuda: status and
#      iterations equal, objectives within 1e-8 relative (CMP_TOL)
#   4. several ranks sharing the one GPU (MPI path, grid 1x2)
#   5. device copy bandwidth (cudaMemcpy D2D, compiled here)
#   6. fixed-iteration throughput on generated mcf LPs: 1e8 nonzeros first, then
#      the largest of 1e9 / 6e8 / 3e8 that fits the GPU memory and the time left;
#      iterations/s, modelled bytes per iteration, fraction of copy bandwidth
#
# Usage: bench/gpu-check.sh            (env: OUT=dir for results, default
#        bench/results/gpu-check; GPU_CHECK_BUDGET seconds, default 540;
#        GPU_CHECK_MAX_NNZ, default 1e9; GPU_CHECK_ITERS, default 1000;
#        SLP_SHARED_DIR, the shared corpus with lp/netlib; CMP_TOL, default 1e-8)
# Exit status: 0 if every comparison passed, 1 otherwise (the throughput part
# only reports). Every step has a timeout so the whole run stays inside the
# budget; results and logs go to $OUT (summary.md, results.json, log.txt).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/bench/results/gpu-check}
BUDGET=${GPU_CHECK_BUDGET:-540}
MAX_NNZ=${GPU_CHECK_MAX_NNZ:-1e9}
ITERS=${GPU_CHECK_ITERS:-1000}
CMP_TOL=${CMP_TOL:-1e-8}
BUILD=$ROOT/build-gpu
WORK=$(mktemp -d /tmp/gpu-check.XXXXXX)
MPIRUN="mpirun --allow-run-as-root --oversubscribe"
mkdir -p "$OUT"
: > "$OUT/log.txt"
: > "$OUT/compare.tsv"
START=$(date +%s)
FAILED=0

elapsed() { echo $(($(date +%s) - START)); }
left() { echo $((BUDGET - $(elapsed))); }
log() { echo "[gpu-check $(elapsed)s] $*" | tee -a "$OUT/log.txt"; }
fail() { log "FAIL: $*"; FAILED=1; }
# run SECONDS LOGNAME cmd...: bounded by the time left as well
run() {
    local limit=$1 name=$2
    shift 2
    local l
    l=$(left)
    ((limit > l)) && limit=$l
    ((limit < 5)) && { log "skipped (no time left): $*"; return 124; }
    timeout -k 5 "$limit" "$@" > "$OUT/$name.log" 2>&1
}

# ---------------------------------------------------------------- 0. machine
log "start: $(hostname), budget ${BUDGET}s, results in $OUT"
nvidia-smi --query-gpu=name,memory.total,memory.free,driver_version --format=csv > "$OUT/gpu.csv" 2>&1 ||
    fail "nvidia-smi failed (no GPU?)"
cat "$OUT/gpu.csv" | tee -a "$OUT/log.txt"
GPU_FREE_MIB=$(nvidia-smi --query-gpu=memory.free --format=csv,noheader,nounits 2>/dev/null | head -1)
GPU_FREE_MIB=${GPU_FREE_MIB:-0}
nvcc --version | tail -1 >> "$OUT/log.txt" 2>&1

# ---------------------------------------------------------------- 1. build
log "build (CUDA, sm_90)"
if ! run 300 build bash -c "cmake -S '$ROOT' -B '$BUILD' -DCMAKE_BUILD_TYPE=Release -DSLP_WERROR=OFF \
        -DCMAKE_CUDA_ARCHITECTURES='90-real;75-virtual' && cmake --build '$BUILD' -j $(nproc)"; then
    fail "build failed (see build.log)"
    tail -30 "$OUT/build.log"
    exit 1
fi
grep -q "CUDA backend: ON" "$OUT/build.log" || { fail "build has no CUDA backend"; exit 1; }
SLP=$BUILD/shardlp

# ---------------------------------------------------------------- 2. unit tests
log "unit tests (test_kernels: every backend op, CUDA vs CPU)"
run 120 test_kernels "$BUILD/test_kernels" || fail "test_kernels (see test_kernels.log)"
grep -q "CUDA backend available" "$OUT/test_kernels.log" || fail "test_kernels did not see the GPU"
tail -3 "$OUT/test_kernels.log" | tee -a "$OUT/log.txt"
(cd "$BUILD" && run 240 ctest_unit ctest -L unit --output-on-failure) || fail "ctest -L unit"

# ---------------------------------------------------------------- 3. same instances, cpu vs cuda
SHARED=""
for d in "${SLP_SHARED_DIR:-}" "$ROOT/shared" "$ROOT/../shared" /work/shared; do
    [ -n "$d" ] && [ -d "$d/lp/netlib" ] && { SHARED=$d; break; }
done
INSTANCES=("$ROOT/examples/data/afiro.mps")
if [ -n "$SHARED" ]; then
    INSTANCES=()
    for f in afiro sc50b sc105 adlittle 25fv47; do
        [ -f "$SHARED/lp/netlib/$f.mps.gz" ] && INSTANCES+=("$SHARED/lp/netlib/$f.mps.gz")
    done
else
    log "no shared corpus found: netlib instances other than afiro skipped"
fi
"$SLP" gen mcf --commodities 3 --factories 4 --warehouses 5 --stores 8 --grid 1x1 \
    --out "$WORK/mcf-small" --quiet >> "$OUT/log.txt" 2>&1 && INSTANCES+=("$WORK/mcf-small")
"$SLP" gen mcf --commodities 3 --factories 4 --warehouses 5 --stores 8 --grid 1x2 \
    --out "$WORK/mcf-small-1x2" --quiet >> "$OUT/log.txt" 2>&1

# compare NAME JSON_CPU JSON_CUDA: status, iterations, objective
compare() {
    python3 - "$1" "$2" "$3" "$CMP_TOL" "$OUT/compare.tsv" <<'EOF'
import json, sys
name, a, b, tol, tsv = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5]
try:
    ja, jb = json.load(open(a)), json.load(open(b))
except Exception as e:
    print(f"{name}: no result ({e})"); open(tsv, "a").write(f"{name}\tmissing\n"); sys.exit(1)
oa, ob = ja.get("objective"), jb.get("objective")
rel = abs(oa - ob) / max(1.0, abs(oa)) if oa is not None and ob is not None else float("inf")
ok = ja["status"] == jb["status"] and rel <= tol
same_it = ja["iterations"] == jb["iterations"]
line = (f"{name}\t{ja['status']}\t{jb['status']}\t{ja['iterations']}\t{jb['iterations']}\t"
        f"{oa!r}\t{ob!r}\t{rel:.3e}\t{'PASS' if ok else 'FAIL'}{'' if same_it else ' (iterations differ)'}")
print(line.replace("\t", "  ")); open(tsv, "a").write(line + "\n")
sys.exit(0 if ok else 1)
EOF
}

printf "instance\tcpu_status\tcuda_status\tcpu_iters\tcuda_iters\tcpu_obj\tcuda_obj\trel_diff\tresult\n" \
    > "$OUT/compare.tsv"
log "cpu vs cuda on ${#INSTANCES[@]} instances (--tol 1e-8)"
for f in "${INSTANCES[@]}"; do
    name=$(basename "$f" .mps.gz)
    name=${name%.mps}
    for be in cpu cuda; do
        run 90 "solve-$name-$be" "$SLP" solve "$f" --backend "$be" --tol 1e-8 --time-limit 60 \
            --quiet --json "$WORK/$name-$be.json" || log "$name $be: exit $? (see solve-$name-$be.log)"
    done
    compare "$name" "$WORK/$name-cpu.json" "$WORK/$name-cuda.json" | tee -a "$OUT/log.txt"
    [ "${PIPESTATUS[0]}" = 0 ] || FAILED=1
done

# ---------------------------------------------------------------- 4. ranks sharing the GPU (MPI path)
log "2 ranks on one GPU, grid 1x2, MPI path (needs host staging or CUDA-aware MPI)"
for inst in "$ROOT/examples/data/afiro.mps" "$WORK/mcf-small-1x2"; do
    name=$(basename "$inst" .mps)-np2
    for be in cpu cuda; do
        run 90 "solve-$name-$be" $MPIRUN -np 2 "$SLP" solve "$inst" --grid 1x2 --backend "$be" \
            --tol 1e-8 --time-limit 60 --quiet --json "$WORK/$name-$be.json" ||
            log "$name $be: exit $? (see solve-$name-$be.log)"
    done
    compare "$name" "$WORK/$name-cpu.json" "$WORK/$name-cuda.json" | tee -a "$OUT/log.txt"
    [ "${PIPESTATUS[0]}" = 0 ] || FAILED=1
done

# ---------------------------------------------------------------- 5. copy bandwidth
log "device copy bandwidth"
cat > "$WORK/copybw.cu" <<'EOF'
// cudaMemcpy device to device of 2 GiB, best of 20; bandwidth counts read + write.
#include <cstdio>
#include <cuda_runtime.h>
int main() {
    size_t bytes = (size_t)2 << 30;
    void *a, *b;
    if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) return 1;
    cudaMemset(a, 1, bytes); cudaMemset(b, 0, bytes);
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    float best = 1e30f;
    for (int r = 0; r < 21; r++) {
        cudaEventRecord(e0);
        cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
        cudaEventRecord(e1); cudaEventSynchronize(e1);
        float ms; cudaEventElapsedTime(&ms, e0, e1);
        if (r > 0 && ms < best) best = ms;
    }
    printf("%.1f\n", 2.0 * bytes / (best * 1e-3) / 1e9); // GB/s, read + write
    return 0;
}
EOF
COPY_GBS=0
if run 120 copybw-build nvcc -O3 -arch=sm_90 -o "$WORK/copybw" "$WORK/copybw.cu" &&
    run 60 copybw "$WORK/copybw"; then
    COPY_GBS=$(tail -1 "$OUT/copybw.log")
    log "copy bandwidth (read + write): $COPY_GBS GB/s"
else
    fail "copy bandwidth benchmark"
fi

# ---------------------------------------------------------------- 6. throughput
# mcf with F = 100, W = 500, S = 4800: nnz = 3KFW + 2KWS + W ~ 4.95e6 K; n ~ nnz / 2.
# Device memory model: A and A^T in CSR with 32-bit indices, 24 B/nnz, plus 14
# n-vectors and 11 m-vectors of doubles (solver.c) ~ 56 B/nnz for mcf: 80 B/nnz,
# 95 with margin.
# Traffic model per (minor) iteration, compulsory bytes only (each array read or
# written once, the gathered vector read once):
#   spmv_t + spmv   2 (12 nnz) + 4 (m + 1) + 4 (n + 1) + 8 (m + n) + 8 (n + m)
#   primal kernel   reads x x0 g c l u, writes x xbar        64 n
#   dual kernel     reads y y0 h l u, writes y               48 m
# The timed solve includes a check every 200 iterations (4 more products and
# two reductions), so iterations/s is slightly below the pure iteration rate.
printf "nnz\trows\tcols\titerations\tsolve_s\titers_per_s\tbytes_per_iter\tGB_per_s\tfrac_copy\tgen_s\tsetup_s\n" \
    > "$OUT/throughput.tsv"
throughput() { # K: generate, solve ITERS iterations, report; echoes the wall seconds used
    local K=$1 dir=$WORK/mcf-$1 t0 t1 t2
    t0=$(date +%s)
    run 400 "gen-K$K" "$SLP" gen mcf --commodities "$K" --factories 100 --warehouses 500 --stores 4800 \
        --grid 1x1 --out "$dir" --quiet || { fail "gen mcf K=$K"; return 1; }
    t1=$(date +%s)
    run 400 "throughput-K$K" "$SLP" solve "$dir" --backend cuda --no-presolve --iter-limit "$ITERS" \
        --tol 1e-30 --time-limit 300 --json "$WORK/tp-$K.json" || log "solve K=$K: exit $?"
    t2=$(date +%s)
    rm -rf "$dir"
    python3 - "$WORK/tp-$K.json" "$COPY_GBS" $((t1 - t0)) $((t2 - t1)) "$OUT/throughput.tsv" <<'EOF' | tee -a "$OUT/log.txt"
import json, sys
j = json.load(open(sys.argv[1])); copy = float(sys.argv[2]); tsv = sys.argv[5]
m, n, nnz, it, sec = j["rows"], j["cols"], j["nonzeros"], j["iterations"], j["solve_seconds"]
b = 24 * nnz + 4 * (m + 1) + 4 * (n + 1) + 16 * (m + n) + 64 * n + 48 * m
ips = it / sec if sec > 0 else 0.0
gbs = b * ips / 1e9
frac = gbs / copy if copy > 0 else 0.0
setup = j["total_seconds"] - sec
print(f"nnz {nnz:.3e}: {it} iterations in {sec:.2f} s = {ips:.1f} it/s, {b/1e9:.2f} GB/iteration "
      f"(model), {gbs:.0f} GB/s = {frac:.2f} of copy bandwidth; gen {sys.argv[3]} s, "
      f"solve wall {sys.argv[4]} s")
open(tsv, "a").write(f"{nnz}\t{m}\t{n}\t{it}\t{sec:.4f}\t{ips:.2f}\t{b}\t{gbs:.1f}\t{frac:.3f}\t"
                     f"{sys.argv[3]}\t{setup:.2f}\n")
EOF
    echo $((t2 - t0)) > "$WORK/last-wall"
}

log "throughput, stage 1: ~1e8 nonzeros, $ITERS iterations"
if throughput 20; then
    WALL1=$(cat "$WORK/last-wall")
    best=0
    for K in 200 120 60; do
        nnz=$(python3 -c "print(int(4.95e6 * $K))")
        need_mib=$(python3 -c "print(int($nnz * 95 / 2**20))")
        est=$(python3 -c "print(int($WALL1 * $K / 20 * 1.3 + 30))")
        if python3 -c "import sys; sys.exit(0 if $nnz <= float('$MAX_NNZ') * 1.05 else 1)" &&
            ((need_mib < GPU_FREE_MIB)) && ((est < $(left) - 20)); then
            best=$K
            break
        fi
        log "K=$K (nnz $nnz): needs ~${need_mib} MiB of ${GPU_FREE_MIB} free, ~${est}s of $(left)s left: skipped"
    done
    if ((best > 0)); then
        log "throughput, stage 2: K=$best"
        throughput "$best"
    fi
fi

# ---------------------------------------------------------------- summary
{
    echo "# GPU check $(date -u +%Y-%m-%dT%H:%MZ)"
    echo
    echo '```'
    cat "$OUT/gpu.csv"
    echo '```'
    echo
    echo "## CPU vs CUDA (objective tolerance $CMP_TOL relative)"
    echo
    echo '```'
    column -t -s $'\t' "$OUT/compare.tsv" 2>/dev/null || cat "$OUT/compare.tsv"
    echo '```'
    echo
    echo "## Throughput ($ITERS iterations, copy bandwidth $COPY_GBS GB/s read+write)"
    echo
    echo '```'
    column -t -s $'\t' "$OUT/throughput.tsv" 2>/dev/null || cat "$OUT/throughput.tsv"
    echo '```'
    echo
    echo "Overall: $([ $FAILED = 0 ] && echo PASS || echo FAIL), $(elapsed) s"
} > "$OUT/summary.md"
cat "$OUT/summary.md"
rm -rf "$WORK"
exit $FAILED
