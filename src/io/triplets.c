/* Matrix entries collected as (column, row, value) triplets in file order, and
 * turned into CSC (io/triplets.h).
 *
 * MPS files list a column's entries together and columns in order, so the row/value
 * arrays usually are already in column order and only rows inside a column may need
 * sorting; a column split over non-adjacent lines triggers a stable counting sort.
 * A (column, row) pair seen twice keeps its first value (HiGHS behaviour). */
#include "io/triplets.h"

#include <stdlib.h>
#include <string.h>

#include "core/log.h"

static slp_err triplets_grow(slp_triplets_t *t)
{
    int64_t cap = t->cap ? 2 * t->cap : 1 << 16;
    int64_t *col = realloc(t->col, (size_t)cap * sizeof *col);
    if (col)
        t->col = col;
    int64_t *row = realloc(t->row, (size_t)cap * sizeof *row);
    if (row)
        t->row = row;
    double *val = realloc(t->val, (size_t)cap * sizeof *val);
    if (val)
        t->val = val;
    if (!col || !row || !val)
        return slp_error(SLP_ERR_NOMEM, "out of memory storing %lld matrix entries",
                         (long long)cap);
    t->cap = cap;
    return SLP_OK;
}

void slp_triplets_init(slp_triplets_t *t)
{
    memset(t, 0, sizeof *t);
    t->cols_in_order = 1;
}

void slp_triplets_free(slp_triplets_t *t)
{
    free(t->col);
    free(t->row);
    free(t->val);
    slp_triplets_init(t);
}

void slp_triplets_truncate(slp_triplets_t *t, int64_t count)
{
    if (count >= t->count && count >= t->cap)
        return;
    t->count = count < t->count ? count : t->count;
    int64_t cap = t->cap;
    slp_shrink(&t->col, &cap, t->count, sizeof *t->col);
    cap = t->cap;
    slp_shrink(&t->row, &cap, t->count, sizeof *t->row);
    cap = t->cap;
    slp_shrink(&t->val, &cap, t->count, sizeof *t->val);
    t->cap = t->count; /* a declined shrink leaves more room than this, never less */
}

slp_err slp_triplets_add(slp_triplets_t *t, int64_t col, int64_t row, double value)
{
    if (t->count == t->cap)
        SLP_CALL(triplets_grow(t));
    if (col < t->last_col)
        t->cols_in_order = 0;
    t->last_col = col;
    t->col[t->count] = col;
    t->row[t->count] = row;
    t->val[t->count] = value;
    t->count++;
    return SLP_OK;
}

/* Stable sort of (row, val)[0..k) by row, using scratch arrays of length k. */
static void sort_column(int64_t *row, double *val, int64_t k, int64_t *srow, double *sval)
{
    if (k <= 16) {
        for (int64_t a = 1; a < k; a++) {
            int64_t r = row[a];
            double v = val[a];
            int64_t b = a;
            for (; b > 0 && row[b - 1] > r; b--) {
                row[b] = row[b - 1];
                val[b] = val[b - 1];
            }
            row[b] = r;
            val[b] = v;
        }
        return;
    }
    int64_t h = k / 2;
    sort_column(row, val, h, srow, sval);
    sort_column(row + h, val + h, k - h, srow, sval);
    if (row[h - 1] <= row[h])
        return;
    memcpy(srow, row, (size_t)h * sizeof *srow);
    memcpy(sval, val, (size_t)h * sizeof *sval);
    int64_t a = 0, b = h, o = 0;
    while (a < h && b < k) {
        if (row[b] < srow[a]) { /* strict: equal rows keep file order */
            row[o] = row[b];
            val[o++] = val[b++];
        } else {
            row[o] = srow[a];
            val[o++] = sval[a++];
        }
    }
    while (a < h) {
        row[o] = srow[a];
        val[o++] = sval[a++];
    }
}

slp_err slp_triplets_to_csc(const char *path, slp_triplets_t *t, int64_t n,
                            int64_t **col_ptr_out, int64_t **row_out, double **val_out,
                            int64_t *nnz_out)
{
    int64_t nnz = t->count;
    int64_t *col_ptr = slp_calloc((size_t)n + 1, sizeof *col_ptr);
    if (!col_ptr)
        return SLP_ERR_NOMEM;
    for (int64_t k = 0; k < nnz; k++)
        col_ptr[t->col[k] + 1]++;
    for (int64_t j = 0; j < n; j++)
        col_ptr[j + 1] += col_ptr[j];

    int64_t *row = t->row;
    double *val = t->val;
    if (!t->cols_in_order) { /* stable counting sort by column */
        row = slp_malloc((size_t)(nnz ? nnz : 1) * sizeof *row);
        val = slp_malloc((size_t)(nnz ? nnz : 1) * sizeof *val);
        int64_t *next = slp_malloc((size_t)(n ? n : 1) * sizeof *next);
        if (!row || !val || !next) {
            free(row), free(val), free(next), free(col_ptr);
            return SLP_ERR_NOMEM;
        }
        memcpy(next, col_ptr, (size_t)n * sizeof *next);
        for (int64_t k = 0; k < nnz; k++) {
            int64_t dst = next[t->col[k]]++;
            row[dst] = t->row[k];
            val[dst] = t->val[k];
        }
        free(next);
        free(t->row);
        free(t->val);
    }
    t->row = NULL;
    t->val = NULL;
    free(t->col);
    t->col = NULL;

    /* Sort rows within each column and drop repeated rows (first value kept). */
    int64_t longest = 0;
    for (int64_t j = 0; j < n; j++)
        if (col_ptr[j + 1] - col_ptr[j] > longest)
            longest = col_ptr[j + 1] - col_ptr[j];
    int64_t *srow = slp_malloc((size_t)(longest / 2 + 1) * sizeof *srow);
    double *sval = slp_malloc((size_t)(longest / 2 + 1) * sizeof *sval);
    if (!srow || !sval) {
        free(srow), free(sval), free(row), free(val), free(col_ptr);
        return SLP_ERR_NOMEM;
    }
    int64_t out = 0, dups = 0;
    for (int64_t j = 0; j < n; j++) {
        int64_t a = col_ptr[j], b = col_ptr[j + 1];
        int sorted = 1;
        for (int64_t k = a + 1; k < b && sorted; k++)
            sorted = row[k - 1] < row[k];
        if (!sorted)
            sort_column(row + a, val + a, b - a, srow, sval);
        col_ptr[j] = out;
        for (int64_t k = a; k < b; k++) {
            if (k > a && row[k] == row[k - 1]) {
                dups++;
                continue;
            }
            row[out] = row[k];
            val[out++] = val[k];
        }
    }
    col_ptr[n] = out;
    free(srow);
    free(sval);
    if (dups > 0)
        slp_warn("%s: %lld repeated (column, row) entries in split columns: first value kept\n",
                 path, (long long)dups);
    /* Shrink to the final size (failure to shrink is harmless). */
    int64_t *r2 = realloc(row, (size_t)(out ? out : 1) * sizeof *r2);
    if (r2)
        row = r2;
    double *v2 = realloc(val, (size_t)(out ? out : 1) * sizeof *v2);
    if (v2)
        val = v2;
    *col_ptr_out = col_ptr;
    *row_out = row;
    *val_out = val;
    *nnz_out = out;
    return SLP_OK;
}

