/* The backend seam (docs/design.md section 5, docs/gpu.md). The solver core calls
 * this table of operations over vectors (double arrays living in the backend's
 * memory: host for the CPU backend, device for CUDA and for the guarded backend)
 * and one block-matrix handle (A_rc with its transpose). No code outside a backend
 * or the exchange (plan/exchange.h) dereferences a backend vector: values reach
 * the host only through vec_download, and the products' sums go through the
 * exchange, which stages device vectors through host buffers. */
#ifndef SLP_BACKEND_H
#define SLP_BACKEND_H

#include <stdint.h>

#include "core/error.h"
#include "core/local_problem.h"

typedef struct slp_backend slp_backend_t;

/* How many CSR copies of A_rc a backend keeps: its own choice, one (both products read
 * the same copy), two (A_rc and its transpose), or A_rc's rows alone, so that no
 * transpose is built at any point, in the scaling either (the lowest peak). The CPU
 * backend decides by the shape and size of the block (backend/cpu/cpu_block.h,
 * docs/memory.md); CUDA keeps two whatever is asked. */
typedef enum {
    SLP_COPIES_AUTO = 0,
    SLP_COPIES_ONE = 1,
    SLP_COPIES_TWO = 2,
    SLP_COPIES_ROWS = 3
} slp_block_copies;
/* How a block holds its values: auto, the exact form of fewest bytes for each copy
 * (signed-unit, a value table or plain doubles; core/values.h) unless a table would slow
 * a scattering product down; plain doubles; or compact, the fewest bytes always. The
 * CUDA backend has no scattering product: auto and compact both take the fewest bytes
 * there (plain with 64-bit indices). */
typedef enum {
    SLP_BLOCK_VALUES_AUTO = 0,
    SLP_BLOCK_VALUES_PLAIN = 1,
    SLP_BLOCK_VALUES_COMPACT = 2
} slp_block_values;
typedef struct {
    slp_block_copies copies;
    slp_block_values values;
    /* --precision fp32-matrix: the iterations' products read FP32 copies of the plain
     * values (the checks keep the doubles); CPU backend only */
    int fp32_iterations;
} slp_block_options_t;
typedef struct slp_block slp_block_t; /* backend-owned A_rc and A_rc^T */

/* What a block holds, for the log and the run summary. */
typedef struct {
    int64_t bytes;   /* of the matrix on this rank: indices, values, tables, line pointers */
    char forms[96];  /* each copy's values, e.g. "A^T: signed-unit" or "A: table8 (12 values)" */
} slp_block_report_t;

/* One fused primal pass (docs/algorithm.md section 4, step 1). On major iterations
 * xhat, slack (Moreau dual slack r~) and dx = xhat - x are stored as well. g and xbar
 * may be the same vector (each coordinate of g is read before xbar's is written). */
typedef struct {
    int64_t n;
    double tau, w;
    int major;
    const double *g, *c, *l, *u, *x0; /* g = A^T y */
    double *x;                        /* in: current; out: next Halpern iterate */
    double *xbar;                     /* out: reflected point 2 xhat - x */
    double *xhat, *slack, *dx;        /* out, major iterations only */
} slp_primal_args;

/* One fused dual pass (step 2 and 3), at the reflected primal point. */
typedef struct {
    int64_t m;
    double sigma, w;
    int major;
    const double *h, *l, *u, *y0; /* h = A xbar */
    double *y;                    /* in: current; out: next Halpern iterate */
    double *yhat, *dy;            /* out, major iterations only */
} slp_dual_args;

/* A check's local partial sums come in parts, each from one product the caller has
 * formed (docs/algorithm.md sections 5-6): so the products can share one work
 * vector. Each slot below belongs to exactly one part; a part leaves the others 0. */
typedef enum {
    SLP_CHECK_POINT = 0, /* residuals and objectives at the PDHG point:
                          * prod = A^T yhat (columns), A xhat (rows) */
    SLP_CHECK_STEP = 1,  /* the FPE's terms: prod = A^T dy (columns; rows read no
                          * product) */
    SLP_CHECK_RAY = 2    /* an infeasibility ray: prod = A^T d_y (columns), A d_x (rows) */
} slp_check_part;

/* Local partial sums over this rank's column slice. Dual residual
 * rd = (c - A^T yhat - slack) * dcol. */
enum {
    SLP_COL_DX2,      /* STEP: ||dx||^2 */
    SLP_COL_DXQ,      /* STEP: dx . A^T dy */
    SLP_COL_RD2,      /* POINT: ||rd||^2 */
    SLP_COL_RDMAX,    /* POINT: max |rd| */
    SLP_COL_CX,       /* POINT: c . xhat */
    SLP_COL_SLACKX,   /* POINT: slack . xhat */
    SLP_COL_SLACKOBJ, /* POINT: sum max(slack,0) l_v + min(slack,0) u_v (finite parts) */
    SLP_COL_DIST2,    /* POINT: ||xhat - x0||^2 */
    /* RAY: infeasibility certificates (docs/algorithm.md section 6), raw (unnormalised) */
    SLP_COL_RAY_DMAX, /* max |d_x| of the primal ray */
    SLP_COL_RAY_CD,   /* c . d_x */
    SLP_COL_RAY_QOBJ, /* sum max(q,0) l_v + min(q,0) u_v (finite parts), q = -A^T d_y */
    SLP_COL_RAY_QVIOL,/* max (max(0,q)[l_v = -inf] + max(0,-q)[u_v = +inf]) s_j */
    SLP_COL_RAY_CDABS,/* sum |c_j d_j|: the size of c . d_x's terms (significance test) */
    SLP_COL_RAY_QABS, /* sum of |the SLP_COL_RAY_QOBJ terms| */
    SLP_COL_COUNT
};
typedef struct {
    int64_t n;
    slp_check_part part;
    const double *prod;                    /* the part's product (above) */
    const double *xhat, *x0, *dx, *c, *slack, *dcol;
    const double *lv, *uv;
    const double *ray_x;                   /* RAY: the projected primal ray d_x */
} slp_col_check_args;

/* Local partial sums over this rank's row slice. Primal residual
 * rp = (A xhat - clamp(A xhat, l, u)) * drow. */
enum {
    SLP_ROW_DY2,      /* STEP: ||dy||^2 */
    SLP_ROW_RP2,      /* POINT: ||rp||^2 */
    SLP_ROW_RPMAX,    /* POINT: max |rp| */
    SLP_ROW_DUALOBJ,  /* POINT: sum of max(y,0) l + min(y,0) u (finite parts) */
    SLP_ROW_DIST2,    /* POINT: ||yhat - y0||^2 */
    SLP_ROW_RAY_DMAX, /* RAY: max |d_y| of the dual ray */
    SLP_ROW_RAY_OBJ,  /* RAY: sum max(d,0) l + min(d,0) u (finite parts) */
    SLP_ROW_RAY_VIOL, /* RAY: max (max(0,-(A d_x)) [l finite] + max(0, A d_x) [u finite]) r_i */
    SLP_ROW_RAY_ABS,  /* RAY: sum of |the SLP_ROW_RAY_OBJ terms| */
    SLP_ROW_COUNT
};
typedef struct {
    int64_t m;
    slp_check_part part;
    const double *prod;                    /* the part's product (above) */
    const double *yhat, *y0, *dy, *l, *u, *drow;
    const double *ray_y;                   /* RAY: the projected dual ray d_y */
} slp_row_check_args;

/* Which partial slots combine by max (bit e set for slot e); all others are sums. */
#define SLP_COL_MAX_MASK \
    ((1u << SLP_COL_RDMAX) | (1u << SLP_COL_RAY_DMAX) | (1u << SLP_COL_RAY_QVIOL))
#define SLP_ROW_MAX_MASK \
    ((1u << SLP_ROW_RPMAX) | (1u << SLP_ROW_RAY_DMAX) | (1u << SLP_ROW_RAY_VIOL))

/* Ray projections: the primal ray keeps dx only in the recession cone of the
 * variable bounds (d >= 0 where l is finite, d <= 0 where u is finite); the dual
 * ray keeps dy only where the row sign allows (d <= 0 where l = -inf, d >= 0
 * where u = +inf). */
typedef enum { SLP_RAY_PRIMAL = 0, SLP_RAY_DUAL = 1 } slp_ray_kind;

/* Where a backend's vectors live. Host code may hand SLP_MEM_HOST vectors to MPI;
 * they are plain heap arrays (slp_alloc, free), so host arrays can change hands with
 * them without a copy (slp_vec_take, slp_vec_give below). SLP_MEM_DEVICE vectors are
 * reachable only through the operations below. */
typedef enum { SLP_MEM_HOST = 0, SLP_MEM_DEVICE = 1 } slp_memory_kind;

struct slp_backend {
    const char *name;
    slp_memory_kind memory;
    /* The thread count that host work is cut into parts for (the CPU backend's block
     * products, the scaling's private sums): the most threads the backend may use, not
     * the count of the moment, so that results do not depend on the latter
     * (docs/threads.md). 1 for a device backend. */
    int parts;

    /* The backend's sticky error after waiting for queued work: SLP_OK, or the first
     * failure of any earlier operation (with its message already set). */
    slp_err (*status)(slp_backend_t *be);
    /* Free memory where the vectors live in bytes, or -1 when not known (host). */
    int64_t (*memory_free)(slp_backend_t *be);
    /* Host buffers for staged transfers (page-locked for CUDA). */
    slp_err (*host_alloc)(slp_backend_t *be, size_t bytes, void **out);
    void (*host_free)(slp_backend_t *be, void *p);

    slp_err (*vec_create)(slp_backend_t *be, int64_t len, double **out); /* zero-filled */
    void (*vec_destroy)(slp_backend_t *be, double *v);
    slp_err (*vec_upload)(slp_backend_t *be, double *dst, const double *host, int64_t len);
    slp_err (*vec_download)(slp_backend_t *be, double *host, const double *src, int64_t len);
    void (*vec_copy)(slp_backend_t *be, double *dst, const double *src, int64_t len);
    void (*vec_fill)(slp_backend_t *be, double *dst, double value, int64_t len);
    /* dst = a * x + b * y (any of dst, x, y may alias) */
    void (*vec_axpby)(slp_backend_t *be, double *dst, double a, const double *x, double b,
                      const double *y, int64_t len);
    /* dst = x .* y, elementwise (any may alias) */
    void (*vec_mul)(slp_backend_t *be, double *dst, const double *x, const double *y, int64_t len);
    /* local sum of x_i * y_i */
    double (*vec_dot)(slp_backend_t *be, const double *x, const double *y, int64_t len);

    /* The backend takes over the arrays of a and of its transpose at (both are left
     * empty) or copies them to its memory; at may be NULL (the backend transposes). */
    slp_err (*block_create)(slp_backend_t *be, slp_csr_t *a, slp_csr_t *at,
                            const slp_block_options_t *opt, slp_block_t **out);
    void (*block_destroy)(slp_backend_t *be, slp_block_t *block);
    void (*block_report)(slp_backend_t *be, const slp_block_t *block, slp_block_report_t *out);
    void (*spmv)(slp_backend_t *be, const slp_block_t *a, const double *x, double *y);   /* y = A x */
    void (*spmv_t)(slp_backend_t *be, const slp_block_t *a, const double *y, double *x); /* x = A^T y */
    /* The iterations' products: the same as spmv/spmv_t, or with FP32 matrix values where
     * the block was made with fp32_iterations (the checks and everything else use the
     * two above). */
    void (*spmv_iterate)(slp_backend_t *be, const slp_block_t *a, const double *x, double *y);
    void (*spmv_t_iterate)(slp_backend_t *be, const slp_block_t *a, const double *y, double *x);

    void (*primal_step)(slp_backend_t *be, const slp_primal_args *args);
    void (*dual_step)(slp_backend_t *be, const slp_dual_args *args);
    void (*ray_project)(slp_backend_t *be, slp_ray_kind kind, const double *src, const double *l,
                        const double *u, double *dst, int64_t len);
    void (*col_check)(slp_backend_t *be, const slp_col_check_args *args, double out[SLP_COL_COUNT]);
    void (*row_check)(slp_backend_t *be, const slp_row_check_args *args, double out[SLP_ROW_COUNT]);

    /* After each window of iterations (and its check), with the seconds it took: a
     * backend may size its work for the next (the CPU's thread governor,
     * backend/cpu/cpu_threads.h). NULL: nothing to do. */
    void (*window_done)(slp_backend_t *be, int64_t iterations, double seconds);

    void (*destroy)(slp_backend_t *be);
};

/* A host array becomes a backend vector: *host (slp_alloc'd, len doubles or more) is
 * taken as it is by a host-memory backend, else uploaded and freed; *host is left NULL
 * either way (freed on failure too). */
slp_err slp_vec_take(slp_backend_t *be, double **host, int64_t len, double **out);
/* A backend vector becomes a host array: *dev is handed over as it is by a host-memory
 * backend, else downloaded into a new array and destroyed; *dev is left NULL. */
slp_err slp_vec_give(slp_backend_t *be, double **dev, int64_t len, double **out);
/* A new host copy of a backend vector, which stays as it is. */
slp_err slp_vec_copy_down(slp_backend_t *be, const double *dev, int64_t len, double **out);

/* The CPU backend (OpenMP threads when built with OpenMP; threads <= 0 keeps the default). */
slp_err slp_backend_cpu_create(int threads, slp_backend_t **out);
/* The guarded backend: the CPU backend's arithmetic on vectors that fault when host
 * code touches them outside an operation (backend/guarded, docs/gpu.md). */
slp_err slp_backend_guarded_create(int threads, slp_backend_t **out);
/* The CUDA backend, or SLP_ERR_UNSUPPORTED when not built / no device. device < 0:
 * the node-local rank's device (modulo the device count). */
slp_err slp_backend_cuda_create(int device, slp_backend_t **out);
/* Device count visible to this process (0 without CUDA or without a device). */
int slp_backend_cuda_device_count(void);

#endif
