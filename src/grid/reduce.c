#include "grid/reduce.h"

#include <string.h>

#define SLP_MAX_BATCH 64

slp_err slp_reduce_sums(slp_grid_t *grid, double *col, int ncol, double *row, int nrow)
{
    if (grid->size == 1)
        return SLP_OK;
    if (ncol + nrow > SLP_MAX_BATCH)
        return slp_error(SLP_ERR_INTERNAL, "reduction batch of %d values is too large", ncol + nrow);
    double buf[SLP_MAX_BATCH];
    for (int k = 0; k < ncol; k++)
        buf[k] = grid->r == 0 ? col[k] : 0.0;
    for (int k = 0; k < nrow; k++)
        buf[ncol + k] = grid->c == 0 ? row[k] : 0.0;
    SLP_CALL(slp_comm_sum(grid->world, buf, ncol + nrow));
    memcpy(col, buf, (size_t)ncol * sizeof(double));
    memcpy(row, buf + ncol, (size_t)nrow * sizeof(double));
    return SLP_OK;
}

slp_err slp_reduce_max(slp_grid_t *grid, double *values, int count)
{
    return slp_comm_max(grid->world, values, count);
}

slp_err slp_sum_over_row(slp_grid_t *grid, double *v, int64_t len)
{
    return slp_comm_sum(grid->row_comm, v, len);
}

slp_err slp_sum_over_col(slp_grid_t *grid, double *v, int64_t len)
{
    return slp_comm_sum(grid->col_comm, v, len);
}

slp_err slp_max_over_row(slp_grid_t *grid, double *v, int64_t len)
{
    return slp_comm_max(grid->row_comm, v, len);
}

slp_err slp_max_over_col(slp_grid_t *grid, double *v, int64_t len)
{
    return slp_comm_max(grid->col_comm, v, len);
}
