/* A Farkas certificate for primal infeasibility from a single row whose activity
 * bounds exclude its bounds (presolve's activity test), checked on the original
 * block (docs/presolve.md, "Certificates"). */
#ifndef SLP_ROW_CERTIFICATE_H
#define SLP_ROW_CERTIFICATE_H

#include "core/local_problem.h"
#include "grid/grid.h"

/* Collective. row: global index; side: +1 when the least activity exceeds uc, -1 when
 * the greatest is below lc. When y = -side e_row proves infeasibility of `orig` (ray
 * objective > 0, no infinite bound needed), *proves = 1 and *ray_y (this rank's row
 * slice, malloc'd) holds it; else *proves = 0 and *ray_y = NULL. */
slp_err slp_row_certificate(slp_grid_t *grid, const slp_local_problem_t *orig, int64_t row,
                            int side, double **ray_y, int *proves);

#endif
