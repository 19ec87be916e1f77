/* The time left of a run's limit for each of its solves (presolve, the main solve's
 * phases, the verdict's follow-up solves), the same on every rank. */
#ifndef SLP_BUDGET_H
#define SLP_BUDGET_H

#include "grid/grid.h"
#include "solver/settings.h"

/* *set = *settings with time_limit cut to what is left after the seconds since
 * t_start (*elapsed when not NULL), agreed over the grid (the latest rank's): every
 * rank gives a solve the same limit (ranks with different limits would run windows of
 * different lengths and wait in different collectives). Elapsed times, not clock
 * readings, are compared: hosts' monotonic clocks have different origins. Collective. */
slp_err slp_budget_left(slp_grid_t *grid, const slp_settings_t *settings, double t_start,
                        slp_settings_t *set, double *elapsed);

#endif
