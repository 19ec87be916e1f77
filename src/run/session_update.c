/* A session's updates (run/session.h): rank 0's whole vectors go out as slices, every
 * rank checks its slices against the rules a new model meets (docs/session.md), and
 * only an update that every rank accepts replaces the old values. Collective. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid/comm.h"
#include "run/run_vectors.h"
#include "run/session_internal.h"

/* The finite costs of a new objective slice (global index for the message). */
static slp_err check_costs(const double *c, int64_t len, int64_t lo)
{
    for (int64_t j = 0; j < len; j++)
        if (!isfinite(c[j]))
            return slp_error(SLP_ERR_INPUT, "objective update: cost of column %lld is %g "
                             "(costs must be finite)", (long long)(lo + j), c[j]);
    return SLP_OK;
}

/* Bounds as a new model's must be: not NaN, lower <= upper, no lower bound of +inf and
 * no upper bound of -inf. `what`: "column" or "row". */
static slp_err check_bounds(const double *l, const double *u, int64_t len, int64_t lo,
                            const char *what)
{
    for (int64_t k = 0; k < len; k++) {
        if (isnan(l[k]) || isnan(u[k]) || l[k] > u[k] || l[k] == INFINITY || u[k] == -INFINITY)
            return slp_error(SLP_ERR_INPUT, "bound update: %s %lld gets bounds [%g, %g] "
                             "(need lower <= upper, neither NaN, lower < +inf, upper > -inf)",
                             what, (long long)(lo + k), l[k], u[k]);
    }
    return SLP_OK;
}

/* Rank 0's whole vectors a[len_all] and b (NULL: unchanged) as this rank's slices of
 * length len: column vectors (rows = 0) or row vectors (rows = 1). */
static slp_err scatter_pair(slp_session_t *s, int rows, const double *a, const double *b,
                            double **as, double **bs)
{
    double *none = NULL;
    slp_grid_t *g = s->grid;
    if (rows) {
        SLP_CALL(slp_run_scatter_start(g, &s->lp, NULL, a, &none, as));
        return slp_run_scatter_start(g, &s->lp, NULL, b, &none, bs);
    }
    SLP_CALL(slp_run_scatter_start(g, &s->lp, a, NULL, as, &none));
    return slp_run_scatter_start(g, &s->lp, b, NULL, bs, &none);
}

/* The update's result: agreed; on failure the message shared, nothing changed. */
static slp_err agreed(slp_session_t *s, slp_err rc)
{
    rc = slp_comm_agree(s->grid->world, rc);
    if (rc != SLP_OK)
        slp_session_report_failure(s, rc);
    return rc;
}

slp_err slp_session_set_objective(slp_session_t *s, const double *c)
{
    slp_error_clear();
    double *cs = NULL, *unused = NULL;
    slp_err rc = scatter_pair(s, 0, c, NULL, &cs, &unused);
    if (rc == SLP_OK && cs)
        rc = check_costs(cs, s->lp.n_loc, s->lp.col_lo);
    rc = agreed(s, rc);
    if (rc == SLP_OK && cs)
        memcpy(s->lp.obj, cs, (size_t)s->lp.n_loc * sizeof *cs);
    free(cs);
    free(unused);
    return rc;
}

/* Either kind of bounds: lo/hi are the problem's slices of length len at global lo_index. */
static slp_err set_bounds(slp_session_t *s, int rows, const double *lower, const double *upper,
                          double *lo, double *hi, int64_t len, int64_t first)
{
    slp_error_clear();
    double *ls = NULL, *us = NULL;
    slp_err rc = scatter_pair(s, rows, lower, upper, &ls, &us);
    const double *l = ls ? ls : lo, *u = us ? us : hi;
    if (rc == SLP_OK)
        rc = check_bounds(l, u, len, first, rows ? "row" : "column");
    rc = agreed(s, rc);
    if (rc == SLP_OK) {
        if (ls)
            memcpy(lo, ls, (size_t)len * sizeof *ls);
        if (us)
            memcpy(hi, us, (size_t)len * sizeof *us);
        slp_local_problem_canonical_bounds(&s->lp);
    }
    free(ls);
    free(us);
    return rc;
}

slp_err slp_session_set_col_bounds(slp_session_t *s, const double *lower, const double *upper)
{
    return set_bounds(s, 0, lower, upper, s->lp.lv, s->lp.uv, s->lp.n_loc, s->lp.col_lo);
}

slp_err slp_session_set_row_bounds(slp_session_t *s, const double *lower, const double *upper)
{
    return set_bounds(s, 1, lower, upper, s->lp.lc, s->lp.uc, s->lp.m_loc, s->lp.row_lo);
}
