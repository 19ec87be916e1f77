/* Presolve's toolkit (presolve_internal.h): the reductions over the grid, the counts,
 * the record (its growth, and its packed form while the solve runs), the block's
 * compaction, the proposals of column bounds, the removal of fixed columns and the cost
 * update every pass uses. It calls no pass and no driver: the passes sit on it
 * (docs/presolve.md). */
#include "presolve/presolve_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "core/timer.h"
#include "grid/fault_hook.h"
#include "grid/reduce.h"

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

/* A pass's scratch, allocated on every rank or on none: a rank that could not allocate
 * and returned would leave the others waiting in the pass's first collective.
 * Collective. */
slp_err ps_alloc_all(ps_ctx_t *x, void *out_ptr, size_t count, size_t size)
{
    *(void **)out_ptr = NULL;
    slp_err rc = slp_fault_nomem("presolve-scratch"); /* the test hook of failures.sh */
    if (rc == SLP_OK)
        rc = slp_alloc(out_ptr, count, size);
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
    p->deferred = slp_fault_nomem("presolve-record"); /* the test hook of failures.sh */
    if (p->deferred == SLP_OK)
        p->deferred = slp_grow(array_ptr, cap, need, size, first, what);
    return p->deferred == SLP_OK;
}

void ps_push_entry(slp_presolve_t *p, int64_t row, int32_t col, double val, int stage, int flags)
{
    entry_run_t *last = p->n_runs > 0 ? &p->runs[p->n_runs - 1] : NULL;
    int extend = last && last->row == (int32_t)row && last->stage == stage &&
                 last->flags == flags && last->len < INT32_MAX;
    int64_t cap_val = p->cap_ent;
    if (!ps_grow(p, &p->ent_col, &p->cap_ent, p->n_ent + 1, sizeof *p->ent_col, 1024,
                 "presolve's removed entries") ||
        !ps_grow(p, &p->ent_val, &cap_val, p->n_ent + 1, sizeof *p->ent_val, 1024,
                 "presolve's removed entries"))
        return;
    if (!extend) {
        if (!ps_grow(p, &p->runs, &p->cap_runs, p->n_runs + 1, sizeof *p->runs, 256,
                     "presolve's removed entries"))
            return;
        p->runs[p->n_runs++] = (entry_run_t){(int32_t)row, stage, 0, flags};
    }
    p->runs[p->n_runs - 1].len++;
    p->ent_col[p->n_ent] = col;
    p->ent_val[p->n_ent] = val;
    p->n_ent++;
}

/* Delete from the block every entry whose row is in row_kill or whose column is
 * in col_kill, recording it under `stage` with its row's row_flags (ENTRY_*). The
 * pages of the entries already moved down or recorded, between the kept entries and
 * the next one to read, go back as the pass runs, so that the block shrinks while the
 * record grows (docs/memory.md "Presolve"). */
void ps_compact_block(ps_ctx_t *x, int stage, int64_t *removed)
{
    enum { RELEASE_STEP = 1 << 18 }; /* entries (3 MiB of the block) */
    slp_csr_t *a = &x->lp->A;
    int64_t out = 0, released_at = 0;
    for (int64_t i = 0; i < a->rows; i++) {
        int64_t read = a->row_ptr[i];
        if (read - out >= RELEASE_STEP && read - released_at >= RELEASE_STEP) {
            slp_release_pages(a->col_idx + out, a->col_idx + read);
            slp_release_pages(a->val + out, a->val + read);
            released_at = read;
        }
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
        x->costmag[j] = ps_rounding_scale((double)x->costmag[j] + dcmag[j]);
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

/* z_j = c_j - sum_i a_ij y_i (min form) of the columns removed at stage s, over the
 * entries they had then ([lo, hi) of the record). */
slp_err ps_undo_removed_costs(slp_grid_t *grid, const slp_presolve_t *p, int s, ps_span_t span,
                              double *z, const double *y, double *cb)
{
    int64_t n = p->n_loc;
    memset(cb, 0, (size_t)n * sizeof(double));
    ps_cursor_t c = ps_cursor(p, span);
    for (ps_entry_t en; ps_next(&c, &en);)
        cb[en.col] += en.val * y[en.row];
    SLP_CALL(slp_sum_over_col(grid, cb, n));
    for (int64_t j = 0; j < n; j++)
        if (p->col_stage[j] == s)
            z[j] = (double)p->sense * p->col_obj[j] - cb[j];
    return SLP_OK;
}

/* ------------------------------------------------------------ the packed record */

/* The presolve record, compact where it can be (docs/memory.md "Presolve"): removed
 * columns go into a list as presolve removes them (stage, value, objective), so no
 * column-length array of values exists until recovery; between presolve and recovery,
 * while the solve runs, the per-line arrays left (column stages and rays, row stages,
 * right-hand sides and duals, the original row bounds) are packed to the removed lines
 * too, and the removed entries keep their exact size. Recovery unpacks. */
void ps_remove_column(slp_presolve_t *p, int32_t j, int stage, double val, double obj)
{
    p->col_stage[j] = stage;
    if (ps_grow(p, &p->packed_cols, &p->cap_packed_cols, p->n_packed_cols + 1,
                sizeof *p->packed_cols, 256, "presolve's removed columns"))
        p->packed_cols[p->n_packed_cols++] = (packed_col_t){j, stage, val, obj, 0};
}

/* Cut a growing array to its count (the growth's slack back). */
static void *fit(void *array, int64_t count, size_t size)
{
    void *cut = count > 0 ? realloc(array, (size_t)count * size) : NULL;
    return cut ? cut : array;
}

slp_err ps_record_pack(slp_presolve_t *p)
{
    if (p->packed)
        return SLP_OK;
    int64_t nr = 0;
    for (int64_t i = 0; i < p->m_loc; i++)
        nr += p->row_stage[i] >= 0;
    SLP_CALL(slp_alloc(&p->packed_rows, (size_t)nr + 1, sizeof *p->packed_rows));
    nr = 0;
    for (int64_t i = 0; i < p->m_loc; i++)
        if (p->row_stage[i] >= 0)
            p->packed_rows[nr++] =
                (packed_row_t){(int32_t)i, p->row_stage[i], p->row_rhs[i], p->row_dual[i]};
    p->n_packed_rows = nr;
    for (int64_t k = 0; k < p->n_packed_cols; k++)
        p->packed_cols[k].ray = p->col_ray[p->packed_cols[k].col];
    p->packed_cols = fit(p->packed_cols, p->n_packed_cols, sizeof *p->packed_cols);
    p->cap_packed_cols = p->n_packed_cols;
    p->ent_col = fit(p->ent_col, p->n_ent, sizeof *p->ent_col);
    p->ent_val = fit(p->ent_val, p->n_ent, sizeof *p->ent_val);
    p->cap_ent = p->n_ent > 0 ? p->n_ent : p->cap_ent;
    p->runs = fit(p->runs, p->n_runs, sizeof *p->runs);
    p->cap_runs = p->n_runs > 0 ? p->n_runs : p->cap_runs;
    void *lines[] = {p->lc, p->uc, p->col_stage, p->col_ray, p->row_stage, p->row_rhs,
                     p->row_dual};
    for (size_t k = 0; k < sizeof lines / sizeof lines[0]; k++)
        free(lines[k]);
    p->lc = p->uc = p->row_rhs = p->row_dual = NULL;
    p->col_stage = p->row_stage = NULL;
    p->col_ray = NULL;
    p->packed = 1;
    return SLP_OK;
}

slp_err ps_record_unpack(slp_presolve_t *p)
{
    if (!p->packed)
        return SLP_OK;
    size_t n = (size_t)p->n_loc + 1, m = (size_t)p->m_loc + 1;
    SLP_CALL(slp_alloc(&p->col_stage, n, sizeof *p->col_stage));
    SLP_CALL(slp_alloc(&p->col_val, n, sizeof *p->col_val));
    SLP_CALL(slp_alloc(&p->col_obj, n, sizeof *p->col_obj));
    SLP_CALL(slp_alloc(&p->row_stage, m, sizeof *p->row_stage));
    SLP_CALL(slp_alloc(&p->row_rhs, m, sizeof *p->row_rhs));
    SLP_CALL(slp_alloc(&p->row_dual, m, sizeof *p->row_dual));
    p->col_ray = slp_calloc(n, 1);
    if (!p->col_ray)
        return SLP_ERR_NOMEM;
    for (int64_t j = 0; j < p->n_loc; j++) {
        p->col_stage[j] = -1;
        p->col_val[j] = p->col_obj[j] = 0.0;
    }
    for (int64_t i = 0; i < p->m_loc; i++) {
        p->row_stage[i] = -1;
        p->row_rhs[i] = p->row_dual[i] = 0.0;
    }
    for (int64_t k = 0; k < p->n_packed_cols; k++) { /* in removal order */
        const packed_col_t *c = &p->packed_cols[k];
        p->col_stage[c->col] = c->stage;
        p->col_val[c->col] = c->val;
        p->col_obj[c->col] = c->obj;
        p->col_ray[c->col] = c->ray;
    }
    for (int64_t k = 0; k < p->n_packed_rows; k++) {
        const packed_row_t *r = &p->packed_rows[k];
        p->row_stage[r->row] = r->stage;
        p->row_rhs[r->row] = r->rhs;
        p->row_dual[r->row] = r->dual;
    }
    free(p->packed_rows);
    p->packed_rows = NULL;
    p->n_packed_rows = 0;
    p->packed = 0;
    return SLP_OK;
}
