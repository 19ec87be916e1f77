/* Certificate checks (check.h, docs/checker.md "Certificates"): a Farkas dual ray
 * for a primal infeasible claim, an improving primal ray for an unbounded claim.
 * Long-double accumulation, original coordinates, no solver code. */
#include <math.h>
#include <stdlib.h>

#include "check/check.h"

static long double max_abs(const double *v, int64_t len)
{
    long double m = 0.0L;
    for (int64_t k = 0; k < len; k++)
        if (isnan(v[k]) || fabsl((long double)v[k]) > m)
            m = isnan(v[k]) ? (long double)NAN : fabsl((long double)v[k]);
    return m;
}

/* The bound term of a multiplier v on [l, u] (v > 0 uses l, v < 0 uses u); a
 * needed infinite bound adds |v| to *breach instead. */
static long double bound_term(long double v, double l, double u, long double *breach)
{
    if (v > 0.0L) {
        if (isfinite(l))
            return v * l;
        *breach = v;
    } else if (v < 0.0L) {
        if (isfinite(u))
            return v * u;
        *breach = -v;
    }
    return 0.0L;
}

static void note(slp_ray_result_t *out, long double breach, int64_t at, int is_row,
                 long double *worst)
{
    if (breach > *worst) {
        *worst = breach;
        out->worst = at;
        out->worst_is_row = is_row;
    }
}

void slp_ray_finish(slp_ray_result_t *out, long double obj, long double worst, long double scale,
                    int want_positive)
{
    if (!(scale > 0.0L)) { /* empty or non-finite (NaN) ray proves nothing */
        out->objective = isnan(scale) ? NAN : 0.0;
        out->violation = isnan(scale) ? NAN : 0.0;
        out->quality = INFINITY;
        return;
    }
    out->objective = (double)(obj / scale);
    out->violation = (double)(worst / scale);
    int right_sign = want_positive ? out->objective > 0.0 : out->objective < 0.0;
    out->quality = right_sign ? out->violation / fabs(out->objective) : INFINITY;
}

slp_err slp_check_dual_ray(const slp_model_t *model, const double *ray_y, slp_ray_result_t *out)
{
    int64_t m = model->m, n = model->n;
    out->worst = -1;
    out->worst_is_row = 0;
    long double obj = 0.0L, worst = 0.0L;
    for (int64_t i = 0; i < m; i++) {
        long double breach = 0.0L;
        obj += bound_term(ray_y[i], model->lc[i], model->uc[i], &breach);
        note(out, breach, i, 1, &worst);
    }
    for (int64_t j = 0; j < n; j++) {
        long double z = 0.0L, breach = 0.0L; /* z_j = -(A^T y)_j */
        for (int64_t k = model->col_ptr[j]; k < model->col_ptr[j + 1]; k++)
            z -= (long double)model->val[k] * ray_y[model->row_idx[k]];
        obj += bound_term(z, model->lv[j], model->uv[j], &breach);
        note(out, breach, j, 0, &worst);
    }
    slp_ray_finish(out, obj, worst, max_abs(ray_y, m), 1);
    return SLP_OK;
}

long double slp_ray_cone_breach(long double v, double l, double u)
{
    long double b = 0.0L;
    if (isfinite(l) && v < 0.0L)
        b = -v;
    if (isfinite(u) && v > 0.0L)
        b = v;
    return b;
}

slp_err slp_check_primal_ray(const slp_model_t *model, const double *ray_x, slp_ray_result_t *out)
{
    int64_t m = model->m, n = model->n;
    out->worst = -1;
    out->worst_is_row = 0;
    long double *ad = calloc((size_t)m + 1, sizeof *ad);
    if (!ad)
        return SLP_ERR_NOMEM;
    long double obj = 0.0L, worst = 0.0L;
    for (int64_t j = 0; j < n; j++) {
        obj += (long double)model->sense * model->c[j] * ray_x[j];
        note(out, slp_ray_cone_breach(ray_x[j], model->lv[j], model->uv[j]), j, 0, &worst);
        for (int64_t k = model->col_ptr[j]; k < model->col_ptr[j + 1]; k++)
            ad[model->row_idx[k]] += (long double)model->val[k] * ray_x[j];
    }
    for (int64_t i = 0; i < m; i++)
        note(out, slp_ray_cone_breach(ad[i], model->lc[i], model->uc[i]), i, 1, &worst);
    free(ad);
    slp_ray_finish(out, obj, worst, max_abs(ray_x, n), 0);
    return SLP_OK;
}
