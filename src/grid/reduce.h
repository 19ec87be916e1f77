/* Reductions over the grid that respect replication (docs/design.md section 3):
 * column-slice (n-space) quantities are replicated down grid columns, row-slice
 * (m-space) quantities across grid rows. A global sum over the n-space must
 * count each column slice once, so only grid row 0 contributes it; likewise only
 * grid column 0 contributes m-space sums. One MPI_Allreduce serves a batch of
 * both kinds. Every rank gets identical results. All functions are collective. */
#ifndef SLP_REDUCE_H
#define SLP_REDUCE_H

#include "grid/grid.h"

/* In place: col[0..ncol) are n-space partial sums, row[0..nrow) m-space partial
 * sums; on return both hold global sums. */
slp_err slp_reduce_sums(slp_grid_t *grid, double *col, int ncol, double *row, int nrow);
/* Global maxima of values (replication does not matter for a max). */
slp_err slp_reduce_max(slp_grid_t *grid, double *values, int count);

/* Vector sums for the matrix products: sum the partial A_rc x_c over the grid
 * row (gives A x for row block r), and the partial A_rc^T y_r over the grid
 * column (gives A^T y for column block c). */
slp_err slp_sum_over_row(slp_grid_t *grid, double *v, int64_t len);
slp_err slp_sum_over_col(slp_grid_t *grid, double *v, int64_t len);
slp_err slp_max_over_row(slp_grid_t *grid, double *v, int64_t len);
slp_err slp_max_over_col(slp_grid_t *grid, double *v, int64_t len);

#endif
