/* The problem object of the public C API: built from arrays (CSC, CSR or COO,
 * duplicates summed) or read from MPS, plus the warm start. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "core/error.h"
#include "io/input_format.h"
#include "io/lp.h"
#include "io/mps.h"

/* ---- contents ---------------------------------------------------------------
 * validate_matrix        index and value checks of the caller's arrays
 * entry_row / entry_col  (i, j) of stored entry k in any format
 * build_csc              two stable counting sorts (by row, then by column) give
 *                        CSC with sorted rows; duplicates are then summed
 * ------------------------------------------------------------------------------ */

static slp_err validate_matrix(int64_t m, int64_t n, const shardlp_matrix *A)
{
    if (A->nnz < 0)
        return slp_error(SLP_ERR_INPUT, "matrix: nnz = %lld is negative", (long long)A->nnz);
    if (A->nnz > 0 && !A->val)
        return slp_error(SLP_ERR_INPUT, "matrix: val is NULL");
    const char *fmt = A->format == SHARDLP_CSC ? "CSC" : A->format == SHARDLP_CSR ? "CSR" : "COO";
    if (A->format == SHARDLP_CSC || A->format == SHARDLP_CSR) {
        int64_t len = A->format == SHARDLP_CSC ? n : m;
        const int64_t *idx = A->format == SHARDLP_CSC ? A->row : A->col;
        int64_t bound = A->format == SHARDLP_CSC ? m : n;
        if (!A->ptr)
            return slp_error(SLP_ERR_INPUT, "matrix (%s): ptr is NULL", fmt);
        if (A->ptr[0] != 0 || A->ptr[len] != A->nnz)
            return slp_error(SLP_ERR_INPUT, "matrix (%s): ptr[0] = %lld and ptr[%lld] = %lld, "
                             "expected 0 and nnz = %lld", fmt, (long long)A->ptr[0], (long long)len,
                             (long long)A->ptr[len], (long long)A->nnz);
        for (int64_t k = 0; k < len; k++)
            if (A->ptr[k + 1] < A->ptr[k])
                return slp_error(SLP_ERR_INPUT, "matrix (%s): ptr decreases at %lld", fmt,
                                 (long long)k);
        if (A->nnz > 0 && !idx)
            return slp_error(SLP_ERR_INPUT, "matrix (%s): %s is NULL", fmt,
                             A->format == SHARDLP_CSC ? "row" : "col");
        for (int64_t k = 0; k < A->nnz; k++)
            if (idx[k] < 0 || idx[k] >= bound)
                return slp_error(SLP_ERR_INPUT, "matrix (%s): entry %lld has %s index %lld, "
                                 "outside [0, %lld)", fmt, (long long)k,
                                 A->format == SHARDLP_CSC ? "row" : "column", (long long)idx[k],
                                 (long long)bound);
    } else if (A->format == SHARDLP_COO) {
        if (A->nnz > 0 && (!A->row || !A->col))
            return slp_error(SLP_ERR_INPUT, "matrix (COO): row or col is NULL");
        for (int64_t k = 0; k < A->nnz; k++)
            if (A->row[k] < 0 || A->row[k] >= m || A->col[k] < 0 || A->col[k] >= n)
                return slp_error(SLP_ERR_INPUT, "matrix (COO): entry %lld at (%lld, %lld) is "
                                 "outside %lld x %lld", (long long)k, (long long)A->row[k],
                                 (long long)A->col[k], (long long)m, (long long)n);
    } else {
        return slp_error(SLP_ERR_INPUT, "matrix: unknown format %d", (int)A->format);
    }
    for (int64_t k = 0; k < A->nnz; k++)
        if (!isfinite(A->val[k]))
            return slp_error(SLP_ERR_INPUT, "matrix: entry %lld is not finite (%g)", (long long)k,
                             A->val[k]);
    return SLP_OK;
}

/* For CSC/CSR the compressed index of entry k is recovered by walking ptr, so
 * both passes below go over the major dimension in order. */
static slp_err build_csc(int64_t m, int64_t n, const shardlp_matrix *A, slp_model_t *model)
{
    int64_t nnz = A->nnz;
    int64_t *ei = NULL, *ej = NULL, *tmp_i = NULL, *tmp_j = NULL, *cnt = NULL;
    double *tmp_v = NULL;
    slp_err rc = SLP_OK;
    size_t cn = (size_t)(nnz > 0 ? nnz : 1);
    if (slp_alloc(&ei, cn, sizeof *ei) || slp_alloc(&ej, cn, sizeof *ej) ||
        slp_alloc(&tmp_i, cn, sizeof *tmp_i) || slp_alloc(&tmp_j, cn, sizeof *tmp_j) ||
        slp_alloc(&tmp_v, cn, sizeof *tmp_v) ||
        slp_alloc(&cnt, (size_t)((m > n ? m : n) + 1), sizeof *cnt)) {
        rc = SLP_ERR_NOMEM;
        goto done;
    }
    /* Triplet coordinates. */
    if (A->format == SHARDLP_COO) {
        memcpy(ei, A->row, (size_t)nnz * sizeof *ei);
        memcpy(ej, A->col, (size_t)nnz * sizeof *ej);
    } else {
        int csc = A->format == SHARDLP_CSC;
        int64_t len = csc ? n : m;
        const int64_t *idx = csc ? A->row : A->col;
        for (int64_t p = 0; p < len; p++)
            for (int64_t k = A->ptr[p]; k < A->ptr[p + 1]; k++) {
                ei[k] = csc ? idx[k] : p;
                ej[k] = csc ? p : idx[k];
            }
    }
    /* Pass 1: stable bucket by row into tmp. */
    memset(cnt, 0, (size_t)(m + 1) * sizeof *cnt);
    for (int64_t k = 0; k < nnz; k++)
        cnt[ei[k] + 1]++;
    for (int64_t i = 0; i < m; i++)
        cnt[i + 1] += cnt[i];
    for (int64_t k = 0; k < nnz; k++) {
        int64_t d = cnt[ei[k]]++;
        tmp_i[d] = ei[k];
        tmp_j[d] = ej[k];
        tmp_v[d] = A->val[k];
    }
    /* Pass 2: stable bucket by column: rows end up sorted inside each column. */
    memset(cnt, 0, (size_t)(n + 1) * sizeof *cnt);
    for (int64_t k = 0; k < nnz; k++)
        cnt[tmp_j[k] + 1]++;
    for (int64_t j = 0; j < n; j++)
        cnt[j + 1] += cnt[j];
    memcpy(model->col_ptr, cnt, (size_t)(n + 1) * sizeof *cnt);
    for (int64_t k = 0; k < nnz; k++) {
        int64_t d = cnt[tmp_j[k]]++;
        model->row_idx[d] = tmp_i[k];
        model->val[d] = tmp_v[k];
    }
    /* Sum duplicates (adjacent now), compacting in place. */
    int64_t out = 0;
    for (int64_t j = 0; j < n; j++) {
        int64_t start = model->col_ptr[j], end = model->col_ptr[j + 1];
        model->col_ptr[j] = out;
        for (int64_t k = start; k < end; k++) {
            if (out > model->col_ptr[j] && model->row_idx[out - 1] == model->row_idx[k]) {
                model->val[out - 1] += model->val[k];
            } else {
                model->row_idx[out] = model->row_idx[k];
                model->val[out] = model->val[k];
                out++;
            }
        }
    }
    model->col_ptr[n] = out;
    model->nnz = out;
done:
    free(ei);
    free(ej);
    free(tmp_i);
    free(tmp_j);
    free(tmp_v);
    free(cnt);
    return rc;
}

shardlp_error shardlp_problem_create(int64_t m, int64_t n, int sense, const double *c, double c0,
                                     const shardlp_matrix *A, const double *lc, const double *uc,
                                     const double *lv, const double *uv, shardlp_problem **out)
{
    slp_error_clear();
    if (!out)
        return slp_api_code(slp_error(SLP_ERR_INPUT, "shardlp_problem_create: out is NULL"));
    *out = NULL;
    if (m < 0 || n < 0)
        return slp_api_code(slp_error(SLP_ERR_INPUT, "problem size %lld x %lld is negative",
                                      (long long)m, (long long)n));
    if (sense != SHARDLP_MINIMIZE && sense != SHARDLP_MAXIMIZE)
        return slp_api_code(slp_error(SLP_ERR_INPUT, "sense %d is not 1 (minimize) or -1 "
                                      "(maximize)", sense));
    if (!isfinite(c0))
        return slp_api_code(slp_error(SLP_ERR_INPUT, "objective constant is not finite"));
    shardlp_matrix empty = {SHARDLP_COO, 0, NULL, NULL, NULL, NULL};
    if (!A)
        A = &empty;
    slp_err rc = validate_matrix(m, n, A);
    if (rc != SLP_OK)
        return slp_api_code(rc);
    shardlp_problem *p = slp_calloc(1, sizeof *p);
    if (!p)
        return SHARDLP_ERR_NOMEM;
    rc = slp_model_create(m, n, A->nnz, &p->model);
    if (rc == SLP_OK) {
        slp_model_t *mo = p->model;
        mo->sense = sense;
        mo->obj_const = c0;
        for (int64_t j = 0; j < n; j++) {
            mo->c[j] = c ? c[j] : 0.0;
            mo->lv[j] = lv ? lv[j] : 0.0;
            mo->uv[j] = uv ? uv[j] : INFINITY;
        }
        for (int64_t i = 0; i < m; i++) {
            mo->lc[i] = lc ? lc[i] : -INFINITY;
            mo->uc[i] = uc ? uc[i] : INFINITY;
        }
        rc = build_csc(m, n, A, mo);
    }
    if (rc == SLP_OK)
        rc = slp_model_validate(p->model, "problem");
    if (rc != SLP_OK) {
        shardlp_problem_destroy(&p);
        return slp_api_code(rc);
    }
    *out = p;
    return SHARDLP_OK;
}

shardlp_error shardlp_problem_read(const char *path, shardlp_problem **out)
{
    slp_error_clear();
    if (!out || !path)
        return slp_api_code(slp_error(SLP_ERR_INPUT, "shardlp_problem_read: NULL argument"));
    *out = NULL;
    shardlp_problem *p = slp_calloc(1, sizeof *p);
    if (!p)
        return SHARDLP_ERR_NOMEM;
    slp_err rc = slp_model_read(path, &p->model);
    if (rc == SLP_OK)
        rc = slp_model_validate(p->model, path);
    if (rc != SLP_OK) {
        shardlp_problem_destroy(&p);
        return slp_api_code(rc);
    }
    *out = p;
    return SHARDLP_OK;
}

shardlp_error shardlp_problem_write(const shardlp_problem *problem, const char *path)
{
    slp_error_clear();
    if (!problem || !path)
        return slp_api_code(slp_error(SLP_ERR_INPUT, "shardlp_problem_write: NULL argument"));
    size_t len = strlen(path);
    int lp_file = len >= 3 && strcmp(path + len - 3, ".lp") == 0;
    return slp_api_code(lp_file ? slp_lp_write(problem->model, path)
                                : slp_mps_write(problem->model, path));
}

void shardlp_problem_destroy(shardlp_problem **problem)
{
    if (!problem || !*problem)
        return;
    slp_model_destroy(&(*problem)->model);
    free((*problem)->x0);
    free((*problem)->y0);
    free(*problem);
    *problem = NULL;
}

void shardlp_problem_size(const shardlp_problem *problem, int64_t *m, int64_t *n, int64_t *nnz)
{
    const slp_model_t *mo = problem ? problem->model : NULL;
    if (m)
        *m = mo ? mo->m : 0;
    if (n)
        *n = mo ? mo->n : 0;
    if (nnz)
        *nnz = mo ? mo->nnz : 0;
}

const char *shardlp_problem_row_name(const shardlp_problem *problem, int64_t i)
{
    if (!problem || i < 0 || i >= problem->model->m)
        return NULL;
    return slp_model_row_name(problem->model, i, ((shardlp_problem *)problem)->name_buf);
}

const char *shardlp_problem_col_name(const shardlp_problem *problem, int64_t j)
{
    if (!problem || j < 0 || j >= problem->model->n)
        return NULL;
    return slp_model_col_name(problem->model, j, ((shardlp_problem *)problem)->name_buf);
}

static slp_err copy_start(const double *src, int64_t len, const char *what, double **dst)
{
    free(*dst);
    *dst = NULL;
    if (!src)
        return SLP_OK;
    for (int64_t k = 0; k < len; k++)
        if (!isfinite(src[k]))
            return slp_error(SLP_ERR_INPUT, "warm start %s[%lld] is not finite", what,
                             (long long)k);
    SLP_CALL(slp_alloc(dst, (size_t)(len > 0 ? len : 1), sizeof **dst));
    memcpy(*dst, src, (size_t)len * sizeof **dst);
    return SLP_OK;
}

shardlp_error shardlp_problem_set_warm_start(shardlp_problem *problem, const double *x0,
                                             const double *y0)
{
    slp_error_clear();
    if (!problem)
        return slp_api_code(slp_error(SLP_ERR_INPUT, "set_warm_start: problem is NULL"));
    slp_err rc = copy_start(x0, problem->model->n, "x0", &problem->x0);
    if (rc == SLP_OK)
        rc = copy_start(y0, problem->model->m, "y0", &problem->y0);
    if (rc != SLP_OK) {
        free(problem->x0);
        free(problem->y0);
        problem->x0 = problem->y0 = NULL;
    }
    return slp_api_code(rc);
}
