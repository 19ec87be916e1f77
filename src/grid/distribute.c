#include "grid/distribute.h"

#include <stdlib.h>
#include <string.h>

enum { TAG_HEADER = 101, TAG_ROWPTR, TAG_COLIDX, TAG_VAL, TAG_COLS, TAG_ROWS };

slp_err slp_model_cuts(const slp_model_t *model, int R, int C, int64_t *row_off, int64_t *col_off)
{
    int64_t *row_count = slp_calloc((size_t)model->m + 1, sizeof(int64_t));
    int64_t *col_count = slp_calloc((size_t)model->n + 1, sizeof(int64_t));
    if (!row_count || !col_count) {
        free(row_count);
        free(col_count);
        return SLP_ERR_NOMEM;
    }
    for (int64_t j = 0; j < model->n; j++) {
        col_count[j] = model->col_ptr[j + 1] - model->col_ptr[j];
        for (int64_t k = model->col_ptr[j]; k < model->col_ptr[j + 1]; k++)
            row_count[model->row_idx[k]]++;
    }
    slp_balanced_cuts(row_count, model->m, R, row_off);
    slp_balanced_cuts(col_count, model->n, C, col_off);
    free(row_count);
    free(col_count);
    return SLP_OK;
}


/* dst[0..count) = src[from..from + count); nothing when count is 0 (a model without rows
 * or columns has NULL vectors, which memcpy must not be given). */
static void copy_slice(double *dst, const double *src, int64_t from, int64_t count)
{
    if (count > 0)
        memcpy(dst, src + from, (size_t)count * sizeof(double));
}

/* Count the entries of block (r, c) and fill its CSR. Columns of the block are
 * visited in order, so column indices within each row come out sorted. */
static slp_err fill_block(const slp_model_t *model, int64_t row_lo, int64_t row_hi,
                          int64_t col_lo, int64_t col_hi, slp_csr_t *a)
{
    int64_t m_loc = row_hi - row_lo;
    int64_t nnz = 0;
    for (int64_t j = col_lo; j < col_hi; j++)
        for (int64_t k = model->col_ptr[j]; k < model->col_ptr[j + 1]; k++)
            if (model->row_idx[k] >= row_lo && model->row_idx[k] < row_hi)
                nnz++;
    if (col_hi - col_lo > INT32_MAX)
        return slp_error(SLP_ERR_INPUT, "a column block of %lld columns is too wide; use more grid columns",
                         (long long)(col_hi - col_lo));
    SLP_CALL(slp_csr_create(m_loc, col_hi - col_lo, nnz, a));
    for (int64_t j = col_lo; j < col_hi; j++)
        for (int64_t k = model->col_ptr[j]; k < model->col_ptr[j + 1]; k++)
            if (model->row_idx[k] >= row_lo && model->row_idx[k] < row_hi)
                a->row_ptr[model->row_idx[k] - row_lo + 1]++;
    for (int64_t i = 0; i < m_loc; i++)
        a->row_ptr[i + 1] += a->row_ptr[i];
    int64_t *fill = slp_malloc((size_t)(m_loc + 1) * sizeof(int64_t));
    if (!fill) {
        slp_csr_free(a);
        return SLP_ERR_NOMEM;
    }
    memcpy(fill, a->row_ptr, (size_t)(m_loc + 1) * sizeof(int64_t));
    for (int64_t j = col_lo; j < col_hi; j++) {
        for (int64_t k = model->col_ptr[j]; k < model->col_ptr[j + 1]; k++) {
            int64_t i = model->row_idx[k];
            if (i >= row_lo && i < row_hi) {
                int64_t dst = fill[i - row_lo]++;
                a->col_idx[dst] = (int32_t)(j - col_lo);
                a->val[dst] = model->val[k];
            }
        }
    }
    free(fill);
    return SLP_OK;
}

static void set_globals(slp_local_problem_t *lp, int64_t m, int64_t n, int64_t nnz, int sense,
                        double obj_const, int r, int c)
{
    lp->m = m;
    lp->n = n;
    lp->nnz = nnz;
    lp->sense = sense;
    lp->obj_const = obj_const;
    lp->r = r;
    lp->c = c;
    lp->row_lo = lp->row_off[r];
    lp->col_lo = lp->col_off[c];
}

slp_err slp_extract_block(const slp_model_t *model, int R, int C, const int64_t *row_off,
                          const int64_t *col_off, int r, int c, slp_local_problem_t *out)
{
    memset(out, 0, sizeof *out);
    int64_t m_loc = row_off[r + 1] - row_off[r], n_loc = col_off[c + 1] - col_off[c];
    SLP_CALL(slp_local_problem_alloc(out, R, C, m_loc, n_loc, 0));
    memcpy(out->row_off, row_off, (size_t)(R + 1) * sizeof(int64_t));
    memcpy(out->col_off, col_off, (size_t)(C + 1) * sizeof(int64_t));
    set_globals(out, model->m, model->n, model->nnz, model->sense, model->obj_const, r, c);
    slp_csr_free(&out->A);
    slp_err rc = fill_block(model, row_off[r], row_off[r + 1], col_off[c], col_off[c + 1], &out->A);
    if (rc != SLP_OK) {
        slp_local_problem_free(out);
        return rc;
    }
    copy_slice(out->obj, model->c, col_off[c], n_loc);
    copy_slice(out->lv, model->lv, col_off[c], n_loc);
    copy_slice(out->uv, model->uv, col_off[c], n_loc);
    copy_slice(out->lc, model->lc, row_off[r], m_loc);
    copy_slice(out->uc, model->uc, row_off[r], m_loc);
    return SLP_OK;
}

/* Header sent from rank 0: its status (a failure while splitting ends every rank's
 * receive instead of leaving it waiting), sizes, sense and constant. */
typedef struct {
    int64_t status;
    int64_t m, n, nnz, m_loc, n_loc, nnz_loc;
    int64_t sense;
    double obj_const;
} header_t;

static slp_err send_block(slp_comm_t *world, const slp_local_problem_t *b, int dest)
{
    header_t h = {SLP_OK, b->m, b->n, b->nnz, b->m_loc, b->n_loc, b->A.nnz, b->sense,
                  b->obj_const};
    SLP_CALL(slp_comm_send(world, &h, sizeof h, dest, TAG_HEADER));
    SLP_CALL(slp_comm_send(world, b->A.row_ptr, (b->m_loc + 1) * (int64_t)sizeof(int64_t), dest, TAG_ROWPTR));
    SLP_CALL(slp_comm_send(world, b->A.col_idx, b->A.nnz * (int64_t)sizeof(int32_t), dest, TAG_COLIDX));
    SLP_CALL(slp_comm_send(world, b->A.val, b->A.nnz * (int64_t)sizeof(double), dest, TAG_VAL));
    int64_t nb = b->n_loc * (int64_t)sizeof(double), mb = b->m_loc * (int64_t)sizeof(double);
    SLP_CALL(slp_comm_send(world, b->obj, nb, dest, TAG_COLS));
    SLP_CALL(slp_comm_send(world, b->lv, nb, dest, TAG_COLS));
    SLP_CALL(slp_comm_send(world, b->uv, nb, dest, TAG_COLS));
    SLP_CALL(slp_comm_send(world, b->lc, mb, dest, TAG_ROWS));
    SLP_CALL(slp_comm_send(world, b->uc, mb, dest, TAG_ROWS));
    return SLP_OK;
}

static slp_err recv_block(slp_grid_t *grid, const int64_t *row_off, const int64_t *col_off,
                          slp_local_problem_t *out)
{
    slp_comm_t *world = grid->world;
    header_t h;
    SLP_CALL(slp_comm_recv(world, &h, sizeof h, 0, TAG_HEADER));
    if (h.status != SLP_OK)
        return slp_error((slp_err)h.status, "splitting the model failed on rank 0 (see its "
                         "message)");
    SLP_CALL(slp_local_problem_alloc(out, grid->R, grid->C, h.m_loc, h.n_loc, h.nnz_loc));
    memcpy(out->row_off, row_off, (size_t)(grid->R + 1) * sizeof(int64_t));
    memcpy(out->col_off, col_off, (size_t)(grid->C + 1) * sizeof(int64_t));
    set_globals(out, h.m, h.n, h.nnz, (int)h.sense, h.obj_const, grid->r, grid->c);
    SLP_CALL(slp_comm_recv(world, out->A.row_ptr, (h.m_loc + 1) * (int64_t)sizeof(int64_t), 0, TAG_ROWPTR));
    SLP_CALL(slp_comm_recv(world, out->A.col_idx, h.nnz_loc * (int64_t)sizeof(int32_t), 0, TAG_COLIDX));
    SLP_CALL(slp_comm_recv(world, out->A.val, h.nnz_loc * (int64_t)sizeof(double), 0, TAG_VAL));
    int64_t nb = h.n_loc * (int64_t)sizeof(double), mb = h.m_loc * (int64_t)sizeof(double);
    SLP_CALL(slp_comm_recv(world, out->obj, nb, 0, TAG_COLS));
    SLP_CALL(slp_comm_recv(world, out->lv, nb, 0, TAG_COLS));
    SLP_CALL(slp_comm_recv(world, out->uv, nb, 0, TAG_COLS));
    SLP_CALL(slp_comm_recv(world, out->lc, mb, 0, TAG_ROWS));
    SLP_CALL(slp_comm_recv(world, out->uc, mb, 0, TAG_ROWS));
    return SLP_OK;
}

/* Rank 0: extract and send every other rank's block, one at a time (bounded extra
 * memory: one block), then its own. */
static slp_err scatter_from_root(slp_grid_t *grid, const slp_model_t *model,
                                 const int64_t *row_off, const int64_t *col_off,
                                 slp_local_problem_t *out)
{
    for (int k = 1; k < grid->size; k++) {
        slp_local_problem_t block;
        slp_err rc = slp_extract_block(model, grid->R, grid->C, row_off, col_off, k / grid->C,
                                       k % grid->C, &block);
        if (rc != SLP_OK) { /* tell the ranks still waiting, then report */
            header_t failed = {.status = rc};
            for (int rest = k; rest < grid->size; rest++)
                slp_comm_send(grid->world, &failed, sizeof failed, rest, TAG_HEADER);
            return rc;
        }
        rc = send_block(grid->world, &block, k);
        slp_local_problem_free(&block);
        SLP_CALL(rc);
    }
    return slp_extract_block(model, grid->R, grid->C, row_off, col_off, 0, 0, out);
}

slp_err slp_distribute_model(slp_grid_t *grid, const slp_model_t *model, slp_local_problem_t *out)
{
    memset(out, 0, sizeof *out);
    int64_t *cuts = slp_calloc((size_t)(grid->R + grid->C + 2), sizeof(int64_t));
    if (!cuts)
        return SLP_ERR_NOMEM;
    int64_t *row_off = cuts, *col_off = cuts + grid->R + 1;
    slp_err rc = SLP_OK;
    if (grid->rank == 0)
        rc = slp_model_cuts(model, grid->R, grid->C, row_off, col_off);
    rc = slp_comm_agree(grid->world, rc);
    if (rc == SLP_OK)
        rc = slp_comm_bcast(grid->world, cuts, (grid->R + grid->C + 2) * (int64_t)sizeof(int64_t), 0);
    if (rc == SLP_OK) {
        if (grid->rank == 0)
            rc = scatter_from_root(grid, model, row_off, col_off, out);
        else
            rc = recv_block(grid, row_off, col_off, out);
    }
    rc = slp_comm_agree(grid->world, rc);
    if (rc == SLP_OK) /* the problem enters in canonical form (core/local_problem.h) */
        slp_local_problem_canonical_bounds(out);
    free(cuts);
    return rc;
}
