/* The dense plan; the support-aware plan is not built yet. */
#include "plan/comm_plan.h"

#include <string.h>

#include "shard/shard.h"
#include "solver/reduce.h"

slp_err slp_plan_create(slp_grid_t *grid, const slp_local_problem_t *lp, const char *mode,
                        slp_comm_plan_t **out)
{
    (void)grid;
    (void)lp;
    *out = NULL;
    if (!mode || !strcmp(mode, "dense"))
        return SLP_OK;
    return slp_error(SLP_ERR_UNSUPPORTED, "--comm %s is not available yet", mode);
}

void slp_plan_destroy(slp_comm_plan_t **plan)
{
    if (plan)
        *plan = NULL;
}

slp_err slp_plan_sum_rows(slp_comm_plan_t *plan, slp_grid_t *grid, double *v, int64_t m_loc)
{
    (void)plan;
    return slp_sum_over_row(grid, v, m_loc);
}

slp_err slp_plan_sum_cols(slp_comm_plan_t *plan, slp_grid_t *grid, double *v, int64_t n_loc)
{
    (void)plan;
    return slp_sum_over_col(grid, v, n_loc);
}

slp_err slp_plan_sync_rows(slp_comm_plan_t *plan, slp_grid_t *grid, double **vecs, int count,
                           int64_t m_loc)
{
    (void)plan, (void)grid, (void)vecs, (void)count, (void)m_loc;
    return SLP_OK;
}

slp_err slp_plan_sync_cols(slp_comm_plan_t *plan, slp_grid_t *grid, double **vecs, int count,
                           int64_t n_loc)
{
    (void)plan, (void)grid, (void)vecs, (void)count, (void)n_loc;
    return SLP_OK;
}

slp_err slp_plan_hops(slp_comm_plan_t *plan, slp_grid_t *grid, const slp_local_problem_t *lp,
                      double *dense_hops, double *plan_hops)
{
    (void)plan;
    int64_t ax_hops = 0, aty_hops = 0;
    slp_shard_dense_hops(lp->m, lp->n, grid->R, grid->C, &ax_hops, &aty_hops);
    *dense_hops = (double)(ax_hops + aty_hops);
    *plan_hops = *dense_hops;
    return SLP_OK;
}
