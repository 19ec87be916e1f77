/* The whole solve of one rank's local problem and its final verdict
 * (docs/statuses.md):
 *
 *   attempt      presolve, r2HPDHG on the reduced problem, recovery;
 *   unbounded    an unbounded verdict (presolve's improving empty column or a PDHG
 *                primal ray) stands only once primal feasibility is established by
 *                a feasibility solve (objective 0); primal infeasibility found there
 *                wins; undecided is infeasible_or_unbounded;
 *   certificate  a Farkas ray for a primal infeasible verdict reached through
 *                presolve reductions comes from a solve of the original problem;
 *   optimal      the solution is evaluated in original coordinates (the grid
 *                checker on the unpresolved block) against the user's criterion; a
 *                failure gets one warm-started retry at a tighter tolerance, then
 *                the status is numerical_error.
 *
 * These steps read the original block: a copy kept through the solve, or, for shard
 * input, the block read again when a step first needs it (slp_original_source_t).
 * Collective over the grid. */
#include "presolve/pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/check_grid.h"
#include "core/log.h"
#include "core/timer.h"
#include "grid/comm.h"
#include "solver/scaling.h"

#define SLP_VERIFY_SLACK 10.0 /* verdict threshold: this factor times the tolerance */

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

/* Follow-up solves start from zero, with no trace and the solver's own norms. */
static const slp_solve_inputs_t NO_INPUTS = {0};

/* Settings for a solve after presolve or a follow-up solve: the time left of the user's limit. */
static slp_settings_t follow_up(const slp_settings_t *settings, double t_start)
{
    slp_settings_t set = *settings;
    set.time_limit = fmax(0.0, settings->time_limit - (slp_wall_seconds() - t_start));
    return set;
}

/* Presolve (unless off), solve, recover. *unbounded_cols receives presolve's count
 * of improving empty columns, whose ray replaces the solver's when set. */
static slp_err attempt(slp_grid_t *grid, slp_local_problem_t *lp, const slp_settings_t *settings,
                       double t_start, const slp_solve_inputs_t *inputs, slp_backend_t *be,
                       slp_result_t *result, slp_presolve_stats_t *stats, int64_t *unbounded_cols)
{
    memset(stats, 0, sizeof *stats);
    memset(result, 0, sizeof *result);
    *unbounded_cols = 0;
    if (!settings->presolve)
        return slp_solve(grid, lp, settings, inputs, be, result);
    /* Tolerances stay relative to the original model: presolve moves fixed values
     * into the row bounds, which can grow ||b|| and loosen the criterion. */
    slp_norms_t original;
    SLP_CALL(slp_compute_norms(grid, lp, &original));
    slp_solve_inputs_t in = *inputs;
    if (!in.norms)
        in.norms = &original;
    slp_presolve_t *pre = NULL;
    int decided = -1;
    slp_err rc = slp_comm_agree(grid->world, slp_presolve_run(grid, lp, &pre, &decided));
    if (rc == SLP_OK) {
        *stats = *slp_presolve_stats(pre);
        *unbounded_cols = slp_presolve_unbounded_columns(pre);
        slp_settings_t left = follow_up(settings, t_start); /* presolve counts */
        if (decided >= 0)
            rc = decided_result(lp, decided, result);
        else
            rc = slp_solve(grid, lp, &left, &in, be, result);
    }
    rc = slp_comm_agree(grid->world, rc);
    if (rc == SLP_OK && decided < 0)
        rc = slp_comm_agree(grid->world, slp_presolve_recover(grid, pre, result));
    if (rc == SLP_OK && *unbounded_cols > 0) {
        free(result->ray_x);
        result->ray_x = slp_calloc((size_t)lp->n_loc + 1, sizeof(double));
        rc = slp_comm_agree(grid->world, result->ray_x ? SLP_OK : SLP_ERR_NOMEM);
        if (rc == SLP_OK)
            slp_presolve_column_ray(pre, result->ray_x);
    }
    slp_presolve_free(&pre);
    return rc;
}

/* A copy of the original problem for a follow-up solve (objective 0 when asked). */
static slp_err solve_copy(slp_grid_t *grid, const slp_local_problem_t *orig,
                          const slp_settings_t *set, const slp_solve_inputs_t *inputs,
                          int zero_objective, slp_backend_t *be,
                          slp_result_t *out)
{
    slp_local_problem_t lp;
    SLP_CALL(slp_comm_agree(grid->world, slp_local_problem_copy(orig, &lp)));
    if (zero_objective) {
        memset(lp.obj, 0, (size_t)lp.n_loc * sizeof(double));
        lp.obj_const = 0.0;
    }
    slp_presolve_stats_t stats;
    int64_t unbounded = 0;
    slp_err rc = attempt(grid, &lp, set, slp_wall_seconds(), inputs, be, out, &stats, &unbounded);
    slp_local_problem_free(&lp);
    return rc;
}

/* An unbounded verdict needs a primal feasible point. */
static slp_err confirm_unbounded(slp_grid_t *grid, const slp_local_problem_t *orig,
                                 const slp_settings_t *settings, double t_start, slp_backend_t *be,
                                 slp_result_t *result)
{
    slp_log("Verdict: an improving ray was found; checking primal feasibility (objective 0)\n");
    slp_settings_t set = follow_up(settings, t_start);
    slp_result_t feas;
    SLP_CALL(solve_copy(grid, orig, &set, &NO_INPUTS, 1, be, &feas));
    if (feas.status == SLP_STATUS_OPTIMAL) {
        /* Keep the ray; report the feasible point with the original objective. */
        double *ray = result->ray_x;
        result->ray_x = NULL;
        slp_result_free(result);
        double pobj[1] = {0.0};
        for (int64_t j = 0; grid->r == 0 && j < orig->n_loc; j++)
            pobj[0] += orig->obj[j] * feas.x[j];
        SLP_CALL(slp_comm_sum(grid->world, pobj, 1));
        result->x = feas.x, result->rc = feas.rc, result->y = feas.y, result->ax = feas.ax;
        free(feas.ray_x);
        free(feas.ray_y);
        result->ray_x = ray;
        result->status = SLP_STATUS_DUAL_INFEASIBLE;
        result->objective = pobj[0] + orig->obj_const;
        result->dual_objective = NAN;
        slp_log("Verdict: primal feasible, so the LP is unbounded\n");
        return SLP_OK;
    }
    if (feas.status == SLP_STATUS_PRIMAL_INFEASIBLE) {
        slp_result_free(result);
        int64_t iterations = result->iterations + feas.iterations;
        *result = feas;
        result->iterations = iterations;
        slp_log("Verdict: the feasibility problem is primal infeasible\n");
        return SLP_OK;
    }
    slp_status undecided = feas.status == SLP_STATUS_INTERRUPTED ? SLP_STATUS_INTERRUPTED
                                                                 : SLP_STATUS_INFEASIBLE_OR_UNBOUNDED;
    slp_result_free(&feas);
    result->status = undecided; /* a signal during the check is reported as such */
    slp_log("Verdict: primal feasibility undecided (%s): infeasible or unbounded\n",
            slp_status_name(feas.status));
    return SLP_OK;
}

/* A primal infeasible verdict reached without a usable Farkas ray (decided by
 * presolve, or a ray of the reduced problem): look for one on the original problem. */
static slp_err certify_infeasible(slp_grid_t *grid, const slp_local_problem_t *orig,
                                  const slp_settings_t *settings, double t_start,
                                  slp_backend_t *be, slp_result_t *result)
{
    slp_settings_t set = follow_up(settings, t_start);
    set.presolve = 0;
    /* The status is already proven; the certificate is worth a bounded effort only. */
    set.time_limit = fmin(set.time_limit, 10.0 + 2.0 * (slp_wall_seconds() - t_start));
    slp_result_t cert;
    SLP_CALL(solve_copy(grid, orig, &set, &NO_INPUTS, 0, be, &cert));
    if (cert.status == SLP_STATUS_PRIMAL_INFEASIBLE && cert.ray_y) {
        free(result->ray_y);
        result->ray_y = cert.ray_y;
        cert.ray_y = NULL;
        slp_log("Verdict: Farkas certificate from the original problem (%lld iterations)\n",
                (long long)cert.iterations);
    } else {
        slp_log("Verdict: primal infeasible by presolve; no Farkas ray found on the original "
                "problem (%s)\n", slp_status_name(cert.status));
    }
    slp_result_free(&cert);
    return SLP_OK;
}

/* The user's tolerances for the verification (relative criteria of the checker). */
static void verify_tolerances(const slp_settings_t *s, double *primal, double *dual, double *gap)
{
    if (!s->detailed) {
        *primal = *dual = *gap = s->tol;
        return;
    }
    *primal = *dual = fmax(s->eps_abs, s->eps_rel);
    *gap = fmax(s->eps_abs, s->gap_rel);
}

/* Whether the result meets the user's criterion in original coordinates. */
static slp_err verify_optimal(slp_grid_t *grid, const slp_local_problem_t *orig,
                              const slp_settings_t *settings, const slp_result_t *result, int *ok)
{
    slp_check_result_t chk;
    SLP_CALL(slp_check_grid(grid, orig, result->x, result->y, result->rc, NAN, &chk));
    double tp, td, tg;
    verify_tolerances(settings, &tp, &td, &tg);
    double primal = fmax(chk.value[SLP_CHECK_BOUND_NORM], chk.value[SLP_CHECK_ROW_NORM]);
    double dual = chk.value[SLP_CHECK_STAT_NORM];
    double gap = chk.value[SLP_CHECK_GAP];
    *ok = chk.all_finite && primal <= SLP_VERIFY_SLACK * tp && dual <= SLP_VERIFY_SLACK * td &&
          gap <= SLP_VERIFY_SLACK * tg;
    slp_log("Verification on the original model: primal %.3e, dual %.3e, gap %.3e: %s\n", primal,
            dual, gap, *ok ? "meets the tolerance" : "FAILS the tolerance");
    return SLP_OK;
}

/* One retry of a failed verification: no presolve, warm start, tolerance / 100. */
static slp_err retry_optimal(slp_grid_t *grid, const slp_local_problem_t *orig,
                             const slp_settings_t *settings, double t_start, slp_backend_t *be,
                             slp_result_t *result)
{
    slp_settings_t set = follow_up(settings, t_start);
    set.presolve = 0;
    set.tol *= 0.01;
    set.eps_abs *= 0.01;
    set.eps_rel *= 0.01;
    set.gap_rel *= 0.01;
    slp_solve_inputs_t start = {.x0 = result->x, .y0 = result->y};
    slp_result_t again;
    SLP_CALL(solve_copy(grid, orig, &set, &start, 0, be, &again));
    int ok = 0;
    if (again.status == SLP_STATUS_OPTIMAL)
        SLP_CALL(verify_optimal(grid, orig, settings, &again, &ok));
    if (ok) {
        int64_t iterations = result->iterations + again.iterations;
        slp_result_free(result);
        *result = again;
        result->iterations = iterations;
        return SLP_OK;
    }
    slp_status failed = again.status == SLP_STATUS_INTERRUPTED ? SLP_STATUS_INTERRUPTED
                                                               : SLP_STATUS_NUMERICAL_ERROR;
    slp_result_free(&again);
    result->status = failed;
    slp_log("Verdict: the solution does not meet the tolerance on the original model: "
            "status %s\n", slp_status_name(failed));
    return SLP_OK;
}

/* The original problem as the verdict reads it: the copy taken before the solve, or,
 * with a reload source, read back on the first use (only verdicts that read it pay). */
typedef struct original {
    const slp_original_source_t *source; /* NULL: `lp` holds the copy */
    slp_local_problem_t lp;
    int have;
} original_t;

static slp_err original_get(slp_grid_t *grid, original_t *o, const slp_local_problem_t **out)
{
    if (!o->have) {
        SLP_CALL(slp_comm_agree(grid->world, o->source->reload(o->source->ctx, &o->lp)));
        o->have = 1;
    }
    *out = &o->lp;
    return SLP_OK;
}

static slp_err verdict(slp_grid_t *grid, original_t *o, const slp_settings_t *settings,
                       double t_start, int64_t unbounded_cols, int reduced, slp_backend_t *be,
                       slp_result_t *result)
{
    const slp_local_problem_t *orig = NULL;
    if (result->status == SLP_STATUS_OPTIMAL && unbounded_cols > 0) {
        result->status = SLP_STATUS_DUAL_INFEASIBLE; /* the rest is feasible: a true ray */
        slp_log("Verdict: the reduced problem is feasible, so the LP is unbounded\n");
        return SLP_OK;
    }
    if (result->status == SLP_STATUS_DUAL_INFEASIBLE) {
        SLP_CALL(original_get(grid, o, &orig));
        return confirm_unbounded(grid, orig, settings, t_start, be, result);
    }
    if (unbounded_cols > 0 &&
        (result->status == SLP_STATUS_TIME_LIMIT || result->status == SLP_STATUS_ITERATION_LIMIT)) {
        result->status = SLP_STATUS_INFEASIBLE_OR_UNBOUNDED;
        return SLP_OK;
    }
    if (result->status == SLP_STATUS_PRIMAL_INFEASIBLE && (reduced || !result->ray_y)) {
        SLP_CALL(original_get(grid, o, &orig));
        return certify_infeasible(grid, orig, settings, t_start, be, result);
    }
    if (result->status == SLP_STATUS_OPTIMAL) {
        int ok = 0;
        SLP_CALL(original_get(grid, o, &orig));
        SLP_CALL(verify_optimal(grid, orig, settings, result, &ok));
        if (!ok)
            return retry_optimal(grid, orig, settings, t_start, be, result);
    }
    return SLP_OK;
}

slp_err slp_solve_pipeline(slp_grid_t *grid, slp_local_problem_t *lp,
                           const slp_settings_t *settings, const slp_solve_inputs_t *inputs,
                           const slp_original_source_t *original, slp_backend_t *be,
                           slp_result_t *result, slp_presolve_stats_t *stats)
{
    double t_start = slp_wall_seconds();
    memset(result, 0, sizeof *result);
    original_t orig;
    memset(&orig, 0, sizeof orig);
    if (original && original->reload) {
        orig.source = original;
    } else {
        SLP_CALL(slp_comm_agree(grid->world, slp_local_problem_copy(lp, &orig.lp)));
        orig.have = 1;
    }
    int64_t unbounded_cols = 0;
    slp_err rc = attempt(grid, lp, settings, t_start, inputs ? inputs : &NO_INPUTS, be, result,
                         stats, &unbounded_cols);
    int reduced = stats->total.rows + stats->total.cols + stats->total.nnz > 0 || unbounded_cols > 0;
    if (rc == SLP_OK)
        rc = verdict(grid, &orig, settings, t_start, unbounded_cols, reduced, be, result);
    slp_local_problem_free(&orig.lp);
    return slp_comm_agree(grid->world, rc);
}
