/* Reading one MPS or LP file on every rank, straight into the ranks' blocks
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

/* The names of the blocks, for writing shards (shard/shard_ranks.c): each name ends
 * with a NUL byte, in index order. */
typedef struct slp_read_names {
    char *rows; /* row block r's, on the ranks (r, 0); NULL elsewhere */
    int64_t rows_bytes;
    char *cols; /* column block c's, on the ranks (0, c); NULL elsewhere */
    int64_t cols_bytes;
} slp_read_names_t;
void slp_read_names_free(slp_read_names_t *names);

/* Collective over grid->world. Reads the MPS or LP file `path` (plain, BGZF or seekable
 * zstd) on all ranks into *out (as slp_distribute_model gives it after the one-process
 * reader, but with the bounds as in the file: slp_local_problem_canonical_bounds is the
 * caller's), with the names when `names` is not NULL, and sets *done = 1.
 * *done = 0, with nothing printed and *out empty, when the file is better read by one
 * process: compressed or not a regular file, sections in another order (MPS), a block
 * comment (LP), integer columns without `relax`, or anything the one-process reader
 * would warn about or refuse (its messages then come from it). */
slp_err slp_read_parallel(slp_grid_t *grid, const char *path, int relax,
                          slp_local_problem_t *out, slp_read_parallel_info_t *info,
                          slp_read_names_t *names, int *done);

#endif
