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
 *                checker on the unpresolved block) against the user's criterion, at
 *                the check that finds it (verify.c) and on the final result; a
 *                failure there gets up to two warm-started retries at tighter
 *                tolerances, then the status is numerical_error.
 *
 * These steps and presolve's recovery read the original block: a copy kept through
 * the solve, or, for shard input, the block read again when a step first needs it
 * (slp_original_source_t).
 * Collective over the grid. */
#include "verdict/pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "verdict/budget.h"
#include "verdict/fixing.h"
#include "verdict/verify.h"
#include "check/check_grid.h"
#include "verdict/row_certificate.h"
#include "core/log.h"
#include "core/timer.h"
#include "grid/comm.h"
#include "solver/scaling.h"

#define SLP_RETRIES 2                /* warm-started retries of a failed verification */
#define SLP_RETRY_FACTOR 0.01        /* each retry's tolerance: the last one's x this */

/* A zeroed result with x, rc (n) and y, ax (m) allocated and zero. */
static slp_err alloc_point(int64_t n, int64_t m, slp_result_t *result)
{
    memset(result, 0, sizeof *result);
    result->x = slp_calloc((size_t)n + 1, sizeof(double));
    result->rc = slp_calloc((size_t)n + 1, sizeof(double));
    result->y = slp_calloc((size_t)m + 1, sizeof(double));
    result->ax = slp_calloc((size_t)m + 1, sizeof(double));
    if (!result->x || !result->rc || !result->y || !result->ax) {
        slp_result_free(result);
        return SLP_ERR_NOMEM;
    }
    return SLP_OK;
}

/* A result for a status decided before any iteration. */
static slp_err decided_result(const slp_local_problem_t *lp, int status, slp_result_t *result)
{
    SLP_CALL(alloc_point(lp->n_loc, lp->m_loc, result));
    result->status = (slp_status)status;
    result->objective = result->dual_objective = NAN;
    result->rel_primal_residual = result->rel_dual_residual = result->rel_gap = NAN;
    result->abs_primal_residual = result->abs_dual_residual = result->abs_gap = NAN;
    return SLP_OK;
}

/* Follow-up solves start from zero, with no trace and the solver's own norms. */
static const slp_solve_inputs_t NO_INPUTS = {0};

/* The tolerances of a presolved solve are relative to the larger of the original and
 * the reduced problem's norms. The original's alone can be out of reach: presolve
 * moves fixed values into the row bounds, and where ||b|| was 0 (khb05250) the reduced
 * problem's rounding alone kept 1e-8 absolute away. The reduced one's alone could be
 * looser than the user asked; the verification on the original model catches that. */
static void larger_norms(slp_norms_t *into, const slp_norms_t *other)
{
    into->c_l2 = fmax(into->c_l2, other->c_l2);
    into->c_linf = fmax(into->c_linf, other->c_linf);
    into->b_l2 = fmax(into->b_l2, other->b_l2);
    into->b_linf = fmax(into->b_linf, other->b_linf);
    into->bc_l2 = fmax(into->bc_l2, other->bc_l2);
    into->bc_linf = fmax(into->bc_linf, other->bc_linf);
}

/* The original problem as the recovery and the verdict read it: a copy taken before the
 * solve, a caller's problem, or, with a reload source, read back on the first use (only
 * runs that read it pay). */
typedef struct original {
    const slp_original_source_t *source; /* reload source, or NULL */
    slp_local_problem_t owned;           /* the copy, or the block read back */
    const slp_local_problem_t *lp;       /* the problem once there (owned or a caller's) */
} original_t;

static slp_err original_get(slp_grid_t *grid, original_t *o, const slp_local_problem_t **out)
{
    if (!o->lp) {
        SLP_CALL(slp_comm_agree(grid->world, o->source->reload(o->source->ctx, &o->owned)));
        o->lp = &o->owned;
    }
    *out = o->lp;
    return SLP_OK;
}

/* Whether presolve removed any row, column or entry (its reductions then stand between
 * the solver's vectors and the original model's). */
static int presolve_removed(const slp_presolve_stats_t *stats)
{
    return stats->total.rows + stats->total.cols + stats->total.nnz > 0;
}

/* A copy of the reduced problem's x, rc, y, ax (for a second recovery). */
static slp_err copy_point(const slp_result_t *from, int64_t n, int64_t m, slp_result_t *to)
{
    SLP_CALL(alloc_point(n, m, to));
    memcpy(to->x, from->x, (size_t)n * sizeof(double));
    memcpy(to->rc, from->rc, (size_t)n * sizeof(double));
    memcpy(to->y, from->y, (size_t)m * sizeof(double));
    memcpy(to->ax, from->ax, (size_t)m * sizeof(double));
    return SLP_OK;
}

/* The improving ray of presolve's empty columns, lifted to the original problem: the
 * reduced point `reduced` is recovered a second time with those columns moved by t along
 * their rays, and the ray is the difference with the first recovery (`recovered`),
 * divided by t. Where the recovery is affine in those values (substitutions, doubletons,
 * fixed columns) this is exactly the ray the reductions imply; elsewhere the ray check
 * on the original model rejects it (docs/statuses.md). Collective. */
static slp_err lift_column_ray(slp_grid_t *grid, slp_presolve_t *pre,
                               const slp_local_problem_t *given, slp_result_t *reduced,
                               const slp_result_t *recovered, double *ray_x)
{
    int64_t n = given->n_loc;
    double t[1] = {1.0};
    for (int64_t j = 0; j < n; j++)
        t[0] = fmax(t[0], fabs(recovered->x[j]));
    SLP_CALL(slp_comm_max(grid->world, t, 1));
    slp_presolve_shift_unbounded(pre, t[0]);
    slp_err rc = slp_comm_agree(grid->world, slp_presolve_recover(grid, pre, given, reduced));
    slp_presolve_shift_unbounded(pre, -t[0]);
    for (int64_t j = 0; rc == SLP_OK && j < n; j++)
        ray_x[j] = (reduced->x[j] - recovered->x[j]) / t[0];
    return rc;
}

/* Presolve (unless off), solve, recover. `before` is the problem as given (for the
 * recovery's objectives; lp is reduced in place). An optimum is verified at the checks
 * against verify_against's tolerances (NULL: not), with a budget of at least
 * budget_floor iterations (verify.h). *unbounded_cols receives presolve's count of
 * improving empty columns, whose ray replaces the solver's when set. */
static slp_err attempt(slp_grid_t *grid, slp_local_problem_t *lp, original_t *before,
                       const slp_settings_t *settings, double t_start,
                       const slp_solve_inputs_t *inputs, const slp_settings_t *verify_against,
                       int64_t budget_floor, slp_backend_t *be, slp_result_t *result,
                       slp_presolve_stats_t *stats, int64_t *unbounded_cols)
{
    memset(stats, 0, sizeof *stats);
    stats->infeasible_row = -1;
    memset(result, 0, sizeof *result);
    *unbounded_cols = 0;
    slp_solve_inputs_t in = *inputs;
    /* An optimum is verified against the user's tolerances (verify_against, NULL:
     * not at all) at the check that finds it, where the original problem is in memory
     * (not for shard input before the solve has ended: docs/memory.md). */
    slp_verify_in_loop_t verify = {grid, NULL, before->lp, verify_against, budget_floor, 0};
    if (verify_against && before->lp) {
        in.accept = slp_verify_accept;
        in.accept_user = &verify;
    }
    if (!settings->presolve)
        return slp_solve_fixing(grid, lp, settings, t_start, &in, be, result);
    if (in.x0 && in.y0) { /* docs/statuses.md "Warm starts" */
        slp_log("Presolve: off for a warm start with row duals (its reductions would not "
                "keep the start optimal)\n");
        return slp_solve_fixing(grid, lp, settings, t_start, &in, be, result);
    }
    in.step_memo = NULL; /* the memo is the given matrix's, not a reduced one's */
    slp_norms_t original, norms;
    SLP_CALL(slp_compute_norms(grid, lp, &original));
    slp_presolve_t *pre = NULL;
    int decided = -1;
    slp_err rc = slp_comm_agree(grid->world, slp_presolve_run(grid, lp, &pre, &decided));
    verify.pre = pre;
    if (rc == SLP_OK && !in.norms) {
        norms = *slp_presolve_norms(pre);
        larger_norms(&norms, &original);
        in.norms = &norms;
    }
    if (rc == SLP_OK) {
        *stats = *slp_presolve_stats(pre);
        *unbounded_cols = slp_presolve_unbounded_columns(pre);
        if (*unbounded_cols > 0) /* the optimum of the rest cannot verify: the LP has no optimum */
            in.accept = NULL;
        double *y0 = NULL; /* a warm start's duals on the reduced problem */
        if (rc == SLP_OK && decided < 0)
            rc = slp_presolve_reduce_start(pre, in.y0, &y0);
        if (y0)
            in.y0 = y0;
        if (rc == SLP_OK && decided >= 0)
            rc = decided_result(lp, decided, result);
        else if (rc == SLP_OK) /* presolve's time counts */
            rc = slp_solve_fixing(grid, lp, settings, t_start, &in, be, result);
        free(y0);
    }
    rc = slp_comm_agree(grid->world, rc);
    /* Rays found on the reduced problem are not the original's: PDHG's are dropped (the
     * verdict finds one of the original), the empty columns' are lifted. */
    int lift = decided < 0 && *unbounded_cols > 0 && result->status == SLP_STATUS_OPTIMAL;
    slp_result_t reduced = {0};
    if (rc == SLP_OK && lift)
        rc = slp_comm_agree(grid->world, copy_point(result, lp->n_loc, lp->m_loc, &reduced));
    /* The reductions undone, the record goes before the original problem comes back
     * (read again from shards): the two need not be in memory at once. */
    if (rc == SLP_OK && decided < 0)
        rc = slp_presolve_undo(grid, pre, result);
    if (rc == SLP_OK && decided < 0 && !lift)
        slp_presolve_drop_record(pre);
    const slp_local_problem_t *given = NULL;
    if (rc == SLP_OK && decided < 0)
        rc = original_get(grid, before, &given);
    if (rc == SLP_OK && decided < 0)
        rc = slp_presolve_finish(grid, pre, given, result);
    if (rc == SLP_OK && decided < 0 && (presolve_removed(stats) || *unbounded_cols > 0)) {
        free(result->ray_x);
        free(result->ray_y);
        result->ray_x = result->ray_y = NULL;
    }
    if (rc == SLP_OK && lift) {
        result->ray_x = slp_calloc((size_t)lp->n_loc + 1, sizeof(double));
        rc = slp_comm_agree(grid->world, result->ray_x ? SLP_OK : SLP_ERR_NOMEM);
        if (rc == SLP_OK)
            rc = lift_column_ray(grid, pre, given, &reduced, result, result->ray_x);
    }
    slp_result_free(&reduced);
    slp_presolve_free(&pre);
    return rc;
}

/* A copy of the original problem for a follow-up solve (objective 0 when asked; an
 * optimum verified at its checks against verify_against's tolerances unless NULL). */
static slp_err solve_copy(slp_grid_t *grid, const slp_local_problem_t *orig,
                          const slp_settings_t *set, const slp_solve_inputs_t *inputs,
                          int zero_objective, const slp_settings_t *verify_against,
                          int64_t budget_floor, slp_backend_t *be, slp_result_t *out)
{
    /* the problem as given: orig itself, or a view of it with the objective 0 */
    slp_local_problem_t view = *orig;
    double *zeros = zero_objective ? slp_calloc((size_t)orig->n_loc + 1, sizeof(double)) : NULL;
    slp_local_problem_t lp;
    slp_err rc = zero_objective && !zeros ? SLP_ERR_NOMEM : SLP_OK;
    if (rc == SLP_OK)
        rc = slp_local_problem_copy(orig, &lp);
    rc = slp_comm_agree(grid->world, rc);
    if (rc != SLP_OK) {
        free(zeros);
        return rc;
    }
    if (zero_objective) {
        memset(lp.obj, 0, (size_t)lp.n_loc * sizeof(double));
        lp.obj_const = 0.0;
        view.obj = zeros;
        view.obj_const = 0.0;
    }
    original_t given = {.lp = &view};
    slp_presolve_stats_t stats;
    int64_t unbounded = 0;
    /* a follow-up starts near its answer or looks for a certificate: no column fixing */
    slp_settings_t plain = *set;
    plain.fix_columns = 0.0;
    rc = attempt(grid, &lp, &given, &plain, slp_wall_seconds(), inputs, verify_against,
                 budget_floor, be, out, &stats, &unbounded);
    slp_local_problem_free(&lp);
    free(zeros);
    return rc;
}

/* A ray written for an unbounded verdict is one of the original model: it proves an
 * improving direction by the checker's criterion (check.h) within this quality. */
#define SLP_RAY_QUALITY 1e-9

/* Whether ray_x (NULL: none) proves an improving direction of the original model, logged.
 * Collective. */
static slp_err ray_proves(slp_grid_t *grid, const slp_local_problem_t *orig, const double *ray_x,
                          int *ok)
{
    *ok = 0;
    if (!ray_x)
        return SLP_OK;
    slp_ray_result_t ray;
    SLP_CALL(slp_check_primal_ray_grid(grid, orig, ray_x, &ray));
    *ok = ray.quality <= SLP_RAY_QUALITY;
    slp_log("Verdict: improving ray on the original model: objective %.3e, violation %.3e: %s\n",
            ray.objective, ray.violation, *ok ? "proves it" : "proves nothing");
    return SLP_OK;
}

/* An unbounded verdict needs a primal feasible point of the original model, found
 * without presolve (whose reductions decided nothing here). */
static slp_err confirm_unbounded(slp_grid_t *grid, const slp_local_problem_t *orig,
                                 const slp_settings_t *settings, double t_start, slp_backend_t *be,
                                 slp_result_t *result)
{
    slp_log("Verdict: an improving ray was found; checking primal feasibility (objective 0)\n");
    slp_settings_t set;
    SLP_CALL(slp_budget_left(grid, settings, t_start, &set, NULL));
    set.presolve = 0;
    slp_result_t feas;
    SLP_CALL(solve_copy(grid, orig, &set, &NO_INPUTS, 1, NULL, 0, be, &feas));
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
        slp_result_add_effort(result, &feas);
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
        slp_result_add_effort(&feas, result);
        slp_result_free(result);
        *result = feas;
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
 * presolve, or a ray of the reduced problem), confirmed on the original model: the row
 * presolve names when its ray proves it there, else a bounded solve of the original
 * problem without presolve and with objective 0. A Farkas ray found there is the
 * certificate; a feasible point found there overrides the verdict (presolve judged
 * within tolerances, docs/statuses.md): *feasible_x then receives that point
 * (column slice, caller frees) for the solve that replaces the verdict. */
static slp_err certify_infeasible(slp_grid_t *grid, const slp_local_problem_t *orig,
                                  const slp_settings_t *settings,
                                  const slp_presolve_stats_t *stats, double t_start,
                                  slp_backend_t *be, slp_result_t *result, double **feasible_x)
{
    *feasible_x = NULL;
    free(result->ray_y); /* only a ray of the original model is written */
    result->ray_y = NULL;
    if (stats->infeasible_row >= 0) {
        double *ray = NULL;
        int proves = 0;
        SLP_CALL(slp_row_certificate(grid, orig, stats->infeasible_row, stats->infeasible_side,
                                     &ray, &proves));
        if (proves) {
            result->ray_y = ray;
            slp_log("Verdict: Farkas certificate from row %lld (y = %se_i on the original "
                    "bounds)\n", (long long)stats->infeasible_row + 1,
                    stats->infeasible_side > 0 ? "-" : "+");
            return SLP_OK;
        }
    }
    /* Bounded also without a user's limit: 10 s plus twice the (agreed) time spent so
     * far (docs/statuses.md). */
    double elapsed = 0.0;
    slp_settings_t set;
    SLP_CALL(slp_budget_left(grid, settings, t_start, &set, &elapsed));
    set.presolve = 0;
    set.time_limit = fmin(set.time_limit, 10.0 + 2.0 * elapsed);
    slp_result_t cert;
    /* A Farkas ray does not involve the objective; with c = 0 the solve cannot end
     * unbounded instead (an LP both primal and dual infeasible). */
    SLP_CALL(solve_copy(grid, orig, &set, &NO_INPUTS, 1, NULL, 0, be, &cert));
    if (cert.status == SLP_STATUS_PRIMAL_INFEASIBLE && cert.ray_y) {
        result->ray_y = cert.ray_y;
        cert.ray_y = NULL;
        slp_log("Verdict: Farkas certificate from the original problem (%lld iterations)\n",
                (long long)cert.iterations);
    } else if (cert.status == SLP_STATUS_OPTIMAL) {
        *feasible_x = cert.x;
        cert.x = NULL;
        slp_log("Verdict: the original problem is feasible (a point found without presolve, "
                "%lld iterations): the infeasible verdict is withdrawn\n",
                (long long)cert.iterations);
    } else {
        slp_log("Verdict: primal infeasible by presolve; no Farkas ray found on the original "
                "problem (%s)\n", slp_status_name(cert.status));
    }
    slp_result_add_effort(result, &cert);
    slp_result_free(&cert);
    return SLP_OK;
}

/* The verification of a solve's optimum, logged; *worst: the largest of the checker's
 * criteria (NaN counts as the worst). */
static slp_err verify_point(slp_grid_t *grid, const slp_local_problem_t *orig,
                            const slp_settings_t *settings, slp_result_t *result, int *ok,
                            double *worst)
{
    slp_verification_t v;
    SLP_CALL(slp_verify_optimal(grid, orig, settings, result, &v));
    slp_verification_log("on the original model", &v);
    *ok = v.ok;
    double w = fmax(fmax(v.primal, v.dual), fmax(v.gap, v.coord));
    *worst = isnan(v.primal) || isnan(v.dual) || isnan(v.gap) || isnan(v.coord) ? INFINITY : w;
    return SLP_OK;
}

/* Settings of a verification retry: no presolve, every tolerance times `factor`.
 * Collective (the time left is agreed). */
static slp_err tightened(slp_grid_t *grid, const slp_settings_t *settings, double t_start,
                         double factor, slp_settings_t *set)
{
    SLP_CALL(slp_budget_left(grid, settings, t_start, set, NULL));
    set->presolve = 0;
    set->tol *= factor;
    set->eps_abs *= factor;
    set->eps_rel *= factor;
    set->gap_rel *= factor;
    return SLP_OK;
}

/* A status that says the solve was cut short, not that it failed. */
static int stopped_early(slp_status s)
{
    return s == SLP_STATUS_INTERRUPTED || s == SLP_STATUS_TIME_LIMIT ||
           s == SLP_STATUS_ITERATION_LIMIT;
}

/* Retries of a failed verification, each warm-started from the best point so far at a
 * tolerance SLP_RETRY_FACTOR times tighter; the first that verifies replaces the
 * result, and one that does not replaces it only when its worst criterion is smaller
 * (`worst`: the result's). When none verifies, the status is numerical_error
 * (time_limit or interrupted when the retry stopped for that reason) and the best
 * point seen is reported, never a worse one than the first. */
static slp_err retry_optimal(slp_grid_t *grid, const slp_local_problem_t *orig,
                             const slp_settings_t *settings, double t_start, slp_backend_t *be,
                             double worst, slp_result_t *result)
{
    slp_status failed = SLP_STATUS_NUMERICAL_ERROR;
    double factor = 1.0;
    for (int k = 0; k < SLP_RETRIES; k++) {
        factor *= SLP_RETRY_FACTOR;
        slp_settings_t set;
        SLP_CALL(tightened(grid, settings, t_start, factor, &set));
        slp_log("Verdict: retry %d at tolerance x %.0e, warm-started, without presolve\n", k + 1,
                factor);
        /* asked at the user's level; the tighter test ends it when that never verifies */
        slp_solve_inputs_t start = {.x0 = result->x, .y0 = result->y,
                                    .accept_scale = 1.0 / factor};
        slp_result_t again;
        SLP_CALL(solve_copy(grid, orig, &set, &start, 0, settings, result->iterations, be,
                            &again));
        int ok = 0;
        double w = INFINITY;
        if (again.status == SLP_STATUS_OPTIMAL) {
            if (getenv("SLP_TEST_RETRY_WORSEN"))
                for (int64_t j = 0; j < orig->n_loc; j++) /* tests: a retry that ends worse */
                    again.x[j] += 1.0;
            SLP_CALL(verify_point(grid, orig, settings, &again, &ok, &w));
        } else {
            failed = stopped_early(again.status) ? again.status : SLP_STATUS_NUMERICAL_ERROR;
        }
        if (again.status == SLP_STATUS_OPTIMAL && (ok || w < worst)) {
            slp_result_add_effort(&again, result);
            slp_result_free(result);
            *result = again;
            worst = w;
        } else {
            if (again.status == SLP_STATUS_OPTIMAL)
                slp_log("Verdict: retry %d's point is worse (worst criterion %.3e against "
                        "%.3e): the better one is kept\n", k + 1, w, worst);
            slp_result_add_effort(result, &again);
            slp_result_free(&again);
        }
        if (ok)
            return SLP_OK;
        if (failed != SLP_STATUS_NUMERICAL_ERROR)
            break;
    }
    result->status = failed;
    slp_log("Verdict: the solution does not meet the tolerance on the original model: "
            "status %s\n", slp_status_name(failed));
    return SLP_OK;
}

static slp_err verdict(slp_grid_t *grid, original_t *o, const slp_settings_t *settings,
                       double t_start, const slp_presolve_stats_t *stats, int64_t unbounded_cols,
                       int reduced, int may_resolve, slp_backend_t *be, slp_result_t *result);

/* A verdict of the reduced problem that the original model did not confirm: the
 * original is solved without presolve (from x0 when given) and its verdict replaces
 * it. Collective. */
static slp_err solve_unpresolved(slp_grid_t *grid, original_t *o, const slp_settings_t *settings,
                                 double t_start, const double *x0, slp_backend_t *be,
                                 slp_result_t *result)
{
    const slp_local_problem_t *orig = NULL;
    SLP_CALL(original_get(grid, o, &orig));
    slp_log("Verdict: solving the original problem without presolve\n");
    slp_settings_t set;
    SLP_CALL(slp_budget_left(grid, settings, t_start, &set, NULL));
    set.presolve = 0;
    slp_solve_inputs_t start = {.x0 = x0};
    slp_result_t again;
    SLP_CALL(solve_copy(grid, orig, &set, &start, 0, settings, 0, be, &again));
    slp_result_add_effort(&again, result);
    slp_result_free(result);
    *result = again;
    slp_presolve_stats_t none;
    memset(&none, 0, sizeof none);
    none.infeasible_row = -1;
    return verdict(grid, o, settings, t_start, &none, 0, 0, 0, be, result);
}

/* Presolve's improving empty columns decide unboundedness when the rest's optimum is
 * primal feasible on the original model and their ray, lifted, proves an improving
 * direction there. Collective. */
static slp_err unbounded_by_presolve(slp_grid_t *grid, const slp_local_problem_t *orig,
                                     const slp_settings_t *settings, slp_result_t *result,
                                     int *confirmed)
{
    slp_verification_t v;
    SLP_CALL(slp_verify_optimal(grid, orig, settings, result, &v));
    int ray_ok = 0;
    SLP_CALL(ray_proves(grid, orig, result->ray_x, &ray_ok));
    *confirmed = v.primal_ok && ray_ok;
    slp_log("Verdict: the rest of the problem %s primal feasible on the original model (%.3e)\n",
            v.primal_ok ? "is" : "is NOT", v.primal);
    return SLP_OK;
}

/* may_resolve: a verdict the original model does not confirm may be replaced by a solve
 * of the original without presolve (once). */
static slp_err verdict(slp_grid_t *grid, original_t *o, const slp_settings_t *settings,
                       double t_start, const slp_presolve_stats_t *stats, int64_t unbounded_cols,
                       int reduced, int may_resolve, slp_backend_t *be, slp_result_t *result)
{
    const slp_local_problem_t *orig = NULL;
    if (result->status == SLP_STATUS_OPTIMAL && unbounded_cols > 0) {
        SLP_CALL(original_get(grid, o, &orig));
        int confirmed = 0;
        SLP_CALL(unbounded_by_presolve(grid, orig, settings, result, &confirmed));
        if (confirmed) {
            result->status = SLP_STATUS_DUAL_INFEASIBLE;
            slp_log("Verdict: the reduced problem is feasible, so the LP is unbounded\n");
            return SLP_OK;
        }
        return solve_unpresolved(grid, o, settings, t_start, NULL, be, result);
    }
    if (result->status == SLP_STATUS_DUAL_INFEASIBLE) {
        SLP_CALL(original_get(grid, o, &orig));
        if (!result->ray_x && may_resolve) /* a ray of the reduced problem, dropped */
            return solve_unpresolved(grid, o, settings, t_start, NULL, be, result);
        return confirm_unbounded(grid, orig, settings, t_start, be, result);
    }
    if (unbounded_cols > 0 &&
        (result->status == SLP_STATUS_TIME_LIMIT || result->status == SLP_STATUS_ITERATION_LIMIT)) {
        result->status = SLP_STATUS_INFEASIBLE_OR_UNBOUNDED;
        return SLP_OK;
    }
    if (result->status == SLP_STATUS_PRIMAL_INFEASIBLE && (reduced || !result->ray_y)) {
        SLP_CALL(original_get(grid, o, &orig));
        double *feasible_x = NULL;
        SLP_CALL(certify_infeasible(grid, orig, settings, stats, t_start, be, result,
                                    &feasible_x));
        slp_err rc = SLP_OK;
        if (feasible_x && may_resolve)
            rc = solve_unpresolved(grid, o, settings, t_start, feasible_x, be, result);
        else if (feasible_x) /* a feasible point, but no optimum sought: nothing is proven */
            result->status = SLP_STATUS_NUMERICAL_ERROR;
        free(feasible_x);
        return rc;
    }
    if (result->status == SLP_STATUS_OPTIMAL) {
        int ok = 0;
        double worst = INFINITY;
        SLP_CALL(original_get(grid, o, &orig));
        SLP_CALL(verify_point(grid, orig, settings, result, &ok, &worst));
        if (!ok)
            return retry_optimal(grid, orig, settings, t_start, be, worst, result);
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
    if (original && original->kept) {
        orig.lp = original->kept;
    } else if (original && original->reload) {
        orig.source = original;
    } else {
        SLP_CALL(slp_comm_agree(grid->world, slp_local_problem_copy(lp, &orig.owned)));
        orig.lp = &orig.owned;
    }
    int64_t unbounded_cols = 0;
    slp_err rc = attempt(grid, lp, &orig, settings, t_start, inputs ? inputs : &NO_INPUTS,
                         settings, 0, be, result, stats, &unbounded_cols);
    int reduced = presolve_removed(stats) || unbounded_cols > 0;
    if (rc == SLP_OK)
        rc = verdict(grid, &orig, settings, t_start, stats, unbounded_cols, reduced, 1, be,
                     result);
    slp_local_problem_free(&orig.owned);
    return slp_comm_agree(grid->world, rc);
}
