/* The time left of a run's limit (verdict/budget.h). */
#include "verdict/budget.h"

#include <math.h>

#include "core/timer.h"

slp_err slp_budget_left(slp_grid_t *grid, const slp_settings_t *settings, double t_start,
                        slp_settings_t *set, double *elapsed)
{
    double agreed[1] = {slp_wall_seconds() - t_start};
    SLP_CALL(slp_comm_max(grid->world, agreed, 1));
    *set = *settings;
    set->time_limit = fmax(0.0, settings->time_limit - agreed[0]);
    if (elapsed)
        *elapsed = agreed[0];
    return SLP_OK;
}
