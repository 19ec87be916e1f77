/* The per-coordinate math every backend shares (src/backend/kernels.h and
 * src/backend/check_coord.h), which the CUDA kernels compile unchanged.
 *
 *  1. slp_primal_coord, slp_dual_coord, the row terms and the ray projections
 *     against values worked out by hand from docs/algorithm.md section 4 (each case
 *     shows its arithmetic).
 *  2. the parts of a check's partials (POINT, STEP, RAY) on the CPU backend against
 *     values worked out by hand, every slot outside a part 0.
 *  3. slp_backend_cuda_create: without a usable device (or without CUDA) it fails
 *     with SLP_ERR_UNSUPPORTED and a message. With a device, every backend
 *     operation is compared with the CPU backend on a random 57 x 43 block with
 *     empty rows and columns and infinite bounds: element-wise results within
 *     1e-15 relative (the CUDA objects are compiled with --fmad=false, so they
 *     are expected bitwise), products and reductions within 1e-12 (summation
 *     order differs).
 *  4. with a device, the matrix values' forms (core/values.h): blocks of +-1 values, of
 *     5 and of 257 distinct values and of random ones, made with --matrix-values plain,
 *     auto and (plain values) fp32-matrix; the device's products A x and A^T y equal,
 *     bit for bit, the host's rendering of its lanes (src/backend/line_lanes.h) on the
 *     plain values, in every form; the FP32 iterations' products equal the rendering
 *     on the float-rounded values; the log's forms name what each block holds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/check_coord.h"
#include "backend/kernels.h"
#include "check.h"
#include "core/error.h"
#include "core/local_problem.h"
#ifdef SLP_HAVE_CUDA
#include "backend/cuda/backend_cuda.h"
#endif
#include "backend/line_lanes.h"
#include "core/values.h"

static void test_primal_coord(void)
{
    double xbar, next, slack, xhat;
    /* interior: t = 1 - 0.5 (3 - 2) = 0.5 in [0, 10]; xbar = 2(0.5) - 1 = 0;
     * next = 0.75 (0) + 0.25 (0.5) = 0.125; slack = (0.5 - 0.5) / 0.5 = 0 */
    xhat = slp_primal_coord(1.0, 0.5, 2.0, 3.0, 0.0, 10.0, 0.5, 0.75, &xbar, &next, &slack);
    CHECK_CLOSE(xhat, 0.5, 0);
    CHECK_CLOSE(xbar, 0.0, 0);
    CHECK_CLOSE(next, 0.125, 0);
    CHECK_CLOSE(slack, 0.0, 0);
    /* lower bound active: t = 1 - 0.5 (10 - 0) = -4 -> xhat = 0; xbar = -1;
     * next = 0.5 (-1) + 0.5 (2) = 0.5; slack = (0 + 4) / 0.5 = 8
     * (= (c - g) + (xhat - x)/tau = 10 - 2) */
    xhat = slp_primal_coord(1.0, 2.0, 0.0, 10.0, 0.0, 10.0, 0.5, 0.5, &xbar, &next, &slack);
    CHECK_CLOSE(xhat, 0.0, 0);
    CHECK_CLOSE(xbar, -1.0, 0);
    CHECK_CLOSE(next, 0.5, 0);
    CHECK_CLOSE(slack, 8.0, 0);
    /* upper bound active, l = -inf: t = 0 - 1 (-4 - 0) = 4 -> xhat = 1; xbar = 2;
     * w = 1: next = xbar = 2; slack = (1 - 4) / 1 = -3 */
    xhat = slp_primal_coord(0.0, 7.0, 0.0, -4.0, -INFINITY, 1.0, 1.0, 1.0, &xbar, &next, &slack);
    CHECK_CLOSE(xhat, 1.0, 0);
    CHECK_CLOSE(xbar, 2.0, 0);
    CHECK_CLOSE(next, 2.0, 0);
    CHECK_CLOSE(slack, -3.0, 0);
    /* free: t = 2 - 0.25 (1 - 3) = 2.5 = xhat; xbar = 3; next = 0.5 (3) + 0.5 (1) = 2 */
    xhat = slp_primal_coord(2.0, 1.0, 3.0, 1.0, -INFINITY, INFINITY, 0.25, 0.5, &xbar, &next,
                            &slack);
    CHECK_CLOSE(xhat, 2.5, 0);
    CHECK_CLOSE(xbar, 3.0, 0);
    CHECK_CLOSE(next, 2.0, 0);
    CHECK_CLOSE(slack, 0.0, 0);
}

static void test_dual_coord(void)
{
    double next, yhat;
    /* range row [2, 5]: s = 1/0.5 - 3 = -1; p = clamp(-1, -5, -2) = -2;
     * yhat = 0.5 (-1 + 2) = 0.5; next = 0.5 (2 (0.5) - 1) + 0.5 (0) = 0 */
    yhat = slp_dual_coord(1.0, 0.0, 3.0, 2.0, 5.0, 0.5, 0.5, &next);
    CHECK_CLOSE(yhat, 0.5, 0);
    CHECK_CLOSE(next, 0.0, 0);
    /* equality row 4: s = 0/2 - 1 = -1; p = -4; yhat = 2 (-1 + 4) = 6
     * (= y - sigma h - sigma p = 0 - 2 + 8); w = 1: next = 2 (6) - 0 = 12 */
    yhat = slp_dual_coord(0.0, 3.0, 1.0, 4.0, 4.0, 2.0, 1.0, &next);
    CHECK_CLOSE(yhat, 6.0, 0);
    CHECK_CLOSE(next, 12.0, 0);
    /* free row: p = s, yhat = 0; next = 0.5 (0 - 5) + 0.5 (1) = -2 */
    yhat = slp_dual_coord(5.0, 1.0, 2.0, -INFINITY, INFINITY, 1.0, 0.5, &next);
    CHECK_CLOSE(yhat, 0.0, 0);
    CHECK_CLOSE(next, -2.0, 0);
    /* row >= 1, activity -3 below it: s = 0 + 3 = 3; p = min(3, -1) = -1; yhat = 4 */
    yhat = slp_dual_coord(0.0, 0.0, -3.0, 1.0, INFINITY, 1.0, 1.0, &next);
    CHECK_CLOSE(yhat, 4.0, 0);
    /* row >= 1, activity 3 above it: s = -3; p = -3; yhat = 0 */
    yhat = slp_dual_coord(0.0, 0.0, 3.0, 1.0, INFINITY, 1.0, 1.0, &next);
    CHECK_CLOSE(yhat, 0.0, 0);
}

static void test_terms_and_rays(void)
{
    CHECK_CLOSE(slp_dual_row_term(2.0, 1.0, 5.0), 2.0, 0);    /* 2 * l */
    CHECK_CLOSE(slp_dual_row_term(-2.0, 1.0, 5.0), -10.0, 0); /* -2 * u */
    CHECK_CLOSE(slp_dual_row_term(3.0, -INFINITY, 5.0), 0.0, 0);
    CHECK_CLOSE(slp_dual_row_term(-1.0, 1.0, INFINITY), 0.0, 0);
    CHECK_CLOSE(slp_row_violation(7.0, 0.0, 5.0), 2.0, 0);
    CHECK_CLOSE(slp_row_violation(-1.0, 0.0, 5.0), -1.0, 0);
    CHECK_CLOSE(slp_row_violation(3.0, 0.0, 5.0), 0.0, 0);
    CHECK_CLOSE(slp_row_violation(1e300, -INFINITY, INFINITY), 0.0, 0);
    /* primal ray: d >= 0 where l finite, d <= 0 where u finite */
    CHECK_CLOSE(slp_primal_ray_coord(-1.0, 0.0, INFINITY), 0.0, 0);
    CHECK_CLOSE(slp_primal_ray_coord(2.0, 0.0, INFINITY), 2.0, 0);
    CHECK_CLOSE(slp_primal_ray_coord(2.0, -INFINITY, 0.0), 0.0, 0);
    CHECK_CLOSE(slp_primal_ray_coord(-2.0, -INFINITY, 0.0), -2.0, 0);
    CHECK_CLOSE(slp_primal_ray_coord(5.0, 0.0, 1.0), 0.0, 0);
    CHECK_CLOSE(slp_primal_ray_coord(-5.0, -INFINITY, INFINITY), -5.0, 0);
    /* dual ray: d <= 0 where l = -inf, d >= 0 where u = +inf */
    CHECK_CLOSE(slp_dual_ray_coord(3.0, -INFINITY, 5.0), 0.0, 0);
    CHECK_CLOSE(slp_dual_ray_coord(-3.0, -INFINITY, 5.0), -3.0, 0);
    CHECK_CLOSE(slp_dual_ray_coord(-3.0, 1.0, INFINITY), 0.0, 0);
    CHECK_CLOSE(slp_dual_ray_coord(3.0, 1.0, INFINITY), 3.0, 0);
    CHECK_CLOSE(slp_dual_ray_coord(-7.0, 1.0, 2.0), -7.0, 0);
    CHECK_CLOSE(slp_dual_ray_coord(-7.0, -INFINITY, INFINITY), 0.0, 0);
}

/* ---------------------------------------------------------------- random data */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static double uniform(void) /* in [-1, 1) */
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng_state >> 11) / 4503599627370496.0 - 1.0;
}

static void fill_random(double *v, int64_t n, double scale)
{
    for (int64_t i = 0; i < n; i++)
        v[i] = scale * uniform();
}

/* Bounds with every kind: free, lower, upper, range, fixed. */
static void fill_bounds(double *l, double *u, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        double a = uniform(), b = a + 1.0 + uniform();
        switch (i % 5) {
        case 0: l[i] = -INFINITY; u[i] = INFINITY; break;
        case 1: l[i] = a; u[i] = INFINITY; break;
        case 2: l[i] = -INFINITY; u[i] = b; break;
        case 3: l[i] = a; u[i] = b; break;
        default: l[i] = a; u[i] = a; break;
        }
    }
}

/* The parts of a check's partials (backend/backend.h) on the CPU backend against values
 * worked out by hand from their definitions, on two columns and three rows; every slot
 * outside a part must be 0. */
static void expect_slots(const double *got, int count, const double (*want)[2], size_t nwant,
                         const char *what)
{
    for (int e = 0; e < count; e++) {
        double expected = 0.0;
        for (size_t k = 0; k < nwant; k++)
            if ((int)want[k][0] == e)
                expected = want[k][1];
        CHECK(got[e] == expected, "%s slot %d: %.17g, by hand %g", what, e, got[e], expected);
    }
}

static void test_check_partials_by_hand(void)
{
    slp_backend_t *be = NULL;
    if (slp_backend_cpu_create(1, &be) != SLP_OK) {
        CHECK(0, "cpu backend: %s", slp_error_message());
        return;
    }
    const double inf = INFINITY;
    /* columns: xhat, x0, dx, c, slack, dcol, lv, uv; the products A^T yhat = (3, 1) and
     * A^T dy = (2, -1); the ray d_x = (0.5, -2) with A^T d_y = (-1, -3) */
    const double xhat[] = {1, 2}, x0[] = {0, 3}, dx[] = {1, -1}, aty[] = {3, 1}, q[] = {2, -1};
    const double c[] = {4, 0}, slack[] = {0.5, -1}, dcol[] = {2, 1}, lv[] = {0, -inf};
    const double uv[] = {inf, 5}, ray_x[] = {0.5, -2}, aty_ray[] = {-1, -3};
    double col[SLP_COL_COUNT];
    slp_col_check_args point = {2, SLP_CHECK_POINT, aty, xhat, x0, dx, c, slack, dcol, lv, uv, NULL};
    be->col_check(be, &point, col);
    /* rd = (c - aty - slack) dcol = ((4 - 3 - 0.5) 2, (0 - 1 + 1) 1) = (1, 0); c.xhat = 4;
     * slack.xhat = 0.5 - 2; slack objective: 0.5 * lv0 (0) + (-1) * uv1 (5) = -5;
     * ||xhat - x0||^2 = 1 + 1. */
    const double want_point[][2] = {{SLP_COL_RD2, 1},       {SLP_COL_RDMAX, 1},
                                    {SLP_COL_CX, 4},        {SLP_COL_SLACKX, -1.5},
                                    {SLP_COL_SLACKOBJ, -5}, {SLP_COL_DIST2, 2}};
    expect_slots(col, SLP_COL_COUNT, want_point, 6, "column POINT");
    slp_col_check_args step = {2, SLP_CHECK_STEP, q, xhat, x0, dx, c, slack, dcol, lv, uv, NULL};
    be->col_check(be, &step, col);
    /* ||dx||^2 = 1 + 1; dx . q = 2 + 1 */
    const double want_step[][2] = {{SLP_COL_DX2, 2}, {SLP_COL_DXQ, 3}};
    expect_slots(col, SLP_COL_COUNT, want_step, 2, "column STEP");
    slp_col_check_args ray = {2, SLP_CHECK_RAY, aty_ray, xhat, x0, dx, c, slack, dcol, lv, uv,
                              ray_x};
    be->col_check(be, &ray, col);
    /* max |d| = 2; c.d = 2 (|terms| 2); q = -A^T d_y = (1, 3): objective terms
     * max(q,0) l + min(q,0) u over finite parts = (1 * 0, 3 * 0) = 0; violation of column 1
     * (l = -inf, q = 3 > 0) 3 * dcol 1 = 3, column 0 none. */
    const double want_ray[][2] = {{SLP_COL_RAY_DMAX, 2}, {SLP_COL_RAY_CD, 2},
                                  {SLP_COL_RAY_CDABS, 2}, {SLP_COL_RAY_QVIOL, 3}};
    expect_slots(col, SLP_COL_COUNT, want_ray, 4, "column RAY");
    /* rows: yhat, y0, dy, A xhat, l, u, drow; the ray d_y = (1, -0.5, 2), A d_x = (-1, 2, 0.5) */
    const double yhat[] = {2, -1, 0.5}, y0[] = {1, 1, 0}, dy[] = {0.5, -2, 1}, ax[] = {5, -3, 1};
    const double l[] = {0, -inf, -1}, u[] = {4, 2, inf}, drow[] = {1, 2, 0.5};
    const double ray_y[] = {1, -0.5, 2}, ax_ray[] = {-1, 2, 0.5};
    double row[SLP_ROW_COUNT];
    slp_row_check_args rpoint = {3, SLP_CHECK_POINT, ax, yhat, y0, dy, l, u, drow, NULL};
    be->row_check(be, &rpoint, row);
    /* rp = (ax - clamp(ax, l, u)) drow = (1, 0, 0); dual objective 2 * 0 + (-1) * 2 +
     * 0.5 * (-1) = -2.5; ||yhat - y0||^2 = 1 + 4 + 0.25. */
    const double want_rpoint[][2] = {{SLP_ROW_RP2, 1}, {SLP_ROW_RPMAX, 1},
                                     {SLP_ROW_DUALOBJ, -2.5}, {SLP_ROW_DIST2, 5.25}};
    expect_slots(row, SLP_ROW_COUNT, want_rpoint, 4, "row POINT");
    slp_row_check_args rstep = {3, SLP_CHECK_STEP, ax, yhat, y0, dy, l, u, drow, NULL};
    be->row_check(be, &rstep, row);
    const double want_rstep[][2] = {{SLP_ROW_DY2, 5.25}}; /* ||dy||^2 = 0.25 + 4 + 1 */
    expect_slots(row, SLP_ROW_COUNT, want_rstep, 1, "row STEP");
    slp_row_check_args rray = {3, SLP_CHECK_RAY, ax_ray, yhat, y0, dy, l, u, drow, ray_y};
    be->row_check(be, &rray, row);
    /* max |d| = 2; objective terms 1 * 0 + (-0.5) * 2 + 2 * (-1) = -3 (|terms| 3);
     * violations: row 0 (l finite, A d = -1) 1 * 1, row 1 (u finite, A d = 2) 2 * 2 = 4,
     * row 2 none: max 4. */
    const double want_rray[][2] = {{SLP_ROW_RAY_DMAX, 2}, {SLP_ROW_RAY_OBJ, -3},
                                   {SLP_ROW_RAY_ABS, 3}, {SLP_ROW_RAY_VIOL, 4}};
    expect_slots(row, SLP_ROW_COUNT, want_rray, 4, "row RAY");
    be->destroy(be);
}

/* ---------------------------------------------------------------- CUDA vs CPU */

enum { M = 57, N = 43 };

/* A random block with empty rows (i % 7 == 3) and empty columns (j % 11 == 5). */
static slp_err random_block(slp_csr_t *a)
{
    SLP_CALL(slp_csr_create(M, N, (int64_t)M * N, a));
    int64_t pos = 0;
    for (int i = 0; i < M; i++) {
        a->row_ptr[i] = pos;
        for (int j = 0; j < N; j++)
            if (i % 7 != 3 && j % 11 != 5 && uniform() < -0.6) {
                a->col_idx[pos] = j;
                a->val[pos++] = uniform() * 3.0;
            }
    }
    a->row_ptr[M] = pos;
    a->nnz = pos;
    return SLP_OK;
}

typedef struct {
    slp_backend_t *be;
    slp_block_t *a;
    double *v[24]; /* 0..11 length N, 12..23 length M */
} side_t;

static slp_err side_setup(side_t *s, slp_backend_t *be, const slp_csr_t *a0, double **host)
{
    s->be = be;
    slp_csr_t a;
    SLP_CALL(slp_csr_create(a0->rows, a0->cols, a0->nnz, &a));
    memcpy(a.row_ptr, a0->row_ptr, (size_t)(a0->rows + 1) * sizeof(int64_t));
    memcpy(a.col_idx, a0->col_idx, (size_t)a0->nnz * sizeof(int32_t));
    memcpy(a.val, a0->val, (size_t)a0->nnz * sizeof(double));
    slp_err rc = be->block_create(be, &a, NULL, &(slp_block_options_t){SLP_COPIES_TWO, SLP_BLOCK_VALUES_AUTO, 0}, &s->a);
    slp_csr_free(&a);
    SLP_CALL(rc);
    for (int k = 0; k < 24; k++) {
        int64_t len = k < 12 ? N : M;
        SLP_CALL(be->vec_create(be, len, &s->v[k]));
        SLP_CALL(be->vec_upload(be, s->v[k], host[k], len));
    }
    return SLP_OK;
}

static void side_free(side_t *s)
{
    for (int k = 0; k < 24; k++)
        if (s->v[k])
            s->be->vec_destroy(s->be, s->v[k]);
    if (s->a)
        s->be->block_destroy(s->be, s->a);
}

/* Compare vector k of both sides, relative tolerance tol. */
static void same_vector(side_t *cpu, side_t *gpu, int k, double tol, const char *what)
{
    int64_t len = k < 12 ? N : M;
    double a[M > N ? M : N], b[M > N ? M : N];
    cpu->be->vec_download(cpu->be, a, cpu->v[k], len);
    if (gpu->be->vec_download(gpu->be, b, gpu->v[k], len) != SLP_OK) {
        CHECK(0, "%s: download failed: %s", what, slp_error_message());
        return;
    }
    int bad = 0;
    for (int64_t i = 0; i < len && bad < 3; i++)
        if (!(fabs(a[i] - b[i]) <= tol * fmax(1.0, fabs(a[i])) || (isnan(a[i]) && isnan(b[i])))) {
            CHECK(0, "%s: vector %d [%lld]: cpu %.17g cuda %.17g", what, k, (long long)i, a[i], b[i]);
            bad++;
        }
    if (!bad)
        check_passed++;
}

static void same_scalars(const double *a, const double *b, int count, double tol, const char *what)
{
    for (int e = 0; e < count; e++)
        CHECK(fabs(a[e] - b[e]) <= tol * fmax(1.0, fabs(a[e])), "%s slot %d: cpu %.17g cuda %.17g",
              what, e, a[e], b[e]);
}

/* The same sequence of operations on both sides. Layout: n-space 0 x, 1 x0, 2 g,
 * 3 c, 4 lv, 5 uv, 6 xbar, 7 xhat, 8 slack, 9 dx, 10 ray, 11 dcol; m-space 12 y,
 * 13 y0, 14 h, 15 lc, 16 uc, 17 yhat, 18 dy, 19 ray, 20 ax, 21 drow, 22 aty-ish, 23 spare. */
static void run_ops(side_t *s, int major, double col[SLP_COL_COUNT], double row[SLP_ROW_COUNT],
                    double *dot)
{
    slp_backend_t *be = s->be;
    double **v = s->v;
    be->spmv_t(be, s->a, v[12], v[2]);
    slp_primal_args pa = {N, 0.3, 0.75, major, v[2], v[3], v[4], v[5], v[1],
                          v[0], v[6], v[7], v[8], v[9]};
    be->primal_step(be, &pa);
    be->spmv(be, s->a, v[6], v[14]);
    slp_dual_args da = {M, 0.7, 0.75, major, v[14], v[15], v[16], v[13], v[12], v[17], v[18]};
    be->dual_step(be, &da);
    be->ray_project(be, SLP_RAY_PRIMAL, v[9], v[4], v[5], v[10], N);
    be->ray_project(be, SLP_RAY_DUAL, v[18], v[15], v[16], v[19], M);
    be->spmv(be, s->a, v[10], v[20]);
    be->spmv_t(be, s->a, v[19], v[2]); /* reuse g as A^T of the ray */
    memset(col, 0, SLP_COL_COUNT * sizeof *col);
    memset(row, 0, SLP_ROW_COUNT * sizeof *row);
    for (int part = SLP_CHECK_POINT; part <= SLP_CHECK_RAY; part++) {
        double c[SLP_COL_COUNT], r[SLP_ROW_COUNT];
        slp_col_check_args ca = {N, (slp_check_part)part, v[2], v[7], v[1], v[9], v[3], v[8],
                                 v[11], v[4], v[5], v[10]};
        slp_row_check_args ra = {M, (slp_check_part)part, v[20], v[17], v[13], v[18], v[15],
                                 v[16], v[21], v[19]};
        be->col_check(be, &ca, c);
        be->row_check(be, &ra, r);
        for (int e = 0; e < SLP_COL_COUNT; e++)
            col[e] += c[e];
        for (int e = 0; e < SLP_ROW_COUNT; e++)
            row[e] += r[e];
    }
    *dot = be->vec_dot(be, v[0], v[6], N);
}

static void test_cuda_vs_cpu(void)
{
#ifdef SLP_HAVE_CUDA
    /* cuSPARSE is opened at run time: the library and every function the backend calls
     * must be found, device or not */
    CHECK(slp_backend_cuda_load_libraries() == SLP_OK, "cuSPARSE at run time: %s",
          slp_error_message());
#endif
    slp_backend_t *gpu_be = NULL;
    slp_err rc = slp_backend_cuda_create(-1, &gpu_be);
    if (rc != SLP_OK) {
        CHECK(rc == SLP_ERR_UNSUPPORTED, "cuda create without a device: %s, expected unsupported",
              slp_err_name(rc));
        CHECK(strlen(slp_error_message()) > 0, "cuda create failed without a message");
        CHECK(gpu_be == NULL, "cuda create failed but returned a backend");
        printf("CUDA backend not available here (%s): GPU comparison skipped\n",
               slp_error_message());
        slp_error_clear();
        return;
    }
    printf("CUDA backend available: comparing every operation with the CPU backend\n");
    slp_backend_t *cpu_be = NULL;
    if (slp_backend_cpu_create(1, &cpu_be) != SLP_OK) {
        CHECK(0, "cpu backend");
        gpu_be->destroy(gpu_be);
        return;
    }
    slp_csr_t a0;
    double *host[24];
    if (random_block(&a0) != SLP_OK) {
        CHECK(0, "random block");
        return;
    }
    for (int k = 0; k < 24; k++) {
        int64_t len = k < 12 ? N : M;
        host[k] = malloc((size_t)len * sizeof(double));
        fill_random(host[k], len, 2.0);
    }
    fill_bounds(host[4], host[5], N);
    fill_bounds(host[15], host[16], M);
    for (int j = 0; j < N; j++)
        host[11][j] = 0.5 + fabs(host[11][j]);
    for (int i = 0; i < M; i++)
        host[21][i] = 0.5 + fabs(host[21][i]);
    side_t cpu, gpu;
    memset(&cpu, 0, sizeof cpu);
    memset(&gpu, 0, sizeof gpu);
    slp_err rc_c = side_setup(&cpu, cpu_be, &a0, host);
    slp_err rc_g = side_setup(&gpu, gpu_be, &a0, host);
    CHECK(rc_c == SLP_OK && rc_g == SLP_OK, "setup: %s", slp_error_message());
    if (rc_c == SLP_OK && rc_g == SLP_OK) {
        for (int major = 1; major >= 0; major--) {
            double cc[SLP_COL_COUNT], cr[SLP_ROW_COUNT], gc[SLP_COL_COUNT], gr[SLP_ROW_COUNT];
            double cd, gd;
            run_ops(&cpu, major, cc, cr, &cd);
            run_ops(&gpu, major, gc, gr, &gd);
            for (int k = 0; k < 24; k++)
                same_vector(&cpu, &gpu, k, 1e-12,
                            major ? "major step" : "minor step");
            same_scalars(cc, gc, SLP_COL_COUNT, 1e-12, "col_check");
            same_scalars(cr, gr, SLP_ROW_COUNT, 1e-12, "row_check");
            same_scalars(&cd, &gd, 1, 1e-12, "vec_dot");
        }
        /* plain vector operations, on freshly uploaded (identical) inputs */
        for (int k = 0; k < 2; k++) {
            side_t *s = k ? &gpu : &cpu;
            for (int v = 12; v <= 14; v++)
                s->be->vec_upload(s->be, s->v[v], host[v], M);
            s->be->vec_axpby(s->be, s->v[23], 0.25, s->v[12], -3.0, s->v[13], M);
            s->be->vec_copy(s->be, s->v[22], s->v[23], M);
            s->be->vec_axpby(s->be, s->v[22], 2.0, s->v[22], 1.0, s->v[14], M); /* aliasing */
            s->be->vec_fill(s->be, s->v[11], -1.5, N);
        }
        same_vector(&cpu, &gpu, 23, 1e-15, "axpby");
        same_vector(&cpu, &gpu, 22, 1e-15, "copy + aliased axpby");
        same_vector(&cpu, &gpu, 11, 0, "fill");
#ifdef SLP_HAVE_CUDA
        CHECK(slp_backend_cuda_sync(gpu_be) == SLP_OK, "cuda status: %s", slp_error_message());
#endif
    }
    side_free(&cpu);
    side_free(&gpu);
    for (int k = 0; k < 24; k++)
        free(host[k]);
    slp_csr_free(&a0);
    cpu_be->destroy(cpu_be);
    gpu_be->destroy(gpu_be);
}

/* y = lines of h . x as the device's lanes sum them (plain values; `f32`: rounded to float). */
static void lanes_product(const slp_csr_t *h, const double *x, int f32, double *y)
{
    int width = slp_lanes_for(h->nnz, h->rows);
    double *v = malloc(sizeof *v * (size_t)(h->nnz + 1));
    for (int64_t k = 0; k < h->nnz; k++)
        v[k] = f32 ? (double)(float)h->val[k] : h->val[k];
    slp_line_entries_t e = {SLP_VALUES_PLAIN, h->col_idx, v, NULL, NULL, NULL, NULL};
    for (int64_t i = 0; i < h->rows; i++)
        y[i] = slp_line_dot_lanes(&e, h->row_ptr[i], h->row_ptr[i + 1], width, x);
    free(v);
}

/* The device's product (iterate: the iterations' product) against the host's lanes, bits. */
static void device_product_is(slp_backend_t *be, slp_block_t *blk, int transposed, int iterate,
                              const slp_csr_t *h, const double *x, int f32, const char *what)
{
    double *dx = NULL, *dy = NULL, want[M > N ? M : N], got[M > N ? M : N];
    int64_t in = h->cols, out = h->rows;
    if (be->vec_create(be, in, &dx) != SLP_OK || be->vec_create(be, out, &dy) != SLP_OK ||
        be->vec_upload(be, dx, x, in) != SLP_OK) {
        CHECK(0, "%s: device vectors: %s", what, slp_error_message());
    } else {
        if (transposed)
            (iterate ? be->spmv_t_iterate : be->spmv_t)(be, blk, dx, dy);
        else
            (iterate ? be->spmv_iterate : be->spmv)(be, blk, dx, dy);
        lanes_product(h, x, f32, want);
        CHECK(be->vec_download(be, got, dy, out) == SLP_OK &&
                  memcmp(got, want, sizeof(double) * (size_t)out) == 0,
              "%s: the device's product is not the lanes' sums bit for bit", what);
    }
    if (dx)
        be->vec_destroy(be, dx);
    if (dy)
        be->vec_destroy(be, dy);
}

static void test_cuda_forms(void)
{
    slp_backend_t *be = NULL;
    if (slp_backend_cuda_create(-1, &be) != SLP_OK) {
        slp_error_clear();
        return; /* test_cuda_vs_cpu reported it */
    }
    const char *kinds[] = {"signed-unit", "table8", "table16", "plain"};
    double xn[N], ym[M];
    fill_random(xn, N, 2.0);
    fill_random(ym, M, 2.0);
    for (int kind = 0; kind < 4; kind++) {
        slp_csr_t a, at;
        if (random_block(&a) != SLP_OK)
            break;
        for (int64_t k = 0; k < a.nnz; k++) /* +-1; 5 values; 300 values; as drawn */
            a.val[k] = kind == 0 ? (a.val[k] < 0 ? -1.0 : 1.0)
                     : kind == 1 ? (double)(k % 5) - 2.5
                     : kind == 2 ? ((double)(k % 257) + 0.5) / 7.0
                                 : a.val[k];
        if (slp_csr_transpose(&a, &at) != SLP_OK)
            break;
        slp_values_survey_t survey; /* the form auto must take */
        slp_values_survey(a.val, a.nnz, &survey);
        CHECK(survey.form == (kind == 0   ? SLP_VALUES_SIGNED
                              : kind == 1 ? SLP_VALUES_TABLE8
                              : kind == 2 ? SLP_VALUES_TABLE16
                                          : SLP_VALUES_PLAIN),
              "block %d of %lld entries: the survey says %s", kind, (long long)a.nnz,
              slp_values_form_name(survey.form));
        for (int mode = 0; mode < 3; mode++) { /* plain, auto, plain + fp32 */
            slp_csr_t c;
            slp_block_t *blk = NULL;
            slp_csr_create(a.rows, a.cols, a.nnz, &c);
            memcpy(c.row_ptr, a.row_ptr, sizeof(int64_t) * (size_t)(a.rows + 1));
            memcpy(c.col_idx, a.col_idx, sizeof(int32_t) * (size_t)a.nnz);
            memcpy(c.val, a.val, sizeof(double) * (size_t)a.nnz);
            slp_block_options_t opt = {SLP_COPIES_TWO,
                                       mode == 1 ? SLP_BLOCK_VALUES_AUTO : SLP_BLOCK_VALUES_PLAIN,
                                       mode == 2};
            char what[96];
            snprintf(what, sizeof what, "%s values, %s", kinds[kind],
                     mode == 0 ? "plain" : mode == 1 ? "auto" : "fp32-matrix");
            if (be->block_create(be, &c, NULL, &opt, &blk) != SLP_OK) {
                CHECK(0, "%s: block: %s", what, slp_error_message());
                slp_csr_free(&c);
                continue;
            }
            slp_block_report_t rep;
            be->block_report(be, blk, &rep);
            const char *want = mode == 1 ? kinds[kind] : mode == 2 ? "plain + fp32" : "plain";
            CHECK(strstr(rep.forms, want) != NULL, "%s: forms '%s', want %s", what, rep.forms, want);
            device_product_is(be, blk, 0, 0, &a, xn, 0, what);
            device_product_is(be, blk, 1, 0, &at, ym, 0, what);
            device_product_is(be, blk, 0, 1, &a, xn, mode == 2, what);
            device_product_is(be, blk, 1, 1, &at, ym, mode == 2, what);
            be->block_destroy(be, blk);
            slp_csr_free(&c);
        }
        slp_csr_free(&a);
        slp_csr_free(&at);
    }
#ifdef SLP_HAVE_CUDA
    CHECK(slp_backend_cuda_sync(be) == SLP_OK, "cuda status: %s", slp_error_message());
#endif
    be->destroy(be);
}

#ifdef SLP_HAVE_CUDA
static void test_pick_device(void)
{
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", "5", 1);
    CHECK(slp_cuda_pick_device(4) == 1, "local rank 5 of 4 devices -> %d, expected 1",
          slp_cuda_pick_device(4));
    CHECK(slp_cuda_pick_device(8) == 5, "local rank 5 of 8 devices -> %d, expected 5",
          slp_cuda_pick_device(8));
    unsetenv("OMPI_COMM_WORLD_LOCAL_RANK");
}
#endif

int main(void)
{
    test_primal_coord();
    test_dual_coord();
    test_terms_and_rays();
    test_check_partials_by_hand();
#ifdef SLP_HAVE_CUDA
    test_pick_device();
#endif
    test_cuda_vs_cpu();
    test_cuda_forms();
    return check_summary();
}
