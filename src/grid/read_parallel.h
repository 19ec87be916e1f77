/* Reading one MPS file on every rank, straight into the ranks' blocks
 * (docs/parallel-input.md): no rank holds the matrix or all the column names. */
#ifndef SLP_READ_PARALLEL_H
#define SLP_READ_PARALLEL_H

#include "core/local_problem.h"
#include "grid/grid.h"

/* What the run's log and outputs keep of the model. */
typedef struct slp_read_parallel_info {
    char *name; /* NAME (owned) */
    int64_t m, n, nnz;
    int64_t n_int; /* integer columns (relaxed) */
    int sense;
} slp_read_parallel_info_t;

/* Collective over grid->world. Reads the plain MPS file `path` on all ranks into *out
 * (as slp_distribute_model gives it after the one-process reader) and sets *done = 1.
 * *done = 0, with nothing printed and *out empty, when the file is better read by one
 * process: compressed or not a regular file, sections in another order, integer columns
 * without `relax`, or anything the one-process reader would warn about or refuse (its
 * messages then come from it). */
slp_err slp_read_parallel(slp_grid_t *grid, const char *path, int relax,
                          slp_local_problem_t *out, slp_read_parallel_info_t *info, int *done);

#endif
