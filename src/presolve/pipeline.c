#include "presolve/pipeline.h"

#include "solver/scaling.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A result for a status decided before any iteration. */
static slp_err decided_result(const slp_local_problem_t *lp, int status, slp_result_t *result)
{
    memset(result, 0, sizeof *result);
    result->status = (slp_status)status;
    result->objective = result->dual_objective = NAN;
    result->rel_primal_residual = result->rel_dual_residual = result->rel_gap = NAN;
    result->abs_primal_residual = result->abs_dual_residual = result->abs_gap = NAN;
    result->x = slp_calloc((size_t)lp->n_loc + 1, sizeof(double));
    result->rc = slp_calloc((size_t)lp->n_loc + 1, sizeof(double));
    result->y = slp_calloc((size_t)lp->m_loc + 1, sizeof(double));
    result->ax = slp_calloc((size_t)lp->m_loc + 1, sizeof(double));
    if (!result->x || !result->rc || !result->y || !result->ax) {
        slp_result_free(result);
        return SLP_ERR_NOMEM;
    }
    return SLP_OK;
}

slp_err slp_solve_pipeline(slp_grid_t *grid, slp_local_problem_t *lp,
                           const slp_settings_t *settings, slp_backend_t *be,
                           slp_result_t *result, slp_presolve_stats_t *stats)
{
    memset(stats, 0, sizeof *stats);
    memset(result, 0, sizeof *result);
    if (!settings->presolve)
        return slp_solve(grid, lp, settings, be, result);
    /* Tolerances stay relative to the original model: presolve moves fixed values
     * into the row bounds, which can grow ||b|| and loosen the criterion. */
    slp_norms_t original;
    SLP_CALL(slp_compute_norms(grid, lp, &original));
    slp_settings_t set = *settings;
    if (!set.norms)
        set.norms = &original;
    slp_presolve_t *pre = NULL;
    int decided = -1;
    slp_err rc = slp_comm_agree(grid->world, slp_presolve_run(grid, lp, &pre, &decided));
    if (rc == SLP_OK) {
        *stats = *slp_presolve_stats(pre);
        if (decided >= 0)
            rc = decided_result(lp, decided, result);
        else
            rc = slp_solve(grid, lp, &set, be, result);
    }
    rc = slp_comm_agree(grid->world, rc);
    if (rc == SLP_OK && decided < 0)
        rc = slp_comm_agree(grid->world, slp_presolve_recover(grid, pre, result));
    slp_presolve_free(&pre);
    return rc;
}
