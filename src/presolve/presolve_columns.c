/* Column passes (docs/presolve.md, passes 7 and 8, and "Recovery"):
 *   dual fixing     a column whose cost favours one direction in which no row can
 *                   become violated is fixed at that bound;
 *   free singletons a column with one entry, in an equality row, whose bounds the
 *                   row already implies, is substituted out: the row and the column
 *                   go, the row's other columns take its cost.
 * Column facts are sums over col_comm, row facts over row_comm. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid/comm.h"
#include "grid/reduce.h"
#include "presolve/presolve_internal.h"


/* Rows that could become violated when column j moves down / up: cbuf[j] and cbuf[n + j]. */
static slp_err blocking_rows(ps_ctx_t *x)
{
    const slp_local_problem_t *lp = x->lp;
    const slp_csr_t *a = &lp->A;
    int64_t n = lp->n_loc;
    double *down = x->cbuf, *up = x->cbuf + n;
    memset(x->cbuf, 0, 2 * (size_t)n * sizeof(double));
    for (int64_t i = 0; i < lp->m_loc; i++) {
        double lo_row = isfinite(lp->lc[i]), hi_row = isfinite(lp->uc[i]);
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            int32_t j = a->col_idx[k];
            if (a->val[k] > 0.0) {
                down[j] += lo_row;
                up[j] += hi_row;
            } else if (a->val[k] < 0.0) {
                down[j] += hi_row;
                up[j] += lo_row;
            }
        }
    }
    return slp_sum_over_col(x->grid, x->cbuf, 2 * n);
}

slp_err ps_pass_dual_fix(ps_ctx_t *x, int64_t *changed)
{
    slp_local_problem_t *lp = x->lp;
    int64_t n = lp->n_loc;
    double sg = lp->sense < 0 ? -1.0 : 1.0;
    SLP_CALL(blocking_rows(x));
    const double *down = x->cbuf, *up = x->cbuf + n;
    for (int64_t j = 0; j < n; j++) {
        x->col_mark[j] = 0;
        if (x->p->col_stage[j] >= 0 || lp->lv[j] == lp->uv[j])
            continue;
        double c = sg * lp->obj[j], l = lp->lv[j], u = lp->uv[j];
        int to_lo = down[j] == 0.0 && isfinite(l) && c >= 0.0;
        int to_hi = up[j] == 0.0 && isfinite(u) && c <= 0.0;
        if (!to_lo && !to_hi)
            continue;
        lp->lv[j] = lp->uv[j] = to_lo ? l : u;
        x->col_mark[j] = 1;
    }
    return ps_pass_fixcol(x, SLP_PRESOLVE_DUAL_FIX, x->col_mark, changed);
}

/* The right-hand side at which column j's single entry a in row i can be
 * substituted out, or NaN. An implied free column has z_j = 0 in some optimal
 * solution, so the row's dual is y_i = c_j / a (min form): an inequality row is
 * then held at lc when y_i > 0, at uc when y_i < 0 (complementary slackness). The
 * column is implied free when, with the row's other columns anywhere within their
 * bounds, x_j = (b - rest) / a stays in [lv_j, uv_j]. */
static double pivot_rhs(const ps_ctx_t *x, const double *act, int64_t i, int32_t j, double a)
{
    const slp_local_problem_t *lp = x->lp;
    int64_t m = lp->m_loc;
    double y = (lp->sense < 0 ? -1.0 : 1.0) * lp->obj[j] / a;
    double b = lp->lc[i] == lp->uc[i] ? lp->lc[i] : y > 0.0 ? lp->lc[i] : y < 0.0 ? lp->uc[i] : NAN;
    if (!isfinite(b))
        return NAN;
    double l = lp->lv[j], u = lp->uv[j];
    double lo_j = ps_least_term(a, l, u), hi_j = ps_greatest_term(a, l, u);
    double nlo = act[ACT_NLO * m + i] - !isfinite(lo_j), nhi = act[ACT_NHI * m + i] - !isfinite(hi_j);
    double rest_lo = nlo > 0.0 ? -INFINITY : act[ACT_LO * m + i] - (isfinite(lo_j) ? lo_j : 0.0);
    double rest_hi = nhi > 0.0 ? INFINITY : act[ACT_HI * m + i] - (isfinite(hi_j) ? hi_j : 0.0);
    double xlo = (a > 0.0 ? b - rest_hi : b - rest_lo) / a;
    double xhi = (a > 0.0 ? b - rest_lo : b - rest_hi) / a;
    return xlo >= l && xhi <= u ? b : NAN;
}

/* Per row, the lowest global index of a column that can be substituted out of it
 * (+inf: none), agreed over row_comm, in rbuf[0..m); the pivot's holder puts the
 * right-hand side in rhs[i]. */
static slp_err pick_pivots(ps_ctx_t *x, double *rhs)
{
    slp_local_problem_t *lp = x->lp;
    const slp_csr_t *a = &lp->A;
    int64_t m = lp->m_loc;
    double *act = NULL, *rowmax = x->rbuf + m, *pick = x->rbuf;
    SLP_CALL(ps_alloc_all(x, &act, ACT_COUNT * (size_t)m + 1, sizeof(double)));
    slp_err rc = ps_row_activity(x, act);
    for (int64_t i = 0; i < m; i++) {
        rowmax[i] = 0.0;
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            rowmax[i] = fmax(rowmax[i], fabs(a->val[k]));
    }
    if (rc == SLP_OK)
        rc = slp_max_over_row(x->grid, rowmax, m);
    for (int64_t i = 0; i < m && rc == SLP_OK; i++) {
        double best = INFINITY;
        for (int64_t k = a->row_ptr[i]; x->p->row_stage[i] < 0 && k < a->row_ptr[i + 1]; k++) {
            int32_t j = a->col_idx[k];
            double v = a->val[k];
            if (x->ccnt[j] == 1 && fabs(v) >= SLP_PS_PIVOT_RATIO * rowmax[i] &&
                !isnan(pivot_rhs(x, act, i, j, v)))
                best = fmin(best, (double)(lp->col_lo + j));
        }
        pick[i] = best;
    }
    if (rc == SLP_OK)
        rc = slp_comm_min(x->grid->row_comm, pick, m);
    /* The holder of each chosen pivot gives its right-hand side to the grid row. */
    memset(rhs, 0, (size_t)m * sizeof(double));
    for (int64_t i = 0; i < m && rc == SLP_OK; i++) {
        int64_t k = ps_entry_of(lp, i, pick[i]);
        if (k >= 0)
            rhs[i] = pivot_rhs(x, act, i, a->col_idx[k], a->val[k]);
    }
    free(act);
    SLP_CALL(rc);
    return slp_sum_over_row(x->grid, rhs, m);
}

/* Substitute the chosen pivots (rbuf[0..m)) out of their rows (right-hand sides rhs). */
static slp_err substitute(ps_ctx_t *x, const double *rhs, int64_t *changed)
{
    slp_local_problem_t *lp = x->lp;
    slp_presolve_t *p = x->p;
    const slp_csr_t *a = &lp->A;
    int64_t m = lp->m_loc, n = lp->n_loc;
    int stage = p->nstages;
    double sg = lp->sense < 0 ? -1.0 : 1.0;
    const double *pick = x->rbuf;
    /* The pivot's holder gives the row's dual c_j / a_ij (file sense) to its grid
     * row, and marks the column for its grid column. */
    double *yrow = x->rbuf + m;
    memset(yrow, 0, (size_t)m * sizeof(double));
    memset(x->cbuf, 0, (size_t)n * sizeof(double));
    for (int64_t i = 0; i < m; i++) {
        int64_t k = ps_entry_of(lp, i, pick[i]);
        if (k >= 0) {
            yrow[i] = lp->obj[a->col_idx[k]] / a->val[k];
            x->cbuf[a->col_idx[k]] = 1.0;
        }
    }
    SLP_CALL(slp_sum_over_row(x->grid, yrow, m));
    SLP_CALL(slp_max_over_col(x->grid, x->cbuf, n));
    for (int64_t j = 0; j < n; j++) /* the marks, before cbuf takes the costs' changes */
        x->col_kill[j] = x->cbuf[j] > 0.0;
    /* The row's other columns take the cost: c_k -= a_ik y_i; c0 += b y_i. */
    double *dc = x->cbuf, *dcmag = x->cbuf + n, rows = 0.0, shift = 0.0;
    memset(dc, 0, 2 * (size_t)n * sizeof(double));
    for (int64_t i = 0; i < m; i++) {
        x->row_kill[i] = isfinite(pick[i]);
        x->row_flags[i] = x->row_kill[i] ? ENTRY_PIVOT : 0;
        if (!x->row_kill[i])
            continue;
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            dc[a->col_idx[k]] += a->val[k] * yrow[i];
            dcmag[a->col_idx[k]] += fabs(a->val[k] * yrow[i]);
        }
        rows += 1.0;
        shift += rhs[i] * yrow[i];
        p->row_rhs[i] = rhs[i];
        p->row_dual[i] = sg * yrow[i];
        p->row_stage[i] = stage;
        lp->lc[i] = -INFINITY;
        lp->uc[i] = INFINITY;
    }
    SLP_CALL(slp_sum_over_col(x->grid, dc, 2 * n));
    double cols = 0.0;
    for (int64_t j = 0; j < n; j++) {
        if (!x->col_kill[j])
            continue; /* its cost changes below */
        cols += 1.0;
        ps_remove_column(p, (int32_t)j, stage, 0.0, 0.0); /* x set by the undo */
        lp->obj[j] = 0.0;
        lp->lv[j] = lp->uv[j] = 0.0;
    }
    ps_cost_update(x, dc, dcmag);
    int64_t removed = 0;
    ps_compact_block(x, stage, &removed);
    double colv[1] = {cols}, rowv[2] = {rows, shift}, blk[1] = {(double)removed};
    SLP_CALL(ps_batch_sums(x->grid, colv, 1, rowv, 2, blk, 1));
    lp->obj_const += rowv[1];
    if (rowv[0] > 0.0) {
        ps_commit_stage(p, STAGE_SUBST);
        ps_add_count(p, SLP_PRESOLVE_FREE_COL, rowv[0], colv[0], blk[0]);
        *changed += (int64_t)rowv[0];
    }
    return SLP_OK;
}

slp_err ps_pass_free_singleton(ps_ctx_t *x, int64_t *changed)
{
    int64_t m = x->lp->m_loc;
    double *rhs = NULL;
    SLP_CALL(ps_alloc_all(x, &rhs, (size_t)m + 1, sizeof(double)));
    slp_err rc = ps_col_counts(x);
    if (rc == SLP_OK)
        rc = pick_pivots(x, rhs);
    if (rc == SLP_OK)
        rc = substitute(x, rhs, changed);
    free(rhs);
    return rc;
}

/* Undo a substitution stage: x_j = (b_i - sum_{k != j} a_ik x_k) / a_ij from the
 * row's recorded entries, y_i = c_j / a_ij (kept), z_j = 0; the other columns'
 * reduced costs are unchanged (their costs already carried a_ik y_i). */
slp_err ps_undo_subst(const ps_undo_t *u, int s, ps_span_t span)
{
    slp_grid_t *grid = u->grid;
    const slp_presolve_t *p = u->p;
    double *xv = u->x, *z = u->z, *y = u->y, *cb = u->cb, *rb = u->rb;
    int64_t n = p->n_loc, m = p->m_loc;
    memset(rb, 0, (size_t)m * sizeof(double));
    ps_cursor_t c = ps_cursor(p, span);
    for (ps_entry_t en; ps_next(&c, &en);)
        if (!(en.flags & ENTRY_PIVOT))
            rb[en.row] += en.val * xv[en.col];
    SLP_CALL(slp_sum_over_row(grid, rb, m));
    memset(cb, 0, (size_t)n * sizeof(double));
    c = ps_cursor(p, span);
    for (ps_entry_t en; ps_next(&c, &en);)
        if (en.flags & ENTRY_PIVOT)
            cb[en.col] = (p->row_rhs[en.row] - rb[en.row]) / en.val;
    SLP_CALL(slp_sum_over_col(grid, cb, n));
    for (int64_t j = 0; j < n; j++)
        if (p->col_stage[j] == s) {
            xv[j] = cb[j];
            z[j] = 0.0;
        }
    for (int64_t i = 0; i < m; i++)
        if (p->row_stage[i] == s)
            y[i] = p->row_dual[i];
    return SLP_OK;
}
