/* Doubleton equations (docs/presolve.md, pass 10, and "Recovery"): a row
 * a x_j + b x_k = d with two entries globally. x_j = (d - b x_k) / a is
 * substituted: x_k takes x_j's bounds through the row, the cost c_j t (t = b / a),
 * and every other row l of column j gets -a_lj t at column k and its bounds
 * shifted by a_lj d / a. The fill lands in block (r_l, c_k), sent by the holder of
 * a_lj over row_comm; nothing leaves its grid row.
 *
 * Within one stage the eliminated column j must lie in no other doubleton row
 * (so no two eliminations touch the same rows), which also keeps every survivor
 * from being eliminated elsewhere. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "grid/comm.h"
#include "grid/reduce.h"
#include "presolve/presolve_internal.h"

#define SLP_PS_CANCEL 1e-12     /* a merged entry below this times its parts is dropped */

/* What the grid row of a doubleton row knows about its two entries (slot 0: the
 * lower global column index), summed over row_comm. */
enum { S_IDX, S_VAL, S_CNT, S_DCNT, S_LV, S_UV, S_OBJ, S_FIELDS };
#define SLOT(sl, m, slot, f, i) (sl)[((size_t)(slot) * S_FIELDS + (f)) * (size_t)(m) + (size_t)(i)]

/* One fill entry on its way to the holder of its column. */
typedef struct fill {
    int64_t row;    /* local row (the same block row on sender and receiver) */
    int64_t col;    /* global column */
    double delta;   /* added to a_{row,col} */
} fill_t;

typedef struct fill_list {
    fill_t *v;
    int64_t n, cap;
} fill_list_t;

typedef struct dbl {
    ps_ctx_t *x;
    int64_t m, n;
    double *sl;     /* [2 S_FIELDS m] slot data */
    double *elim;   /* [m] the slot eliminated (0 / 1), -1 if the row is not taken */
    double *cinfo;  /* [4 n] per eliminated column: flag, t, q = d / a, survivor (global) */
    fill_list_t out; /* fill entries this rank sends */
} dbl_t;

static int slot_ok(const double *sl, int64_t m, int64_t i, int s)
{
    double a = fabs(SLOT(sl, m, s, S_VAL, i)), b = fabs(SLOT(sl, m, 1 - s, S_VAL, i));
    return SLOT(sl, m, s, S_DCNT, i) == 1.0 && a > SLP_PS_MIN_PIVOT && a >= SLP_PS_PIVOT_RATIO * b;
}

/* The candidate rows, doubleton equations (row_kill), and their global count. */
static slp_err candidates(ps_ctx_t *x, double *count)
{
    const slp_local_problem_t *lp = x->lp;
    SLP_CALL(ps_row_counts(x));
    unsigned char *cand = x->row_kill;
    double any[1] = {0.0};
    for (int64_t i = 0; i < lp->m_loc; i++) {
        cand[i] = x->p->row_stage[i] < 0 && x->rcnt[i] == 2 && lp->lc[i] == lp->uc[i] &&
                  isfinite(lp->lc[i]);
        any[0] += cand[i];
    }
    SLP_CALL(ps_batch_sums(x->grid, NULL, 0, any, 1, NULL, 0));
    *count = any[0];
    return SLP_OK;
}

/* Gather the two entries of every candidate row and choose the column to eliminate
 * (fewer entries; on a tie the higher index). */
static slp_err choose(dbl_t *d)
{
    ps_ctx_t *x = d->x;
    slp_local_problem_t *lp = x->lp;
    const slp_csr_t *a = &lp->A;
    int64_t m = d->m, n = d->n;
    SLP_CALL(ps_col_counts(x));
    const unsigned char *cand = x->row_kill;
    double *dcnt = x->cbuf, *gmin = x->rbuf;
    memset(dcnt, 0, (size_t)n * sizeof(double));
    for (int64_t i = 0; i < m; i++) {
        gmin[i] = INFINITY;
        for (int64_t k = a->row_ptr[i]; cand[i] && k < a->row_ptr[i + 1]; k++) {
            dcnt[a->col_idx[k]] += 1.0;
            gmin[i] = fmin(gmin[i], (double)(lp->col_lo + a->col_idx[k]));
        }
    }
    SLP_CALL(slp_sum_over_col(x->grid, dcnt, n));
    SLP_CALL(slp_comm_min(x->grid->row_comm, gmin, m));
    memset(d->sl, 0, 2 * S_FIELDS * (size_t)m * sizeof(double));
    for (int64_t i = 0; i < m; i++)
        for (int64_t k = a->row_ptr[i]; cand[i] && k < a->row_ptr[i + 1]; k++) {
            int32_t j = a->col_idx[k];
            double g = (double)(lp->col_lo + j);
            int s = g == gmin[i] ? 0 : 1;
            double v[S_FIELDS] = {g, a->val[k], (double)x->ccnt[j], dcnt[j], lp->lv[j], lp->uv[j],
                                  lp->obj[j]};
            for (int f = 0; f < S_FIELDS; f++)
                SLOT(d->sl, m, s, f, i) = v[f];
        }
    SLP_CALL(slp_sum_over_row(x->grid, d->sl, 2 * S_FIELDS * m));
    for (int64_t i = 0; i < m; i++) {
        d->elim[i] = -1.0;
        if (!cand[i])
            continue;
        int ok0 = slot_ok(d->sl, m, i, 0), ok1 = slot_ok(d->sl, m, i, 1);
        if (ok0 && ok1)
            d->elim[i] = SLOT(d->sl, m, 0, S_CNT, i) < SLOT(d->sl, m, 1, S_CNT, i) ? 0.0 : 1.0;
        else if (ok0 || ok1)
            d->elim[i] = ok0 ? 0.0 : 1.0;
    }
    return SLP_OK;
}

/* The holder of each eliminated entry tells its grid column: flag, t, q, survivor. */
static slp_err announce(dbl_t *d)
{
    ps_ctx_t *x = d->x;
    slp_local_problem_t *lp = x->lp;
    const slp_csr_t *a = &lp->A;
    int64_t m = d->m, n = d->n;
    memset(d->cinfo, 0, 4 * (size_t)n * sizeof(double));
    for (int64_t i = 0; i < m; i++) {
        if (d->elim[i] < 0.0)
            continue;
        int e = (int)d->elim[i];
        int64_t k = ps_entry_of(lp, i, SLOT(d->sl, m, e, S_IDX, i));
        if (k < 0)
            continue;
        int32_t j = a->col_idx[k];
        d->cinfo[j] = 1.0;
        d->cinfo[n + j] = SLOT(d->sl, m, 1 - e, S_VAL, i) / a->val[k];
        d->cinfo[2 * n + j] = lp->lc[i] / a->val[k];
        d->cinfo[3 * n + j] = SLOT(d->sl, m, 1 - e, S_IDX, i);
    }
    return slp_sum_over_col(x->grid, d->cinfo, 4 * n);
}

/* x_k's bounds from x_j's: lv_j <= q - t x_k <= uv_j. */
static void survivor_bounds(double t, double q, double lvj, double uvj, double *lo, double *hi)
{
    *lo = (t > 0.0 ? q - uvj : q - lvj) / t;
    *hi = (t > 0.0 ? q - lvj : q - uvj) / t;
}

/* Tighten every survivor's bounds with ps_bound_* (the strictest proposal over
 * col_comm; its row is the bound's source, flagged ENTRY_SET_LO / ENTRY_SET_HI on
 * the row's entries) and move the eliminated cost: c_k -= c_j t, obj_const += c_j q.
 * *crossed counts columns whose bounds cross. */
static slp_err survivors(dbl_t *d, double *crossed, double *objshift)
{
    ps_ctx_t *x = d->x;
    slp_local_problem_t *lp = x->lp;
    const slp_csr_t *a = &lp->A;
    int64_t m = d->m, n = d->n;
    double *dc = NULL, tightened = 0.0;
    SLP_CALL(ps_alloc_all(x, &dc, 2 * (size_t)n + 1, sizeof(double)));
    memset(dc, 0, 2 * (size_t)n * sizeof(double));
    double *dcmag = dc + n; /* the terms' magnitudes (ps_cost_update) */
    slp_err rc = ps_bounds_reset(x);
    if (rc != SLP_OK) {
        free(dc);
        return rc;
    }
    *objshift = 0.0;
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t i = 0; i < m; i++) {
            if (d->elim[i] < 0.0)
                continue;
            int e = (int)d->elim[i];
            double t = SLOT(d->sl, m, 1 - e, S_VAL, i) / SLOT(d->sl, m, e, S_VAL, i);
            double q = lp->lc[i] / SLOT(d->sl, m, e, S_VAL, i), cj = SLOT(d->sl, m, e, S_OBJ, i);
            double lo, hi;
            survivor_bounds(t, q, SLOT(d->sl, m, e, S_LV, i), SLOT(d->sl, m, e, S_UV, i), &lo, &hi);
            if (pass == 0)
                *objshift += cj * q;
            int64_t k = ps_entry_of(lp, i, SLOT(d->sl, m, 1 - e, S_IDX, i));
            if (k < 0)
                continue;
            if (pass == 0) {
                ps_bound_propose(x, a->col_idx[k], lo, hi);
                dc[a->col_idx[k]] += cj * t;
                dcmag[a->col_idx[k]] += fabs(cj * t);
            } else {
                ps_bound_source(x, a->col_idx[k], lo, hi, (double)(lp->row_lo + i));
            }
        }
        if (pass == 0) {
            SLP_CALL(slp_max_over_col(x->grid, x->cbuf, 2 * n));
            SLP_CALL(slp_sum_over_col(x->grid, dc, 2 * n));
        }
    }
    ps_cost_update(x, dc, dcmag);
    free(dc);
    SLP_CALL(ps_bounds_apply(x, crossed, &tightened));
    /* The survivor's holder flags the row's entries with the bounds it set. */
    for (int64_t i = 0; i < m; i++) {
        x->row_kill[i] = d->elim[i] >= 0.0;
        x->row_flags[i] = x->row_kill[i] ? ENTRY_PIVOT | ENTRY_SURVIVOR : 0;
        if (!x->row_kill[i])
            continue;
        int64_t k = ps_entry_of(lp, i, SLOT(d->sl, m, 1 - (int)d->elim[i], S_IDX, i));
        if (k >= 0)
            x->row_flags[i] |= ps_bound_flags(x, a->col_idx[k], (double)(lp->row_lo + i));
    }
    ps_bounds_done(x);
    return SLP_OK;
}

static void push_fill(slp_presolve_t *p, fill_list_t *l, fill_t f)
{
    if (ps_grow(p, &l->v, &l->cap, l->n + 1, sizeof *l->v, 256, "doubleton fill"))
        l->v[l->n++] = f;
}

/* Other rows of eliminated columns: bounds shifted by a_lj q (summed over
 * row_comm), and the fill -a_lj t at the survivor queued. */
static slp_err shift_and_queue(dbl_t *d)
{
    ps_ctx_t *x = d->x;
    slp_local_problem_t *lp = x->lp;
    const slp_csr_t *a = &lp->A;
    int64_t m = d->m, n = d->n;
    double *shift = x->rbuf, *mag = x->rbuf + m;
    memset(x->rbuf, 0, 2 * (size_t)m * sizeof(double));
    for (int64_t i = 0; i < m; i++) {
        if (x->row_kill[i])
            continue;
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            int32_t j = a->col_idx[k];
            if (d->cinfo[j] == 0.0)
                continue;
            double v = a->val[k] * d->cinfo[2 * n + j];
            shift[i] += v;
            mag[i] += fabs(v);
            fill_t f = {i, (int64_t)d->cinfo[3 * n + j], -a->val[k] * d->cinfo[n + j]};
            push_fill(x->p, &d->out, f);
        }
    }
    SLP_CALL(slp_sum_over_row(x->grid, x->rbuf, 2 * m));
    for (int64_t i = 0; i < m; i++) {
        lp->lc[i] -= shift[i];
        lp->uc[i] -= shift[i];
        x->rowmag[i] += mag[i];
    }
    return SLP_OK;
}

/* Every rank of the grid row broadcasts its fill in turn; each keeps what falls in
 * its column slice (column indices made local). */
static slp_err exchange(dbl_t *d, fill_list_t *mine)
{
    ps_ctx_t *x = d->x;
    slp_local_problem_t *lp = x->lp;
    slp_err rc = SLP_OK;
    for (int root = 0; root < x->grid->C && rc == SLP_OK; root++) {
        int self = x->grid->c == root;
        int64_t count = self ? d->out.n : 0;
        rc = slp_comm_bcast(x->grid->row_comm, &count, sizeof count, root);
        fill_t *buf = self ? d->out.v : malloc((size_t)count * sizeof(fill_t) + 1);
        if (rc == SLP_OK && count > 0 && !buf)
            rc = slp_error(SLP_ERR_NOMEM, "presolve: out of memory for doubleton fill");
        rc = slp_comm_agree(x->grid->row_comm, rc);
        if (rc == SLP_OK && count > 0)
            rc = slp_comm_bcast(x->grid->row_comm, buf, count * (int64_t)sizeof(fill_t), root);
        for (int64_t f = 0; f < count && rc == SLP_OK; f++) {
            int64_t col = buf[f].col - lp->col_lo;
            if (col >= 0 && col < lp->n_loc)
                push_fill(x->p, mine, (fill_t){buf[f].row, col, buf[f].delta});
        }
        if (!self)
            free(buf);
    }
    return rc;
}

static int by_row_col(const void *pa, const void *pb)
{
    const fill_t *a = pa, *b = pb;
    if (a->row != b->row)
        return a->row < b->row ? -1 : 1;
    return (a->col > b->col) - (a->col < b->col);
}

/* Add the received fill to the block (entries merged, cancellations dropped).
 * *net is entries added minus entries dropped. */
static void merge_fill(ps_ctx_t *x, fill_t *fill, int64_t nfill, int64_t *net)
{
    slp_csr_t *a = &x->lp->A;
    if (nfill > 0) /* a rank may receive no fill (fill is then NULL) */
        qsort(fill, (size_t)nfill, sizeof *fill, by_row_col);
    slp_csr_t out;
    *net = 0;
    if (x->p->deferred != SLP_OK)
        return;
    x->p->deferred = slp_csr_create(a->rows, a->cols, a->nnz + nfill, &out);
    if (x->p->deferred != SLP_OK)
        return; /* the block stays; the ranks agree on the failure after the pass */
    int64_t o = 0, f = 0;
    for (int64_t i = 0; i < a->rows; i++) {
        out.row_ptr[i] = o;
        int64_t k = a->row_ptr[i], end = a->row_ptr[i + 1];
        while (k < end || (f < nfill && fill[f].row == i)) {
            int64_t cf = f < nfill && fill[f].row == i ? fill[f].col : INT64_MAX;
            int64_t ck = k < end ? a->col_idx[k] : INT64_MAX;
            int64_t col = cf < ck ? cf : ck;
            double v = 0.0, size = 0.0;
            if (ck == col) {
                v += a->val[k];
                size = fabs(a->val[k]);
                k++;
            }
            while (f < nfill && fill[f].row == i && fill[f].col == col) {
                v += fill[f].delta;
                size = fmax(size, fabs(fill[f].delta));
                f++;
            }
            if (fabs(v) > SLP_PS_CANCEL * size) {
                out.col_idx[o] = (int32_t)col;
                out.val[o++] = v;
            }
        }
    }
    out.row_ptr[a->rows] = o;
    *net = o - a->nnz;
    out.nnz = o;
    slp_csr_free(a);
    *a = out;
}

static slp_err eliminate(dbl_t *d, int64_t *changed)
{
    ps_ctx_t *x = d->x;
    slp_local_problem_t *lp = x->lp;
    slp_presolve_t *p = x->p;
    int64_t m = d->m, n = d->n;
    int stage = p->nstages;
    double crossed = 0.0, objshift = 0.0, rows = 0.0, cols = 0.0;
    SLP_CALL(announce(d));
    SLP_CALL(survivors(d, &crossed, &objshift));
    SLP_CALL(shift_and_queue(d));
    for (int64_t i = 0; i < m; i++)
        if (x->row_kill[i]) {
            rows += 1.0;
            p->row_rhs[i] = lp->lc[i];
            p->row_stage[i] = stage;
            lp->lc[i] = -INFINITY;
            lp->uc[i] = INFINITY;
        }
    for (int64_t j = 0; j < n; j++) {
        x->col_kill[j] = d->cinfo[j] > 0.0;
        if (!x->col_kill[j])
            continue;
        cols += 1.0;
        ps_remove_column(p, (int32_t)j, stage, 0.0, lp->obj[j]); /* x set by the undo */
        lp->obj[j] = 0.0;
        lp->lv[j] = lp->uv[j] = 0.0;
    }
    int64_t removed = 0, net = 0;
    fill_list_t mine = {0};
    ps_compact_block(x, stage, &removed);
    slp_err rc = exchange(d, &mine);
    if (rc == SLP_OK)
        merge_fill(x, mine.v, mine.n, &net);
    free(mine.v);
    SLP_CALL(rc);
    double colv[2] = {cols, crossed}, rowv[2] = {rows, objshift}, blk[1] = {(double)(removed - net)};
    SLP_CALL(ps_batch_sums(x->grid, colv, 2, rowv, 2, blk, 1));
    lp->obj_const += rowv[1];
    if (rowv[0] > 0.0) {
        ps_commit_stage(p, STAGE_DOUBLETON);
        ps_add_count(p, SLP_PRESOLVE_DOUBLETON, rowv[0], colv[0], blk[0]);
        *changed += (int64_t)rowv[0];
    }
    if (colv[1] > 0.0) {
        x->status = SLP_STATUS_PRIMAL_INFEASIBLE;
        slp_log("Presolve: %.0f column(s) with crossing bounds from doubleton equations\n", colv[1]);
    }
    return SLP_OK;
}

slp_err ps_pass_doubleton(ps_ctx_t *x, int64_t *changed)
{
    dbl_t d = {.x = x, .m = x->lp->m_loc, .n = x->lp->n_loc};
    double count = 0.0;
    SLP_CALL(candidates(x, &count));
    if (count == 0.0) /* no scratch then: the pass's arrays are presolve's peak */
        return SLP_OK;
    slp_err rc = slp_alloc(&d.sl, 2 * S_FIELDS * (size_t)d.m + 1, sizeof(double));
    if (rc == SLP_OK)
        rc = slp_alloc(&d.elim, (size_t)d.m + 1, sizeof(double));
    rc = slp_comm_agree(x->grid->world, rc);
    if (rc == SLP_OK)
        rc = choose(&d);
    double any[1] = {0.0};
    for (int64_t i = 0; rc == SLP_OK && i < d.m; i++)
        any[0] += d.elim[i] >= 0.0;
    if (rc == SLP_OK)
        rc = ps_batch_sums(x->grid, NULL, 0, any, 1, NULL, 0);
    /* the column-length scratch only when some row is eliminated (the peak of presolve) */
    if (rc == SLP_OK && any[0] > 0.0)
        rc = slp_comm_agree(x->grid->world,
                            slp_alloc(&d.cinfo, 4 * (size_t)d.n + 1, sizeof(double)));
    if (rc == SLP_OK && any[0] > 0.0)
        rc = eliminate(&d, changed);
    free(d.sl);
    free(d.elim);
    free(d.cinfo);
    free(d.out.v);
    return rc;
}

/* Undo a doubleton stage. With S_j = sum_{l != i} a_lj y_l over column j's other
 * entries, z'_k the survivor's reduced cost in the reduced problem: normally
 * y_i = (c_j - S_j) / a and z_j = 0 (z_k stays); when z'_k pushes on a bound of
 * x_k that came from x_j's bound through this row, x_j is the one at its bound:
 * y_i = (z'_k + t (c_j - S_j)) / b, z_j = -z'_k / t, z_k = 0. x_j = (d - b x_k) / a. */
slp_err ps_undo_doubleton(const ps_undo_t *u, int s, ps_span_t span)
{
    slp_grid_t *grid = u->grid;
    const slp_presolve_t *p = u->p;
    double *xv = u->x, *z = u->z, *y = u->y;
    int64_t n = p->n_loc, m = p->m_loc;
    double sg = (double)p->sense;
    double *cb = NULL, *rb = NULL;
    slp_err rc = slp_alloc(&cb, 3 * (size_t)n + 1, sizeof(double));
    if (rc == SLP_OK)
        rc = slp_alloc(&rb, 5 * (size_t)m + 1, sizeof(double));
    rc = slp_comm_agree(grid->world, rc);
    if (rc != SLP_OK) {
        free(cb);
        free(rb);
        return rc;
    }
    /* S_j; the survivor's z'_k, b, x_k and case per row. */
    memset(cb, 0, 3 * (size_t)n * sizeof(double));
    memset(rb, 0, 5 * (size_t)m * sizeof(double));
    double *zk = rb, *bv = rb + m, *xk = rb + 2 * m, *cas = rb + 3 * m, *yi = rb + 4 * m;
    ps_cursor_t c = ps_cursor(p, span);
    for (ps_entry_t en; ps_next(&c, &en);) {
        if (en.flags == 0)
            cb[en.col] += en.val * y[en.row];
        if (en.flags & ENTRY_SURVIVOR) {
            double zz = z[en.col];
            zk[en.row] = zz;
            bv[en.row] = en.val;
            xk[en.row] = xv[en.col];
            cas[en.row] = ((en.flags & ENTRY_SET_LO) && zz > 0.0) ||
                          ((en.flags & ENTRY_SET_HI) && zz < 0.0);
        }
    }
    rc = slp_sum_over_col(grid, cb, n);
    if (rc == SLP_OK)
        rc = slp_sum_over_row(grid, rb, 4 * m);
    /* The pivot's holder: x_j, z_j (column slice) and y_i (row slice). */
    double *cx = cb + n, *cz = cb + 2 * n;
    c = ps_cursor(p, span);
    for (ps_entry_t en; rc == SLP_OK && ps_next(&c, &en);) {
        if (!(en.flags & ENTRY_PIVOT))
            continue;
        int64_t i = en.row;
        int32_t j = en.col;
        double a = en.val, b = bv[i], t = b / a, cj = sg * p->col_obj[j], sj = cb[j];
        cx[j] = (p->row_rhs[i] - b * xk[i]) / a;
        if (cas[i] > 0.0) {
            yi[i] = (zk[i] + t * (cj - sj)) / b;
            cz[j] = -zk[i] / t;
        } else {
            yi[i] = (cj - sj) / a;
        }
    }
    /* Survivors whose bound moved back to x_j lose their reduced cost. */
    memset(cb, 0, (size_t)n * sizeof(double));
    c = ps_cursor(p, span);
    for (ps_entry_t en; rc == SLP_OK && ps_next(&c, &en);)
        if ((en.flags & ENTRY_SURVIVOR) && cas[en.row] > 0.0)
            cb[en.col] = 1.0;
    if (rc == SLP_OK)
        rc = slp_sum_over_col(grid, cb, 3 * n);
    if (rc == SLP_OK)
        rc = slp_sum_over_row(grid, yi, m);
    for (int64_t j = 0; rc == SLP_OK && j < n; j++) {
        if (cb[j] > 0.0)
            z[j] = 0.0;
        if (p->col_stage[j] == s) {
            xv[j] = cx[j];
            z[j] = cz[j];
        }
    }
    for (int64_t i = 0; rc == SLP_OK && i < m; i++)
        if (p->row_stage[i] == s)
            y[i] = yi[i];
    free(cb);
    free(rb);
    return rc;
}
