/* The whole solve of one rank's local problem: distributed presolve (unless
 * settings->presolve is off), the r2HPDHG solve of the reduced problem, and the
 * recovery of the original problem's solution. Collective over the grid. */
#ifndef SLP_PIPELINE_H
#define SLP_PIPELINE_H

#include "presolve/presolve.h"

/* Where the verdict finds the original problem (it checks the answer there and runs
 * its follow-up solves on it). With reload NULL the pipeline copies `lp` before the
 * solve, and the copy stays in memory throughout (docs/memory.md); with reload set,
 * reload(ctx, out) rebuilds this rank's original problem after the solve (from the
 * shard files), so the solve's peak holds no copy. Collective: every rank reloads. */
typedef struct slp_original_source {
    slp_err (*reload)(void *ctx, slp_local_problem_t *out);
    void *ctx;
    /* Or the original itself, kept unchanged by the caller through the solve (a
     * session's problem, run/session.h): neither copied nor read back. */
    const slp_local_problem_t *kept;
} slp_original_source_t;

/* *stats receives the presolve counts (zeros when presolve is off). When presolve
 * decides the status (infeasible or unbounded), no iteration runs and the result's
 * vectors are zero with NaN objectives. `inputs` (may be NULL) is the main solve's
 * warm start and trace; the verdict's follow-up solves use none. `original` may be
 * NULL (a copy is taken). */
slp_err slp_solve_pipeline(slp_grid_t *grid, slp_local_problem_t *lp,
                           const slp_settings_t *settings, const slp_solve_inputs_t *inputs,
                           const slp_original_source_t *original, slp_backend_t *be,
                           slp_result_t *result, slp_presolve_stats_t *stats);

#endif
