#include "local_problem.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

slp_err slp_csr_create(int64_t rows, int64_t cols, int64_t nnz, slp_csr_t *out)
{
    memset(out, 0, sizeof *out);
    out->rows = rows;
    out->cols = cols;
    out->nnz = nnz;
    out->row_ptr = slp_calloc((size_t)rows + 1, sizeof(int64_t));
    out->col_idx = slp_malloc((size_t)nnz * sizeof(int32_t));
    out->val = slp_malloc((size_t)nnz * sizeof(double));
    if (!out->row_ptr || !out->col_idx || !out->val) {
        slp_csr_free(out);
        return SLP_ERR_NOMEM;
    }
    return SLP_OK;
}

void slp_csr_free(slp_csr_t *a)
{
    free(a->row_ptr);
    free(a->col_idx);
    free(a->val);
    memset(a, 0, sizeof *a);
}

slp_err slp_csr_transpose(const slp_csr_t *a, slp_csr_t *out)
{
    SLP_CALL(slp_csr_create(a->cols, a->rows, a->nnz, out));
    int64_t *next = out->row_ptr;
    for (int64_t k = 0; k < a->nnz; k++)
        next[a->col_idx[k] + 1]++;
    for (int64_t j = 0; j < a->cols; j++)
        next[j + 1] += next[j];
    int64_t *fill = slp_malloc((size_t)(a->cols + 1) * sizeof(int64_t));
    if (!fill) {
        slp_csr_free(out);
        return SLP_ERR_NOMEM;
    }
    memcpy(fill, out->row_ptr, (size_t)(a->cols + 1) * sizeof(int64_t));
    /* Rows visited in order, so the transposed column indices come out sorted. */
    for (int64_t i = 0; i < a->rows; i++) {
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            int64_t dst = fill[a->col_idx[k]]++;
            out->col_idx[dst] = (int32_t)i;
            out->val[dst] = a->val[k];
        }
    }
    free(fill);
    return SLP_OK;
}

void slp_csr_shrink(slp_csr_t *a)
{
    size_t keep = (size_t)(a->nnz > 0 ? a->nnz : 1);
    int32_t *idx = realloc(a->col_idx, keep * sizeof *idx);
    if (idx)
        a->col_idx = idx;
    double *val = realloc(a->val, keep * sizeof *val);
    if (val)
        a->val = val;
}

slp_err slp_local_problem_alloc(slp_local_problem_t *lp, int R, int C, int64_t m_loc,
                                int64_t n_loc, int64_t nnz_loc)
{
    memset(lp, 0, sizeof *lp);
    /* Local indices are 32-bit (A_rc's column indices, and its transpose's row
     * indices): a block beyond that is refused here, before anything is allocated. */
    if (m_loc > INT32_MAX || n_loc > INT32_MAX || m_loc < 0 || n_loc < 0)
        return slp_error(SLP_ERR_INPUT, "a %lld x %lld block exceeds the 2^31 - 1 local rows "
                         "and columns of a block; use a grid with more rows (R) or columns (C)",
                         (long long)m_loc, (long long)n_loc);
    lp->R = R;
    lp->C = C;
    lp->m_loc = m_loc;
    lp->n_loc = n_loc;
    lp->row_off = slp_calloc((size_t)R + 1, sizeof(int64_t));
    lp->col_off = slp_calloc((size_t)C + 1, sizeof(int64_t));
    lp->obj = slp_calloc((size_t)n_loc, sizeof(double));
    lp->lv = slp_calloc((size_t)n_loc, sizeof(double));
    lp->uv = slp_calloc((size_t)n_loc, sizeof(double));
    lp->lc = slp_calloc((size_t)m_loc, sizeof(double));
    lp->uc = slp_calloc((size_t)m_loc, sizeof(double));
    if (!lp->row_off || !lp->col_off || !lp->obj || !lp->lv || !lp->uv || !lp->lc || !lp->uc) {
        slp_local_problem_free(lp);
        return SLP_ERR_NOMEM;
    }
    slp_err rc = slp_csr_create(m_loc, n_loc, nnz_loc, &lp->A);
    if (rc != SLP_OK)
        slp_local_problem_free(lp);
    return rc;
}

void slp_local_problem_free(slp_local_problem_t *lp)
{
    free(lp->row_off);
    free(lp->col_off);
    free(lp->obj);
    free(lp->lv);
    free(lp->uv);
    free(lp->lc);
    free(lp->uc);
    slp_csr_free(&lp->A);
    memset(lp, 0, sizeof *lp);
}

static void canonical_pair(double *lo, double *hi, int64_t len)
{
    for (int64_t k = 0; k < len; k++) {
        if (lo[k] <= -SLP_INFINITE_BOUND)
            lo[k] = -INFINITY;
        if (hi[k] >= SLP_INFINITE_BOUND)
            hi[k] = INFINITY;
    }
}

void slp_local_problem_canonical_bounds(slp_local_problem_t *lp)
{
    canonical_pair(lp->lv, lp->uv, lp->n_loc);
    canonical_pair(lp->lc, lp->uc, lp->m_loc);
}

slp_err slp_local_problem_copy(const slp_local_problem_t *src, slp_local_problem_t *dst)
{
    memset(dst, 0, sizeof *dst);
    SLP_CALL(slp_local_problem_alloc(dst, src->R, src->C, src->m_loc, src->n_loc, src->A.nnz));
    int64_t *row_off = dst->row_off, *col_off = dst->col_off;
    double *obj = dst->obj, *lv = dst->lv, *uv = dst->uv, *lc = dst->lc, *uc = dst->uc;
    slp_csr_t a = dst->A;
    *dst = *src; /* scalars; the arrays are replaced below */
    dst->row_off = row_off, dst->col_off = col_off;
    dst->obj = obj, dst->lv = lv, dst->uv = uv, dst->lc = lc, dst->uc = uc;
    dst->A = a;
    memcpy(row_off, src->row_off, ((size_t)src->R + 1) * sizeof(int64_t));
    memcpy(col_off, src->col_off, ((size_t)src->C + 1) * sizeof(int64_t));
    memcpy(obj, src->obj, (size_t)src->n_loc * sizeof(double));
    memcpy(lv, src->lv, (size_t)src->n_loc * sizeof(double));
    memcpy(uv, src->uv, (size_t)src->n_loc * sizeof(double));
    memcpy(lc, src->lc, (size_t)src->m_loc * sizeof(double));
    memcpy(uc, src->uc, (size_t)src->m_loc * sizeof(double));
    memcpy(a.row_ptr, src->A.row_ptr, ((size_t)src->A.rows + 1) * sizeof(int64_t));
    memcpy(a.col_idx, src->A.col_idx, (size_t)src->A.nnz * sizeof(int32_t));
    memcpy(a.val, src->A.val, (size_t)src->A.nnz * sizeof(double));
    return SLP_OK;
}

void slp_balanced_cuts(const int64_t *weights, int64_t len, int parts, int64_t *off)
{
    int64_t total = 0;
    for (int64_t k = 0; k < len; k++)
        total += weights[k] + 1;
    off[0] = 0;
    int64_t acc = 0, k = 0;
    for (int p = 1; p < parts; p++) {
        /* Advance until the prefix reaches p/parts of the total, leaving at least
         * one index for each remaining part when possible. */
        int64_t target = (int64_t)((double)total * p / parts);
        int64_t max_k = len - (parts - p);
        while (k < len && acc < target && k < max_k) {
            acc += weights[k] + 1;
            k++;
        }
        if (k < off[p - 1])
            k = off[p - 1];
        off[p] = k;
    }
    off[parts] = len;
}

