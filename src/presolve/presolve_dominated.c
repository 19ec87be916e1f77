/* Dominated columns (docs/presolve.md, pass 7, after dual fixing).
 *
 * Every dual feasible y (min form, y_i > 0 holding row i at lc_i) lies in a box:
 * y_i >= 0 when uc_i is infinite, y_i <= 0 when lc_i is infinite (both: y_i = 0), and
 * a column singleton j with entry a in row i bounds y_i from one side: with uv_j
 * infinite its reduced cost z_j = c_j - a y_i cannot be negative, so a y_i <= c_j;
 * with lv_j infinite, a y_i >= c_j. Over the box, each column's reduced cost lies in
 * [c_j - max a_j^T y, c_j - min a_j^T y]. When the lower end is positive, z_j > 0 in
 * every optimum and x_j sits at lv_j (complementary slackness); when the upper end is
 * negative, at uv_j. Such a column is fixed there and removed as in pass 2, whose
 * recovery gives it z_j = c_j - a_j^T y from the final duals.
 *
 * The box is a max over row_comm (the singleton's entry lives on one rank of the grid
 * row), the column bounds sums over col_comm. */
#include <math.h>
#include <string.h>

#include "grid/reduce.h"
#include "presolve/presolve_internal.h"

#define DOMINATED_TOL 1e-9 /* relative margin a reduced-cost bound must clear */

/* The row duals' box: ylo in rbuf[0..m), -yhi in rbuf[m..2m). Collective over row_comm. */
static slp_err dual_box(ps_ctx_t *x)
{
    const slp_local_problem_t *lp = x->lp;
    const slp_csr_t *a = &lp->A;
    int64_t m = lp->m_loc;
    double sg = lp->sense < 0 ? -1.0 : 1.0;
    double *lo = x->rbuf, *neg_hi = x->rbuf + m;
    for (int64_t i = 0; i < m; i++) {
        lo[i] = isfinite(lp->uc[i]) ? -INFINITY : 0.0;
        neg_hi[i] = isfinite(lp->lc[i]) ? -INFINITY : 0.0;
    }
    for (int64_t i = 0; i < m; i++)
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            int32_t j = a->col_idx[k];
            if (x->ccnt[j] != 1)
                continue;
            double v = a->val[k], bound = sg * lp->obj[j] / v;
            if (isinf(lp->uv[j])) { /* a y_i <= c_j */
                if (v > 0.0)
                    neg_hi[i] = fmax(neg_hi[i], -bound);
                else
                    lo[i] = fmax(lo[i], bound);
            }
            if (isinf(lp->lv[j])) { /* a y_i >= c_j */
                if (v > 0.0)
                    lo[i] = fmax(lo[i], bound);
                else
                    neg_hi[i] = fmax(neg_hi[i], -bound);
            }
        }
    return slp_max_over_row(x->grid, x->rbuf, 2 * m);
}

/* The greatest (upper = 1) or least (upper = 0) value of a_j^T y over the box, for every
 * column: the finite part in cbuf[j], the number of infinite terms in cbuf[n + j].
 * Collective over col_comm. */
static slp_err extreme_activity(ps_ctx_t *x, int upper)
{
    const slp_local_problem_t *lp = x->lp;
    const slp_csr_t *a = &lp->A;
    int64_t m = lp->m_loc, n = lp->n_loc;
    const double *lo = x->rbuf, *neg_hi = x->rbuf + m;
    double *sum = x->cbuf, *inf = x->cbuf + n;
    memset(x->cbuf, 0, 2 * (size_t)n * sizeof(double));
    for (int64_t i = 0; i < m; i++)
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            int32_t j = a->col_idx[k];
            double v = a->val[k];
            double y = (v > 0.0) == (upper != 0) ? -neg_hi[i] : lo[i];
            if (isinf(y))
                inf[j] += 1.0;
            else
                sum[j] += v * y;
        }
    return slp_sum_over_col(x->grid, x->cbuf, 2 * n);
}

/* Whether c - s clears zero by the margin, in the direction `sign` (+1: above). */
static int clears(double c, double s, double sign)
{
    return sign * (c - s) > DOMINATED_TOL * (1.0 + fabs(c) + fabs(s));
}

/* Fix and mark the columns whose reduced cost keeps one sign over the box (upper = 1: the
 * lower end of z is positive, fix at lv; upper = 0: the upper end negative, fix at uv). */
static slp_err mark_side(ps_ctx_t *x, int upper)
{
    slp_local_problem_t *lp = x->lp;
    int64_t n = lp->n_loc;
    double sg = lp->sense < 0 ? -1.0 : 1.0;
    SLP_CALL(extreme_activity(x, upper));
    for (int64_t j = 0; j < n; j++) {
        if (!ps_movable_column(x, j) || x->cbuf[n + j] > 0.0)
            continue;
        double bound = upper ? lp->lv[j] : lp->uv[j];
        if (isfinite(bound) && clears(sg * lp->obj[j], x->cbuf[j], upper ? 1.0 : -1.0)) {
            lp->lv[j] = lp->uv[j] = bound;
            x->col_mark[j] = 1;
        }
    }
    return SLP_OK;
}

slp_err ps_pass_dominated(ps_ctx_t *x, int64_t *changed)
{
    slp_local_problem_t *lp = x->lp;
    SLP_CALL(ps_col_counts(x));
    SLP_CALL(dual_box(x));
    memset(x->col_mark, 0, (size_t)lp->n_loc);
    SLP_CALL(mark_side(x, 1));
    SLP_CALL(mark_side(x, 0));
    return ps_pass_fixcol(x, SLP_PRESOLVE_DOMINATED, x->col_mark, changed);
}
