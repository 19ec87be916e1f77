/* Whole vectors on rank 0 <-> slices on the grid, for callers in memory (the C API):
 * the warm start goes out, the solution comes back. Collective over the grid. */
#ifndef SLP_RUN_VECTORS_H
#define SLP_RUN_VECTORS_H

#include "core/local_problem.h"
#include "grid/grid.h"
#include "run/run.h"

/* Rank 0's x0[n] / y0[m] (either NULL) to every rank's column / row slice.
 * *x0s / *y0s stay NULL when there is no start. */
slp_err slp_run_scatter_start(slp_grid_t *g, const slp_local_problem_t *lp, const double *x0,
                              const double *y0, double **x0s, double **y0s);
/* Every rank's slices of x, rc (from ranks (0, c)) and y, ax (from ranks (r, 0)) into
 * rank 0's buffers; a NULL buffer is received and dropped. */
slp_err slp_run_gather(slp_grid_t *g, const slp_local_problem_t *lp, const slp_result_t *res,
                       const slp_run_vectors_t *out);

#endif
