/* Row passes from activity bounds (docs/presolve.md, pass 6, and "Recovery"):
 * the least and greatest value a_i x can take over the column bounds decide
 * whether row i is infeasible, redundant (always satisfied: removed) or forcing
 * (its bound can only be met with every column at one bound: the columns are
 * fixed and the row removed). The activity bounds are sums over row_comm of
 * each rank's block contributions; every rank of a grid row decides alike. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "grid/reduce.h"
#include "presolve/presolve_internal.h"

slp_err ps_row_activity(ps_ctx_t *x, double *act)
{
    const slp_local_problem_t *lp = x->lp;
    const slp_csr_t *a = &lp->A;
    int64_t m = lp->m_loc;
    memset(act, 0, ACT_COUNT * (size_t)m * sizeof(double));
    for (int64_t i = 0; i < m; i++)
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            double v = a->val[k], l = lp->lv[a->col_idx[k]], u = lp->uv[a->col_idx[k]];
            if (v == 0.0)
                continue;
            double lo = ps_least_term(v, l, u), hi = ps_greatest_term(v, l, u);
            if (isfinite(lo))
                act[ACT_LO * m + i] += lo;
            else
                act[ACT_NLO * m + i] += 1.0;
            if (isfinite(hi))
                act[ACT_HI * m + i] += hi;
            else
                act[ACT_NHI * m + i] += 1.0;
            act[ACT_MAG * m + i] += fmax(isfinite(lo) ? fabs(lo) : 0.0, isfinite(hi) ? fabs(hi) : 0.0);
        }
    return slp_sum_over_row(x->grid, act, ACT_COUNT * m);
}

/* The least / greatest activity of row i (-inf / +inf when a term is infinite). */
static double least(const double *act, int64_t m, int64_t i)
{
    return act[ACT_NLO * m + i] > 0.0 ? -INFINITY : act[ACT_LO * m + i];
}
static double greatest(const double *act, int64_t m, int64_t i)
{
    return act[ACT_NHI * m + i] > 0.0 ? INFINITY : act[ACT_HI * m + i];
}

/* The rounding of row i's activity sums and of the values moved into its bounds. */
static double row_rounding(const ps_ctx_t *x, const double *act, int64_t i)
{
    return 16.0 * DBL_EPSILON * (act[ACT_MAG * x->lp->m_loc + i] + x->rowmag[i]);
}

/* Tolerance of the infeasible and redundant tests of row i: relative to its bounds,
 * plus the rounding. */
static double row_tolerance(const ps_ctx_t *x, const double *act, int64_t i)
{
    const slp_local_problem_t *lp = x->lp;
    double b = fmax(isfinite(lp->lc[i]) ? fabs(lp->lc[i]) : 0.0,
                    isfinite(lp->uc[i]) ? fabs(lp->uc[i]) : 0.0);
    return SLP_PS_FEAS_TOL * (1.0 + b) + row_rounding(x, act, i);
}

/* Classify every kept row with entries: row_kill, row_flags (ENTRY_FORCE_*), and
 * the counts (rows, their local entries) of each kind in cnt[0..5): redundant
 * rows, redundant entries, forcing rows, forcing entries, infeasible rows; *first_bad
 * is 2 g + (0: least activity above uc, 1: greatest below lc) for the lowest global
 * index g of an infeasible row (or +inf). */
static void classify_rows(ps_ctx_t *x, const double *act, double *cnt, double *first_bad)
{
    slp_local_problem_t *lp = x->lp;
    const slp_csr_t *a = &lp->A;
    int64_t m = lp->m_loc;
    for (int64_t i = 0; i < m; i++) {
        x->row_kill[i] = 0;
        x->row_flags[i] = 0;
        if (x->p->row_stage[i] >= 0 || x->rcnt[i] == 0)
            continue;
        double lo = least(act, m, i), hi = greatest(act, m, i), tol = row_tolerance(x, act, i);
        /* Forcing fixes columns at bounds, which moves the row's slack into every other
         * row of those columns: only a slack of rounding size may go (a slack within
         * the feasibility tolerance alone could make another row infeasible). */
        double exact = row_rounding(x, act, i);
        double local = (double)(a->row_ptr[i + 1] - a->row_ptr[i]);
        if (lo > lp->uc[i] + tol || hi < lp->lc[i] - tol) {
            cnt[4] += 1.0;
            double side = lo > lp->uc[i] + tol ? 0.0 : 1.0;
            *first_bad = fmin(*first_bad, 2.0 * (double)(lp->row_lo + i) + side);
        } else if (lo >= lp->lc[i] - tol && hi <= lp->uc[i] + tol) {
            x->row_kill[i] = 1;
            cnt[0] += 1.0;
            cnt[1] += local;
        } else if (isfinite(lp->uc[i]) && lo >= lp->uc[i] - exact) {
            x->row_kill[i] = 1;
            x->row_flags[i] = ENTRY_FORCE_HI;
            cnt[2] += 1.0;
            cnt[3] += local;
        } else if (isfinite(lp->lc[i]) && hi <= lp->lc[i] + exact) {
            x->row_kill[i] = 1;
            x->row_flags[i] = ENTRY_FORCE_LO;
            cnt[2] += 1.0;
            cnt[3] += local;
        }
    }
}

/* Fix the columns of the forcing rows at the bound their row needs (agreed over
 * col_comm); marks them in col_mark. Returns the number of columns asked for
 * both bounds of a nonempty interval (infeasible). */
static slp_err fix_forced_columns(ps_ctx_t *x, double *conflicts)
{
    slp_local_problem_t *lp = x->lp;
    const slp_csr_t *a = &lp->A;
    int64_t n = lp->n_loc;
    double *to_lo = x->cbuf, *to_hi = x->cbuf + n;
    memset(x->cbuf, 0, 2 * (size_t)n * sizeof(double));
    for (int64_t i = 0; i < lp->m_loc; i++) {
        if (!(x->row_flags[i] & (ENTRY_FORCE_LO | ENTRY_FORCE_HI)))
            continue;
        int at_least = x->row_flags[i] & ENTRY_FORCE_HI; /* activity at its least */
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            int lower = (a->val[k] > 0.0) == (at_least != 0);
            (lower ? to_lo : to_hi)[a->col_idx[k]] = 1.0;
        }
    }
    SLP_CALL(slp_max_over_col(x->grid, x->cbuf, 2 * n));
    *conflicts = 0.0;
    for (int64_t j = 0; j < n; j++) {
        x->col_mark[j] = to_lo[j] > 0.0 || to_hi[j] > 0.0;
        if (!x->col_mark[j])
            continue;
        double l = lp->lv[j], u = lp->uv[j];
        if (to_lo[j] > 0.0 && to_hi[j] > 0.0 &&
            u - l > SLP_PS_FEAS_TOL * (1.0 + fmax(fabs(l), fabs(u))))
            *conflicts += 1.0;
        lp->lv[j] = lp->uv[j] = to_lo[j] > 0.0 ? l : u;
    }
    return SLP_OK;
}

slp_err ps_pass_activity(ps_ctx_t *x, int64_t *changed)
{
    slp_local_problem_t *lp = x->lp;
    slp_presolve_t *p = x->p;
    int64_t m = lp->m_loc;
    int stage = p->nstages;
    double *act = NULL;
    SLP_CALL(ps_alloc_all(x, &act, ACT_COUNT * (size_t)m + 1, sizeof(double)));
    slp_err rc = ps_row_counts(x);
    if (rc == SLP_OK)
        rc = ps_row_activity(x, act);
    double cnt[5] = {0}, first_bad = INFINITY, conflicts = 0.0;
    if (rc == SLP_OK)
        classify_rows(x, act, cnt, &first_bad);
    free(act);
    SLP_CALL(rc);
    /* Counts: rows are m-space (grid column 0 counts them), entries per block. */
    double rowv[3] = {cnt[0], cnt[2], cnt[4]}, blk[2] = {cnt[1], cnt[3]};
    SLP_CALL(ps_batch_sums(x->grid, NULL, 0, rowv, 3, blk, 2));
    SLP_CALL(slp_comm_min(x->grid->world, &first_bad, 1));
    if (rowv[2] > 0.0) {
        x->status = SLP_STATUS_PRIMAL_INFEASIBLE;
        double row = floor(first_bad / 2.0);
        int above = first_bad - 2.0 * row == 0.0;
        p->stats.infeasible_row = (int64_t)row;
        p->stats.infeasible_side = above ? 1 : -1;
        slp_log("Presolve: row %.0f cannot meet its bounds: its %s activity is %s its %s bound "
                "(%.0f such row%s)\n", row + 1.0, above ? "least" : "greatest",
                above ? "above" : "below", above ? "upper" : "lower", rowv[2],
                rowv[2] == 1.0 ? "" : "s");
        return SLP_OK;
    }
    if (rowv[0] + rowv[1] == 0.0)
        return SLP_OK;
    SLP_CALL(fix_forced_columns(x, &conflicts));
    for (int64_t i = 0; i < m; i++)
        if (x->row_kill[i]) {
            lp->lc[i] = -INFINITY;
            lp->uc[i] = INFINITY;
            p->row_stage[i] = stage;
        }
    memset(x->col_kill, 0, (size_t)lp->n_loc);
    int64_t removed = 0;
    ps_compact_block(x, stage, &removed);
    ps_commit_stage(p, STAGE_FORCING);
    ps_add_count(p, SLP_PRESOLVE_REDUNDANT, rowv[0], 0.0, blk[0]);
    ps_add_count(p, SLP_PRESOLVE_FORCING, rowv[1], 0.0, blk[1]);
    *changed += (int64_t)(rowv[0] + rowv[1]);
    double colv[1] = {conflicts};
    SLP_CALL(ps_batch_sums(x->grid, colv, 1, NULL, 0, NULL, 0));
    if (colv[0] > 0.0) {
        x->status = SLP_STATUS_PRIMAL_INFEASIBLE;
        slp_log("Presolve: %.0f column(s) forced to both bounds by forcing rows\n", colv[0]);
        return SLP_OK;
    }
    return ps_pass_fixcol(x, SLP_PRESOLVE_FORCING, x->col_mark, changed);
}

/* Undo a forcing stage: a row held at its upper bound takes y_i = min(0, min_j z_j / a_ij)
 * (at its lower bound max(0, max_j z_j / a_ij)), the smallest move that gives every
 * forced column's reduced cost the sign of the bound it sits at; then z_j -= a_ij y_i.
 * Redundant rows of the stage keep y_i = 0. rb holds 2 m values. */
slp_err ps_undo_forcing(const ps_undo_t *u, int s, ps_span_t span)
{
    slp_grid_t *grid = u->grid;
    const slp_presolve_t *p = u->p;
    double *z = u->z, *y = u->y, *cb = u->cb, *rb = u->rb;
    int64_t n = p->n_loc, m = p->m_loc;
    double *up = rb, *down = rb + m; /* max of -z/a (upper rows), of z/a (lower rows) */
    memset(rb, 0, 2 * (size_t)m * sizeof(double));
    ps_cursor_t c = ps_cursor(p, span);
    for (ps_entry_t en; ps_next(&c, &en);) {
        double t = z[en.col] / en.val;
        if (en.flags & ENTRY_FORCE_HI)
            up[en.row] = fmax(up[en.row], -t);
        else if (en.flags & ENTRY_FORCE_LO)
            down[en.row] = fmax(down[en.row], t);
    }
    SLP_CALL(slp_max_over_row(grid, rb, 2 * m));
    for (int64_t i = 0; i < m; i++)
        if (p->row_stage[i] == s)
            y[i] = down[i] - up[i];
    memset(cb, 0, (size_t)n * sizeof(double));
    c = ps_cursor(p, span);
    for (ps_entry_t en; ps_next(&c, &en);)
        cb[en.col] += en.val * y[en.row];
    SLP_CALL(slp_sum_over_col(grid, cb, n));
    for (int64_t j = 0; j < n; j++)
        z[j] -= cb[j];
    return SLP_OK;
}
