/* Matrix entries as (column, row, value) triplets, turned into CSC with rows sorted
 * within each column; a repeated (column, row) keeps its first value, with one
 * warning naming the file. Used by the MPS and LP readers. */
#ifndef SLP_TRIPLETS_H
#define SLP_TRIPLETS_H

#include <stdint.h>

#include "core/error.h"

typedef struct slp_triplets {
    int64_t *col, *row;
    double *val;
    int64_t count, cap;
    int64_t last_col;
    int cols_in_order; /* column indices never decreased */
} slp_triplets_t;

void slp_triplets_init(slp_triplets_t *t);
void slp_triplets_free(slp_triplets_t *t);
slp_err slp_triplets_add(slp_triplets_t *t, int64_t col, int64_t row, double value);
/* Keep the first `count` triplets (at most those held) and give the arrays' memory
 * beyond them back. */
void slp_triplets_truncate(slp_triplets_t *t, int64_t count);
/* CSC of n columns: col_ptr[n+1], row and val (owned by the caller); t is emptied. */
slp_err slp_triplets_to_csc(const char *path, slp_triplets_t *t, int64_t n,
                            int64_t **col_ptr_out, int64_t **row_out, double **val_out,
                            int64_t *nnz_out);

#endif
