/* Reductions of single lines (docs/presolve.md, passes 1-5): singleton rows (and the
 * paper's lc = uc = 0 ones), fixed columns, empty rows and columns; and the undo of
 * their stages (fixed columns, singleton rows). */
#include "presolve/presolve_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "core/timer.h"
#include "grid/reduce.h"

/* Implied bounds on x_k from lc <= a x_k <= uc. */
static void implied_bounds(double lc, double uc, double a, double *lo, double *hi)
{
    *lo = (a > 0.0 ? lc : uc) / a;
    *hi = (a > 0.0 ? uc : lc) / a;
}

/* Rows with one nonzero globally (paper: only those with lc = uc = 0) become
 * bounds on their variable; the row is removed. Marks in col_mark the columns
 * whose bounds changed. */
static slp_err singleton_rows(ps_ctx_t *x, int paper, int kind, int64_t *changed)
{
    slp_local_problem_t *lp = x->lp;
    slp_presolve_t *p = x->p;
    slp_csr_t *a = &lp->A;
    int64_t n = lp->n_loc, m = lp->m_loc;
    int stage = p->nstages;
    SLP_CALL(ps_row_counts(x));
    /* Eligibility, decided by the rank holding the entry, shared over row_comm. */
    for (int64_t i = 0; i < m; i++) {
        int64_t local = a->row_ptr[i + 1] - a->row_ptr[i];
        int cand = p->row_stage[i] < 0 && x->rcnt[i] == 1 &&
                   (!paper || (lp->lc[i] == 0.0 && lp->uc[i] == 0.0));
        int64_t ok = 0;
        if (cand && local == 1) {
            double av = a->val[a->row_ptr[i]], lo, hi;
            if (fabs(av) > SLP_PS_MIN_PIVOT) {
                implied_bounds(lp->lc[i], lp->uc[i], av, &lo, &hi);
                ok = (!isfinite(lo) || fabs(lo) < SLP_PS_INF_BOUND) &&
                     (!isfinite(hi) || fabs(hi) < SLP_PS_INF_BOUND) && !isnan(lo) && !isnan(hi);
            }
        }
        x->rcnt[i] = ok; /* reuse: eligibility */
    }
    SLP_CALL(slp_comm_sum_i64(x->grid->row_comm, x->rcnt, m));
    SLP_CALL(ps_bounds_reset(x));
    /* pass 0 proposes each row's bounds (the strictest kept over col_comm), pass 1 names
     * the row that set each bound */
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t i = 0; i < m; i++) {
            if (x->rcnt[i] != 1 || a->row_ptr[i + 1] - a->row_ptr[i] != 1)
                continue;
            int64_t k = a->row_ptr[i];
            double lo, hi;
            implied_bounds(lp->lc[i], lp->uc[i], a->val[k], &lo, &hi);
            if (pass == 0)
                ps_bound_propose(x, a->col_idx[k], lo, hi);
            else
                ps_bound_source(x, a->col_idx[k], lo, hi, (double)(lp->row_lo + i));
        }
        if (pass == 0)
            SLP_CALL(slp_max_over_col(x->grid, x->cbuf, 2 * n));
    }
    double crossed = 0.0, tightened = 0.0;
    SLP_CALL(ps_bounds_apply(x, &crossed, &tightened));
    /* Remove the rows; the holder records its entry with the source flags. */
    double rows = 0.0;
    memset(x->col_kill, 0, (size_t)n);
    for (int64_t i = 0; i < m; i++) {
        x->row_kill[i] = x->rcnt[i] == 1;
        x->row_flags[i] = 0;
        if (!x->row_kill[i])
            continue;
        rows += 1.0;
        if (a->row_ptr[i + 1] - a->row_ptr[i] == 1)
            x->row_flags[i] = ps_bound_flags(x, a->col_idx[a->row_ptr[i]],
                                             (double)(lp->row_lo + i));
        lp->lc[i] = -INFINITY;
        lp->uc[i] = INFINITY;
        p->row_stage[i] = stage;
    }
    ps_bounds_done(x);
    int64_t removed = 0;
    ps_compact_block(x, stage, &removed);
    double colv[2] = {crossed, tightened}, rowv[1] = {rows}, blk[1] = {(double)removed};
    SLP_CALL(ps_batch_sums(x->grid, colv, 2, rowv, 1, blk, 1));
    if (rowv[0] > 0.0) {
        ps_commit_stage(p, STAGE_SINGLETON);
        ps_add_count(p, kind, rowv[0], 0.0, blk[0]);
        *changed += (int64_t)rowv[0];
    }
    if (colv[0] > 0.0) {
        x->status = SLP_STATUS_PRIMAL_INFEASIBLE;
        slp_log_verbose("presolve: %.0f column(s) with crossing implied bounds\n", colv[0]);
    }
    return SLP_OK;
}


/* Singleton rows (paper: only the lc = uc = 0 ones) become bounds, then the columns whose
 * bounds met are removed, counted under `kind`. */
static slp_err singletons_then_fixed(ps_ctx_t *x, int paper, int kind, int64_t *changed)
{
    SLP_CALL(singleton_rows(x, paper, kind, changed));
    if (x->status >= 0)
        return SLP_OK;
    return ps_pass_fixcol(x, kind, x->col_mark, changed);
}

/* The paper's rows (lc = uc = 0, one nonzero) fix their column at 0. */
slp_err ps_pass_paper(ps_ctx_t *x, int64_t *changed)
{
    return singletons_then_fixed(x, 1, SLP_PRESOLVE_PAPER, changed);
}

/* Columns with lv = uv. */
slp_err ps_pass_fixed(ps_ctx_t *x, int64_t *changed)
{
    return ps_pass_fixcol(x, SLP_PRESOLVE_FIXED, NULL, changed);
}

/* Singleton rows become bounds on their variable. */
slp_err ps_pass_singleton(ps_ctx_t *x, int64_t *changed)
{
    return singletons_then_fixed(x, 0, SLP_PRESOLVE_SINGLETON, changed);
}

/* Rows without entries: 0 must lie in [lc, uc] (up to a tolerance), then the
 * row is removed. */
slp_err ps_pass_empty_rows(ps_ctx_t *x, int64_t *changed)
{
    slp_local_problem_t *lp = x->lp;
    slp_presolve_t *p = x->p;
    int64_t m = lp->m_loc;
    int stage = p->nstages;
    SLP_CALL(ps_row_counts(x));
    double rows = 0.0, bad = 0.0;
    for (int64_t i = 0; i < m; i++) {
        if (p->row_stage[i] >= 0 || x->rcnt[i] != 0)
            continue;
        /* Judged against the row's own bounds: a relative tolerance of the original
         * bound plus the rounding error of the substituted sum (a few ulps of the
         * magnitudes moved into the bounds), never a fraction of those magnitudes. */
        double slack_lo = SLP_PS_FEAS_TOL * (1.0 + (isfinite(p->lc[i]) ? fabs(p->lc[i]) : 0.0)) +
                          16.0 * DBL_EPSILON * x->rowmag[i];
        double slack_hi = SLP_PS_FEAS_TOL * (1.0 + (isfinite(p->uc[i]) ? fabs(p->uc[i]) : 0.0)) +
                          16.0 * DBL_EPSILON * x->rowmag[i];
        if (lp->lc[i] > slack_lo || lp->uc[i] < -slack_hi)
            bad += 1.0;
        lp->lc[i] = -INFINITY;
        lp->uc[i] = INFINITY;
        p->row_stage[i] = stage;
        rows += 1.0;
    }
    double rowv[2] = {rows, bad};
    SLP_CALL(ps_batch_sums(x->grid, NULL, 0, rowv, 2, NULL, 0));
    if (rowv[0] > 0.0) {
        ps_commit_stage(p, STAGE_EMPTYROW);
        ps_add_count(p, SLP_PRESOLVE_EMPTY_ROW, rowv[0], 0.0, 0.0);
        *changed += (int64_t)rowv[0];
    }
    if (rowv[1] > 0.0) {
        x->status = SLP_STATUS_PRIMAL_INFEASIBLE;
        slp_log_verbose("presolve: %.0f empty row(s) exclude 0\n", rowv[1]);
    }
    return SLP_OK;
}

/* Columns without entries: fixed at the bound minimising c_j x_j (min form),
 * then removed like fixed columns. An infinite such bound with c_j != 0 means
 * the objective improves without limit: dual infeasible. */
slp_err ps_pass_empty_cols(ps_ctx_t *x, int64_t *changed)
{
    slp_local_problem_t *lp = x->lp;
    slp_presolve_t *p = x->p;
    int64_t n = lp->n_loc;
    double sg = lp->sense < 0 ? -1.0 : 1.0;
    SLP_CALL(ps_col_counts(x));
    double unbounded = 0.0;
    for (int64_t j = 0; j < n; j++) {
        x->col_mark[j] = p->col_stage[j] < 0 && x->ccnt[j] == 0;
        if (!x->col_mark[j])
            continue;
        double cmin = sg * lp->obj[j], l = lp->lv[j], u = lp->uv[j], v;
        if (cmin > 0.0)
            v = l;
        else if (cmin < 0.0)
            v = u;
        else
            v = isfinite(l) ? l : isfinite(u) ? u : 0.0;
        if (!isfinite(v)) { /* improving without limit: a primal ray, if the rest is feasible */
            unbounded += 1.0;
            p->col_ray[j] = cmin < 0.0 ? 1 : -1;
            v = isfinite(l) ? l : isfinite(u) ? u : 0.0;
        }
        lp->lv[j] = lp->uv[j] = v;
    }
    double colv[1] = {unbounded};
    SLP_CALL(ps_batch_sums(x->grid, colv, 1, NULL, 0, NULL, 0));
    if (colv[0] > 0.0) {
        p->unbounded_cols += (int64_t)colv[0];
        slp_log_verbose("presolve: %.0f empty column(s) unbounded in the objective direction\n",
                        colv[0]);
    }
    return ps_pass_fixcol(x, SLP_PRESOLVE_EMPTY_COL, x->col_mark, changed);
}


/* Undo a STAGE_FIXCOL stage: the columns take their values, z_j = c_j - A^T y over the
 * entries they had. */
slp_err ps_undo_fixcol(const ps_undo_t *u, int s, ps_span_t span)
{
    const slp_presolve_t *p = u->p;
    for (int64_t j = 0; j < p->n_loc; j++)
        if (p->col_stage[j] == s)
            u->x[j] = p->col_val[j];
    return ps_undo_removed_costs(u->grid, p, s, span, u->z, u->y, u->cb);
}

/* Undo a STAGE_SINGLETON stage: a row that set the bound on which z_k pushes takes over
 * z_k. */
slp_err ps_undo_singleton(const ps_undo_t *u, int s, ps_span_t span)
{
    const slp_presolve_t *p = u->p;
    int64_t n = p->n_loc, m = p->m_loc;
    double *z = u->z, *cb = u->cb, *rb = u->rb;
    memset(cb, 0, (size_t)n * sizeof(double));
    memset(rb, 0, (size_t)m * sizeof(double));
    ps_cursor_t c = ps_cursor(p, span);
    for (ps_entry_t en; ps_next(&c, &en);) {
        double zk = z[en.col];
        if (((en.flags & ENTRY_SET_LO) && zk > 0.0) || ((en.flags & ENTRY_SET_HI) && zk < 0.0)) {
            rb[en.row] += zk / en.val;
            cb[en.col] -= zk;
        }
    }
    SLP_CALL(slp_sum_over_col(u->grid, cb, n));
    SLP_CALL(slp_sum_over_row(u->grid, rb, m));
    for (int64_t j = 0; j < n; j++)
        z[j] += cb[j];
    for (int64_t i = 0; i < m; i++)
        if (p->row_stage[i] == s)
            u->y[i] = rb[i];
    return SLP_OK;
}
