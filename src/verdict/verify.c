/* The verification of an optimum on the original model (docs/statuses.md, step 4 and
 * "Verified at the check"). */
#include "verdict/verify.h"

#include <math.h>
#include <stdio.h>

#include "check/check_grid.h"
#include "core/log.h"
#include "solver/scaling.h"

#define SLP_VERIFY_SLACK 10.0        /* normwise verdict threshold: this factor x the tolerance */
#define SLP_VERIFY_COORD_SLACK 100.0 /* worst-coordinate threshold: this factor x the tolerance, */
#define SLP_VERIFY_COORD_TOL 1e-6    /* for tolerances up to this (high-accuracy solves) */

/* A reduced cost z_j multiplies the bound its sign selects in the dual objective.
 * When that bound is far from x_j (|x_j - bound| > 1 + |x_j|: x_j does not sit on it,
 * and the bound may be huge, like 1e12 standing for "none"), z_j's product with the
 * bound would swamp the gap although z_j is only a stationarity residual; it is
 * reported as 0, which moves |z_j| into the stationarity residual instead
 * (docs/statuses.md, "Reduced costs at far bounds"). */
static void zero_far_bound_costs(const slp_local_problem_t *lp, slp_result_t *result)
{
    if (!result->rc || !result->x)
        return;
    for (int64_t j = 0; j < lp->n_loc; j++) {
        double z = result->rc[j] * (lp->sense < 0 ? -1.0 : 1.0), x = result->x[j];
        double bound = z > 0 ? lp->lv[j] : z < 0 ? lp->uv[j] : x;
        if (isfinite(bound) && fabs(x - bound) > 1.0 + fabs(x))
            result->rc[j] = 0.0;
    }
}

/* The worst coordinatewise or sign criterion of the checker. */
static double worst_coordinate(const double *v)
{
    return fmax(fmax(v[SLP_CHECK_BOUND_COORD], v[SLP_CHECK_ROW_COORD]),
                fmax(v[SLP_CHECK_STAT_COORD],
                     fmax(v[SLP_CHECK_ROW_DUAL_SIGN], v[SLP_CHECK_REDUCED_COST_SIGN])));
}

/* For a high-accuracy solve (all three tolerances, the gap's included, at most
 * COORD_TOL) the worst coordinate must be within COORD_SLACK x the larger of the
 * residuals' tolerances. */
static int coordinates_ok(double coord, double residual_tol, double gap_tol)
{
    return fmax(residual_tol, gap_tol) > SLP_VERIFY_COORD_TOL ||
           coord <= SLP_VERIFY_COORD_SLACK * residual_tol;
}

/* The relative form (--tol): the checker's relative normwise criteria within SLACK x
 * the tolerance, after the reduced costs at far bounds are set to 0. */
static slp_err verify_relative(slp_grid_t *grid, const slp_local_problem_t *orig, double tol,
                               slp_result_t *result, slp_verification_t *out)
{
    zero_far_bound_costs(orig, result);
    slp_check_result_t chk;
    SLP_CALL(slp_check_grid(grid, orig, result->x, result->y, result->rc, NAN, &chk));
    const double *v = chk.value;
    out->terms = "relative";
    out->primal = fmax(v[SLP_CHECK_BOUND_NORM], v[SLP_CHECK_ROW_NORM]);
    out->dual = v[SLP_CHECK_STAT_NORM];
    out->gap = v[SLP_CHECK_GAP];
    out->coord = worst_coordinate(v);
    out->primal_ok = isfinite(out->primal) && out->primal <= SLP_VERIFY_SLACK * tol;
    out->ok = chk.all_finite && out->primal_ok && out->dual <= SLP_VERIFY_SLACK * tol &&
              out->gap <= SLP_VERIFY_SLACK * tol && coordinates_ok(out->coord, tol, tol);
    return SLP_OK;
}

/* The detailed form (--eps-abs, --eps-rel, --gap-rel, --norm): the criterion itself on
 * the original model, absolute residuals in its norm, each within SLACK x its bound:
 * ||r_p|| <= A + R ||b^c||, ||r_d|| <= A + R ||c||, |p - d| <= A + G (|p| + |d|). The
 * reduced costs are the solver's, as its own test reads them: a reduced cost of the sign
 * a finite bound admits is a bound's multiplier however far x is from the bound, and
 * the gap pays for it (setting it to 0 would move it into the stationarity residual,
 * which a criterion that accepts a 1e-2 gap does not ask to be small). */
static slp_err verify_detailed(slp_grid_t *grid, const slp_local_problem_t *orig,
                               const slp_settings_t *s, slp_result_t *result,
                               slp_verification_t *out)
{
    slp_check_result_t chk;
    SLP_CALL(slp_check_grid(grid, orig, result->x, result->y, result->rc, NAN, &chk));
    slp_norms_t norms;
    SLP_CALL(slp_compute_norms(grid, orig, &norms));
    int linf = s->norm == SLP_NORM_LINF;
    double bc = linf ? norms.bc_linf : norms.bc_l2, cn = linf ? norms.c_linf : norms.c_l2;
    double p = chk.primal_objective, d = chk.dual_objective;
    out->terms = linf ? "absolute L-inf" : "absolute L2";
    out->primal = chk.abs_primal[linf];
    out->dual = chk.abs_dual[linf];
    out->gap = fabs(p - d);
    out->coord = worst_coordinate(chk.value);
    out->primal_ok = isfinite(out->primal) &&
                     out->primal <= SLP_VERIFY_SLACK * (s->eps_abs + s->eps_rel * bc);
    out->ok = chk.all_finite && out->primal_ok &&
              out->dual <= SLP_VERIFY_SLACK * (s->eps_abs + s->eps_rel * cn) &&
              out->gap <= SLP_VERIFY_SLACK * (s->eps_abs + s->gap_rel * (fabs(p) + fabs(d))) &&
              coordinates_ok(out->coord, fmax(s->eps_abs, s->eps_rel), fmax(s->eps_abs, s->gap_rel));
    return SLP_OK;
}

slp_err slp_verify_optimal(slp_grid_t *grid, const slp_local_problem_t *orig,
                           const slp_settings_t *settings, slp_result_t *result,
                           slp_verification_t *out)
{
    if (settings->detailed)
        return verify_detailed(grid, orig, settings, result, out);
    return verify_relative(grid, orig, settings->tol, result, out);
}

void slp_verification_log(const char *where, const slp_verification_t *v)
{
    slp_log("Verification %s: primal %.3e, dual %.3e, gap %.3e (%s), worst coordinate %.3e: "
            "%s\n",
            where, v->primal, v->dual, v->gap, v->terms, v->coord,
            v->ok ? "meets the tolerance" : "FAILS the tolerance");
}

slp_err slp_verify_accept(slp_result_t *point, void *user, int *accept)
{
    slp_verify_in_loop_t *c = user;
    if (c->pre) /* the point is a copy: recovered in place */
        SLP_CALL(slp_presolve_recover(c->grid, c->pre, c->orig, point));
    slp_verification_t v;
    SLP_CALL(slp_verify_optimal(c->grid, c->orig, c->settings, point, &v));
    char where[64];
    snprintf(where, sizeof where, "at iteration %lld", (long long)point->iterations);
    *accept = 1;
    if (v.ok) {
        if (c->first_failure > 0)
            slp_verification_log(where, &v);
    } else if (c->first_failure == 0) {
        c->first_failure = point->iterations;
        slp_verification_log(where, &v);
        slp_log("Verification at the checks: iterating on, the point verified at each check\n");
        *accept = 0;
    } else if (point->iterations - c->first_failure >= fmax(c->first_failure, c->budget_floor)) {
        slp_log("Verification at the checks: still failing after %lld iterations; the "
                "verdict retries\n", (long long)point->iterations);
    } else {
        *accept = 0;
    }
    return SLP_OK;
}
