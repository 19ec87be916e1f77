/* Unit tests of the independent checker (src/check/check.c).
 *
 * LP1 (minimisation) was built by hand from a chosen KKT point: pick x*, y*, z*
 * satisfying complementarity and the sign rules, set c = A^T y* + z*; then
 * (x*, y*, z*) is optimal by construction. It has every row kind (=, <=, >=,
 * ranged, free) and every bound kind (lower only, free, boxed, fixed, upper only):
 *
 *   min  -0.5 x1 - 3 x2 - 3 x3 + 0.5 x4 - 1.5 x5 + 2.5 x6 + 1
 *   r1:  x1 + x2            = 4        y1 = -1   (free sign)
 *   r2:  x2 + x3           <= 5        y2 = -2   (<= 0)
 *   r3:  x1 - x5 + x6      >= -2       y3 = 0.5  (>= 0)
 *   r4:  1 <= x3 + x4 <= 4             y4 = -1   (ranged: free sign, at upper)
 *   r5:  x1 + x3            free       y5 = 0    (must be 0)
 *   x1 >= 0, x2 free, 0 <= x3 <= 4, x4 = 2, x5 <= 3, x6 >= 0
 *   x* = (1, 3, 2, 2, 3, 0), z* = (0, 0, 0, 1.5, -1, 2)
 *   primal objective: -0.5 - 9 - 6 + 1 - 4.5 + 0 + 1 = -18
 *   dual objective:   1 + (-4 - 10 - 1 - 4) + (1.5*2 - 1*3) = -18
 *
 * LP2 (maximisation): max 3a + 2b, a + b <= 4, a + 3b <= 6, 0 <= a <= 3, b >= 0.
 *   Optimum a = 3, b = 1, objective 11. User-sense duals (z = c - A^T y):
 *   y = (2, 0), z = (1, 0): c - A^T y = (3 - 2, 2 - 2) = (1, 0). Dual objective
 *   in min form: -(2*4) - (1*3) = -11, i.e. 11 in the user's sense. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "check/check.h"
#include "core/model.h"

#define TOL 1e-6

/* Model from a dense row-major matrix (zeros skipped). */
static slp_model_t *dense_model(int64_t m, int64_t n, const double *a, const double *c,
                                const double *lv, const double *uv, const double *lc,
                                const double *uc, int sense, double c0)
{
    int64_t nnz = 0;
    for (int64_t k = 0; k < m * n; k++)
        nnz += a[k] != 0;
    slp_model_t *model = NULL;
    if (slp_model_create(m, n, nnz, &model) != SLP_OK)
        return NULL;
    int64_t k = 0;
    for (int64_t j = 0; j < n; j++) {
        model->col_ptr[j] = k;
        for (int64_t i = 0; i < m; i++) {
            if (a[i * n + j] != 0) {
                model->row_idx[k] = i;
                model->val[k++] = a[i * n + j];
            }
        }
        model->c[j] = c[j];
        model->lv[j] = lv[j];
        model->uv[j] = uv[j];
    }
    model->col_ptr[n] = k;
    for (int64_t i = 0; i < m; i++) {
        model->lc[i] = lc[i];
        model->uc[i] = uc[i];
    }
    model->sense = sense;
    model->obj_const = c0;
    return model;
}

#define INF INFINITY
enum { M1 = 5, N1 = 6 };
static const double A1[M1 * N1] = {
    1, 1, 0, 0, 0,  0, /* r1 */
    0, 1, 1, 0, 0,  0, /* r2 */
    1, 0, 0, 0, -1, 1, /* r3 */
    0, 0, 1, 1, 0,  0, /* r4 */
    1, 0, 1, 0, 0,  0, /* r5 */
};
static const double C1[N1] = {-0.5, -3, -3, 0.5, -1.5, 2.5};
static const double LV1[N1] = {0, -INF, 0, 2, -INF, 0};
static const double UV1[N1] = {INF, INF, 4, 2, 3, INF};
static const double LC1[M1] = {4, -INF, -2, 1, -INF};
static const double UC1[M1] = {4, 5, INF, 4, INF};
static const double X1[N1] = {1, 3, 2, 2, 3, 0};
static const double Y1[M1] = {-1, -2, 0.5, -1, 0};
static const double Z1[N1] = {0, 0, 0, 1.5, -1, 2};

typedef struct {
    double x[N1], y[M1], z[N1];
    double obj;
} sol1_t;

static sol1_t sol1(void)
{
    sol1_t s;
    memcpy(s.x, X1, sizeof s.x);
    memcpy(s.y, Y1, sizeof s.y);
    memcpy(s.z, Z1, sizeof s.z);
    s.obj = -18;
    return s;
}

static slp_check_result_t run1(const slp_model_t *model, const sol1_t *s)
{
    slp_check_result_t r;
    memset(&r, 0, sizeof r);
    slp_err rc = slp_check_model(model, s->x, s->y, s->z, s->obj, &r);
    CHECK(rc == SLP_OK, "slp_check_model failed");
    return r;
}

static void print_result(const char *label, const slp_check_result_t *r)
{
    fprintf(stderr, "  %s:", label);
    for (int k = 0; k < SLP_CHECK_COUNT; k++)
        fprintf(stderr, " %s=%.3g", slp_check_criterion_key(k), r->value[k]);
    fprintf(stderr, "\n");
}

/* Only criterion `k` (and those listed in also[]) may exceed tol; k must. */
static void expect_fails_on(const char *label, const slp_check_result_t *r, int k)
{
    CHECK(!slp_check_passed(r, TOL), "%s: should fail", label);
    CHECK(!(r->value[k] <= TOL), "%s: criterion %s = %.3g should exceed %g", label,
          slp_check_criterion_key(k), r->value[k], TOL);
    if (!slp_check_passed(r, TOL) && r->value[k] <= TOL)
        print_result(label, r);
}

static void test_lp1_optimal(const slp_model_t *model)
{
    sol1_t s = sol1();
    slp_check_result_t r = run1(model, &s);
    for (int k = 0; k < SLP_CHECK_COUNT; k++)
        CHECK(r.value[k] <= 1e-15, "optimal LP1: %s = %.3g, expected ~0",
              slp_check_criterion_key(k), r.value[k]);
    CHECK(slp_check_passed(&r, TOL), "optimal LP1 should pass");
    CHECK(slp_check_passed(&r, 0.0), "optimal LP1 is exact: passes even tol 0");
    CHECK_CLOSE(r.primal_objective, -18.0, 1e-15);
    CHECK_CLOSE(r.dual_objective, -18.0, 1e-15);
    CHECK(r.all_finite, "all finite");

    /* No reported objective (NaN): gap from x alone, still passes. */
    s.obj = NAN;
    r = run1(model, &s);
    CHECK(slp_check_passed(&r, TOL), "LP1 without reported objective should pass");

    /* A tiny perturbation well inside the tolerance passes. */
    s = sol1();
    s.x[1] += 1e-10;
    s.y[0] -= 1e-10;
    r = run1(model, &s);
    CHECK(slp_check_passed(&r, TOL), "1e-10 perturbation should pass at 1e-6");
    CHECK(!slp_check_passed(&r, 1e-14), "1e-10 perturbation should fail at 1e-14");
}

static void test_lp1_primal_perturbations(const slp_model_t *model)
{
    /* x2 is free: moving it breaks r1 (equality) and r2 (<= at its bound). */
    sol1_t s = sol1();
    s.x[1] += 1e-3;
    s.obj = NAN;
    slp_check_result_t r = run1(model, &s);
    expect_fails_on("x2 + 1e-3", &r, SLP_CHECK_ROW_NORM);
    expect_fails_on("x2 + 1e-3", &r, SLP_CHECK_ROW_COORD);
    CHECK(r.value[SLP_CHECK_BOUND_NORM] == 0 && r.value[SLP_CHECK_BOUND_COORD] == 0,
          "free x2 cannot violate a bound");
    CHECK(r.worst[SLP_CHECK_ROW_COORD] == 0, "worst row %lld should be r1",
          (long long)r.worst[SLP_CHECK_ROW_COORD]);
    /* r1 violated by 1e-3 with |bound| 4 and |A||x| = 1 + 3.001 -> 1e-3 / 9.001
     * (r2: 1e-3 / (1 + 5 + 5.001) is smaller) */
    CHECK_CLOSE(r.value[SLP_CHECK_ROW_COORD], 1e-3 / (1 + 4 + 4.001), 1e-9);

    /* x3 above its upper bound 4 */
    s = sol1();
    s.x[2] = 4.5;
    r = run1(model, &s);
    expect_fails_on("x3 = 4.5", &r, SLP_CHECK_BOUND_NORM);
    expect_fails_on("x3 = 4.5", &r, SLP_CHECK_BOUND_COORD);
    CHECK(r.worst[SLP_CHECK_BOUND_COORD] == 2, "worst column should be x3");
    CHECK_CLOSE(r.value[SLP_CHECK_BOUND_COORD], 0.5 / (1 + 4), 1e-15);
    /* absolute residuals (the detailed criterion's terms): x3 0.5 over its bound, r2
     * (3 + 4.5 <= 5) and r4 (4.5 + 2 <= 4) 2.5 over theirs; stationarity untouched */
    CHECK_CLOSE(r.abs_primal[1], 2.5, 1e-15);
    CHECK_CLOSE(r.abs_primal[0], sqrt(0.25 + 6.25 + 6.25), 1e-15);
    CHECK(r.abs_dual[0] == 0 && r.abs_dual[1] == 0, "x alone moved the stationarity residual");

    /* x5 above its only (upper) bound */
    s = sol1();
    s.x[4] = 3.01;
    r = run1(model, &s);
    expect_fails_on("x5 = 3.01", &r, SLP_CHECK_BOUND_COORD);

    /* x6 below its only (lower) bound: also breaks nothing else badly */
    s = sol1();
    s.x[5] = -0.2;
    r = run1(model, &s);
    expect_fails_on("x6 = -0.2", &r, SLP_CHECK_BOUND_NORM);
}

static void test_lp1_dual_perturbations(const slp_model_t *model)
{
    /* z1 = 1e-3 on x1 >= 0 (an admissible sign): c1 - (A^T y)_1 - z1 = -1e-3 */
    sol1_t z = sol1();
    z.z[0] = 1e-3;
    slp_check_result_t rz = run1(model, &z);
    CHECK_CLOSE(rz.abs_dual[1], 1e-3, 1e-15);
    CHECK_CLOSE(rz.abs_dual[0], 1e-3, 1e-15);
    CHECK(rz.abs_primal[0] == 0 && rz.abs_primal[1] == 0, "z alone moved the primal residual");

    /* wrong sign on the >= row */
    sol1_t s = sol1();
    s.y[2] = -0.5;
    slp_check_result_t r = run1(model, &s);
    expect_fails_on("y3 = -0.5", &r, SLP_CHECK_ROW_DUAL_SIGN);
    CHECK_CLOSE(r.value[SLP_CHECK_ROW_DUAL_SIGN], 0.5 / (1 + 3), 1e-15);
    CHECK(r.worst[SLP_CHECK_ROW_DUAL_SIGN] == 2, "worst row should be r3");

    /* wrong sign on the <= row */
    s = sol1();
    s.y[1] = 2;
    r = run1(model, &s);
    expect_fails_on("y2 = +2", &r, SLP_CHECK_ROW_DUAL_SIGN);

    /* a free row must have y = 0 */
    s = sol1();
    s.y[4] = 0.1;
    r = run1(model, &s);
    expect_fails_on("y5 = 0.1 on free row", &r, SLP_CHECK_ROW_DUAL_SIGN);
    CHECK_CLOSE(r.value[SLP_CHECK_ROW_DUAL_SIGN], 0.1 / 4, 1e-15);

    /* equality and ranged rows have free sign: a wrong value there is a
     * stationarity failure, not a sign failure */
    s = sol1();
    s.y[0] = 1;
    r = run1(model, &s);
    CHECK(r.value[SLP_CHECK_ROW_DUAL_SIGN] == 0, "equality row dual has free sign");
    expect_fails_on("y1 = +1", &r, SLP_CHECK_STAT_NORM);
    expect_fails_on("y1 = +1", &r, SLP_CHECK_STAT_COORD);

    /* reduced cost of a lower-bounded column must be >= 0 */
    s = sol1();
    s.z[5] = -2;
    r = run1(model, &s);
    expect_fails_on("z6 = -2", &r, SLP_CHECK_REDUCED_COST_SIGN);
    CHECK_CLOSE(r.value[SLP_CHECK_REDUCED_COST_SIGN], 2.0 / 4, 1e-15);
    CHECK(r.worst[SLP_CHECK_REDUCED_COST_SIGN] == 5, "worst column should be x6");

    /* upper-bounded column: z <= 0 */
    s = sol1();
    s.z[4] = 1;
    r = run1(model, &s);
    expect_fails_on("z5 = +1", &r, SLP_CHECK_REDUCED_COST_SIGN);

    /* free column: z = 0 */
    s = sol1();
    s.z[1] = 0.3;
    r = run1(model, &s);
    expect_fails_on("z2 = 0.3 on free column", &r, SLP_CHECK_REDUCED_COST_SIGN);

    /* fixed column: free sign, but a wrong value breaks stationarity */
    s = sol1();
    s.z[3] = 2.5;
    r = run1(model, &s);
    CHECK(r.value[SLP_CHECK_REDUCED_COST_SIGN] == 0, "fixed column has free sign");
    expect_fails_on("z4 = 2.5", &r, SLP_CHECK_STAT_COORD);
}

static void test_lp1_objective_and_nan(const slp_model_t *model)
{
    sol1_t s = sol1();
    s.obj = -17;
    slp_check_result_t r = run1(model, &s);
    expect_fails_on("objective -17", &r, SLP_CHECK_GAP);
    CHECK_CLOSE(r.value[SLP_CHECK_GAP], 1.0 / (1 + 17 + 18), 1e-15);
    for (int k = 0; k < SLP_CHECK_GAP; k++)
        CHECK(r.value[k] == 0, "wrong objective only moves the gap (%s = %.3g)",
              slp_check_criterion_key(k), r.value[k]);

    s = sol1();
    s.x[0] = NAN;
    r = run1(model, &s);
    CHECK(!r.all_finite && !slp_check_passed(&r, TOL), "NaN x1 must fail");
    CHECK(isnan(r.value[SLP_CHECK_BOUND_NORM]) && isnan(r.value[SLP_CHECK_ROW_NORM]),
          "NaN x1 -> bound and row criteria NaN");
    CHECK(isnan(r.max), "max is NaN");

    s = sol1();
    s.y[3] = NAN;
    r = run1(model, &s);
    CHECK(!slp_check_passed(&r, TOL), "NaN y4 must fail");
    CHECK(isnan(r.value[SLP_CHECK_ROW_DUAL_SIGN]) && isnan(r.value[SLP_CHECK_STAT_NORM]),
          "NaN y4 -> sign and stationarity NaN");

    s = sol1();
    s.z[0] = NAN;
    r = run1(model, &s);
    CHECK(!slp_check_passed(&r, TOL) && isnan(r.value[SLP_CHECK_REDUCED_COST_SIGN]),
          "NaN z1 must fail");

    s = sol1();
    s.x[1] = INFINITY;
    r = run1(model, &s);
    CHECK(!slp_check_passed(&r, TOL) && !isfinite(r.value[SLP_CHECK_BOUND_NORM]),
          "infinite value of a free column must fail");

    s = sol1();
    s.obj = INFINITY;
    r = run1(model, &s);
    CHECK(!slp_check_passed(&r, TOL), "infinite reported objective must fail");
}

static void test_lp2_max(void)
{
    const double a[] = {1, 1, 1, 3};
    const double c[] = {3, 2}, lv[] = {0, 0}, uv[] = {3, INF};
    const double lc[] = {-INF, -INF}, uc[] = {4, 6};
    slp_model_t *model = dense_model(2, 2, a, c, lv, uv, lc, uc, -1, 0);
    CHECK(model != NULL, "model");
    if (!model)
        return;
    double x[] = {3, 1}, y[] = {2, 0}, z[] = {1, 0};
    slp_check_result_t r;
    CHECK(slp_check_model(model, x, y, z, 11, &r) == SLP_OK, "check");
    CHECK(slp_check_passed(&r, 0.0), "LP2 optimum should pass exactly (max %.3g)", r.max);
    CHECK_CLOSE(r.primal_objective, 11, 1e-15);
    CHECK_CLOSE(r.dual_objective, 11, 1e-15);

    /* duals given in min-form signs instead of the user's: the <= row's dual
     * has the wrong sign (a is boxed, so its reduced cost has free sign and
     * the error shows in stationarity instead) */
    double yneg[] = {-2, 0}, zneg[] = {-1, 0};
    CHECK(slp_check_model(model, x, yneg, zneg, 11, &r) == SLP_OK, "check");
    expect_fails_on("LP2 min-form duals", &r, SLP_CHECK_ROW_DUAL_SIGN);
    expect_fails_on("LP2 min-form duals", &r, SLP_CHECK_STAT_NORM);
    CHECK(r.value[SLP_CHECK_REDUCED_COST_SIGN] == 0, "boxed column: free sign");
    /* b >= 0 only: a negative reduced cost there is a sign error in max form too */
    double zb[] = {1, -0.5};
    CHECK(slp_check_model(model, x, y, zb, 11, &r) == SLP_OK, "check");
    CHECK(r.value[SLP_CHECK_REDUCED_COST_SIGN] == 0,
          "max: z_b = -0.5 (user) is +0.5 in min form: admissible (stationarity catches it)");
    expect_fails_on("LP2 z_b = -0.5", &r, SLP_CHECK_STAT_NORM);
    double zb2[] = {1, 0.5};
    CHECK(slp_check_model(model, x, y, zb2, 11, &r) == SLP_OK, "check");
    expect_fails_on("LP2 z_b = +0.5 (user, max)", &r, SLP_CHECK_REDUCED_COST_SIGN);

    /* the objective in min form (-11) is wrong for a max problem */
    CHECK(slp_check_model(model, x, y, z, -11, &r) == SLP_OK, "check");
    expect_fails_on("LP2 objective -11", &r, SLP_CHECK_GAP);

    /* a feasible but suboptimal point with the same duals: gap */
    double xs[] = {2, 1};
    CHECK(slp_check_model(model, xs, y, z, 8, &r) == SLP_OK, "check");
    expect_fails_on("LP2 suboptimal x", &r, SLP_CHECK_GAP);
    CHECK(r.value[SLP_CHECK_ROW_NORM] == 0 && r.value[SLP_CHECK_BOUND_NORM] == 0,
          "suboptimal point is feasible");
    slp_model_destroy(&model);
}

/* Stream LP1 as a 2 x 2 grid of CSR blocks through the slice interface and
 * compare with the whole-model path: this is the shard code path. */
static void test_streaming_blocks(const slp_model_t *model)
{
    const int64_t row_off[3] = {0, 3, 5}, col_off[3] = {0, 3, 6};
    sol1_t s = sol1();
    s.x[1] += 1e-3; /* nonzero values in every criterion family */
    s.y[2] = -0.4;
    s.z[5] = -1;
    slp_check_result_t whole = run1(model, &s);

    /* CSR blocks with global column indices */
    int64_t rp[2][2][4], ci[2][2][16];
    double va[2][2][16];
    for (int br = 0; br < 2; br++)
        for (int bc = 0; bc < 2; bc++) {
            int64_t k = 0;
            for (int64_t i = row_off[br]; i < row_off[br + 1]; i++) {
                rp[br][bc][i - row_off[br]] = k;
                for (int64_t j = col_off[bc]; j < col_off[bc + 1]; j++)
                    if (A1[i * N1 + j] != 0) {
                        ci[br][bc][k] = j;
                        va[br][bc][k++] = A1[i * N1 + j];
                    }
            }
            rp[br][bc][row_off[br + 1] - row_off[br]] = k;
        }

    slp_check_t chk;
    slp_check_init(&chk, 1, 1.0, s.obj);
    for (int br = 0; br < 2; br++) { /* row pass: A x over the blocks of row slice br */
        long double ax[3] = {0}, ax_abs[3] = {0};
        int64_t nr = row_off[br + 1] - row_off[br];
        for (int bc = 0; bc < 2; bc++)
            slp_check_csr_ax(nr, rp[br][bc], ci[br][bc], va[br][bc], col_off[bc],
                             s.x + col_off[bc], ax, ax_abs);
        slp_check_rows(&chk, row_off[br], nr, LC1 + row_off[br], UC1 + row_off[br],
                       s.y + row_off[br], ax, ax_abs);
    }
    for (int bc = 0; bc < 2; bc++) { /* column pass: A^T y over the blocks of column slice bc */
        long double aty[3] = {0}, aty_abs[3] = {0};
        int64_t nc = col_off[bc + 1] - col_off[bc];
        for (int br = 0; br < 2; br++) {
            double yp[3];
            int64_t nr = row_off[br + 1] - row_off[br];
            slp_check_project_row_duals(1, nr, LC1 + row_off[br], UC1 + row_off[br],
                                        s.y + row_off[br], yp);
            slp_check_csr_aty(nr, rp[br][bc], ci[br][bc], va[br][bc], col_off[bc], yp, aty,
                              aty_abs);
        }
        slp_check_cols(&chk, col_off[bc], nc, C1 + col_off[bc], LV1 + col_off[bc],
                       UV1 + col_off[bc], s.x + col_off[bc], s.z + col_off[bc], aty, aty_abs);
    }
    slp_check_result_t streamed;
    slp_check_finish(&chk, &streamed);
    for (int k = 0; k < SLP_CHECK_COUNT; k++) {
        CHECK_CLOSE(streamed.value[k], whole.value[k], 1e-15);
        CHECK(streamed.worst[k] == whole.worst[k], "worst index of %s: %lld vs %lld",
              slp_check_criterion_key(k), (long long)streamed.worst[k],
              (long long)whole.worst[k]);
    }
    CHECK(whole.value[SLP_CHECK_ROW_NORM] > 0 && whole.value[SLP_CHECK_ROW_DUAL_SIGN] > 0 &&
              whole.value[SLP_CHECK_REDUCED_COST_SIGN] > 0,
          "the compared values are not trivially zero");
}

static void test_keys(void)
{
    CHECK(!strcmp(slp_check_criterion_key(SLP_CHECK_BOUND_NORM), "primal_bound_rel"), "key");
    CHECK(!strcmp(slp_check_criterion_key(SLP_CHECK_GAP), "rel_gap"), "key");
    CHECK(!strcmp(slp_check_criterion_key(99), "?"), "bad key");
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    slp_model_t *lp1 = dense_model(M1, N1, A1, C1, LV1, UV1, LC1, UC1, 1, 1.0);
    CHECK(lp1 != NULL, "LP1 model");
    if (lp1) {
        test_lp1_optimal(lp1);
        test_lp1_primal_perturbations(lp1);
        test_lp1_dual_perturbations(lp1);
        test_lp1_objective_and_nan(lp1);
        test_streaming_blocks(lp1);
    }
    test_lp2_max();
    test_keys();
    slp_model_destroy(&lp1);
    return check_summary();
}
