/* Column fixing (docs/algorithm.md section 10): a solve that, once its relative
 * residuals and gap are all below settings->fix_columns, holds the columns that sit at
 * a bound with a clearly signed reduced cost there and solves the smaller LP of the
 * others, warm-started; releases every held column whose reduced cost then has the
 * wrong sign and solves again; and ends with a solve of the LP as given, warm-started
 * from that point, so that its termination test and the verdict see the whole LP. */
#ifndef SLP_FIXING_H
#define SLP_FIXING_H

#include "solver/solver.h"

/* Column fixing takes part in a solve with these settings (of an LP with columns):
 * settings->fix_columns above the target tolerance, no checkpoints. */
int slp_fixing_enabled(const slp_settings_t *settings);

/* slp_solve with column fixing where slp_fixing_enabled and the LP has columns, else
 * slp_solve itself. The time limit of
 * `settings` counts from t_start (every phase gets what is left). Collective. */
slp_err slp_solve_fixing(slp_grid_t *grid, slp_local_problem_t *lp, const slp_settings_t *settings,
                         double t_start, const slp_solve_inputs_t *inputs, slp_backend_t *be,
                         slp_result_t *result);

#endif
