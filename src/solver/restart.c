/* Restart criteria and the primal weight at restarts: the PID or HPR-LP's rule
 * (docs/algorithm.md sections 3 and 5). */
#include <math.h>

#include "solver/solver_internal.h"

/* rel. dual / rel. primal residual of a check: +inf when rel_p = 0, NaN when both are. */
static double residual_ratio(const slp_check_scalars_t *chk)
{
    return chk->rel_d / chk->rel_p;
}

/* The weight whose check had the most balanced residuals, the PID's fallback. */
static void record_best_weight(const slp_pdhg_t *s, slp_pid_t *pid, const slp_check_scalars_t *chk)
{
    double g = fabs(log10(residual_ratio(chk)));
    if (g < pid->g_best) {
        pid->g_best = g;
        pid->omega_best = s->omega;
    }
}

/* PID update of log(omega) at a restart (docs/algorithm.md section 3). */
void slp_pdhg_update_weight(slp_pdhg_t *s, slp_pid_t *pid, const slp_check_scalars_t *chk)
{
    const slp_settings_t *set = s->set;
    double dp = chk->dist_x, dd = chk->dist_y;
    double ratio = residual_ratio(chk);
    double limit = set->pid_ratio_limit;
    if (dp > 1e-16 && dp < 1e12 && dd > 1e-16 && dd < 1e12 && ratio > 1 / limit &&
        ratio < limit) {
        double e = log(dd) - log(dp) - log(s->omega);
        pid->integral = set->pid_decay * pid->integral + e;
        double step = set->pid_kp * e + set->pid_ki * pid->integral +
                      set->pid_kd * (e - pid->e_prev);
        if (set->pid_step_limit > 1.0)
            step = fmax(-log(set->pid_step_limit), fmin(step, log(set->pid_step_limit)));
        s->omega *= exp(step);
        pid->e_prev = e;
    } else {
        s->omega = pid->omega_best;
        pid->integral = 0.0;
        pid->e_prev = 0.0;
    }
    record_best_weight(s, pid, chk);
}

/* HPR-LP's rule (docs/algorithm.md section 3): log omega moves to a blend of the
 * movement ratio d_d / d_p and the weight of the check with the smallest fixed-point
 * residual, the blend leaning to the latter as the residual grows past its best. */
static void hpr_update_weight(slp_pdhg_t *s, slp_pid_t *pid, const slp_check_scalars_t *chk)
{
    double dp = chk->dist_x, dd = chk->dist_y;
    if (!(dp > 1e-16 && dp < 1e12 && dd > 1e-16 && dd < 1e12) || !(pid->fpe_best > 0)) {
        s->omega = pid->omega_fpe_best;
        return;
    }
    double f = exp(-0.05 * chk->fpe / pid->fpe_best);
    s->omega = exp(f * log(dd / dp) + (1.0 - f) * log(pid->omega_fpe_best));
}

/* The smallest fixed-point residual of any check and the weight it was reached with. */
static void record_best_fpe(const slp_pdhg_t *s, slp_pid_t *pid, const slp_check_scalars_t *chk)
{
    if (isfinite(chk->fpe) && chk->fpe < pid->fpe_best) {
        pid->fpe_best = chk->fpe;
        pid->omega_fpe_best = s->omega;
    }
}

int slp_pdhg_should_restart(const slp_pdhg_t *s, int64_t total, int64_t epoch, double fpe,
                          double fpe0, double fpe_last)
{
    const slp_settings_t *set = s->set;
    if (total == set->eval_freq)
        return 1;
    if (fpe <= set->restart_sufficient * fpe0)
        return 1;
    if (fpe <= set->restart_necessary * fpe0 && fpe > fpe_last)
        return 1;
    /* a solve that continues another's count (column fixing's phases) restarts
     * artificially on the whole count, not its own few iterations */
    return (double)epoch >= set->restart_artificial * (double)(total + s->in->iteration_base);
}

void slp_pdhg_restart_at_pdhg_point(slp_pdhg_t *s)
{
    slp_backend_t *be = s->be;
    be->vec_copy(be, s->x0, s->xhat, s->n);
    be->vec_copy(be, s->x, s->xhat, s->n);
    be->vec_copy(be, s->y0, s->yhat, s->m);
    be->vec_copy(be, s->y, s->yhat, s->m);
}

void slp_loop_init(slp_loop_t *loop, double omega, int use_pid)
{
    slp_loop_t fresh = {0};
    fresh.fpe0 = NAN;
    fresh.fpe_last = INFINITY;
    fresh.pid.omega_best = omega;
    fresh.pid.g_best = INFINITY;
    fresh.pid.fpe_best = INFINITY;
    fresh.pid.omega_fpe_best = omega;
    fresh.use_pid = use_pid;
    *loop = fresh;
}

void slp_pdhg_after_check(slp_pdhg_t *s, slp_loop_t *loop, const slp_check_scalars_t *chk)
{
    int restart = slp_pdhg_should_restart(s, loop->total, loop->epoch, chk->fpe, loop->fpe0,
                                          loop->fpe_last);
    loop->fpe_last = chk->fpe;
    if (loop->use_pid)
        record_best_fpe(s, &loop->pid, chk);
    if (!restart)
        return;
    /* The first restart comes at the first check, forced: its distances are those of a
       few iterations from the start, so with --weight-hold-first on it keeps omega. */
    if (loop->use_pid && s->set->pid_hold_first == SLP_HOLD_ON && loop->restarts == 0)
        record_best_weight(s, &loop->pid, chk);
    else if (loop->use_pid && s->set->weight_rule == SLP_WEIGHT_HPR)
        hpr_update_weight(s, &loop->pid, chk);
    else if (loop->use_pid)
        slp_pdhg_update_weight(s, &loop->pid, chk);
    slp_pdhg_restart_at_pdhg_point(s);
    loop->epoch = 0;
    loop->fpe_last = INFINITY;
    loop->restarts++;
    loop->restarted_since_log = 1;
}
