/* Independent solution checker: the nine criteria (docs/checker.md). */
#include "check/check.h"

#include <math.h>
#include <stdlib.h>

/* ---- table of contents ------------------------------------------------- */
static long double project_sign(long double v, double lo, double hi);
static int worse(long double *cur, int64_t *cur_at, long double v, int64_t at);
static long double bound_violation(long double v, double lo, double hi, long double *bound_mag);
static long double finite_mag(double lo, double hi);
static long double rel_diff(long double a, long double b);

static const char *const criterion_keys[SLP_CHECK_COUNT] = {
    "primal_bound_rel",   "primal_bound_max",        "primal_row_rel",
    "primal_row_max",     "stationarity_rel",        "stationarity_max",
    "row_dual_sign",      "reduced_cost_sign",       "rel_gap",
};

const char *slp_check_criterion_key(int criterion)
{
    if (criterion < 0 || criterion >= SLP_CHECK_COUNT)
        return "?";
    return criterion_keys[criterion];
}

/* ---- helpers ----------------------------------------------------------- */

/* Projection of a min-form multiplier onto its admissible sign set, given the
 * interval [lo, hi] it belongs to: only lo finite -> >= 0, only hi finite ->
 * <= 0, neither -> 0, both -> free. NaN propagates. */
static long double project_sign(long double v, double lo, double hi)
{
    int has_lo = isfinite(lo), has_hi = isfinite(hi);
    if (isnan(v) || (has_lo && has_hi))
        return v;
    if (has_lo)
        return v > 0 ? v : 0.0L;
    if (has_hi)
        return v < 0 ? v : 0.0L;
    return 0.0L;
}

/* NaN-propagating running maximum with its position. Returns 1 when updated. */
static int worse(long double *cur, int64_t *cur_at, long double v, int64_t at)
{
    if (isnan(*cur))
        return 0;
    if (isnan(v) || v > *cur) {
        *cur = v;
        *cur_at = at;
        return 1;
    }
    return 0;
}

/* Amount by which v lies outside [lo, hi] (0 inside, NaN for NaN), and the
 * magnitude of the violated bound in *bound_mag. Infinite bounds are never
 * violated and never enter a product. */
static long double bound_violation(long double v, double lo, double hi, long double *bound_mag)
{
    *bound_mag = 0.0L;
    if (!isfinite(v)) /* NaN stays NaN; an infinite value is never acceptable */
        return isnan(v) ? v : (long double)INFINITY;
    if (isfinite(lo) && v < lo) {
        *bound_mag = fabsl((long double)lo);
        return (long double)lo - v;
    }
    if (isfinite(hi) && v > hi) {
        *bound_mag = fabsl((long double)hi);
        return v - (long double)hi;
    }
    return 0.0L;
}

/* Largest magnitude among the finite ends of [lo, hi] (0 if none). */
static long double finite_mag(double lo, double hi)
{
    long double m = 0.0L;
    if (isfinite(lo))
        m = fabsl((long double)lo);
    if (isfinite(hi) && fabsl((long double)hi) > m)
        m = fabsl((long double)hi);
    return m;
}

/* |a - b| / (1 + |a| + |b|); NaN when either is not finite. */
static long double rel_diff(long double a, long double b)
{
    if (!isfinite(a) || !isfinite(b))
        return NAN;
    return fabsl(a - b) / (1.0L + fabsl(a) + fabsl(b));
}

/* ---- accumulator ------------------------------------------------------- */

void slp_check_init(slp_check_t *chk, int sense, double obj_const, double reported_objective)
{
    *chk = (slp_check_t){0};
    chk->sense = sense < 0 ? -1 : 1;
    chk->obj_const = obj_const;
    chk->reported_objective = reported_objective;
    chk->bound_at = chk->row_at = chk->stat_at = chk->ysign_at = chk->zsign_at = -1;
}

void slp_check_project_row_duals(int sense, int64_t count, const double *lc, const double *uc,
                                 const double *y, double *y_proj_min)
{
    long double s = sense < 0 ? -1.0L : 1.0L;
    for (int64_t i = 0; i < count; i++)
        y_proj_min[i] = (double)project_sign(s * (long double)y[i], lc[i], uc[i]);
}

void slp_check_csc_ax(int64_t ncols, const int64_t *col_ptr, const int64_t *row_idx,
                      const double *val, int64_t row_off, const double *x, long double *ax,
                      long double *ax_abs)
{
    for (int64_t j = 0; j < ncols; j++) {
        long double xj = x[j];
        for (int64_t k = col_ptr[j]; k < col_ptr[j + 1]; k++) {
            long double t = (long double)val[k] * xj;
            int64_t i = row_idx[k] - row_off;
            ax[i] += t;
            ax_abs[i] += fabsl(t);
        }
    }
}

void slp_check_csc_aty(int64_t ncols, const int64_t *col_ptr, const int64_t *row_idx,
                       const double *val, int64_t row_off, const double *y, long double *aty,
                       long double *aty_abs)
{
    for (int64_t j = 0; j < ncols; j++) {
        long double s = 0.0L, sa = 0.0L;
        for (int64_t k = col_ptr[j]; k < col_ptr[j + 1]; k++) {
            long double t = (long double)val[k] * (long double)y[row_idx[k] - row_off];
            s += t;
            sa += fabsl(t);
        }
        aty[j] += s;
        aty_abs[j] += sa;
    }
}

void slp_check_csr_ax(int64_t nrows, const int64_t *row_ptr, const int64_t *col_idx,
                      const double *val, int64_t col_off, const double *x, long double *ax,
                      long double *ax_abs)
{
    /* A CSR block is the CSC block of A^T: A x row-wise is A^T's column dot. */
    slp_check_csc_aty(nrows, row_ptr, col_idx, val, col_off, x, ax, ax_abs);
}

void slp_check_csr_aty(int64_t nrows, const int64_t *row_ptr, const int64_t *col_idx,
                       const double *val, int64_t col_off, const double *y, long double *aty,
                       long double *aty_abs)
{
    slp_check_csc_ax(nrows, row_ptr, col_idx, val, col_off, y, aty, aty_abs);
}

void slp_check_rows(slp_check_t *chk, int64_t off, int64_t count, const double *lc,
                    const double *uc, const double *y, const long double *ax,
                    const long double *ax_abs)
{
    long double s = chk->sense;
    for (int64_t i = 0; i < count; i++) {
        long double bmag;
        long double v = bound_violation(ax[i], lc[i], uc[i], &bmag);
        long double fm = finite_mag(lc[i], uc[i]);
        chk->row_viol2 += v * v;
        chk->row_scale2 += fm * fm;
        chk->row_viol_max = fmaxl(chk->row_viol_max, v);
        worse(&chk->row_coord, &chk->row_at, v / (1.0L + bmag + ax_abs[i]), off + i);

        long double ymin = s * (long double)y[i];
        long double yp = project_sign(ymin, lc[i], uc[i]);
        worse(&chk->ysign, &chk->ysign_at, fabsl(ymin - yp), off + i);
        if (isnan(yp))
            chk->dual_obj += yp;
        else if (yp > 0)
            chk->dual_obj += yp * (long double)lc[i]; /* lc finite: projection */
        else if (yp < 0)
            chk->dual_obj += yp * (long double)uc[i]; /* uc finite: projection */
    }
}

void slp_check_cols(slp_check_t *chk, int64_t off, int64_t count, const double *c,
                    const double *lv, const double *uv, const double *x, const double *z,
                    const long double *aty, const long double *aty_abs)
{
    long double s = chk->sense;
    for (int64_t j = 0; j < count; j++) {
        long double bmag;
        long double v = bound_violation(x[j], lv[j], uv[j], &bmag);
        long double fm = finite_mag(lv[j], uv[j]);
        chk->bound_viol2 += v * v;
        chk->bound_scale2 += fm * fm;
        chk->bound_viol_max = fmaxl(chk->bound_viol_max, v);
        worse(&chk->bound_coord, &chk->bound_at, v / (1.0L + bmag), off + j);

        long double cj = c[j];
        long double cmin = s * cj;
        long double zmin = s * (long double)z[j];
        long double zp = project_sign(zmin, lv[j], uv[j]);
        long double st = cmin - aty[j] - zp;
        chk->stat2 += st * st;
        chk->stat_max = isnan(st) ? st : fmaxl(chk->stat_max, fabsl(st));
        chk->c2 += cj * cj;
        if (fabsl(cj) > chk->c_inf)
            chk->c_inf = fabsl(cj);
        worse(&chk->stat_coord, &chk->stat_at,
              fabsl(st) / (1.0L + fabsl(cj) + aty_abs[j] + fabsl(zp)), off + j);
        worse(&chk->zsign, &chk->zsign_at, fabsl(zmin - zp), off + j);

        chk->primal_obj += cj * (long double)x[j];
        if (isnan(zp))
            chk->dual_obj += zp;
        else if (zp > 0)
            chk->dual_obj += zp * (long double)lv[j];
        else if (zp < 0)
            chk->dual_obj += zp * (long double)uv[j];
    }
}

void slp_check_finish(const slp_check_t *chk, slp_check_result_t *r)
{
    long double s = chk->sense;
    long double v[SLP_CHECK_COUNT];
    v[SLP_CHECK_BOUND_NORM] = sqrtl(chk->bound_viol2) / (1.0L + sqrtl(chk->bound_scale2));
    v[SLP_CHECK_BOUND_COORD] = chk->bound_coord;
    v[SLP_CHECK_ROW_NORM] = sqrtl(chk->row_viol2) / (1.0L + sqrtl(chk->row_scale2));
    v[SLP_CHECK_ROW_COORD] = chk->row_coord;
    v[SLP_CHECK_STAT_NORM] = sqrtl(chk->stat2) / (1.0L + sqrtl(chk->c2));
    v[SLP_CHECK_STAT_COORD] = chk->stat_coord;
    v[SLP_CHECK_ROW_DUAL_SIGN] = chk->ysign / (1.0L + chk->c_inf);
    v[SLP_CHECK_REDUCED_COST_SIGN] = chk->zsign / (1.0L + chk->c_inf);

    long double p_user = chk->primal_obj + chk->obj_const;
    long double d_user = s * (s * chk->obj_const + chk->dual_obj);
    long double gap = rel_diff(p_user, d_user);
    if (!isnan(chk->reported_objective)) {
        long double g2 = rel_diff(chk->reported_objective, d_user);
        if (isnan(g2) || g2 > gap)
            gap = g2;
    }
    v[SLP_CHECK_GAP] = gap;

    int64_t at[SLP_CHECK_COUNT] = {-1, chk->bound_at, -1, chk->row_at, -1, chk->stat_at,
                                   chk->ysign_at, chk->zsign_at, -1};
    r->max = 0.0;
    r->all_finite = 1;
    for (int k = 0; k < SLP_CHECK_COUNT; k++) {
        r->value[k] = (double)v[k];
        r->worst[k] = v[k] != 0 ? at[k] : -1;
        if (!isfinite(r->value[k]))
            r->all_finite = 0;
        if (isnan(r->value[k]) || isnan(r->max))
            r->max = NAN;
        else if (r->value[k] > r->max)
            r->max = r->value[k];
    }
    r->abs_primal[0] = (double)sqrtl(chk->bound_viol2 + chk->row_viol2);
    r->abs_primal[1] = (double)fmaxl(chk->bound_viol_max, chk->row_viol_max);
    r->abs_dual[0] = (double)sqrtl(chk->stat2);
    r->abs_dual[1] = (double)chk->stat_max;
    r->primal_objective = (double)p_user;
    r->dual_objective = (double)d_user;
    r->reported_objective = chk->reported_objective;
}

int slp_check_passed(const slp_check_result_t *result, double tol)
{
    if (!result->all_finite || !(tol >= 0))
        return 0;
    for (int k = 0; k < SLP_CHECK_COUNT; k++)
        if (!(result->value[k] <= tol))
            return 0;
    return 1;
}

/* ---- whole in-memory model --------------------------------------------- */

slp_err slp_check_model(const slp_model_t *model, const double *x, const double *y,
                        const double *z, double reported_objective, slp_check_result_t *result)
{
    int64_t m = model->m, n = model->n;
    long double *ax = NULL, *ax_abs = NULL, *aty = NULL, *aty_abs = NULL;
    double *yp = NULL;
    slp_err rc = SLP_OK;
    if ((rc = slp_alloc(&ax, (size_t)m + 1, sizeof *ax)) != SLP_OK ||
        (rc = slp_alloc(&ax_abs, (size_t)m + 1, sizeof *ax_abs)) != SLP_OK ||
        (rc = slp_alloc(&aty, (size_t)n + 1, sizeof *aty)) != SLP_OK ||
        (rc = slp_alloc(&aty_abs, (size_t)n + 1, sizeof *aty_abs)) != SLP_OK ||
        (rc = slp_alloc(&yp, (size_t)m + 1, sizeof *yp)) != SLP_OK)
        goto done;
    for (int64_t i = 0; i < m; i++)
        ax[i] = ax_abs[i] = 0.0L;
    for (int64_t j = 0; j < n; j++)
        aty[j] = aty_abs[j] = 0.0L;

    slp_check_t chk;
    slp_check_init(&chk, model->sense, model->obj_const, reported_objective);
    /* row side */
    slp_check_csc_ax(n, model->col_ptr, model->row_idx, model->val, 0, x, ax, ax_abs);
    slp_check_rows(&chk, 0, m, model->lc, model->uc, y, ax, ax_abs);
    /* column side */
    slp_check_project_row_duals(model->sense, m, model->lc, model->uc, y, yp);
    slp_check_csc_aty(n, model->col_ptr, model->row_idx, model->val, 0, yp, aty, aty_abs);
    slp_check_cols(&chk, 0, n, model->c, model->lv, model->uv, x, z, aty, aty_abs);
    slp_check_finish(&chk, result);
done:
    free(ax);
    free(ax_abs);
    free(aty);
    free(aty_abs);
    free(yp);
    return rc;
}
