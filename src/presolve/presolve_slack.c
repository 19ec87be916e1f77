/* Zero-cost column singletons (docs/presolve.md, pass 9, and "Recovery"). A column s
 * with one entry a, in row i, and no cost is the row's slack: with r the rest of the
 * row, lc <= r + a x_s <= uc for some x_s in [l, u] says exactly
 *   r in [lc - a u, uc - a l]   (a > 0; a < 0 exchanges l and u),
 * so the column goes and the row keeps its other entries with these bounds. Its dual
 * does not change; recovery puts x_s where the row's dual says the row sits and
 * gives it z_s = -a y_i.
 * Column facts are sums over col_comm, row facts over row_comm. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid/comm.h"
#include "grid/reduce.h"
#include "presolve/presolve_internal.h"

/* A slack is taken only when its finite widening is at most this times the row's own
 * scale, 1 + its largest finite bound: a wider range would give the row the slack's
 * scale instead of its own (docs/presolve.md, pass 9: the grow LPs). */
#define SLACK_RANGE_LIMIT 100.0

static double finite_abs(double v) { return isfinite(v) ? fabs(v) : 0.0; }

/* The changes of row i's bounds when a slack with entry a and bounds [l, u] goes:
 * lc += *dlc (-inf or finite), uc += *duc (finite or +inf). Returns 0 when the finite
 * widening exceeds the range limit or a widened bound would be finite but as large as
 * the "infinite" threshold. */
static int widening(double a, double lc, double uc, double l, double u, double *dlc, double *duc)
{
    *dlc = -a * (a > 0.0 ? u : l);
    *duc = -a * (a > 0.0 ? l : u);
    double nl = lc + *dlc, nu = uc + *duc;
    double scale = 1.0 + fmax(finite_abs(lc), finite_abs(uc));
    return fmax(finite_abs(*dlc), finite_abs(*duc)) <= SLACK_RANGE_LIMIT * scale &&
           !(isfinite(nl) && fabs(nl) >= SLP_PS_INF_BOUND) &&
           !(isfinite(nu) && fabs(nu) >= SLP_PS_INF_BOUND);
}

/* Can entry k (row i, column j) be taken as the row's slack? */
static int is_slack(const ps_ctx_t *x, int64_t i, int64_t k)
{
    const slp_local_problem_t *lp = x->lp;
    int32_t j = lp->A.col_idx[k];
    double a = lp->A.val[k], dlc, duc;
    return x->ccnt[j] == 1 && x->rcnt[i] >= 2 && x->p->col_stage[j] < 0 && lp->obj[j] == 0.0 &&
           lp->lv[j] < lp->uv[j] && fabs(a) >= SLP_PS_MIN_PIVOT &&
           widening(a, lp->lc[i], lp->uc[i], lp->lv[j], lp->uv[j], &dlc, &duc);
}

/* Per kept row, the lowest global index of a slack column (+inf: none), agreed over
 * row_comm, in pick[0..m). */
static slp_err pick_slacks(ps_ctx_t *x, double *pick)
{
    const slp_local_problem_t *lp = x->lp;
    const slp_csr_t *a = &lp->A;
    for (int64_t i = 0; i < lp->m_loc; i++) {
        pick[i] = INFINITY;
        for (int64_t k = a->row_ptr[i]; x->p->row_stage[i] < 0 && k < a->row_ptr[i + 1]; k++)
            if (is_slack(x, i, k))
                pick[i] = fmin(pick[i], (double)(lp->col_lo + a->col_idx[k]));
    }
    return slp_comm_min(x->grid->row_comm, pick, lp->m_loc);
}

/* The holder of each chosen slack records it, gives its row the widening (shift[i],
 * shift[m + i], summed over row_comm) and marks the column (cbuf, maxed over col_comm);
 * every rank of the row's grid row copies its other entries of the row. */
static slp_err record_slacks(ps_ctx_t *x, const double *pick, double *shift, int stage)
{
    slp_local_problem_t *lp = x->lp;
    slp_presolve_t *p = x->p;
    const slp_csr_t *a = &lp->A;
    int64_t m = lp->m_loc, n = lp->n_loc;
    memset(shift, 0, 2 * (size_t)m * sizeof(double));
    memset(x->cbuf, 0, (size_t)n * sizeof(double));
    for (int64_t i = 0; i < m; i++) {
        if (!isfinite(pick[i]))
            continue;
        int64_t pivot = ps_entry_of(lp, i, pick[i]);
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            if (k != pivot)
                ps_push_entry(p, i, a->col_idx[k], a->val[k], stage, ENTRY_COPY);
        if (pivot < 0)
            continue;
        int32_t j = a->col_idx[pivot];
        double v = a->val[pivot];
        widening(v, lp->lc[i], lp->uc[i], lp->lv[j], lp->uv[j], &shift[i], &shift[m + i]);
        if (ps_grow(p, &p->slack, &p->cap_slack, p->n_slack + 1, sizeof *p->slack, 64,
                    "presolve's slack columns"))
            p->slack[p->n_slack++] = (slack_rec_t){(int32_t)i, j, stage, v, lp->lc[i],
                                                   lp->uc[i], lp->lv[j], lp->uv[j]};
        x->cbuf[j] = 1.0;
    }
    SLP_CALL(slp_sum_over_row(x->grid, shift, 2 * m));
    return slp_max_over_col(x->grid, x->cbuf, n);
}

/* Widen the rows, remove the columns and their entries; count and commit the stage. */
static slp_err apply_slacks(ps_ctx_t *x, const double *shift, int stage, int64_t *changed)
{
    slp_local_problem_t *lp = x->lp;
    int64_t m = lp->m_loc, n = lp->n_loc;
    for (int64_t i = 0; i < m; i++) {
        x->row_kill[i] = 0;
        x->row_flags[i] = 0;
        lp->lc[i] += shift[i];
        lp->uc[i] += shift[m + i];
        x->widen[i] += shift[i];
        x->widen[m + i] += shift[m + i];
        x->rowmag[i] += finite_abs(shift[i]) + finite_abs(shift[m + i]);
    }
    double cols = 0.0;
    for (int64_t j = 0; j < n; j++) {
        x->col_kill[j] = x->cbuf[j] > 0.0;
        if (!x->col_kill[j])
            continue;
        cols += 1.0;
        ps_remove_column(x->p, (int32_t)j, stage, 0.0, 0.0); /* x set by the undo */
        lp->lv[j] = lp->uv[j] = 0.0;
    }
    int64_t removed = 0;
    ps_compact_block(x, stage, &removed);
    double colv[1] = {cols}, blk[1] = {(double)removed};
    SLP_CALL(ps_batch_sums(x->grid, colv, 1, NULL, 0, blk, 1));
    if (colv[0] > 0.0) {
        ps_commit_stage(x->p, STAGE_SLACK);
        ps_add_count(x->p, SLP_PRESOLVE_SLACK_COL, 0.0, colv[0], blk[0]);
        *changed += (int64_t)colv[0];
    }
    return SLP_OK;
}

slp_err ps_pass_slack(ps_ctx_t *x, int64_t *changed)
{
    int64_t m = x->lp->m_loc;
    int stage = x->p->nstages;
    double *pick = NULL, *shift = NULL;
    slp_err rc = ps_alloc_all(x, &pick, (size_t)m + 1, sizeof(double));
    if (rc == SLP_OK)
        rc = ps_alloc_all(x, &shift, 2 * (size_t)m + 1, sizeof(double));
    if (rc == SLP_OK)
        rc = ps_row_counts(x);
    if (rc == SLP_OK)
        rc = ps_col_counts(x);
    if (rc == SLP_OK)
        rc = pick_slacks(x, pick);
    if (rc == SLP_OK)
        rc = record_slacks(x, pick, shift, stage);
    if (rc == SLP_OK)
        rc = apply_slacks(x, shift, stage, changed);
    free(pick);
    free(shift);
    return rc;
}

/* x_s within [l, u] that puts the row where its dual y (min form) says it sits: at lc
 * when y > 0, at uc when y < 0; otherwise the point nearest 0 of the values that keep
 * the row within its bounds. r is the rest of the row. */
static double slack_value(const slack_rec_t *k, double r, double y)
{
    double at_lc = (k->lc - r) / k->a, at_uc = (k->uc - r) / k->a;
    if (y > 0.0 && isfinite(k->lc))
        return fmin(fmax(at_lc, k->l), k->u);
    if (y < 0.0 && isfinite(k->uc))
        return fmin(fmax(at_uc, k->l), k->u);
    return ps_nearest_zero(fmin(at_lc, at_uc), fmax(at_lc, at_uc), k->l, k->u);
}

/* Undo a slack stage: r_i from the row's copied entries (summed over row_comm), then
 * x_s and z_s = -a y_i from the holder (each summed over col_comm). The row's dual is
 * final already: the row was kept at this stage. */
slp_err ps_undo_slack(const ps_undo_t *u, int s, ps_span_t span)
{
    slp_grid_t *grid = u->grid;
    const slp_presolve_t *p = u->p;
    double *xv = u->x, *z = u->z, *cb = u->cb, *rb = u->rb;
    const double *y = u->y;
    int64_t n = p->n_loc, m = p->m_loc;
    memset(rb, 0, (size_t)m * sizeof(double));
    ps_cursor_t c = ps_cursor(p, span);
    for (ps_entry_t en; ps_next(&c, &en);)
        if (en.flags & ENTRY_COPY)
            rb[en.row] += en.val * xv[en.col];
    SLP_CALL(slp_sum_over_row(grid, rb, m));
    for (int pass = 0; pass < 2; pass++) { /* 0: the values, 1: the reduced costs */
        memset(cb, 0, (size_t)n * sizeof(double));
        for (int64_t k = 0; k < p->n_slack; k++) {
            const slack_rec_t *r = &p->slack[k];
            if (r->stage == s)
                cb[r->col] = pass == 0 ? slack_value(r, rb[r->row], y[r->row]) : -r->a * y[r->row];
        }
        SLP_CALL(slp_sum_over_col(grid, cb, n));
        for (int64_t j = 0; j < n; j++)
            if (p->col_stage[j] == s)
                *(pass == 0 ? &xv[j] : &z[j]) = cb[j];
    }
    return SLP_OK;
}
