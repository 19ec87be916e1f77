/* Preconditioning and the step size against values worked out by hand
 * (docs/algorithm.md sections 2 and 3): Ruiz equilibration, Pock-Chambolle with
 * alpha = 1, geometric-mean passes, Curtis-Reid sweeps, bound/objective rescaling, and
 * the Lanczos estimate
 * of sigma_max (also of a masked submatrix, as the step-size boost uses it). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef SLP_HAVE_OPENMP
#include <omp.h>
#endif

#include "backend/backend.h"
#include "check.h"
#include "dense_model.h"
#include "grid/distribute.h"
#include "grid/grid.h"
#include "plan/comm_plan.h"
#include "plan/exchange.h"
#include "solver/sigma_max.h"
#include "solver/scaling.h"

/* The 1x1-grid local problem of a dense model. */
static void local_of(const slp_model_t *model, slp_local_problem_t *lp)
{
    int64_t row_off[2] = {0, model->m}, col_off[2] = {0, model->n};
    CHECK(slp_extract_block(model, 1, 1, row_off, col_off, 0, 0, lp) == SLP_OK, "extract: %s",
          slp_error_message());
}

/* Whether scale_local asks for the transpose (the passes then stream the copy with
 * more lines) or not (they stream A_rc, --block-copies rows). */
static int with_transpose = 0;

/* The 1x1-grid local problem of `model`, scaled with `set` cut into `parts`; with the
 * transpose, it must hold the scaled A_rc's values bit for bit. */
static void scale_local(const slp_model_t *model, const slp_settings_t *set, int parts,
                        slp_local_problem_t *lp, slp_scaling_t *sc)
{
    local_of(model, lp);
    slp_grid_t *grid = NULL;
    slp_grid_create(1, 1, &grid);
    *sc = (slp_scaling_t){0};
    slp_csr_t at = {0};
    CHECK(slp_scale(grid, lp, set, parts, with_transpose ? &at : NULL, sc) == SLP_OK,
          "scale: %s", slp_error_message());
    if (with_transpose) {
        slp_csr_t expect;
        CHECK(slp_csr_transpose(&lp->A, &expect) == SLP_OK, "transpose");
        CHECK(at.nnz == expect.nnz && !memcmp(at.val, expect.val, sizeof(double) * at.nnz) &&
                  !memcmp(at.col_idx, expect.col_idx, sizeof(int32_t) * at.nnz),
              "the scaled transpose is not the transpose of the scaled A_rc");
        slp_csr_free(&expect);
    }
    slp_csr_free(&at);
    slp_grid_destroy(&grid);
}

/* Scale a 2x2 dense LP on a 1x1 grid (Ruiz and geometric-mean passes as given, no
 * Curtis-Reid; Pock-Chambolle off when geo_iters > 0, so that the geometric factors show
 * alone). */
static void scale_2x2_geo(const double *a, const double *c, const double *uc, int ruiz_iters,
                          int geo_iters, slp_local_problem_t *lp, slp_scaling_t *sc)
{
    double lv[] = {0, 0}, uv[] = {INFINITY, INFINITY}, lc[] = {-INFINITY, -INFINITY};
    slp_model_t *model = dense_model(2, 2, a, c, lv, uv, lc, uc, 1);
    slp_settings_t set;
    slp_settings_default(&set);
    set.curtis_reid_iters = 0;
    set.ruiz_iters = ruiz_iters;
    set.geo_iters = geo_iters;
    if (geo_iters > 0)
        set.pock_chambolle = 0;
    scale_local(model, &set, 1, lp, sc);
    slp_model_destroy(&model);
}

static void scale_2x2(const double *a, const double *c, const double *uc, int ruiz_iters,
                      slp_local_problem_t *lp, slp_scaling_t *sc)
{
    scale_2x2_geo(a, c, uc, ruiz_iters, 0, lp, sc);
}

/* One geometric-mean pass on [[1, 4], [0, 16]]: rows first, r = (sqrt(1 * 4),
 * sqrt(16 * 16)) = (2, 16), giving [[1/2, 2], [0, 1]]; then the columns of that,
 * s = (sqrt(1/2 * 1/2), sqrt(2 * 1)) = (1/2, sqrt 2): A~ = [[1, sqrt 2], [0, 1/sqrt 2]]. */
static void test_geometric_mean(void)
{
    double a[] = {1, 4, 0, 16}, c[] = {1, 1}, uc[] = {1, 1};
    slp_local_problem_t lp;
    slp_scaling_t sc;
    scale_2x2_geo(a, c, uc, 0, 1, &lp, &sc);
    CHECK_CLOSE(sc.drow[0], 2.0, 1e-15);
    CHECK_CLOSE(sc.drow[1], 16.0, 1e-15);
    CHECK_CLOSE(sc.dcol[0], 0.5, 1e-15);
    CHECK_CLOSE(sc.dcol[1], sqrt(2.0), 1e-15);
    CHECK_CLOSE(lp.A.val[0], 1.0, 1e-15);
    CHECK_CLOSE(lp.A.val[1], sqrt(2.0), 1e-15);
    CHECK_CLOSE(lp.A.val[2], 1.0 / sqrt(2.0), 1e-15);
    slp_scaling_free(&sc);
    slp_local_problem_free(&lp);
}

/* diag(16, 1/4): the first Ruiz pass takes r = s = (4, 1/2) and leaves the identity,
 * which later passes and Pock-Chambolle (sqrt of row/column sums = 1) keep. Then
 * ||b~|| over the scaled row bounds uc / r = (8 / 4, 1 / 0.5) = (2, 2) is sqrt(8), so
 * theta_b = 1 / (1 + sqrt 8); c~ = c / s = (12 / 4, 1 / 0.5) = (3, 2), theta_c =
 * 1 / (1 + sqrt 13). */
static void test_ruiz_diagonal(void)
{
    double a[] = {16, 0, 0, 0.25}, c[] = {12, 1}, uc[] = {8, 1};
    slp_local_problem_t lp;
    slp_scaling_t sc;
    scale_2x2(a, c, uc, 10, &lp, &sc);
    CHECK_CLOSE(sc.drow[0], 4.0, 1e-15);
    CHECK_CLOSE(sc.drow[1], 0.5, 1e-15);
    CHECK_CLOSE(sc.dcol[0], 4.0, 1e-15);
    CHECK_CLOSE(sc.dcol[1], 0.5, 1e-15);
    CHECK_CLOSE(lp.A.val[0], 1.0, 1e-15);
    CHECK_CLOSE(lp.A.val[1], 1.0, 1e-15);
    CHECK_CLOSE(sc.theta_b, 1.0 / (1.0 + sqrt(8.0)), 1e-15);
    CHECK_CLOSE(sc.theta_c, 1.0 / (1.0 + sqrt(13.0)), 1e-15);
    /* scaled data: uc~ = theta_b uc / r, c~ = theta_c c / s */
    CHECK_CLOSE(lp.uc[0], sc.theta_b * 2.0, 1e-15);
    CHECK_CLOSE(lp.obj[1], sc.theta_c * 2.0, 1e-15);
    slp_scaling_free(&sc);
    slp_local_problem_free(&lp);
}

/* Pock-Chambolle alone (no Ruiz) on [[1, 1], [0, 4]]: both vectors from the same
 * matrix, r_i = sqrt(sum_j |a_ij|) = (sqrt 2, 2), s_j = sqrt(sum_i |a_ij|) = (1, sqrt 5). */
static void test_pock_chambolle(void)
{
    double a[] = {1, 1, 0, 4}, c[] = {1, 1}, uc[] = {1, 1};
    slp_local_problem_t lp;
    slp_scaling_t sc;
    scale_2x2(a, c, uc, 0, &lp, &sc);
    CHECK_CLOSE(sc.drow[0], sqrt(2.0), 1e-15);
    CHECK_CLOSE(sc.drow[1], 2.0, 1e-15);
    CHECK_CLOSE(sc.dcol[0], 1.0, 1e-15);
    CHECK_CLOSE(sc.dcol[1], sqrt(5.0), 1e-15);
    /* a~_01 = 1 / (sqrt 2 sqrt 5) */
    CHECK_CLOSE(lp.A.val[1], 1.0 / sqrt(10.0), 1e-15);
    slp_scaling_free(&sc);
    slp_local_problem_free(&lp);
}

/* sigma_max of A by the solver's estimate against the exact value: within 1e-4 relative
 * (the estimate stops at a Ritz residual of 1e-4 min(1, lambda)) and never above it (a
 * Ritz value is a lower bound). Run on the CPU backend and on the guarded one (vectors
 * host code cannot touch, sums staged through the exchange). */
static void check_sigma_max_masked(int guarded, int k, const double *a, const double *row_mask,
                                   const double *col_mask, double exact, int max_steps)
{
    double *c = calloc((size_t)k, sizeof(double)), *lv = calloc((size_t)k, sizeof(double));
    double *uv = malloc((size_t)k * sizeof(double)), *lc = malloc((size_t)k * sizeof(double));
    double *uc = malloc((size_t)k * sizeof(double));
    for (int i = 0; i < k; i++)
        uv[i] = uc[i] = 1.0, lc[i] = -INFINITY;
    slp_model_t *model = dense_model(k, k, a, c, lv, uv, lc, uc, 1);
    free(c), free(lv), free(uv), free(lc), free(uc);
    slp_local_problem_t lp;
    local_of(model, &lp);
    slp_grid_t *grid = NULL;
    slp_grid_create(1, 1, &grid);
    slp_backend_t *be = NULL;
    CHECK((guarded ? slp_backend_guarded_create(1, &be) : slp_backend_cpu_create(1, &be)) ==
              SLP_OK,
          "backend");
    slp_comm_plan_t *plan = NULL;
    slp_exchange_t *ex = NULL;
    CHECK(slp_plan_create(grid, &lp, "dense", &plan) == SLP_OK, "plan");
    CHECK(slp_exchange_create(grid, be, plan, SLP_COMM_LIB_AUTO, k, k, &ex) == SLP_OK,
          "exchange");
    CHECK(!strcmp(slp_exchange_kind(ex), guarded ? "staged" : "host"), "exchange kind %s",
          slp_exchange_kind(ex));
    slp_block_t *blk = NULL;
    double *wm = NULL, *wm2 = NULL, *wn = NULL;
    CHECK(be->block_create(be, &lp.A, NULL, &(slp_block_options_t){SLP_COPIES_AUTO, SLP_BLOCK_VALUES_AUTO, 0}, &blk) == SLP_OK, "block");
    be->vec_create(be, k, &wm);
    be->vec_create(be, k, &wm2);
    be->vec_create(be, k, &wn);
    double *mrows = NULL, *mcols = NULL;
    slp_sigma_mask_t mask = {NULL, NULL};
    if (row_mask) {
        be->vec_create(be, k, &mrows);
        be->vec_create(be, k, &mcols);
        be->vec_upload(be, mrows, row_mask, k);
        be->vec_upload(be, mcols, col_mask, k);
        mask.rows = mrows, mask.cols = mcols;
    }
    double sigma = 0.0;
    int iters = 0;
    CHECK(slp_sigma_max_estimate(grid, be, ex, blk, row_mask ? &mask : NULL, k, k, 0, wm, wm2, wn,
                                 INFINITY, &sigma, &iters) == SLP_OK,
          "sigma_max estimate: %s", slp_error_message());
    CHECK(fabs(sigma - exact) <= 1e-4 * exact && sigma <= exact * (1 + 1e-12),
          "order %d: sigma_max %.10g, exact %.10g", k, sigma, exact);
    CHECK(iters >= 1 && iters <= max_steps, "order %d: %d Lanczos steps", k, iters);
    if (row_mask) {
        be->vec_destroy(be, mrows);
        be->vec_destroy(be, mcols);
    }
    be->vec_destroy(be, wm);
    be->vec_destroy(be, wm2);
    be->vec_destroy(be, wn);
    be->block_destroy(be, blk);
    slp_exchange_destroy(&ex);
    slp_plan_destroy(&plan);
    be->destroy(be);
    slp_local_problem_free(&lp);
    slp_grid_destroy(&grid);
    slp_model_destroy(&model);
}

static void check_sigma_max(int guarded, int k, const double *a, double exact, int max_steps)
{
    check_sigma_max_masked(guarded, k, a, NULL, NULL, exact, max_steps);
}

/* [[3, 0], [4, 5]]: A A^T = [[9, 12], [12, 41]], eigenvalues 45 and 5. The second
 * difference matrix tridiag(-1, 2, -1) of order 300: sigma_max = 2 + 2 cos(pi / 301), at
 * the top of a spectrum whose largest eigenvalues are only 1e-4 apart (a power iteration
 * needs thousands of steps there). */
static void test_sigma_max(int guarded)
{
    double a2[] = {3, 0, 4, 5};
    check_sigma_max(guarded, 2, a2, sqrt(45.0), 2);
    /* masked: row 1 out leaves [[3, 0]] (sigma 3); column 0 out leaves [[0], [5]] (5) */
    double keep[] = {1, 1}, first[] = {1, 0}, second[] = {0, 1};
    check_sigma_max_masked(guarded, 2, a2, first, keep, 3.0, 2);
    check_sigma_max_masked(guarded, 2, a2, keep, second, 5.0, 2);
    int k = 300;
    double *t = calloc((size_t)(k * k), sizeof(double));
    for (int i = 0; i < k; i++) {
        t[i * k + i] = 2.0;
        if (i + 1 < k)
            t[i * k + i + 1] = t[(i + 1) * k + i] = -1.0;
    }
    check_sigma_max(guarded, k, t, 2.0 + 2.0 * cos(3.14159265358979323846 / (k + 1)), 300);
    free(t);
}

/* Factors of a 200 x 1500 random LP (30,000 entries: the sweeps run in parts) cut into
 * `parts` and run on `threads` threads (docs/threads.md: results depend on the parts,
 * not on the threads that run them). */
static void random_factors(int parts, int threads, double *drow, double *dcol)
{
    enum { M = 200, N = 1500 };
    double *a = calloc((size_t)M * N, sizeof(double)), c[N], lv[N], uv[N], lc[M], uc[M];
    unsigned seed = 12345;
    for (int k = 0; k < M * N; k++) {
        seed = seed * 1103515245u + 12345u;
        if ((seed >> 16) % 10 == 0) /* a tenth of the entries, magnitudes 1e-3..1e3 */
            a[k] = ((seed >> 8) & 1 ? 1 : -1) * pow(10.0, (double)((seed >> 4) % 7) - 3.0);
    }
    for (int j = 0; j < N; j++) {
        c[j] = 1.0 + j % 7;
        lv[j] = 0.0;
        uv[j] = 10.0;
    }
    for (int i = 0; i < M; i++) {
        lc[i] = -INFINITY;
        uc[i] = 1.0 + i % 5;
    }
    slp_model_t *model = dense_model(M, N, a, c, lv, uv, lc, uc, 1);
    slp_settings_t set;
    slp_settings_default(&set);
    set.geo_iters = 2;
    set.pock_chambolle = 1; /* the sums: the pass whose result depends on the order */
#ifdef SLP_HAVE_OPENMP
    omp_set_num_threads(threads);
#else
    (void)threads;
#endif
    slp_local_problem_t lp;
    slp_scaling_t sc;
    scale_local(model, &set, parts, &lp, &sc);
    memcpy(drow, sc.drow, sizeof(double) * M);
    memcpy(dcol, sc.dcol, sizeof(double) * N);
    slp_scaling_free(&sc);
    slp_local_problem_free(&lp);
    slp_model_destroy(&model);
    free(a);
}

static void test_parts_not_threads(void)
{
    enum { M = 200, N = 1500 };
    static double r1[M], s1[N], r2[M], s2[N], r3[M], s3[N];
    random_factors(3, 1, r1, s1);
    random_factors(3, 3, r2, s2);
    random_factors(3, 2, r3, s3);
    CHECK(!memcmp(r1, r2, sizeof r1) && !memcmp(s1, s2, sizeof s1),
          "3 parts on 1 and on 3 threads: other factors");
    CHECK(!memcmp(r1, r3, sizeof r1) && !memcmp(s1, s3, sizeof s1),
          "3 parts on 1 and on 2 threads: other factors");
    random_factors(1, 1, r2, s2); /* other parts, other sums: the same to rounding */
    double worst = 0.0;
    for (int j = 0; j < N; j++)
        worst = fmax(worst, fabs(s2[j] / s1[j] - 1.0));
    CHECK(worst < 1e-12, "1 and 3 parts: column factors differ by %.3g", worst);
}

/* The passes streaming the columns (through the transpose) or the rows (A_rc alone)
 * give the same factors to rounding: maxima are exact, sums differ in order only. */
static void test_either_copy(void)
{
    enum { M = 200, N = 1500 };
    static double r1[M], s1[N], r2[M], s2[N];
    random_factors(3, 1, r1, s1);
    with_transpose = 1;
    random_factors(3, 1, r2, s2);
    with_transpose = 0;
    double worst = 0.0;
    for (int i = 0; i < M; i++)
        worst = fmax(worst, fabs(r2[i] / r1[i] - 1.0));
    for (int j = 0; j < N; j++)
        worst = fmax(worst, fabs(s2[j] / s1[j] - 1.0));
    CHECK(worst < 1e-12, "rows and columns streamed: factors differ by %.3g", worst);
}

/* Scale a model on a 1x1 grid with Curtis-Reid sweeps alone (no other pass, no
 * bound/objective rescaling). */
static void scale_curtis_reid_only(slp_model_t *model, int sweeps, slp_local_problem_t *lp,
                                   slp_scaling_t *sc)
{
    slp_settings_t set;
    slp_settings_default(&set);
    set.curtis_reid_iters = sweeps;
    set.geo_iters = set.ruiz_iters = set.pock_chambolle = 0;
    set.bound_obj_rescaling = 0;
    scale_local(model, &set, 1, lp, sc);
}

/* Curtis-Reid on magnitudes of rank one, |a_ij| = u_i v_j: the least-squares problem
 * min sum (log|a_ij| - rho_i - gamma_j)^2 has the exact solution rho = log u, gamma =
 * log v, every scaled entry of magnitude 1. Dense, one sweep gets there (the row sweep
 * leaves v_j / geomean(v) in every row, the column sweep divides it out); with a sparse
 * connected pattern the sweeps converge to it. Signs stay. */
static void curtis_reid_case(const double *pattern, int sweeps, double tol)
{
    enum { M = 3, N = 4 };
    const double u[M] = {1e-3, 7.0, 250.0}, v[N] = {0.5, 1e4, 3e-2, 9.0};
    double a[M * N], c[N] = {1, 1, 1, 1}, lv[N] = {0}, uv[N], lc[M], uc[M];
    for (int i = 0; i < M; i++) {
        lc[i] = -INFINITY;
        uc[i] = 1.0;
        for (int j = 0; j < N; j++)
            a[i * N + j] = pattern[i * N + j] * u[i] * v[j];
    }
    for (int j = 0; j < N; j++)
        uv[j] = INFINITY;
    slp_model_t *model = dense_model(M, N, a, c, lv, uv, lc, uc, 1);
    slp_local_problem_t lp;
    slp_scaling_t sc;
    scale_curtis_reid_only(model, sweeps, &lp, &sc);
    double worst = 0.0;
    int signs = 1;
    for (int64_t i = 0, k = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            if (a[i * N + j] == 0.0)
                continue;
            worst = fmax(worst, fabs(fabs(lp.A.val[k]) - 1.0));
            signs &= (lp.A.val[k] > 0) == (a[i * N + j] > 0);
            k++;
        }
    CHECK(worst <= tol && signs, "Curtis-Reid, %d sweeps: |a~| off 1 by %.3g (tol %g), signs %d",
          sweeps, worst, tol, signs);
    slp_scaling_free(&sc);
    slp_local_problem_free(&lp);
    slp_model_destroy(&model);
}

static void test_curtis_reid(void)
{
    const double dense[] = {1, -1, 1, 1, -1, 1, 1, -1, 1, 1, -1, 1};
    curtis_reid_case(dense, 1, 1e-13);
    /* a connected sparse pattern (each row and column has an entry; the bipartite graph
     * of rows and columns is connected) */
    const double sparse[] = {1, -1, 0, 0, 0, 1, 1, 0, 0, 0, -1, 1};
    curtis_reid_case(sparse, 200, 1e-9);
}

/* A matrix of +1 and -1: every log-magnitude is 0, so the first Curtis-Reid sweep
 * leaves every factor exactly 1, the sweeps stop there (scaling.c, factors_changed),
 * and the matrix keeps its bits. */
static void test_curtis_reid_units(void)
{
    enum { M = 3, N = 4 };
    double a[M * N] = {1, -1, 0, 1, 0, 1, 1, 0, -1, 0, -1, 1};
    double c[N] = {1, 2, 3, 4}, lv[N] = {0}, uv[N], lc[M], uc[M];
    for (int j = 0; j < N; j++)
        uv[j] = INFINITY;
    for (int i = 0; i < M; i++) {
        lc[i] = -INFINITY;
        uc[i] = 1.0;
    }
    slp_model_t *model = dense_model(M, N, a, c, lv, uv, lc, uc, 1);
    slp_local_problem_t lp;
    slp_scaling_t sc;
    scale_curtis_reid_only(model, 20, &lp, &sc);
    int ones = 1;
    for (int i = 0; i < M; i++)
        ones &= sc.drow[i] == 1.0;
    for (int j = 0; j < N; j++)
        ones &= sc.dcol[j] == 1.0;
    for (int64_t k = 0; k < lp.A.nnz; k++)
        ones &= fabs(lp.A.val[k]) == 1.0;
    CHECK(ones, "Curtis-Reid on +-1: factors and entries not exactly 1");
    slp_scaling_free(&sc);
    slp_local_problem_free(&lp);
    slp_model_destroy(&model);
}

int main(void)
{
    test_curtis_reid();
    test_curtis_reid_units();
    test_parts_not_threads();
    test_either_copy();
    test_ruiz_diagonal();
    test_pock_chambolle();
    test_geometric_mean();
    test_sigma_max(0);
    test_sigma_max(1);
    return check_summary();
}
