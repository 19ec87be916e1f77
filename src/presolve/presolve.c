/* Distributed presolve: the passes of presolve.h, and the recovery that undoes
 * them stage by stage in reverse order. Every formula is in docs/presolve.md.
 *
 * Internally the objective is read in MIN form (c_min = sense * c) wherever a
 * decision depends on its sign; lp itself stays in the file's sense because
 * the solver negates a maximisation itself. */
#include "presolve/presolve_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "core/timer.h"
#include "grid/reduce.h"

/* Passes of this file. */
static slp_err pass_singleton(ps_ctx_t *x, int paper, int kind, int64_t *changed);
static slp_err pass_empty_rows(ps_ctx_t *x, int64_t *changed);
static slp_err pass_empty_cols(ps_ctx_t *x, int64_t *changed);

const char *slp_presolve_kind_name(int kind)
{
    static const char *names[SLP_PRESOLVE_NKINDS] = {
        "paper", "fixed", "singleton", "empty_row", "empty_col",
        "redundant", "forcing", "dual_fix", "free_col", "slack_col", "doubleton",
        "parallel", "parallel_fix", "duplicate_row", "dominated"};
    return kind >= 0 && kind < SLP_PRESOLVE_NKINDS ? names[kind] : "?";
}

const slp_presolve_stats_t *slp_presolve_stats(const slp_presolve_t *pre)
{
    return &pre->stats;
}

const slp_norms_t *slp_presolve_norms(const slp_presolve_t *pre) { return &pre->norms; }

void slp_presolve_free(slp_presolve_t **pre)
{
    if (!pre || !*pre)
        return;
    slp_presolve_t *p = *pre;
    free(p->packed_cols);
    free(p->packed_rows);
    free(p->lc);
    free(p->uc);
    free(p->col_stage);
    free(p->col_val);
    free(p->col_obj);
    free(p->row_stage);
    free(p->row_rhs);
    free(p->row_dual);
    free(p->col_ray);
    free(p->ent);
    free(p->par);
    free(p->slack);
    free(p->stage_kind);
    free(p);
    *pre = NULL;
}

/* ------------------------------------------------------------ helpers */

/* One world sum for a batch: `col` are n-space values (replicated down grid
 * columns: only grid row 0 contributes), `row` m-space values (only grid
 * column 0 contributes), `blk` per-block values (every rank contributes). */
slp_err ps_batch_sums(slp_grid_t *grid, double *col, int ncol, double *row, int nrow,
                      double *blk, int nblk)
{
    double buf[SLP_PS_BATCH];
    int k = 0;
    if (ncol + nrow + nblk > SLP_PS_BATCH)
        return slp_error(SLP_ERR_INTERNAL, "presolve: reduction batch too large");
    for (int j = 0; j < ncol; j++)
        buf[k++] = grid->r == 0 ? col[j] : 0.0;
    for (int j = 0; j < nrow; j++)
        buf[k++] = grid->c == 0 ? row[j] : 0.0;
    for (int j = 0; j < nblk; j++)
        buf[k++] = blk[j];
    SLP_CALL(slp_comm_sum(grid->world, buf, k));
    k = 0;
    for (int j = 0; j < ncol; j++)
        col[j] = buf[k++];
    for (int j = 0; j < nrow; j++)
        row[j] = buf[k++];
    for (int j = 0; j < nblk; j++)
        blk[j] = buf[k++];
    return SLP_OK;
}

/* Test hook (tests/mpi/failures.sh): SLP_TEST_PRESOLVE_NOMEM=KIND:R makes world rank R
 * fail its first allocation of that kind, "scratch" (ps_alloc_all) or "record"
 * (ps_grow). Returns whether this allocation is the one to fail. */
static int injected_failure(const char *kind)
{
    static int done;
    const char *hook = getenv("SLP_TEST_PRESOLVE_NOMEM");
    size_t len = strlen(kind);
    if (done || !hook || strncmp(hook, kind, len) != 0 || hook[len] != ':' ||
        atoi(hook + len + 1) != slp_comm_rank(slp_comm_world()))
        return 0;
    done = 1;
    return 1;
}

/* A pass's scratch, allocated on every rank or on none: a rank that could not allocate
 * and returned would leave the others waiting in the pass's first collective.
 * Collective. */
slp_err ps_alloc_all(ps_ctx_t *x, void *out_ptr, size_t count, size_t size)
{
    slp_err rc;
    if (injected_failure("scratch")) {
        *(void **)out_ptr = NULL;
        rc = slp_error(SLP_ERR_NOMEM, "presolve: out of memory (%zu bytes of scratch; "
                       "injected by SLP_TEST_PRESOLVE_NOMEM)", count * size);
    } else {
        rc = slp_alloc(out_ptr, count, size);
    }
    rc = slp_comm_agree(x->grid->world, rc);
    if (rc != SLP_OK) {
        free(*(void **)out_ptr);
        *(void **)out_ptr = NULL;
    }
    return rc;
}

/* Global nonzeros of every row of row block r (sum over row_comm). */
slp_err ps_row_counts(ps_ctx_t *x)
{
    const slp_csr_t *a = &x->lp->A;
    for (int64_t i = 0; i < a->rows; i++)
        x->rcnt[i] = a->row_ptr[i + 1] - a->row_ptr[i];
    return slp_comm_sum_i64(x->grid->row_comm, x->rcnt, a->rows);
}

/* Global nonzeros of every column of column block c (sum over col_comm). */
slp_err ps_col_counts(ps_ctx_t *x)
{
    const slp_csr_t *a = &x->lp->A;
    memset(x->ccnt, 0, (size_t)a->cols * sizeof(int64_t));
    for (int64_t k = 0; k < a->nnz; k++)
        x->ccnt[a->col_idx[k]]++;
    return slp_comm_sum_i64(x->grid->col_comm, x->ccnt, a->cols);
}

int ps_grow(slp_presolve_t *p, void *array_ptr, int64_t *cap, int64_t need, size_t size,
            int64_t first, const char *what)
{
    if (p->deferred != SLP_OK)
        return 0;
    if (injected_failure("record"))
        p->deferred = slp_error(SLP_ERR_NOMEM, "presolve: out of memory for %s (injected by "
                                "SLP_TEST_PRESOLVE_NOMEM)", what);
    else
        p->deferred = slp_grow(array_ptr, cap, need, size, first, what);
    return p->deferred == SLP_OK;
}

void ps_push_entry(slp_presolve_t *p, int64_t row, int32_t col, double val, int stage, int flags)
{
    if (!ps_grow(p, &p->ent, &p->cap_ent, p->n_ent + 1, sizeof *p->ent, 1024,
                 "presolve's removed entries"))
        return;
    removed_entry_t *e = &p->ent[p->n_ent++];
    e->row = (int32_t)row;
    e->col = col;
    e->stage = stage;
    e->val = val;
    e->flags = (unsigned char)flags;
}

/* Delete from the block every entry whose row is in row_kill or whose column is
 * in col_kill, recording it under `stage` with its row's row_flags (ENTRY_*). */
void ps_compact_block(ps_ctx_t *x, int stage, int64_t *removed)
{
    slp_csr_t *a = &x->lp->A;
    int64_t out = 0;
    for (int64_t i = 0; i < a->rows; i++) {
        int64_t start = a->row_ptr[i], end = a->row_ptr[i + 1];
        a->row_ptr[i] = out;
        for (int64_t k = start; k < end; k++) {
            int32_t j = a->col_idx[k];
            if (x->row_kill[i] || x->col_kill[j]) {
                int flags = x->row_kill[i] ? x->row_flags[i] : 0;
                /* the pivot is the killed column's entry, the survivor the other one */
                flags &= x->col_kill[j] ? ~ENTRY_SURVIVOR : ~ENTRY_PIVOT;
                ps_push_entry(x->p, i, j, a->val[k], stage, flags);
            } else {
                a->col_idx[out] = j;
                a->val[out] = a->val[k];
                out++;
            }
        }
    }
    a->row_ptr[a->rows] = out;
    *removed = a->nnz - out;
    a->nnz = out;
}

void ps_commit_stage(slp_presolve_t *p, int kind)
{
    if (ps_grow(p, &p->stage_kind, &p->cap_stages, p->nstages + 1, 1, 32, "presolve's stages"))
        p->stage_kind[p->nstages++] = (unsigned char)kind;
}

void ps_add_count(slp_presolve_t *p, int kind, double rows, double cols, double nnz)
{
    p->stats.kind[kind].rows += (int64_t)rows;
    p->stats.kind[kind].cols += (int64_t)cols;
    p->stats.kind[kind].nnz += (int64_t)nnz;
}

void ps_cost_update(ps_ctx_t *x, const double *dc, const double *dcmag)
{
    slp_local_problem_t *lp = x->lp;
    for (int64_t j = 0; j < lp->n_loc; j++) {
        if (x->p->col_stage[j] >= 0 || (dc[j] == 0.0 && dcmag[j] == 0.0))
            continue;
        lp->obj[j] -= dc[j];
        x->costmag[j] += dcmag[j];
        if (fabs(lp->obj[j]) <= SLP_PS_COST_ROUNDING * x->costmag[j])
            lp->obj[j] = 0.0;
    }
}

/* ------------------------------------------------------------ passes */

/* Remove every kept column with lv = uv (restricted to `mask` when given):
 * move a_ij v into the row bounds and c_j v into obj_const, delete its entries,
 * neutralise the column (obj 0, bounds [0, 0]). */
slp_err ps_pass_fixcol(ps_ctx_t *x, int kind, const unsigned char *mask, int64_t *changed)
{
    slp_local_problem_t *lp = x->lp;
    slp_presolve_t *p = x->p;
    const slp_csr_t *a = &lp->A;
    int64_t n = lp->n_loc, m = lp->m_loc;
    int stage = p->nstages;
    double cols = 0.0, objshift = 0.0;
    for (int64_t j = 0; j < n; j++) {
        x->col_kill[j] = p->col_stage[j] < 0 && lp->lv[j] == lp->uv[j] && isfinite(lp->lv[j]) &&
                         (!mask || mask[j]);
        if (x->col_kill[j]) {
            cols += 1.0;
            objshift += lp->obj[j] * lp->lv[j];
        }
    }
    memset(x->row_kill, 0, (size_t)m);
    double *shift = x->rbuf, *mag = x->rbuf + m;
    memset(x->rbuf, 0, 2 * (size_t)m * sizeof(double));
    for (int64_t i = 0; i < m; i++)
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            if (x->col_kill[a->col_idx[k]]) {
                double v = a->val[k] * lp->lv[a->col_idx[k]];
                shift[i] += v;
                mag[i] += fabs(v);
            }
    SLP_CALL(slp_sum_over_row(x->grid, x->rbuf, 2 * m));
    for (int64_t i = 0; i < m; i++) {
        lp->lc[i] -= shift[i]; /* -inf - v stays -inf */
        lp->uc[i] -= shift[i];
        x->rowmag[i] += mag[i];
    }
    int64_t removed = 0;
    ps_compact_block(x, stage, &removed);
    for (int64_t j = 0; j < n; j++)
        if (x->col_kill[j]) {
            ps_remove_column(p, (int32_t)j, stage, lp->lv[j], lp->obj[j]);
            lp->obj[j] = 0.0;
            lp->lv[j] = lp->uv[j] = 0.0;
        }
    double colv[2] = {cols, objshift}, blk[1] = {(double)removed};
    SLP_CALL(ps_batch_sums(x->grid, colv, 2, NULL, 0, blk, 1));
    lp->obj_const += colv[1];
    if (colv[0] > 0.0) {
        ps_commit_stage(p, STAGE_FIXCOL);
        ps_add_count(p, kind, 0.0, colv[0], blk[0]);
        *changed += (int64_t)colv[0];
    }
    return SLP_OK;
}

/* The position in the block of row i's entry of global column g, or -1. */
int64_t ps_entry_of(const slp_local_problem_t *lp, int64_t i, double g)
{
    const slp_csr_t *a = &lp->A;
    for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
        if ((double)(lp->col_lo + a->col_idx[k]) == g)
            return k;
    return -1;
}

/* Bounds proposed for columns by rows (singleton rows, doubleton equations):
 * cbuf[j] is the largest proposed lower bound, cbuf[n + j] the largest -upper
 * (maxed over col_comm by the caller between proposing and naming sources);
 * sbuf[j], sbuf[n + j] the source of each strictly tighter bound: the lowest global
 * row index among the rows attaining it. sbuf exists from the reset to ps_bounds_done
 * (it is only needed by these passes, and presolve's other passes have their peak
 * without it). Collective. */
slp_err ps_bounds_reset(ps_ctx_t *x)
{
    int64_t n = x->lp->n_loc;
    slp_err rc = x->sbuf ? SLP_OK : slp_alloc(&x->sbuf, 2 * (size_t)n + 1, sizeof(double));
    SLP_CALL(slp_comm_agree(x->grid->world, rc));
    for (int64_t j = 0; j < 2 * n; j++) {
        x->cbuf[j] = -INFINITY;
        x->sbuf[j] = INFINITY;
    }
    return SLP_OK;
}

void ps_bounds_done(ps_ctx_t *x)
{
    free(x->sbuf);
    x->sbuf = NULL;
}

void ps_bound_propose(ps_ctx_t *x, int32_t j, double lo, double hi)
{
    int64_t n = x->lp->n_loc;
    x->cbuf[j] = fmax(x->cbuf[j], lo);
    x->cbuf[n + j] = fmax(x->cbuf[n + j], -hi);
}

void ps_bound_source(ps_ctx_t *x, int32_t j, double lo, double hi, double row)
{
    const slp_local_problem_t *lp = x->lp;
    int64_t n = lp->n_loc;
    if (lo == x->cbuf[j] && lo > lp->lv[j])
        x->sbuf[j] = fmin(x->sbuf[j], row);
    if (-hi == x->cbuf[n + j] && hi < lp->uv[j])
        x->sbuf[n + j] = fmin(x->sbuf[n + j], row);
}

/* Agree on the sources (min over col_comm) and tighten, identically on every rank
 * of the grid column; col_mark the columns whose bounds changed. Crossing bounds
 * beyond the tolerance are counted in *crossed, smaller crossings closed at the
 * midpoint. */
slp_err ps_bounds_apply(ps_ctx_t *x, double *crossed, double *tightened)
{
    slp_local_problem_t *lp = x->lp;
    int64_t n = lp->n_loc;
    SLP_CALL(slp_comm_min(x->grid->col_comm, x->sbuf, 2 * n));
    *crossed = *tightened = 0.0;
    for (int64_t j = 0; j < n; j++) {
        x->col_mark[j] = 0;
        double lo = x->cbuf[j], hi = -x->cbuf[n + j];
        if (lo > lp->lv[j]) {
            lp->lv[j] = lo;
            x->col_mark[j] = 1;
        }
        if (hi < lp->uv[j]) {
            lp->uv[j] = hi;
            x->col_mark[j] = 1;
        }
        *tightened += x->col_mark[j];
        if (lp->lv[j] > lp->uv[j]) {
            double scale = 1.0 + fmax(fabs(lp->lv[j]), fabs(lp->uv[j]));
            if (lp->lv[j] - lp->uv[j] > SLP_PS_FEAS_TOL * scale)
                *crossed += 1.0;
            else
                lp->lv[j] = lp->uv[j] = 0.5 * (lp->lv[j] + lp->uv[j]);
        }
    }
    return SLP_OK;
}

/* ENTRY_SET_LO / ENTRY_SET_HI for the entry of column j in global row `row`:
 * the bounds that row set. */
int ps_bound_flags(const ps_ctx_t *x, int32_t j, double row)
{
    int64_t n = x->lp->n_loc;
    return (x->sbuf[j] == row ? ENTRY_SET_LO : 0) | (x->sbuf[n + j] == row ? ENTRY_SET_HI : 0);
}

/* Implied bounds on x_k from lc <= a x_k <= uc. */
static void implied_bounds(double lc, double uc, double a, double *lo, double *hi)
{
    *lo = (a > 0.0 ? lc : uc) / a;
    *hi = (a > 0.0 ? uc : lc) / a;
}

/* Rows with one nonzero globally (paper: only those with lc = uc = 0) become
 * bounds on their variable; the row is removed. Marks in col_mark the columns
 * whose bounds changed. */
static slp_err pass_singleton(ps_ctx_t *x, int paper, int kind, int64_t *changed)
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
    for (int64_t i = 0; i < m; i++) {
        if (x->rcnt[i] != 1 || a->row_ptr[i + 1] - a->row_ptr[i] != 1)
            continue;
        int64_t k = a->row_ptr[i];
        double lo, hi;
        implied_bounds(lp->lc[i], lp->uc[i], a->val[k], &lo, &hi);
        ps_bound_propose(x, a->col_idx[k], lo, hi);
    }
    SLP_CALL(slp_max_over_col(x->grid, x->cbuf, 2 * n));
    for (int64_t i = 0; i < m; i++) {
        if (x->rcnt[i] != 1 || a->row_ptr[i + 1] - a->row_ptr[i] != 1)
            continue;
        int64_t k = a->row_ptr[i];
        double lo, hi;
        implied_bounds(lp->lc[i], lp->uc[i], a->val[k], &lo, &hi);
        ps_bound_source(x, a->col_idx[k], lo, hi, (double)(lp->row_lo + i));
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

/* Rows without entries: 0 must lie in [lc, uc] (up to a tolerance), then the
 * row is removed. */
static slp_err pass_empty_rows(ps_ctx_t *x, int64_t *changed)
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
static slp_err pass_empty_cols(ps_ctx_t *x, int64_t *changed)
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

/* ------------------------------------------------------------ run */

static slp_err create(const slp_local_problem_t *lp, slp_presolve_t **out)
{
    slp_presolve_t *p = slp_calloc(1, sizeof *p);
    if (!p)
        return SLP_ERR_NOMEM;
    *out = p;
    int64_t n = lp->n_loc, m = lp->m_loc;
    p->sense = lp->sense < 0 ? -1 : 1;
    p->obj_const = lp->obj_const;
    p->m_loc = m;
    p->n_loc = n;
    p->row_lo = lp->row_lo;
    p->col_lo = lp->col_lo;
    p->stats.infeasible_row = -1;
    SLP_CALL(slp_alloc(&p->col_stage, (size_t)n + 1, sizeof(int32_t)));
    SLP_CALL(slp_alloc(&p->lc, (size_t)m + 1, sizeof(double)));
    SLP_CALL(slp_alloc(&p->uc, (size_t)m + 1, sizeof(double)));
    SLP_CALL(slp_alloc(&p->row_stage, (size_t)m + 1, sizeof(int32_t)));
    SLP_CALL(slp_alloc(&p->row_rhs, (size_t)m + 1, sizeof(double)));
    SLP_CALL(slp_alloc(&p->row_dual, (size_t)m + 1, sizeof(double)));
    p->col_ray = slp_calloc((size_t)n + 1, 1);
    if (!p->col_ray)
        return SLP_ERR_NOMEM;
    memcpy(p->lc, lp->lc, (size_t)m * sizeof(double));
    memcpy(p->uc, lp->uc, (size_t)m * sizeof(double));
    for (int64_t j = 0; j < n; j++)
        p->col_stage[j] = -1;
    for (int64_t i = 0; i < m; i++)
        p->row_stage[i] = -1;
    return SLP_OK;
}

static slp_err ctx_alloc(ps_ctx_t *x)
{
    int64_t n = x->lp->n_loc, m = x->lp->m_loc;
    SLP_CALL(slp_alloc(&x->rcnt, (size_t)m + 1, sizeof(int64_t)));
    SLP_CALL(slp_alloc(&x->ccnt, (size_t)n + 1, sizeof(int64_t)));
    SLP_CALL(slp_alloc(&x->rbuf, 2 * (size_t)m + 1, sizeof(double)));
    SLP_CALL(slp_alloc(&x->rowmag, (size_t)m + 1, sizeof(double)));
    SLP_CALL(slp_alloc(&x->widen, 2 * (size_t)m + 1, sizeof(double)));
    memset(x->widen, 0, (2 * (size_t)m + 1) * sizeof(double));
    SLP_CALL(slp_alloc(&x->cbuf, 3 * (size_t)n + 1, sizeof(double)));
    SLP_CALL(slp_alloc(&x->costmag, (size_t)n + 1, sizeof(double)));
    for (int64_t j = 0; j < n; j++)
        x->costmag[j] = fabs(x->lp->obj[j]);
    SLP_CALL(slp_alloc(&x->row_kill, (size_t)m + 1, 1));
    SLP_CALL(slp_alloc(&x->row_flags, (size_t)m + 1, 1));
    SLP_CALL(slp_alloc(&x->col_kill, (size_t)n + 1, 1));
    SLP_CALL(slp_alloc(&x->col_mark, (size_t)n + 1, 1));
    memset(x->rowmag, 0, ((size_t)m + 1) * sizeof(double));
    return SLP_OK;
}

static void ctx_free(ps_ctx_t *x)
{
    free(x->rcnt);
    free(x->ccnt);
    free(x->rbuf);
    free(x->rowmag);
    free(x->costmag);
    free(x->widen);
    free(x->cbuf);
    free(x->sbuf);
    free(x->row_kill);
    free(x->row_flags);
    free(x->col_kill);
    free(x->col_mark);
}

/* Bounds that are infeasible as given: lv > uv or lc > uc. */
static slp_err check_bounds(ps_ctx_t *x)
{
    const slp_local_problem_t *lp = x->lp;
    double colv[1] = {0.0}, rowv[1] = {0.0};
    for (int64_t j = 0; j < lp->n_loc; j++)
        colv[0] += lp->lv[j] > lp->uv[j] || lp->lv[j] == INFINITY || lp->uv[j] == -INFINITY;
    for (int64_t i = 0; i < lp->m_loc; i++)
        rowv[0] += lp->lc[i] > lp->uc[i] || lp->lc[i] == INFINITY || lp->uc[i] == -INFINITY;
    SLP_CALL(ps_batch_sums(x->grid, colv, 1, rowv, 1, NULL, 0));
    if (colv[0] + rowv[0] > 0.0) {
        x->status = SLP_STATUS_PRIMAL_INFEASIBLE;
        slp_log_verbose("presolve: %.0f column(s) and %.0f row(s) with lower > upper bound\n",
                        colv[0], rowv[0]);
    }
    return SLP_OK;
}

/* A pass's outcome, with the ranks' agreement on a failure it deferred (a record that
 * could not grow on some rank, presolve_internal.h). */
static slp_err settled(ps_ctx_t *x, slp_err rc)
{
    return rc != SLP_OK ? rc : slp_comm_agree(x->grid->world, x->p->deferred);
}

static slp_err run_rounds(ps_ctx_t *x)
{
    slp_presolve_t *p = x->p;
    SLP_CALL(check_bounds(x));
    for (int round = 1; round <= SLP_PS_MAX_ROUNDS && x->status < 0; round++) {
        int64_t changed = 0;
        p->stats.rounds = round;
        SLP_CALL(settled(x, pass_singleton(x, 1, SLP_PRESOLVE_PAPER, &changed)));
        if (x->status >= 0)
            break;
        SLP_CALL(settled(x, ps_pass_fixcol(x, SLP_PRESOLVE_PAPER, x->col_mark, &changed)));
        SLP_CALL(settled(x, ps_pass_fixcol(x, SLP_PRESOLVE_FIXED, NULL, &changed)));
        SLP_CALL(settled(x, pass_singleton(x, 0, SLP_PRESOLVE_SINGLETON, &changed)));
        if (x->status >= 0)
            break;
        SLP_CALL(settled(x, ps_pass_fixcol(x, SLP_PRESOLVE_SINGLETON, x->col_mark, &changed)));
        SLP_CALL(settled(x, pass_empty_rows(x, &changed)));
        if (x->status >= 0)
            break;
        SLP_CALL(settled(x, pass_empty_cols(x, &changed)));
        SLP_CALL(settled(x, ps_pass_activity(x, &changed)));
        if (x->status >= 0)
            break;
        SLP_CALL(settled(x, ps_pass_dual_fix(x, &changed)));
        SLP_CALL(settled(x, ps_pass_dominated(x, &changed)));
        SLP_CALL(settled(x, ps_pass_free_singleton(x, &changed)));
        SLP_CALL(settled(x, ps_pass_slack(x, &changed)));
        SLP_CALL(settled(x, ps_pass_doubleton(x, &changed)));
        if (x->status >= 0)
            break;
        SLP_CALL(settled(x, ps_pass_parallel(x, 0, &changed)));
        SLP_CALL(settled(x, ps_pass_parallel(x, 1, &changed)));
        if (x->status >= 0)
            break;
        if (changed == 0)
            break;
    }
    return SLP_OK;
}

/* The reduced problem's norms, a row widened by slack columns counted with its bounds
 * before the widening: a slack's range (a column bound of 1e5, say) says nothing about
 * the scale of the row, and counting it loosened the tolerances (grow22's ||b|| went from
 * 0 to 9e5). Collective. */
static slp_err reduced_norms(ps_ctx_t *x)
{
    slp_local_problem_t view = *x->lp;
    int64_t m = view.m_loc;
    double *bounds = NULL;
    SLP_CALL(ps_alloc_all(x, &bounds, 2 * (size_t)m + 1, sizeof(double)));
    for (int64_t i = 0; i < m; i++) {
        double wl = x->widen[i], wu = x->widen[m + i];
        bounds[i] = isfinite(wl) ? view.lc[i] - wl : view.lc[i];
        bounds[m + i] = isfinite(wu) ? view.uc[i] - wu : view.uc[i];
    }
    view.lc = bounds;
    view.uc = bounds + m;
    slp_err rc = slp_compute_norms(x->grid, &view, &x->p->norms);
    free(bounds);
    return rc;
}

/* The second log line: rows/columns/nonzeros of every kind that removed something. */
static void log_passes(const slp_presolve_stats_t *st)
{
    char line[512];
    int len = snprintf(line, sizeof line, "Presolve passes (rows/cols/nnz):");
    for (int k = 0; k < SLP_PRESOLVE_NKINDS && len < (int)sizeof line; k++) {
        const slp_presolve_count_t *c = &st->kind[k];
        if (c->rows + c->cols + c->nnz > 0)
            len += snprintf(line + len, sizeof line - (size_t)len, " %s %lld/%lld/%lld",
                            slp_presolve_kind_name(k), (long long)c->rows, (long long)c->cols,
                            (long long)c->nnz);
    }
    slp_log("%s%s\n", line, st->total.rows + st->total.cols + st->total.nnz > 0 ? "" : " none");
}

slp_err slp_presolve_run(slp_grid_t *grid, slp_local_problem_t *lp, slp_presolve_t **out,
                         int *status_out)
{
    double t0 = slp_wall_seconds();
    *out = NULL;
    *status_out = -1;
    slp_presolve_t *p = NULL;
    slp_err rc = create(lp, &p);
    ps_ctx_t x = {0};
    x.grid = grid;
    x.lp = lp;
    x.p = p;
    x.status = -1;
    if (rc == SLP_OK)
        rc = ctx_alloc(&x);
    rc = slp_comm_agree(grid->world, rc);
    double blk[1] = {(double)lp->A.nnz};
    if (rc == SLP_OK)
        rc = ps_batch_sums(grid, NULL, 0, NULL, 0, blk, 1);
    if (rc == SLP_OK) {
        p->stats.nnz_before = (int64_t)blk[0];
        rc = run_rounds(&x);
    }
    /* Test hook (tests/cli/statuses.sh): SLP_TEST_PRESOLVE_INFEASIBLE=1 makes presolve
     * call every LP infeasible, as a wrong tolerance would, so that the confirmation on
     * the original model can be seen to withdraw the verdict. */
    if (rc == SLP_OK && getenv("SLP_TEST_PRESOLVE_INFEASIBLE"))
        x.status = SLP_STATUS_PRIMAL_INFEASIBLE;
    rc = slp_comm_agree(grid->world, rc);
    if (rc == SLP_OK)
        rc = reduced_norms(&x);
    ctx_free(&x);
    /* the solve's memory: the block without the removed entries' room, and of the
     * record only the removed lines until recovery */
    slp_csr_shrink(&lp->A);
    if (rc == SLP_OK)
        rc = ps_record_pack(p);
    rc = slp_comm_agree(grid->world, rc);
    if (rc != SLP_OK) {
        slp_presolve_free(&p);
        return rc;
    }
    slp_presolve_stats_t *st = &p->stats;
    for (int k = 0; k < SLP_PRESOLVE_NKINDS; k++) {
        st->total.rows += st->kind[k].rows;
        st->total.cols += st->kind[k].cols;
        st->total.nnz += st->kind[k].nnz;
    }
    lp->nnz = st->nnz_before - st->total.nnz;
    st->seconds = slp_wall_seconds() - t0;
    slp_log("Presolve: removed %lld rows, %lld columns, %lld nonzeros (%.1f%%) in %d round%s, "
            "%.3f s\n",
            (long long)st->total.rows, (long long)st->total.cols, (long long)st->total.nnz,
            st->nnz_before > 0 ? 100.0 * (double)st->total.nnz / (double)st->nnz_before : 0.0,
            st->rounds, st->rounds == 1 ? "" : "s", st->seconds);
    log_passes(st);
    if (x.status >= 0)
        slp_log("Presolve: problem is primal infeasible\n");
    else if (p->unbounded_cols > 0)
        slp_log("Presolve: %lld empty column%s improve the objective without limit: unbounded if the "
                "rest is feasible\n", (long long)p->unbounded_cols, p->unbounded_cols == 1 ? "" : "s");
    *status_out = x.status;
    *out = p;
    return SLP_OK;
}

/* ------------------------------------------------------------ recovery */

/* z_j = c_j - sum_i a_ij y_i (min form) of the columns removed at stage s, over the
 * entries they had then ([lo, hi) of the record). */
slp_err ps_undo_removed_costs(slp_grid_t *grid, const slp_presolve_t *p, int s, int64_t lo,
                              int64_t hi, double *z, const double *y, double *cb)
{
    int64_t n = p->n_loc;
    memset(cb, 0, (size_t)n * sizeof(double));
    for (int64_t e = lo; e < hi; e++)
        cb[p->ent[e].col] += p->ent[e].val * y[p->ent[e].row];
    SLP_CALL(slp_sum_over_col(grid, cb, n));
    for (int64_t j = 0; j < n; j++)
        if (p->col_stage[j] == s)
            z[j] = (double)p->sense * p->col_obj[j] - cb[j];
    return SLP_OK;
}

/* Undo stage s (entries [*pos_end - ..., *pos_end) carry stage s). Works in
 * min form: y and z here are sense * (user-sense values). */
static slp_err undo_stage(slp_grid_t *grid, const slp_presolve_t *p, int s, int64_t lo,
                          int64_t hi, double *x, double *z, double *y, double *cb, double *rb)
{
    int64_t n = p->n_loc, m = p->m_loc;
    if (p->stage_kind[s] == STAGE_FIXCOL) {
        for (int64_t j = 0; j < n; j++)
            if (p->col_stage[j] == s)
                x[j] = p->col_val[j];
        SLP_CALL(ps_undo_removed_costs(grid, p, s, lo, hi, z, y, cb));
    } else if (p->stage_kind[s] == STAGE_SINGLETON) {
        /* A row that set the bound on which z_k pushes takes over z_k. */
        memset(cb, 0, (size_t)n * sizeof(double));
        memset(rb, 0, (size_t)m * sizeof(double));
        for (int64_t e = lo; e < hi; e++) {
            const removed_entry_t *en = &p->ent[e];
            double zk = z[en->col];
            if (((en->flags & ENTRY_SET_LO) && zk > 0.0) || ((en->flags & ENTRY_SET_HI) && zk < 0.0)) {
                rb[en->row] += zk / en->val;
                cb[en->col] -= zk;
            }
        }
        SLP_CALL(slp_sum_over_col(grid, cb, n));
        SLP_CALL(slp_sum_over_row(grid, rb, m));
        for (int64_t j = 0; j < n; j++)
            z[j] += cb[j];
        for (int64_t i = 0; i < m; i++)
            if (p->row_stage[i] == s)
                y[i] = rb[i];
    } else if (p->stage_kind[s] == STAGE_FORCING) {
        SLP_CALL(ps_undo_forcing(grid, p, s, lo, hi, z, y, cb, rb));
    } else if (p->stage_kind[s] == STAGE_SUBST) {
        SLP_CALL(ps_undo_subst(grid, p, s, lo, hi, x, z, y, cb, rb));
    } else if (p->stage_kind[s] == STAGE_DOUBLETON) {
        SLP_CALL(ps_undo_doubleton(grid, p, s, lo, hi, x, z, y));
    } else if (p->stage_kind[s] == STAGE_PARALLEL) {
        SLP_CALL(ps_undo_parallel(grid, p, s, lo, hi, x, z, y, cb));
    } else if (p->stage_kind[s] == STAGE_DUPROW) {
        SLP_CALL(ps_undo_duplicate_rows(grid, p, s, y, rb));
    } else if (p->stage_kind[s] == STAGE_SLACK) {
        SLP_CALL(ps_undo_slack(grid, p, s, lo, hi, x, z, y, cb, rb));
    }
    /* STAGE_EMPTYROW: the dual of an empty row is 0, set already. */
    return SLP_OK;
}

/* Projection of a min-form dual value onto the sign set of bounds [l, u]. */
static double project_dual(double v, double l, double u)
{
    int lf = isfinite(l), uf = isfinite(u);
    if (lf && uf)
        return v;
    if (lf)
        return fmax(v, 0.0);
    if (uf)
        return fmin(v, 0.0);
    return 0.0;
}

static double bound_term(double v, double l, double u)
{
    return (v > 0.0 ? v * l : 0.0) + (v < 0.0 ? v * u : 0.0);
}

slp_err slp_presolve_recover(slp_grid_t *grid, slp_presolve_t *p,
                             const slp_local_problem_t *orig, slp_result_t *result)
{
    int64_t n = p->n_loc, m = p->m_loc;
    double sg = (double)p->sense;
    double *x = result->x, *z = result->rc, *y = result->y, *ax = result->ax;
    double *cb = NULL, *rb = NULL;
    slp_err rc = ps_record_unpack(p);
    if (rc == SLP_OK)
        rc = slp_alloc(&cb, (size_t)n + 1, sizeof(double));
    if (rc == SLP_OK)
        rc = slp_alloc(&rb, 2 * (size_t)m + 1, sizeof(double));
    rc = slp_comm_agree(grid->world, rc);
    if (rc != SLP_OK) {
        free(cb);
        free(rb);
        return rc;
    }
    for (int64_t j = 0; j < n; j++) {
        z[j] *= sg;
        if (p->col_stage[j] >= 0) {
            x[j] = p->col_val[j];
            z[j] = 0.0;
        }
    }
    for (int64_t i = 0; i < m; i++) {
        y[i] *= sg;
        if (p->row_stage[i] >= 0)
            y[i] = 0.0;
    }
    /* Stages in reverse; entries are stored in stage order. */
    int64_t hi = p->n_ent;
    for (int s = p->nstages - 1; s >= 0 && rc == SLP_OK; s--) {
        int64_t lo = hi;
        while (lo > 0 && p->ent[lo - 1].stage == s)
            lo--;
        rc = undo_stage(grid, p, s, lo, hi, x, z, y, cb, rb);
        hi = lo;
    }
    /* Row activities: the original block at the final x. */
    if (rc == SLP_OK) {
        const slp_csr_t *a = &orig->A;
        for (int64_t i = 0; i < m; i++) {
            double sum = 0.0;
            for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
                sum += a->val[k] * x[a->col_idx[k]];
            ax[i] = sum;
        }
        rc = slp_sum_over_row(grid, ax, m);
    }
    if (rc == SLP_OK) {
        /* Objectives in the original space: primal c^T x + c0 (file sense), dual
         * with the checker's formula in min form. */
        double colv[2] = {0.0, 0.0}, rowv[1] = {0.0};
        const double *c = orig->obj, *lv = orig->lv, *uv = orig->uv;
        for (int64_t j = 0; j < n; j++) {
            colv[0] += c[j] * x[j];
            colv[1] += bound_term(project_dual(z[j], lv[j], uv[j]), lv[j], uv[j]);
        }
        for (int64_t i = 0; i < m; i++)
            rowv[0] += bound_term(project_dual(y[i], orig->lc[i], orig->uc[i]), orig->lc[i],
                                  orig->uc[i]);
        rc = ps_batch_sums(grid, colv, 2, rowv, 1, NULL, 0);
        result->objective = colv[0] + p->obj_const;
        result->dual_objective = sg * (sg * p->obj_const + colv[1] + rowv[0]);
    }
    for (int64_t j = 0; j < n; j++)
        z[j] *= sg;
    for (int64_t i = 0; i < m; i++)
        y[i] *= sg;
    free(cb);
    free(rb);
    return slp_comm_agree(grid->world, rc);
}

int64_t slp_presolve_unbounded_columns(const slp_presolve_t *pre) { return pre->unbounded_cols; }

void slp_presolve_shift_unbounded(slp_presolve_t *pre, double t)
{
    if (!pre->packed) {
        for (int64_t j = 0; j < pre->n_loc; j++)
            pre->col_val[j] += t * (double)pre->col_ray[j];
        return;
    }
    for (int64_t k = 0; k < pre->n_packed_cols; k++)
        pre->packed_cols[k].val += t * (double)pre->packed_cols[k].ray;
}
