/* Feasibility polishing, PDLP style (docs/algorithm.md section 7; Applegate et al.
 * 2025, Algorithm 4).
 *
 * When the main loop's relative gap already meets the tolerance but the residuals
 * do not, two short r2HPDHG runs on the same distributed operators look for:
 *   - a primal point with tiny primal residual: the LP with objective 0, started
 *     from the current PDHG point x^ (y = 0);
 *   - a dual point with tiny dual residual: the LP with every finite bound set to 0
 *     (the same dual sign constraints, a homogeneous primal), started from y^ (x = 0).
 * The primal phase's x^ and the dual phase's y^ and slack are then evaluated
 * together on the original problem; if that point meets the termination criterion
 * the solve ends with it. Attempts happen at most each time the main iteration
 * count doubles; each phase gets a budget of a quarter of the iterations so far
 * (at least two check windows). Phases keep the initial primal weight and make no
 * PID updates. Their iterations and time count as solver time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/timer.h"
#include "core/interrupt.h"
#include "solver/solver_internal.h"

struct slp_polish {
    slp_pdhg_t primal, dual; /* phase solvers; share the main solver's matrix and scaling */
    int64_t next_at;         /* main iteration count from which the next attempt may run */
    int64_t iterations;      /* phase iterations so far */
    double seconds;
};

/* A phase solver owns the state table's SLP_VEC_PHASE vectors; everything else
 * (matrix, plan, scaling factors) is borrowed from the main one. */
static void phase_destroy(slp_pdhg_t *p)
{
    if (!p->be)
        return;
    slp_state_destroy(p, SLP_VEC_PHASE);
    memset(p, 0, sizeof *p);
}

/* Replace finite entries of a backend vector by 0 (through a host copy; done once). */
static slp_err zero_finite(slp_backend_t *be, double *dst, const double *src, int64_t len,
                           double *host)
{
    SLP_CALL(be->vec_download(be, host, src, len));
    for (int64_t k = 0; k < len; k++)
        if (isfinite(host[k]))
            host[k] = 0.0;
    return be->vec_upload(be, dst, host, len);
}

static slp_err phase_create(slp_pdhg_t *main_solver, int dual_phase, slp_pdhg_t *p)
{
    *p = *main_solver; /* scalars and borrowed pointers (matrix, plan, scaling factors) */
    /* The phases aim at feasibility to the absolute tolerance, below the floor that FP32
     * values put under the residuals (--precision fp32-matrix): they read the doubles. */
    p->fp32_iterations = 0;
    slp_backend_t *be = p->be;
    SLP_CALL(slp_state_create(p, SLP_VEC_PHASE, 0)); /* zero-filled */
    const slp_pdhg_t *s = main_solver;
    if (!dual_phase) { /* objective 0 (vec_create zero-fills), bounds as they are */
        be->vec_copy(be, p->lv, s->lv, p->n);
        be->vec_copy(be, p->uv, s->uv, p->n);
        be->vec_copy(be, p->lc, s->lc, p->m);
        be->vec_copy(be, p->uc, s->uc, p->m);
        return SLP_OK;
    }
    be->vec_copy(be, p->c, s->c, p->n); /* objective kept, finite bounds to 0 */
    double *host = NULL;
    SLP_CALL(slp_alloc(&host, (size_t)(p->n > p->m ? p->n : p->m) + 1, sizeof(double)));
    slp_err rc = zero_finite(be, p->lv, s->lv, p->n, host);
    if (rc == SLP_OK)
        rc = zero_finite(be, p->uv, s->uv, p->n, host);
    if (rc == SLP_OK)
        rc = zero_finite(be, p->lc, s->lc, p->m, host);
    if (rc == SLP_OK)
        rc = zero_finite(be, p->uc, s->uc, p->m, host);
    free(host);
    return rc;
}

slp_err slp_polish_create(slp_pdhg_t *main_solver, slp_polish_t **out)
{
    *out = NULL;
    slp_polish_t *polish = slp_calloc(1, sizeof *polish);
    if (!polish)
        return SLP_ERR_NOMEM;
    slp_err rc = phase_create(main_solver, 0, &polish->primal);
    if (rc == SLP_OK)
        rc = phase_create(main_solver, 1, &polish->dual);
    if (rc != SLP_OK) {
        slp_polish_destroy(&polish);
        return rc;
    }
    *out = polish;
    return SLP_OK;
}

void slp_polish_destroy(slp_polish_t **polish)
{
    if (!polish || !*polish)
        return;
    phase_destroy(&(*polish)->primal);
    phase_destroy(&(*polish)->dual);
    free(*polish);
    *polish = NULL;
}

int slp_polish_due(const slp_polish_t *polish, const slp_pdhg_t *s, int64_t total,
                   const slp_check_scalars_t *chk)
{
    return total >= polish->next_at && slp_pdhg_gap_small(s, chk) &&
           !(slp_pdhg_primal_feasible(s, chk) && slp_pdhg_dual_feasible(s, chk));
}

/* Run one phase from its start point until its feasibility goal holds, the budget
 * is spent or the time limit passes (seconds since `start`, this rank's clock). */
static slp_err run_phase(slp_pdhg_t *p, int dual_phase, int64_t budget, double start,
                         double time_limit, int *reached, int64_t *iterations)
{
    slp_loop_t loop;
    slp_loop_init(&loop, p->omega0, 0);
    p->omega = p->omega0;
    slp_check_scalars_t chk;
    *reached = 0;
    /* Elapsed times, not clock readings, are compared across ranks (hosts' monotonic
     * clocks have different origins): the latest elapsed, the least limit and any
     * SIGINT/SIGTERM in one max, so every rank leaves the phase after the same window
     * and the collectives stay matched (the main loop then stops on a signal). */
    double now[3] = {slp_wall_seconds() - start, slp_interrupt_pending(), -time_limit};
    SLP_CALL(slp_comm_max(p->grid->world, now, 3));
    while (loop.total < budget && now[0] < -now[2] && now[1] == 0.0) {
        SLP_CALL(slp_pdhg_window(p, &loop, p->set->eval_freq, &chk));
        if (!slp_pdhg_all_finite(&chk))
            break;
        if (dual_phase ? slp_pdhg_dual_feasible(p, &chk) : slp_pdhg_primal_feasible(p, &chk)) {
            *reached = 1;
            break;
        }
        slp_pdhg_after_check(p, &loop, &chk);
        now[0] = slp_wall_seconds() - start;
        now[1] = slp_interrupt_pending();
        now[2] = -time_limit;
        SLP_CALL(slp_comm_max(p->grid->world, now, 3));
    }
    *iterations = loop.total;
    return SLP_OK;
}

slp_err slp_polish_run(slp_polish_t *polish, slp_pdhg_t *s, int64_t total, double start,
                       double time_limit, slp_check_scalars_t *chk, int *optimal)
{
    double t0 = slp_wall_seconds();
    slp_backend_t *be = s->be;
    int freq = s->set->eval_freq;
    int64_t budget = total / 4 > 2 * freq ? total / 4 : 2 * freq;
    polish->next_at = 2 * total;
    *optimal = 0;

    slp_pdhg_t *pp = &polish->primal, *dp = &polish->dual;
    be->vec_copy(be, pp->x, s->xhat, s->n);
    be->vec_copy(be, pp->x0, s->xhat, s->n);
    be->vec_fill(be, pp->y, 0.0, s->m);
    be->vec_fill(be, pp->y0, 0.0, s->m);
    be->vec_fill(be, dp->x, 0.0, s->n);
    be->vec_fill(be, dp->x0, 0.0, s->n);
    be->vec_copy(be, dp->y, s->yhat, s->m);
    be->vec_copy(be, dp->y0, s->yhat, s->m);

    int primal_ok = 0, dual_ok = 0;
    int64_t primal_iters = 0, dual_iters = 0;
    SLP_CALL(run_phase(pp, 0, budget, start, time_limit, &primal_ok, &primal_iters));
    if (primal_ok)
        SLP_CALL(run_phase(dp, 1, budget, start, time_limit, &dual_ok, &dual_iters));
    polish->iterations += primal_iters + dual_iters;
    if (primal_ok && dual_ok) {
        /* The combined point, evaluated on the original problem. */
        be->vec_copy(be, s->xhat, pp->xhat, s->n);
        be->vec_copy(be, s->yhat, dp->yhat, s->m);
        be->vec_copy(be, s->slack, dp->slack, s->n);
        SLP_CALL(slp_pdhg_measure(s, chk, 1, SLP_RAY_OF_STEP));
        *optimal = slp_pdhg_is_optimal(s, chk);
    }
    polish->seconds += slp_wall_seconds() - t0;
    slp_log("polish at %lld: primal phase %lld it (%s), dual phase %lld it (%s)%s\n",
            (long long)total, (long long)primal_iters, primal_ok ? "feasible" : "not feasible",
            (long long)dual_iters, primal_ok ? (dual_ok ? "feasible" : "not feasible") : "skipped",
            *optimal ? ": combined point optimal" : "");
    return SLP_OK;
}

int64_t slp_polish_iterations(const slp_polish_t *polish) { return polish->iterations; }
double slp_polish_seconds(const slp_polish_t *polish) { return polish->seconds; }
