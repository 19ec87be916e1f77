/* The MPS path of the input phase: rank 0 holds the whole model and sends every
 * rank its block A_rc and its row and column slices (docs/design.md section 4.1).
 * Other ranks never see more than their own part. */
#ifndef SLP_DISTRIBUTE_H
#define SLP_DISTRIBUTE_H

#include "core/local_problem.h"
#include "core/model.h"
#include "grid/grid.h"

/* Collective over grid->world. `model` is read on rank 0 only (NULL elsewhere).
 * Cuts are nnz-balanced. Fills *out on every rank. */
slp_err slp_distribute_model(slp_grid_t *grid, const slp_model_t *model, slp_local_problem_t *out);

/* Build the local problem of block (r, c) of an R x C split of `model` with the
 * given cuts (no communication; used by rank 0 and by tests). */
slp_err slp_extract_block(const slp_model_t *model, int R, int C, const int64_t *row_off,
                          const int64_t *col_off, int r, int c, slp_local_problem_t *out);

/* nnz-balanced cut points of `model` for an R x C grid. */
slp_err slp_model_cuts(const slp_model_t *model, int R, int C, int64_t *row_off, int64_t *col_off);

#endif
