/* CUDA backend (docs/design.md section 5, issue 11): every vector and the block live
 * in device memory; every operation is queued on one stream, in order.
 *
 *   device selection   slp_backend_cuda_create: given ordinal, or node-local rank
 *                      modulo the device count
 *   vectors            cudaMalloc'd doubles; copies, fills, axpby as kernels
 *   block              A_rc and A_rc^T both as CSR on the device (both products
 *                      row-wise), 32-bit indices while nnz, rows and cols fit,
 *                      64-bit otherwise; the values in the exact form of fewest
 *                      bytes (signed-unit, a value table or plain doubles,
 *                      core/values.h; plain with 64-bit indices)
 *   products           k_gather: a group of lanes per line, each lane's sum then a
 *                      tree (backend/line_lanes.h), the same sums in every form
 *   fused updates      primal_step / dual_step: one kernel each, the per-
 *                      coordinate math of backend/kernels.h
 *   reductions         vec_dot, col_check, row_check: a fixed-shape two-pass
 *                      tree reduction (the grid size depends only on the length),
 *                      so results are reproducible run to run; only these three
 *                      (and upload/download) wait for the device
 *
 * Nothing here synchronises with the host inside an evaluation window: the
 * iteration's operations (spmv, spmv_t, primal_step, dual_step) only enqueue.
 * Operations returning void cannot report failure through the seam; the first
 * CUDA/cuSPARSE failure is recorded (slp_error + a sticky code, see
 * slp_backend_cuda_status), later operations become no-ops, and the check
 * reductions return NaN so that the solver stops on the next check. */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>
#include "backend/cuda/runtime_libs.h"

extern "C" {
#include "backend/backend.h"
#include "core/local_problem.h"
#include "core/values.h"
}
#include "backend/cuda/backend_cuda.h"
#include "backend/check_coord.h"
#include "backend/kernels.h"
#include "backend/line_lanes.h"

/* Threads per block of every kernel; also the reduction tree width. */
#define SLP_CUDA_BLOCK 256
/* Upper bound on blocks of element-wise kernels (grid-stride beyond it) and of
 * the first reduction pass (fixed, so a reduction's shape depends only on len). */
#define SLP_CUDA_MAX_BLOCKS 4096
#define SLP_CUDA_RED_BLOCKS 1024
#define SLP_CUDA_RED_SLOTS 16 /* >= SLP_COL_COUNT, SLP_ROW_COUNT */

/* ------------------------------------------------------------------ types */

typedef struct { /* one copy in CSR, device memory: A (rows x cols) or A^T (cols x rows) */
    int64_t lines;
    void *ptr, *idx; /* int32 or int64 by the block's idx64; SIGNED: bit 31 of idx the sign */
    double *val;     /* PLAIN */
    void *codes;     /* TABLE8: uint8, TABLE16: uint16 */
    float *val32;    /* --precision fp32-matrix, plain values: the iterations' values */
    int form;        /* slp_values_form */
    int width;       /* lanes per line of the product (slp_lanes_for) */
} dev_copy_t;

struct slp_block {
    int64_t rows, cols, nnz;
    int idx64;     /* 1: 64-bit row pointers and indices for A and A^T (plain values) */
    int empty;     /* rows, cols or nnz is 0: products are zero fills */
    dev_copy_t a, t;
    double *table; /* device: the distinct values of a table form (both copies') */
    int table_len;
};

typedef struct {
    slp_backend_t base;
    int device;
    cudaStream_t stream;
    cusparseHandle_t sparse;
    double *partials;  /* device [SLP_CUDA_RED_BLOCKS * SLP_CUDA_RED_SLOTS] */
    double *result;    /* device [SLP_CUDA_RED_SLOTS] */
    double *host_out;  /* pinned host [SLP_CUDA_RED_SLOTS] */
    slp_err failed;    /* sticky: first failure of an operation */
} cuda_backend_t;

static cuda_backend_t *cuda_of(slp_backend_t *be) { return (cuda_backend_t *)be; }

/* ------------------------------------------------------------------ errors */

static slp_err cuda_fail(cuda_backend_t *cu, slp_err code, const char *what, const char *why,
                         const char *file, int line)
{
    slp_err rc = slp_error(code, "CUDA backend: %s failed: %s (%s:%d)", what, why, file, line);
    if (cu && cu->failed == SLP_OK)
        cu->failed = rc;
    return rc;
}

static slp_err cuda_check(cuda_backend_t *cu, cudaError_t e, const char *what, const char *file,
                          int line)
{
    if (e == cudaSuccess)
        return SLP_OK;
    slp_err code = e == cudaErrorMemoryAllocation ? SLP_ERR_NOMEM : SLP_ERR_INTERNAL;
    return cuda_fail(cu, code, what, cudaGetErrorString(e), file, line);
}

static slp_err sparse_check(cuda_backend_t *cu, cusparseStatus_t e, const char *what,
                            const char *file, int line)
{
    if (e == CUSPARSE_STATUS_SUCCESS)
        return SLP_OK;
    slp_err code = e == CUSPARSE_STATUS_ALLOC_FAILED ? SLP_ERR_NOMEM : SLP_ERR_INTERNAL;
    return cuda_fail(cu, code, what, slp_cusparse()->GetErrorString(e), file, line);
}

/* Propagating forms (return the code) and launch checks. */
#define CU_CALL(cu, expr) SLP_CALL(cuda_check((cu), (expr), #expr, __FILE__, __LINE__))
#define SP_CALL(cu, expr) SLP_CALL(sparse_check((cu), (expr), #expr, __FILE__, __LINE__))
#define CU_LAUNCHED(cu, what) cuda_check((cu), cudaGetLastError(), what, __FILE__, __LINE__)

/* ------------------------------------------------------------------ launch shape */

static unsigned grid_for(int64_t len, int64_t cap)
{
    int64_t blocks = (len + SLP_CUDA_BLOCK - 1) / SLP_CUDA_BLOCK;
    if (blocks < 1)
        blocks = 1;
    if (blocks > cap)
        blocks = cap;
    return (unsigned)blocks;
}

#define SLP_GRID_STRIDE(i, len)                                                        \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (len);        \
         i += (int64_t)gridDim.x * blockDim.x)

/* ------------------------------------------------------------------ element-wise kernels */

__global__ void k_fill(double *dst, double value, int64_t len)
{
    SLP_GRID_STRIDE(i, len) dst[i] = value;
}

__global__ void k_axpby(double *dst, double a, const double *x, double b, const double *y,
                        int64_t len)
{
    SLP_GRID_STRIDE(i, len) dst[i] = a * x[i] + b * y[i];
}

__global__ void k_mul(double *dst, const double *x, const double *y, int64_t len)
{
    SLP_GRID_STRIDE(i, len) dst[i] = x[i] * y[i];
}

template <bool MAJOR>
__global__ void k_primal(slp_primal_args p)
{
    SLP_GRID_STRIDE(j, p.n)
    {
        double x = p.x[j], next, slack, xbar;
        double xhat = slp_primal_coord(x, p.x0[j], p.g[j], p.c[j], p.l[j], p.u[j], p.tau, p.w,
                                       &xbar, &next, &slack);
        p.xbar[j] = xbar;
        if (MAJOR) {
            p.xhat[j] = xhat;
            p.slack[j] = slack;
            p.dx[j] = xhat - x;
        }
        p.x[j] = next;
    }
}

template <bool MAJOR>
__global__ void k_dual(slp_dual_args d)
{
    SLP_GRID_STRIDE(i, d.m)
    {
        double y = d.y[i], next;
        double yhat = slp_dual_coord(y, d.y0[i], d.h[i], d.l[i], d.u[i], d.sigma, d.w, &next);
        if (MAJOR) {
            d.yhat[i] = yhat;
            d.dy[i] = yhat - y;
        }
        d.y[i] = next;
    }
}

__global__ void k_ray(int kind, const double *src, const double *l, const double *u, double *dst,
                      int64_t len)
{
    SLP_GRID_STRIDE(i, len)
    dst[i] = kind == SLP_RAY_PRIMAL ? slp_primal_ray_coord(src[i], l[i], u[i])
                                    : slp_dual_ray_coord(src[i], l[i], u[i]);
}

__global__ void k_narrow_ptr(int32_t *dst, const int64_t *src, int64_t len)
{
    SLP_GRID_STRIDE(i, len) dst[i] = (int32_t)src[i];
}

__global__ void k_widen_idx(int64_t *dst, const int32_t *src, int64_t len)
{
    SLP_GRID_STRIDE(i, len) dst[i] = (int64_t)src[i];
}

/* The sign of each value into bit 31 of its 32-bit column index (signed-unit form). */
__global__ void k_sign_bits(uint32_t *idx, const double *val, int64_t nnz)
{
    SLP_GRID_STRIDE(k, nnz) idx[k] |= val[k] < 0.0 ? SLP_SIGN_BIT : 0u;
}

/* FP32 copies of plain values (--precision fp32-matrix). */
__global__ void k_to_float(float *dst, const double *src, int64_t len)
{
    SLP_GRID_STRIDE(k, len) dst[k] = (float)src[k];
}

/* Each value's position in the table (a table form). */
template <typename T>
__global__ void k_table_codes(T *codes, const double *val, int64_t nnz, const double *table,
                              int32_t len)
{
    SLP_GRID_STRIDE(k, nnz) codes[k] = (T)slp_table_code(table, len, val[k]);
}

/* The lanes of one line's group, within the warp (width divides 32 and the block). */
__device__ static inline unsigned group_mask(int width)
{
    unsigned base = (threadIdx.x & 31u) & ~(unsigned)(width - 1);
    return width == 32 ? 0xffffffffu : ((1u << width) - 1u) << base;
}

/* y = (lines of the copy) . x, `width` lanes a line (backend/line_lanes.h): the lane
 * sums, then the tree by shuffles; 32-bit indices, values in the form FORM. */
template <int FORM>
__global__ void k_gather(const int32_t *ptr, slp_line_entries_t e, int width, int64_t lines,
                         const double *x, double *y)
{
    e.form = FORM; /* a constant: the term's switch folds */
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int64_t line = t / width;
    int lane = (int)(t & (width - 1));
    if (line >= lines) /* the whole group: its lanes share the line */
        return;
    double s = slp_lane_sum(&e, ptr[line], ptr[line + 1], lane, width, x);
    unsigned mask = group_mask(width);
    for (int h = width / 2; h >= 1; h /= 2)
        s += __shfl_down_sync(mask, s, h, width);
    if (lane == 0)
        y[line] = s;
}

/* The same with 64-bit row pointers and indices (plain values only). */
__global__ void k_gather64(const int64_t *ptr, const int64_t *idx, const double *val, int width,
                           int64_t lines, const double *x, double *y)
{
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int64_t line = t / width;
    int lane = (int)(t & (width - 1));
    if (line >= lines)
        return;
    double s = 0.0;
    for (int64_t k = ptr[line] + lane; k < ptr[line + 1]; k += width)
        s += val[k] * x[idx[k]];
    unsigned mask = group_mask(width);
    for (int h = width / 2; h >= 1; h /= 2)
        s += __shfl_down_sync(mask, s, h, width);
    if (lane == 0)
        y[line] = s;
}

/* ------------------------------------------------------------------ reductions */

/* The per-coordinate contributions of each reduction. */
struct dot_op {
    const double *x, *y;
    __device__ void operator()(int64_t i, double *s) const { s[0] += x[i] * y[i]; }
};
struct col_op {
    slp_col_check_args a;
    __device__ void operator()(int64_t j, double *s) const { slp_col_check_coord(&a, j, s); }
};
struct row_op {
    slp_row_check_args a;
    __device__ void operator()(int64_t i, double *s) const { slp_row_check_coord(&a, i, s); }
};

/* Combine the K slots of sh[.][t] and sh[.][t + stride] into sh[.][t], max where
 * bit e of MAXMASK is set, sum elsewhere: a fixed tree, so a fixed order. */
template <int K, unsigned MAXMASK>
__device__ void block_tree(double (*sh)[SLP_CUDA_BLOCK])
{
    const int t = threadIdx.x;
    for (int stride = SLP_CUDA_BLOCK / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (t < stride)
            for (int e = 0; e < K; e++)
                sh[e][t] = (MAXMASK >> e) & 1u ? fmax(sh[e][t], sh[e][t + stride])
                                               : sh[e][t] + sh[e][t + stride];
    }
    __syncthreads();
}

/* Pass 1: each block reduces its grid-stride share to partials[block * K + e]. */
template <int K, unsigned MAXMASK, class Op>
__global__ void __launch_bounds__(SLP_CUDA_BLOCK) k_reduce1(Op op, int64_t len, double *partials)
{
    __shared__ double sh[K][SLP_CUDA_BLOCK];
    double s[K];
    for (int e = 0; e < K; e++)
        s[e] = 0.0;
    SLP_GRID_STRIDE(i, len) op(i, s);
    for (int e = 0; e < K; e++)
        sh[e][threadIdx.x] = s[e];
    block_tree<K, MAXMASK>(sh);
    if (threadIdx.x < K)
        partials[(int64_t)blockIdx.x * K + threadIdx.x] = sh[threadIdx.x][0];
}

/* Pass 2: one block reduces the `blocks` partials to out[0..K). */
template <int K, unsigned MAXMASK>
__global__ void __launch_bounds__(SLP_CUDA_BLOCK) k_reduce2(const double *partials, int blocks,
                                                             double *out)
{
    __shared__ double sh[K][SLP_CUDA_BLOCK];
    double s[K];
    for (int e = 0; e < K; e++)
        s[e] = 0.0;
    for (int b = threadIdx.x; b < blocks; b += SLP_CUDA_BLOCK)
        for (int e = 0; e < K; e++)
            s[e] = (MAXMASK >> e) & 1u ? fmax(s[e], partials[(int64_t)b * K + e])
                                       : s[e] + partials[(int64_t)b * K + e];
    for (int e = 0; e < K; e++)
        sh[e][threadIdx.x] = s[e];
    block_tree<K, MAXMASK>(sh);
    if (threadIdx.x < K)
        out[threadIdx.x] = sh[threadIdx.x][0];
}

/* Run both passes and bring the K results to out (waits for the stream). On an
 * earlier failure the results are NaN. */
template <int K, unsigned MAXMASK, class Op>
static void reduce(cuda_backend_t *cu, const Op &op, int64_t len, double *out)
{
    static_assert(K <= SLP_CUDA_RED_SLOTS, "reduction slots");
    if (cu->failed == SLP_OK) {
        unsigned blocks = grid_for(len, SLP_CUDA_RED_BLOCKS);
        k_reduce1<K, MAXMASK, Op><<<blocks, SLP_CUDA_BLOCK, 0, cu->stream>>>(op, len, cu->partials);
        k_reduce2<K, MAXMASK><<<1, SLP_CUDA_BLOCK, 0, cu->stream>>>(cu->partials, (int)blocks,
                                                                   cu->result);
        if (CU_LAUNCHED(cu, "reduction kernel") == SLP_OK &&
            cuda_check(cu, cudaMemcpyAsync(cu->host_out, cu->result, K * sizeof(double),
                                           cudaMemcpyDeviceToHost, cu->stream),
                       "cudaMemcpyAsync(reduction)", __FILE__, __LINE__) == SLP_OK &&
            cuda_check(cu, cudaStreamSynchronize(cu->stream), "cudaStreamSynchronize", __FILE__,
                       __LINE__) == SLP_OK) {
            memcpy(out, cu->host_out, K * sizeof(double));
            return;
        }
    }
    for (int e = 0; e < K; e++)
        out[e] = NAN;
}

/* ------------------------------------------------------------------ vectors */

static slp_err cu_vec_create(slp_backend_t *be, int64_t len, double **out)
{
    cuda_backend_t *cu = cuda_of(be);
    *out = NULL;
    size_t bytes = (size_t)(len > 0 ? len : 1) * sizeof(double);
    double *v = NULL;
    CU_CALL(cu, cudaMalloc((void **)&v, bytes));
    slp_err rc = cuda_check(cu, cudaMemsetAsync(v, 0, bytes, cu->stream), "cudaMemsetAsync",
                            __FILE__, __LINE__);
    if (rc != SLP_OK) {
        cudaFree(v);
        return rc;
    }
    *out = v;
    return SLP_OK;
}

static void cu_vec_destroy(slp_backend_t *be, double *v)
{
    (void)be;
    if (v)
        cudaFree(v); /* implicitly waits for work that uses v */
}

static slp_err cu_vec_upload(slp_backend_t *be, double *dst, const double *host, int64_t len)
{
    cuda_backend_t *cu = cuda_of(be);
    if (cu->failed != SLP_OK)
        return cu->failed;
    if (len <= 0)
        return SLP_OK;
    CU_CALL(cu, cudaMemcpyAsync(dst, host, (size_t)len * sizeof(double), cudaMemcpyHostToDevice,
                                cu->stream));
    CU_CALL(cu, cudaStreamSynchronize(cu->stream)); /* host may be freed right after */
    return SLP_OK;
}

static slp_err cu_vec_download(slp_backend_t *be, double *host, const double *src, int64_t len)
{
    cuda_backend_t *cu = cuda_of(be);
    if (cu->failed != SLP_OK)
        return cu->failed;
    if (len <= 0)
        return SLP_OK;
    CU_CALL(cu, cudaMemcpyAsync(host, src, (size_t)len * sizeof(double), cudaMemcpyDeviceToHost,
                                cu->stream));
    CU_CALL(cu, cudaStreamSynchronize(cu->stream));
    return SLP_OK;
}

static void cu_vec_copy(slp_backend_t *be, double *dst, const double *src, int64_t len)
{
    cuda_backend_t *cu = cuda_of(be);
    if (cu->failed != SLP_OK || len <= 0 || dst == src)
        return;
    cuda_check(cu, cudaMemcpyAsync(dst, src, (size_t)len * sizeof(double),
                                   cudaMemcpyDeviceToDevice, cu->stream),
               "cudaMemcpyAsync(vec_copy)", __FILE__, __LINE__);
}

static void cu_vec_fill(slp_backend_t *be, double *dst, double value, int64_t len)
{
    cuda_backend_t *cu = cuda_of(be);
    if (cu->failed != SLP_OK || len <= 0)
        return;
    k_fill<<<grid_for(len, SLP_CUDA_MAX_BLOCKS), SLP_CUDA_BLOCK, 0, cu->stream>>>(dst, value, len);
    CU_LAUNCHED(cu, "k_fill");
}

static void cu_vec_axpby(slp_backend_t *be, double *dst, double a, const double *x, double b,
                         const double *y, int64_t len)
{
    cuda_backend_t *cu = cuda_of(be);
    if (cu->failed != SLP_OK || len <= 0)
        return;
    k_axpby<<<grid_for(len, SLP_CUDA_MAX_BLOCKS), SLP_CUDA_BLOCK, 0, cu->stream>>>(dst, a, x, b, y,
                                                                                   len);
    CU_LAUNCHED(cu, "k_axpby");
}

static void cu_vec_mul(slp_backend_t *be, double *dst, const double *x, const double *y,
                       int64_t len)
{
    cuda_backend_t *cu = cuda_of(be);
    if (cu->failed != SLP_OK || len <= 0)
        return;
    k_mul<<<grid_for(len, SLP_CUDA_MAX_BLOCKS), SLP_CUDA_BLOCK, 0, cu->stream>>>(dst, x, y, len);
    CU_LAUNCHED(cu, "k_mul");
}

static double cu_vec_dot(slp_backend_t *be, const double *x, const double *y, int64_t len)
{
    cuda_backend_t *cu = cuda_of(be);
    double out[1];
    dot_op op = {x, y};
    reduce<1, 0u>(cu, op, len, out);
    return out[0];
}

/* ------------------------------------------------------------------ block */

static void copy_free(dev_copy_t *c)
{
    void *dev[] = {c->ptr, c->idx, c->val, c->codes, c->val32};
    for (size_t k = 0; k < sizeof dev / sizeof dev[0]; k++)
        if (dev[k])
            cudaFree(dev[k]);
    memset(c, 0, sizeof *c);
}

static void block_free(slp_block_t *b)
{
    if (!b)
        return;
    copy_free(&b->a);
    copy_free(&b->t);
    if (b->table)
        cudaFree(b->table);
    free(b);
}

static void cu_block_destroy(slp_backend_t *be, slp_block_t *block)
{
    if (be)
        cudaStreamSynchronize(cuda_of(be)->stream);
    block_free(block);
}

/* A and A^T: indices, values (codes and tables, or nothing for signed-unit) and line
 * pointers, of the block's width; the forms as the CPU backend names them. */
static void cu_block_report(slp_backend_t *be, const slp_block_t *b, slp_block_report_t *out)
{
    (void)be;
    int64_t index = b->idx64 ? 8 : 4;
    const dev_copy_t *copies[] = {&b->a, &b->t};
    const char *names[] = {"A", "A^T"};
    out->bytes = 0;
    out->forms[0] = '\0';
    size_t used = 0;
    for (int k = 0; k < 2; k++) {
        const dev_copy_t *c = copies[k];
        slp_values_form form = (slp_values_form)c->form;
        out->bytes += index * (b->nnz + c->lines + 1) + slp_values_bytes(form, b->nnz, b->table_len) +
                      (c->val32 ? 4 * b->nnz : 0);
        char values[24] = "";
        if (form == SLP_VALUES_TABLE8 || form == SLP_VALUES_TABLE16)
            snprintf(values, sizeof values, " (%d values)", b->table_len);
        if (used < sizeof out->forms)
            used += (size_t)snprintf(out->forms + used, sizeof out->forms - used, "%s%s: %s%s%s",
                                     used ? ", " : "", names[k], slp_values_form_name(form), values,
                                     c->val32 ? " + fp32" : "");
    }
}

/* Host to device on the backend's stream (a non-blocking stream does not order
 * with the legacy default stream that plain cudaMemcpy uses). */
static cudaError_t h2d(cuda_backend_t *cu, void *dst, const void *src, size_t bytes)
{
    return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, cu->stream);
}

/* Upload one host CSR (int64 row_ptr, int32 col_idx) as a device copy with the
 * block's index width: 32-bit narrows row_ptr, 64-bit widens col_idx, both on
 * the device. Plain values. */
static slp_err upload_csr(cuda_backend_t *cu, const slp_csr_t *h, int idx64, dev_copy_t *c)
{
    int64_t rows = h->rows, nnz = h->nnz;
    size_t w = idx64 ? sizeof(int64_t) : sizeof(int32_t);
    c->lines = rows;
    c->form = SLP_VALUES_PLAIN;
    CU_CALL(cu, cudaMalloc(&c->ptr, (size_t)(rows + 1) * w));
    CU_CALL(cu, cudaMalloc(&c->idx, (size_t)(nnz > 0 ? nnz : 1) * w));
    CU_CALL(cu, cudaMalloc((void **)&c->val, (size_t)(nnz > 0 ? nnz : 1) * sizeof(double)));
    if (nnz > 0)
        CU_CALL(cu, h2d(cu, c->val, h->val, (size_t)nnz * sizeof(double)));
    void *tmp = NULL;
    slp_err rc = SLP_OK;
    if (idx64) {
        CU_CALL(cu, h2d(cu, c->ptr, h->row_ptr, (size_t)(rows + 1) * sizeof(int64_t)));
        if (nnz > 0) {
            CU_CALL(cu, cudaMalloc(&tmp, (size_t)nnz * sizeof(int32_t)));
            rc = cuda_check(cu, h2d(cu, tmp, h->col_idx, (size_t)nnz * sizeof(int32_t)),
                            "cudaMemcpyAsync(col_idx)", __FILE__, __LINE__);
            if (rc == SLP_OK) {
                k_widen_idx<<<grid_for(nnz, SLP_CUDA_MAX_BLOCKS), SLP_CUDA_BLOCK, 0, cu->stream>>>(
                    (int64_t *)c->idx, (const int32_t *)tmp, nnz);
                rc = CU_LAUNCHED(cu, "k_widen_idx");
            }
        }
    } else {
        if (nnz > 0)
            CU_CALL(cu, h2d(cu, c->idx, h->col_idx, (size_t)nnz * sizeof(int32_t)));
        CU_CALL(cu, cudaMalloc(&tmp, (size_t)(rows + 1) * sizeof(int64_t)));
        rc = cuda_check(cu, h2d(cu, tmp, h->row_ptr, (size_t)(rows + 1) * sizeof(int64_t)),
                        "cudaMemcpyAsync(row_ptr)", __FILE__, __LINE__);
        if (rc == SLP_OK) {
            k_narrow_ptr<<<grid_for(rows + 1, SLP_CUDA_MAX_BLOCKS), SLP_CUDA_BLOCK, 0, cu->stream>>>(
                (int32_t *)c->ptr, (const int64_t *)tmp, rows + 1);
            rc = CU_LAUNCHED(cu, "k_narrow_ptr");
        }
    }
    if (rc == SLP_OK)
        rc = cuda_check(cu, cudaStreamSynchronize(cu->stream), "cudaStreamSynchronize", __FILE__,
                        __LINE__);
    if (tmp)
        cudaFree(tmp);
    return rc;
}

/* A^T on the device (32-bit only: cusparseCsr2cscEx2 takes int sizes). */
static slp_err transpose_on_device(cuda_backend_t *cu, slp_block_t *b)
{
    int m = (int)b->rows, n = (int)b->cols, nnz = (int)b->nnz;
    dev_copy_t *a = &b->a, *t = &b->t;
    t->lines = n;
    t->form = SLP_VALUES_PLAIN;
    CU_CALL(cu, cudaMalloc(&t->ptr, (size_t)(n + 1) * sizeof(int32_t)));
    CU_CALL(cu, cudaMalloc(&t->idx, (size_t)nnz * sizeof(int32_t)));
    CU_CALL(cu, cudaMalloc((void **)&t->val, (size_t)nnz * sizeof(double)));
    size_t bytes = 0;
    SP_CALL(cu, slp_cusparse()->Csr2cscEx2_bufferSize(cu->sparse, m, n, nnz, a->val, (int *)a->ptr,
                                              (int *)a->idx, t->val, (int *)t->ptr,
                                              (int *)t->idx, CUDA_R_64F, CUSPARSE_ACTION_NUMERIC,
                                              CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1,
                                              &bytes));
    void *work = NULL;
    CU_CALL(cu, cudaMalloc(&work, bytes > 0 ? bytes : 1));
    slp_err rc = sparse_check(
        cu,
        slp_cusparse()->Csr2cscEx2(cu->sparse, m, n, nnz, a->val, (int *)a->ptr, (int *)a->idx,
                           t->val, (int *)t->ptr, (int *)t->idx, CUDA_R_64F,
                           CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO,
                           CUSPARSE_CSR2CSC_ALG1, work),
        "cusparseCsr2cscEx2", __FILE__, __LINE__);
    if (rc == SLP_OK)
        rc = cuda_check(cu, cudaStreamSynchronize(cu->stream), "cudaStreamSynchronize", __FILE__,
                        __LINE__);
    cudaFree(work);
    return rc;
}

/* A copy's plain values into `form` (the block's table uploaded already for a table
 * form), the doubles then freed. */
static slp_err encode_copy(cuda_backend_t *cu, const slp_block_t *b, slp_values_form form,
                           dev_copy_t *c)
{
    int64_t nnz = b->nnz;
    unsigned blocks = grid_for(nnz, SLP_CUDA_MAX_BLOCKS);
    if (form == SLP_VALUES_SIGNED) {
        k_sign_bits<<<blocks, SLP_CUDA_BLOCK, 0, cu->stream>>>((uint32_t *)c->idx, c->val, nnz);
    } else if (form == SLP_VALUES_TABLE8) {
        CU_CALL(cu, cudaMalloc(&c->codes, (size_t)nnz * sizeof(uint8_t)));
        k_table_codes<uint8_t><<<blocks, SLP_CUDA_BLOCK, 0, cu->stream>>>(
            (uint8_t *)c->codes, c->val, nnz, b->table, b->table_len);
    } else {
        CU_CALL(cu, cudaMalloc(&c->codes, (size_t)nnz * sizeof(uint16_t)));
        k_table_codes<uint16_t><<<blocks, SLP_CUDA_BLOCK, 0, cu->stream>>>(
            (uint16_t *)c->codes, c->val, nnz, b->table, b->table_len);
    }
    SLP_CALL(CU_LAUNCHED(cu, "k_sign_bits / k_table_codes"));
    CU_CALL(cu, cudaStreamSynchronize(cu->stream));
    cudaFree(c->val);
    c->val = NULL;
    c->form = form;
    return SLP_OK;
}

/* Both copies' values in the exact form of fewest bytes (core/values.h; the two copies
 * hold the same values), unless plain values are asked for. The forms need 32-bit
 * indices (the sign rides in bit 31): a block with 64-bit indices stays plain. Every
 * product of the CUDA backend is a gathering one, so auto takes tables wherever they
 * are smallest (the CPU backend's exception for scattering products does not arise). */
static slp_err compact_values(cuda_backend_t *cu, const slp_csr_t *a, slp_block_values values,
                              slp_block_t *b)
{
    if (values == SLP_BLOCK_VALUES_PLAIN || b->idx64)
        return SLP_OK;
    slp_values_tally_t *tally = NULL;
    SLP_CALL(slp_values_tally_open(&tally));
    slp_values_tally_add(tally, a->val, a->nnz);
    slp_values_survey_t survey;
    slp_values_tally_survey(tally, &survey);
    double *table = NULL;
    int len = 0;
    slp_err rc = SLP_OK;
    if (survey.form == SLP_VALUES_TABLE8 || survey.form == SLP_VALUES_TABLE16)
        rc = slp_values_tally_table(tally, &table, &len);
    slp_values_tally_close(tally);
    if (rc == SLP_OK && table) {
        b->table_len = len;
        rc = cuda_check(cu, cudaMalloc((void **)&b->table, (size_t)len * sizeof(double)),
                        "cudaMalloc(table)", __FILE__, __LINE__);
        if (rc == SLP_OK)
            rc = cuda_check(cu, h2d(cu, b->table, table, (size_t)len * sizeof(double)),
                            "cudaMemcpyAsync(table)", __FILE__, __LINE__);
    }
    if (rc == SLP_OK && survey.form != SLP_VALUES_PLAIN)
        rc = encode_copy(cu, b, survey.form, &b->a);
    if (rc == SLP_OK && survey.form != SLP_VALUES_PLAIN)
        rc = encode_copy(cu, b, survey.form, &b->t);
    free(table);
    return rc;
}

/* The FP32 copy of a plain copy's values, beside the doubles (the checks read those). */
static slp_err fp32_copy(cuda_backend_t *cu, const slp_block_t *b, dev_copy_t *c)
{
    CU_CALL(cu, cudaMalloc((void **)&c->val32, (size_t)b->nnz * sizeof(float)));
    k_to_float<<<grid_for(b->nnz, SLP_CUDA_MAX_BLOCKS), SLP_CUDA_BLOCK, 0, cu->stream>>>(
        c->val32, c->val, b->nnz);
    return CU_LAUNCHED(cu, "k_to_float");
}

static slp_err build_block(cuda_backend_t *cu, slp_csr_t *a, const slp_csr_t *at_given,
                           const slp_block_options_t *opt, slp_block_t *b)
{
    b->rows = a->rows;
    b->cols = a->cols;
    b->nnz = a->nnz;
    b->empty = a->rows == 0 || a->cols == 0 || a->nnz == 0;
    if (b->empty)
        return SLP_OK;
    b->idx64 = a->nnz > INT32_MAX || a->rows > INT32_MAX || a->cols > INT32_MAX;
    SLP_CALL(upload_csr(cu, a, b->idx64, &b->a));
    if (b->idx64) {
        /* cusparseCsr2cscEx2 is 32-bit only: the host's transpose, uploaded. */
        slp_csr_t at;
        memset(&at, 0, sizeof at);
        if (!at_given)
            SLP_CALL(slp_csr_transpose(a, &at));
        slp_err rc = upload_csr(cu, at_given ? at_given : &at, 1, &b->t);
        cudaStreamSynchronize(cu->stream); /* no copy from `at` in flight, even on failure */
        slp_csr_free(&at);
        SLP_CALL(rc);
    } else {
        SLP_CALL(transpose_on_device(cu, b));
    }
    b->a.width = slp_lanes_for(b->nnz, b->rows);
    b->t.width = slp_lanes_for(b->nnz, b->cols);
    SLP_CALL(compact_values(cu, a, opt ? opt->values : SLP_BLOCK_VALUES_AUTO, b));
    /* an exact compact form is as small already; 64-bit blocks keep doubles only */
    if (!opt || !opt->fp32_iterations || b->a.form != SLP_VALUES_PLAIN || b->idx64)
        return SLP_OK;
    SLP_CALL(fp32_copy(cu, b, &b->a));
    SLP_CALL(fp32_copy(cu, b, &b->t));
    CU_CALL(cu, cudaStreamSynchronize(cu->stream));
    return SLP_OK;
}

static slp_err cu_block_create(slp_backend_t *be, slp_csr_t *a, slp_csr_t *at,
                               const slp_block_options_t *opt, slp_block_t **out)
{
    cuda_backend_t *cu = cuda_of(be);
    *out = NULL;
    if (cu->failed != SLP_OK)
        return cu->failed;
    slp_block_t *b = (slp_block_t *)slp_calloc(1, sizeof *b);
    if (!b)
        return SLP_ERR_NOMEM;
    slp_err rc = build_block(cu, a, at, opt, b);
    if (rc != SLP_OK) {
        cudaStreamSynchronize(cu->stream);
        block_free(b);
        return rc;
    }
    slp_csr_free(a); /* the device holds the block now; a and at are left empty */
    if (at)
        slp_csr_free(at);
    *out = b;
    return SLP_OK;
}

/* out = (lines of copy c) . in: one thread per lane, `width` lanes per line; `fp32`:
 * the FP32 values where the copy has them. */
static void gather(cuda_backend_t *cu, const slp_block_t *b, const dev_copy_t *c, int fp32,
                   const double *in, double *out)
{
    int64_t threads = c->lines * c->width;
    unsigned blocks = (unsigned)((threads + SLP_CUDA_BLOCK - 1) / SLP_CUDA_BLOCK);
    if (b->idx64) {
        k_gather64<<<blocks, SLP_CUDA_BLOCK, 0, cu->stream>>>(
            (const int64_t *)c->ptr, (const int64_t *)c->idx, c->val, c->width, c->lines, in, out);
        CU_LAUNCHED(cu, "k_gather64");
        return;
    }
    int form = fp32 && c->val32 ? SLP_LINE_FP32 : c->form;
    slp_line_entries_t e = {form, (const int32_t *)c->idx, c->val, (const uint8_t *)c->codes,
                            (const uint16_t *)c->codes, b->table, c->val32};
    const int32_t *ptr = (const int32_t *)c->ptr;
    switch (form) {
    case SLP_VALUES_SIGNED:
        k_gather<SLP_VALUES_SIGNED><<<blocks, SLP_CUDA_BLOCK, 0, cu->stream>>>(ptr, e, c->width,
                                                                               c->lines, in, out);
        break;
    case SLP_VALUES_TABLE8:
        k_gather<SLP_VALUES_TABLE8><<<blocks, SLP_CUDA_BLOCK, 0, cu->stream>>>(ptr, e, c->width,
                                                                               c->lines, in, out);
        break;
    case SLP_VALUES_TABLE16:
        k_gather<SLP_VALUES_TABLE16><<<blocks, SLP_CUDA_BLOCK, 0, cu->stream>>>(ptr, e, c->width,
                                                                                c->lines, in, out);
        break;
    case SLP_LINE_FP32:
        k_gather<SLP_LINE_FP32><<<blocks, SLP_CUDA_BLOCK, 0, cu->stream>>>(ptr, e, c->width,
                                                                           c->lines, in, out);
        break;
    default:
        k_gather<SLP_VALUES_PLAIN><<<blocks, SLP_CUDA_BLOCK, 0, cu->stream>>>(ptr, e, c->width,
                                                                              c->lines, in, out);
    }
    CU_LAUNCHED(cu, "k_gather");
}

static void product(cuda_backend_t *cu, const slp_block_t *b, int transposed, int fp32,
                    const double *in, double *out)
{
    int64_t out_len = transposed ? b->cols : b->rows;
    if (cu->failed != SLP_OK)
        return;
    if (b->empty) {
        if (out_len > 0) {
            k_fill<<<grid_for(out_len, SLP_CUDA_MAX_BLOCKS), SLP_CUDA_BLOCK, 0, cu->stream>>>(
                out, 0.0, out_len);
            CU_LAUNCHED(cu, "k_fill");
        }
        return;
    }
    gather(cu, b, transposed ? &b->t : &b->a, fp32, in, out);
}

static void cu_spmv(slp_backend_t *be, const slp_block_t *a, const double *x, double *y)
{
    product(cuda_of(be), a, 0, 0, x, y);
}

static void cu_spmv_t(slp_backend_t *be, const slp_block_t *a, const double *y, double *x)
{
    product(cuda_of(be), a, 1, 0, y, x);
}

/* The iterations' products: the FP32 values where the block has them. */
static void cu_spmv_iterate(slp_backend_t *be, const slp_block_t *a, const double *x, double *y)
{
    product(cuda_of(be), a, 0, 1, x, y);
}

static void cu_spmv_t_iterate(slp_backend_t *be, const slp_block_t *a, const double *y, double *x)
{
    product(cuda_of(be), a, 1, 1, y, x);
}

/* ------------------------------------------------------------------ fused steps */

static void cu_primal_step(slp_backend_t *be, const slp_primal_args *p)
{
    cuda_backend_t *cu = cuda_of(be);
    if (cu->failed != SLP_OK || p->n <= 0)
        return;
    unsigned blocks = grid_for(p->n, SLP_CUDA_MAX_BLOCKS);
    if (p->major)
        k_primal<true><<<blocks, SLP_CUDA_BLOCK, 0, cu->stream>>>(*p);
    else
        k_primal<false><<<blocks, SLP_CUDA_BLOCK, 0, cu->stream>>>(*p);
    CU_LAUNCHED(cu, "k_primal");
}

static void cu_dual_step(slp_backend_t *be, const slp_dual_args *d)
{
    cuda_backend_t *cu = cuda_of(be);
    if (cu->failed != SLP_OK || d->m <= 0)
        return;
    unsigned blocks = grid_for(d->m, SLP_CUDA_MAX_BLOCKS);
    if (d->major)
        k_dual<true><<<blocks, SLP_CUDA_BLOCK, 0, cu->stream>>>(*d);
    else
        k_dual<false><<<blocks, SLP_CUDA_BLOCK, 0, cu->stream>>>(*d);
    CU_LAUNCHED(cu, "k_dual");
}

static void cu_ray_project(slp_backend_t *be, slp_ray_kind kind, const double *src,
                           const double *l, const double *u, double *dst, int64_t len)
{
    cuda_backend_t *cu = cuda_of(be);
    if (cu->failed != SLP_OK || len <= 0)
        return;
    k_ray<<<grid_for(len, SLP_CUDA_MAX_BLOCKS), SLP_CUDA_BLOCK, 0, cu->stream>>>((int)kind, src, l,
                                                                                 u, dst, len);
    CU_LAUNCHED(cu, "k_ray");
}

static void cu_col_check(slp_backend_t *be, const slp_col_check_args *args,
                         double out[SLP_COL_COUNT])
{
    col_op op = {*args};
    reduce<SLP_COL_COUNT, SLP_COL_MAX_MASK>(cuda_of(be), op, args->n, out);
}

static void cu_row_check(slp_backend_t *be, const slp_row_check_args *args,
                         double out[SLP_ROW_COUNT])
{
    row_op op = {*args};
    reduce<SLP_ROW_COUNT, SLP_ROW_MAX_MASK>(cuda_of(be), op, args->m, out);
}

/* ------------------------------------------------------------------ lifetime */

static void cu_destroy(slp_backend_t *be)
{
    if (!be)
        return;
    cuda_backend_t *cu = cuda_of(be);
    if (cu->stream)
        cudaStreamSynchronize(cu->stream);
    if (cu->partials)
        cudaFree(cu->partials);
    if (cu->result)
        cudaFree(cu->result);
    if (cu->host_out)
        cudaFreeHost(cu->host_out);
    if (cu->sparse)
        slp_cusparse()->Destroy(cu->sparse);
    if (cu->stream)
        cudaStreamDestroy(cu->stream);
    free(cu);
}

/* The seam's status: wait for the stream, then the sticky code; a device fault
 * that no operation has reported yet (an asynchronous kernel error) is caught
 * by the synchronisation and recorded as well. */
static slp_err cu_status(slp_backend_t *be)
{
    cuda_backend_t *cu = cuda_of(be);
    if (cu->failed != SLP_OK)
        return cu->failed;
    CU_CALL(cu, cudaStreamSynchronize(cu->stream));
    CU_CALL(cu, cudaGetLastError());
    return SLP_OK;
}

static int64_t cu_memory_free(slp_backend_t *be)
{
    size_t free_bytes = 0, total = 0;
    if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess)
        return -1;
    (void)be;
    return (int64_t)free_bytes;
}

static slp_err cu_host_alloc(slp_backend_t *be, size_t bytes, void **out)
{
    cuda_backend_t *cu = cuda_of(be);
    *out = NULL;
    CU_CALL(cu, cudaMallocHost(out, bytes > 0 ? bytes : 1));
    return SLP_OK;
}

static void cu_host_free(slp_backend_t *be, void *p)
{
    (void)be;
    if (p)
        cudaFreeHost(p);
}

extern "C" int slp_backend_cuda_device_count(void)
{
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

extern "C" int slp_cuda_pick_device(int count)
{
    static const char *vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID",
                                 "MV2_COMM_WORLD_LOCAL_RANK"};
    int local = 0;
    for (size_t k = 0; k < sizeof vars / sizeof vars[0]; k++) {
        const char *v = getenv(vars[k]);
        if (v && *v) {
            local = atoi(v);
            break;
        }
    }
    if (count <= 0)
        return 0;
    return (local < 0 ? 0 : local) % count;
}

static slp_err setup(cuda_backend_t *cu, int device)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count <= 0)
        return slp_error(SLP_ERR_UNSUPPORTED, "no CUDA device available (%s); use --backend cpu",
                         e != cudaSuccess ? cudaGetErrorString(e) : "device count is 0");
    if (device >= count)
        return slp_error(SLP_ERR_INPUT, "CUDA device %d requested, %d present", device, count);
    cu->device = device < 0 ? slp_cuda_pick_device(count) : device;
    const slp_cusparse_api_t *sparse_api = NULL;
    SLP_CALL(slp_cusparse_load(&sparse_api));
    CU_CALL(cu, cudaSetDevice(cu->device));
    CU_CALL(cu, cudaStreamCreateWithFlags(&cu->stream, cudaStreamNonBlocking));
    SP_CALL(cu, slp_cusparse()->Create(&cu->sparse));
    SP_CALL(cu, slp_cusparse()->SetStream(cu->sparse, cu->stream));
    CU_CALL(cu, cudaMalloc((void **)&cu->partials,
                           (size_t)SLP_CUDA_RED_BLOCKS * SLP_CUDA_RED_SLOTS * sizeof(double)));
    CU_CALL(cu, cudaMalloc((void **)&cu->result, SLP_CUDA_RED_SLOTS * sizeof(double)));
    CU_CALL(cu, cudaMallocHost((void **)&cu->host_out, SLP_CUDA_RED_SLOTS * sizeof(double)));
    return SLP_OK;
}

extern "C" slp_err slp_backend_cuda_create(int device, slp_backend_t **out)
{
    *out = NULL;
    cuda_backend_t *cu = (cuda_backend_t *)slp_calloc(1, sizeof *cu);
    if (!cu)
        return SLP_ERR_NOMEM;
    slp_err rc = setup(cu, device);
    if (rc != SLP_OK) {
        cu_destroy(&cu->base);
        return rc;
    }
    slp_backend_t *be = &cu->base;
    be->name = "cuda";
    be->memory = SLP_MEM_DEVICE;
    be->parts = 1;
    be->status = cu_status;
    be->memory_free = cu_memory_free;
    be->host_alloc = cu_host_alloc;
    be->host_free = cu_host_free;
    be->vec_create = cu_vec_create;
    be->vec_destroy = cu_vec_destroy;
    be->vec_upload = cu_vec_upload;
    be->vec_download = cu_vec_download;
    be->vec_copy = cu_vec_copy;
    be->vec_fill = cu_vec_fill;
    be->vec_axpby = cu_vec_axpby;
    be->vec_mul = cu_vec_mul;
    be->vec_dot = cu_vec_dot;
    be->block_create = cu_block_create;
    be->block_destroy = cu_block_destroy;
    be->block_report = cu_block_report;
    be->spmv = cu_spmv;
    be->spmv_t = cu_spmv_t;
    be->spmv_iterate = cu_spmv_iterate;
    be->spmv_t_iterate = cu_spmv_t_iterate;
    be->primal_step = cu_primal_step;
    be->dual_step = cu_dual_step;
    be->ray_project = cu_ray_project;
    be->col_check = cu_col_check;
    be->row_check = cu_row_check;
    be->destroy = cu_destroy;
    *out = be;
    return SLP_OK;
}

extern "C" int slp_backend_is_cuda(const slp_backend_t *be)
{
    return be && be->destroy == cu_destroy;
}

extern "C" void *slp_backend_cuda_stream(slp_backend_t *be) { return cuda_of(be)->stream; }

extern "C" int slp_backend_cuda_device(const slp_backend_t *be)
{
    return ((const cuda_backend_t *)be)->device;
}

extern "C" slp_err slp_backend_cuda_status(const slp_backend_t *be)
{
    return ((const cuda_backend_t *)be)->failed;
}

extern "C" slp_err slp_backend_cuda_sync(slp_backend_t *be)
{
    cuda_backend_t *cu = cuda_of(be);
    if (cu->failed != SLP_OK)
        return cu->failed;
    CU_CALL(cu, cudaStreamSynchronize(cu->stream));
    return SLP_OK;
}
