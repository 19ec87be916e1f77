/* The checker's criteria (check.h, docs/checker.md) evaluated on a grid: every rank
 * holds its block of the ORIGINAL model and its slices of the solution, products
 * are summed over row_comm / col_comm, and each row or column slice is counted
 * once (grid column 0 owns rows, grid row 0 owns columns). Nothing is gathered.
 * The solver uses it for its final verdict (docs/statuses.md). Collective. */
#ifndef SLP_CHECK_GRID_H
#define SLP_CHECK_GRID_H

#include "check/check.h"
#include "core/local_problem.h"
#include "grid/grid.h"

/* x, z: this rank's column slice; y: its row slice; all in the user's sense.
 * Every rank gets the same *out. */
slp_err slp_check_grid(slp_grid_t *grid, const slp_local_problem_t *lp, const double *x,
                       const double *y, const double *z, double reported_objective,
                       slp_check_result_t *out);

/* The primal ray check of check.h on the grid: ray_x is this rank's column slice (user's
 * sense of the objective as in the model). Every rank gets the same *out (worst: -1). */
slp_err slp_check_primal_ray_grid(slp_grid_t *grid, const slp_local_problem_t *lp,
                                  const double *ray_x, slp_ray_result_t *out);

#endif
