#!/usr/bin/env bash
# The GPU check (issues 11 and 17, docs/gpu.md), one script for a GPU machine:
#
#   1. build with CUDA (build-gpu/), fail early if the CUDA backend is not in it
#   2. unit tests; test_kernels compares every backend operation CUDA vs CPU
#   3. the same instances with --backend cpu and --backend cuda: afiro, sc50b,
#      adlittle, 25fv47, a small mcf and a small design-match; status equal,
#      objectives within 1e-8 relative (CMP_TOL), iterations reported; the
#      design-match again with --precision fp32-matrix
#   3b. compact matrix values on the device (tests/mpi/matrix_values.sh with the device
#      backend, grids 1x1 and 1x2): every form's solve bit for bit the plain one's
#   4. two ranks sharing the one GPU (--comm-lib mpi, grid 1x2, host-staged
#      exchange) against one rank; --comm-lib nccl on a shared GPU is refused
#   5. device bandwidth: cudaMemcpy device to device and a triad kernel
#   6. fixed-iteration time per iteration on generated mcf LPs: ~1e8 nonzeros,
#      then the largest of 1e9 / 6e8 / 3e8 that fits the GPU memory and the time
#      left; GB/s by the traffic model against the copy bandwidth
#
# Usage: bench/gpu-check.sh [--rehearse]
#   --rehearse   the same steps on a machine without a GPU: --backend guarded
#                stands in for cuda (vectors host code cannot touch, the same
#                host-staged exchange), the GPU-only programs are compiled but not
#                run, and the throughput sizes are small. Run it before every
#                device session, so that the device run fails only on GPU facts.
# Environment: OUT=dir for results (default bench/results/gpu-check, or
#   bench/results/gpu-rehearsal); GPU_CHECK_BUDGET seconds (default 450);
#   GPU_CHECK_MAX_NNZ (default 1e9, rehearsal 1e7); GPU_CHECK_ITERS (default 1000,
#   rehearsal 200);
#   SLP_SHARED_DIR, the shared corpus with lp/netlib; CMP_TOL (default 1e-8).
# Exit status: 0 if every comparison passed, 1 otherwise (the throughput part
# only reports). Every step has a timeout so the whole run stays inside the
# budget; results and logs go to $OUT (summary.md, compare.tsv, throughput.tsv,
# log.txt and one log per step).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
REHEARSE=0
[ "${1:-}" = --rehearse ] && REHEARSE=1
DEV=cuda
((REHEARSE)) && DEV=guarded
if ((REHEARSE)); then OUT=${OUT:-$ROOT/bench/results/gpu-rehearsal}
else OUT=${OUT:-$ROOT/bench/results/gpu-check}; fi
BUDGET=${GPU_CHECK_BUDGET:-450}
MAX_NNZ=${GPU_CHECK_MAX_NNZ:-1e9}
ITERS=${GPU_CHECK_ITERS:-1000}
if ((REHEARSE)); then MAX_NNZ=${GPU_CHECK_MAX_NNZ:-1e7}; ITERS=${GPU_CHECK_ITERS:-200}; fi
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
log "start: $(hostname), budget ${BUDGET}s, device backend $DEV, results in $OUT"
if ((REHEARSE)); then
    echo "rehearsal: no GPU (--backend guarded stands in for cuda)" > "$OUT/gpu.csv"
    GPU_FREE_MIB=$(awk '/MemAvailable/ {print int($2 / 1024)}' /proc/meminfo)
else
    nvidia-smi --query-gpu=name,memory.total,memory.free,driver_version --format=csv \
        > "$OUT/gpu.csv" 2>&1 || fail "nvidia-smi failed (no GPU?)"
    GPU_FREE_MIB=$(nvidia-smi --query-gpu=memory.free --format=csv,noheader,nounits 2>/dev/null | head -1)
fi
cat "$OUT/gpu.csv" | tee -a "$OUT/log.txt"
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
((REHEARSE)) || grep -q "CUDA backend available" "$OUT/test_kernels.log" ||
    fail "test_kernels did not see the GPU"
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
    for f in afiro sc50b adlittle 25fv47; do
        [ -f "$SHARED/lp/netlib/$f.mps.gz" ] && INSTANCES+=("$SHARED/lp/netlib/$f.mps.gz")
    done
else
    log "no shared corpus found: netlib instances other than afiro skipped"
fi
"$SLP" gen mcf --commodities 3 --factories 4 --warehouses 5 --stores 8 --grid 1x1 \
    --out "$WORK/mcf-small" --quiet >> "$OUT/log.txt" 2>&1 && INSTANCES+=("$WORK/mcf-small")
"$SLP" gen mcf --commodities 3 --factories 4 --warehouses 5 --stores 8 --grid 1x2 \
    --out "$WORK/mcf-small-1x2" --quiet >> "$OUT/log.txt" 2>&1
"$SLP" gen design-match --treated 40 --controls 200 --covariates 4 --neighbors 10 --grid 1x1 \
    --out "$WORK/design-match-small" --quiet >> "$OUT/log.txt" 2>&1 &&
    INSTANCES+=("$WORK/design-match-small")

# compare NAME JSON_A JSON_B: status, iterations, objective
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

printf "instance\tstatus_a\tstatus_b\titers_a\titers_b\tobj_a\tobj_b\trel_diff\tresult\n" \
    > "$OUT/compare.tsv"
log "cpu (a) vs $DEV (b) on ${#INSTANCES[@]} instances (--tol 1e-8)"
for f in "${INSTANCES[@]}"; do
    name=$(basename "$f" .mps.gz)
    name=${name%.mps}
    for be in cpu $DEV; do
        run 90 "solve-$name-$be" "$SLP" solve "$f" --backend "$be" --tol 1e-8 --time-limit 60 \
            --quiet --json "$WORK/$name-$be.json" || log "$name $be: exit $? (see solve-$name-$be.log)"
    done
    compare "$name" "$WORK/$name-cpu.json" "$WORK/$name-$DEV.json" | tee -a "$OUT/log.txt"
    [ "${PIPESTATUS[0]}" = 0 ] || FAILED=1
done

# FP32 matrix values (--precision fp32-matrix) on both backends
if [ -d "$WORK/design-match-small" ]; then
    for be in cpu $DEV; do
        run 90 "solve-design-match-fp32-$be" "$SLP" solve "$WORK/design-match-small" --backend "$be" \
            --precision fp32-matrix --tol 1e-8 --time-limit 60 --verbose \
            --json "$WORK/dm-fp32-$be.json" || log "design-match fp32 $be: exit $?"
    done
    grep -h "^Matrix:" "$OUT/solve-design-match-fp32-$DEV.log" | tee -a "$OUT/log.txt"
    compare design-match-fp32 "$WORK/dm-fp32-cpu.json" "$WORK/dm-fp32-$DEV.json" | tee -a "$OUT/log.txt"
    [ "${PIPESTATUS[0]}" = 0 ] || FAILED=1
fi

# ---------------------------------------------------------------- 3b. compact values on the device
if [ -n "$SHARED" ]; then
    log "compact matrix values with --backend $DEV: plain against auto, bit for bit (1x1, 1x2)"
    GRIDS="1x1 1x2" run 240 matrix_values bash "$ROOT/tests/mpi/matrix_values.sh" "$SLP" "$ROOT" \
        "$SHARED" "--backend $DEV --comm-lib mpi" || fail "matrix_values (see matrix_values.log)"
    tail -1 "$OUT/matrix_values.log" | tee -a "$OUT/log.txt"
    grep -h "Matrix:" "$OUT/matrix_values.log" | head -3 >> "$OUT/log.txt"
else
    log "no shared corpus found: compact matrix values on the device skipped"
fi

# ---------------------------------------------------------------- 4. ranks sharing the GPU (MPI path)
log "1 rank (a) vs 2 ranks on one GPU (b), grid 1x2, --comm-lib mpi (host-staged exchange)"
# pairs ONE_RANK_INPUT:TWO_RANK_INPUT (a shard directory is cut for its grid)
for pair in "$ROOT/examples/data/afiro.mps:$ROOT/examples/data/afiro.mps" \
    "$WORK/mcf-small:$WORK/mcf-small-1x2"; do
    one=${pair%%:*}; inst=${pair#*:}
    name=$(basename "$inst" .mps)-np2
    run 90 "solve-$name-np1" "$SLP" solve "$one" --backend "$DEV" --tol 1e-8 --time-limit 60 \
        --quiet --json "$WORK/$name-np1.json" || log "$name np1: exit $? (see solve-$name-np1.log)"
    run 90 "solve-$name-np2" $MPIRUN -np 2 "$SLP" solve "$inst" --grid 1x2 --backend "$DEV" \
        --comm-lib mpi --tol 1e-8 --time-limit 60 --verbose --json "$WORK/$name-np2.json" ||
        log "$name np2: exit $? (see solve-$name-np2.log)"
    grep -h "exchange:" "$OUT/solve-$name-np2.log" | head -1 | tee -a "$OUT/log.txt"
    compare "$name" "$WORK/$name-np1.json" "$WORK/$name-np2.json" | tee -a "$OUT/log.txt"
    [ "${PIPESTATUS[0]}" = 0 ] || FAILED=1
done
# NCCL refuses two ranks on one GPU: a one-line error, not a hang
run 60 nccl-shared $MPIRUN -np 2 "$SLP" solve "$ROOT/examples/data/afiro.mps" --grid 1x2 \
    --backend "$DEV" --comm-lib nccl --quiet
rc=$?
if ((rc != 0 && rc != 124)) && grep -q '^shardlp: error:' "$OUT/nccl-shared.log"; then
    log "--comm-lib nccl on a shared GPU refused: $(grep -m1 '^shardlp: error:' "$OUT/nccl-shared.log")"
else
    fail "--comm-lib nccl on a shared GPU: exit $rc without a clear error (see nccl-shared.log)"
fi

# ---------------------------------------------------------------- 5. device bandwidth
log "device bandwidth: cudaMemcpy D2D and a triad kernel"
cat > "$WORK/copybw.cu" <<'EOF'
// Device bandwidth on 2 GiB arrays, best of 20 after one warm-up, read + write bytes:
// line 1 cudaMemcpy device to device (2 x bytes), line 2 triad a = b + s c (3 x bytes).
#include <cstdio>
#include <cuda_runtime.h>
__global__ void triad(double *a, const double *b, const double *c, double s, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        a[i] = b[i] + s * c[i];
}
static size_t bytes = (size_t)2 << 30;
static double *A, *B, *C;
static void do_copy() { cudaMemcpy(B, A, bytes, cudaMemcpyDeviceToDevice); }
static void do_triad() { triad<<<132 * 16, 256>>>(A, B, C, 3.0, bytes / sizeof(double)); }
static float best_ms(void (*f)()) {
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    float best = 1e30f;
    for (int r = 0; r < 21; r++) {
        cudaEventRecord(e0); f(); cudaEventRecord(e1); cudaEventSynchronize(e1);
        float ms; cudaEventElapsedTime(&ms, e0, e1);
        if (r > 0 && ms < best) best = ms;
    }
    return best;
}
int main() {
    if (cudaMalloc(&A, bytes) != cudaSuccess || cudaMalloc(&B, bytes) != cudaSuccess ||
        cudaMalloc(&C, bytes) != cudaSuccess) return 1;
    cudaMemset(A, 0, bytes); cudaMemset(B, 0, bytes); cudaMemset(C, 0, bytes);
    printf("%.1f\n", 2.0 * bytes / (best_ms(do_copy) * 1e-3) / 1e9);
    printf("%.1f\n", 3.0 * bytes / (best_ms(do_triad) * 1e-3) / 1e9);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
EOF
COPY_GBS=0
TRIAD_GBS=0
if ! run 120 copybw-build nvcc -O3 -arch=sm_90 -o "$WORK/copybw" "$WORK/copybw.cu"; then
    fail "bandwidth benchmark does not compile (see copybw-build.log)"
elif ((REHEARSE)); then
    log "rehearsal: bandwidth benchmark compiled, not run"
elif run 60 copybw "$WORK/copybw"; then
    COPY_GBS=$(sed -n 1p "$OUT/copybw.log")
    TRIAD_GBS=$(sed -n 2p "$OUT/copybw.log")
    log "bandwidth (read + write): copy $COPY_GBS GB/s, triad $TRIAD_GBS GB/s"
else
    fail "bandwidth benchmark"
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
printf "nnz\trows\tcols\titerations\tsolve_s\titers_per_s\tus_per_iter\tbytes_per_iter\tGB_per_s\tfrac_copy\tgen_s\tsetup_s\n" \
    > "$OUT/throughput.tsv"
# Rehearsal: the same pipeline on mcf with F = 10, W = 50, S = 480 (~5e4 K nonzeros).
if ((REHEARSE)); then MCF=(--factories 10 --warehouses 50 --stores 480); PER_K=4.95e4
else MCF=(--factories 100 --warehouses 500 --stores 4800); PER_K=4.95e6; fi
throughput() { # K: generate, solve ITERS iterations, report; echoes the wall seconds used
    local K=$1 dir=$WORK/mcf-$1 t0 t1 t2
    t0=$(date +%s)
    run 400 "gen-K$K" "$SLP" gen mcf --commodities "$K" "${MCF[@]}" \
        --grid 1x1 --out "$dir" --quiet || { fail "gen mcf K=$K"; return 1; }
    t1=$(date +%s)
    run 400 "throughput-K$K" "$SLP" solve "$dir" --backend "$DEV" --no-presolve --iter-limit "$ITERS" \
        --tol 1e-30 --time-limit 300 --json "$WORK/tp-$K.json" || log "solve K=$K: exit $?"
    t2=$(date +%s)
    rm -rf "$dir"
    python3 - "$WORK/tp-$K.json" "$COPY_GBS" $((t1 - t0)) $((t2 - t1)) "$OUT/throughput.tsv" <<'EOF' | tee -a "$OUT/log.txt"
import json, sys
j = json.load(open(sys.argv[1])); copy = float(sys.argv[2]); tsv = sys.argv[5]
m, n, nnz, it, sec = j["rows"], j["cols"], j["nonzeros"], j["iterations"], j["solve_seconds"]
# the block as held (both copies: indices, values in their form, line pointers), read once
# by the two products; then the vectors
mat = j.get("matrix", {}).get("bytes_all_ranks") or 24 * nnz + 4 * (m + 1) + 4 * (n + 1)
b = mat + 16 * (m + n) + 64 * n + 48 * m
ips = it / sec if sec > 0 else 0.0
gbs = b * ips / 1e9
frac = gbs / copy if copy > 0 else 0.0
setup = j["total_seconds"] - sec
print(f"nnz {nnz:.3e}: {it} iterations in {sec:.2f} s = {ips:.1f} it/s = "
      f"{1e6 / ips if ips else 0:.1f} us/it, {b/1e9:.3f} GB/iteration "
      f"(model), {gbs:.0f} GB/s = {frac:.2f} of copy bandwidth; gen {sys.argv[3]} s, "
      f"solve wall {sys.argv[4]} s")
open(tsv, "a").write(f"{nnz}\t{m}\t{n}\t{it}\t{sec:.4f}\t{ips:.2f}\t{1e6 / ips if ips else 0:.1f}\t"
                     f"{b}\t{gbs:.1f}\t{frac:.3f}\t"
                     f"{sys.argv[3]}\t{setup:.2f}\n")
EOF
    echo $((t2 - t0)) > "$WORK/last-wall"
}

log "throughput, stage 1: ~$(python3 -c "print(f'{$PER_K * 20:.0e}')") nonzeros, $ITERS iterations"
if throughput 20; then
    WALL1=$(cat "$WORK/last-wall")
    best=0
    for K in 200 120 60; do
        nnz=$(python3 -c "print(int($PER_K * $K))")
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
    echo "## Comparisons (objective tolerance $CMP_TOL): cpu vs $DEV, then 1 vs 2 ranks on $DEV"
    echo
    echo '```'
    column -t -s $'\t' "$OUT/compare.tsv" 2>/dev/null || cat "$OUT/compare.tsv"
    echo '```'
    echo
    echo "## Throughput on $DEV ($ITERS iterations; copy $COPY_GBS GB/s, triad $TRIAD_GBS GB/s read+write)"
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
