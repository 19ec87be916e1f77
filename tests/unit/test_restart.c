/* Restart criteria and the PID primal weight (src/solver/restart.c) against values
 * worked out by hand from docs/algorithm.md sections 3 and 5. */
#include <math.h>

#include "check.h"
#include "solver/solver_internal.h"

static void test_pid_steps(void)
{
    slp_settings_t set;
    slp_settings_default(&set);
    slp_pdhg_t s = {0};
    s.set = &set;
    s.omega = 1.0;
    slp_loop_t loop;
    slp_loop_init(&loop, 1.0, 1);
    slp_check_scalars_t chk = {0};
    /* d_p = 1, d_d = e, ratio = 10: error e1 = ln e - ln 1 - ln 1 = 1, integral 1,
     * omega = exp(0.99 + 0.01) = e; g = |log10 10| = 1 is the best so far. */
    chk.dist_x = 1.0;
    chk.dist_y = exp(1.0);
    chk.rel_p = 1.0;
    chk.rel_d = 10.0;
    slp_pdhg_update_weight(&s, &loop.pid, &chk);
    CHECK_CLOSE(s.omega, exp(1.0), 1e-14);
    CHECK_CLOSE(loop.pid.integral, 1.0, 1e-14);
    CHECK_CLOSE(loop.pid.omega_best, exp(1.0), 1e-14);
    CHECK_CLOSE(loop.pid.g_best, 1.0, 1e-14);
    /* Same displacements at omega = e: error 0, integral 0.3, omega = e exp(0.003);
     * ratio 100 (g = 2) is worse, so the best weight stays e. */
    chk.rel_d = 100.0;
    slp_pdhg_update_weight(&s, &loop.pid, &chk);
    CHECK_CLOSE(loop.pid.integral, 0.3, 1e-14);
    CHECK_CLOSE(s.omega, exp(1.0) * exp(0.003), 1e-14);
    CHECK_CLOSE(loop.pid.omega_best, exp(1.0), 1e-14);
    /* Safeguard: a zero primal residual makes the ratio infinite: back to the best
     * weight, integral and last error reset. */
    chk.rel_p = 0.0;
    slp_pdhg_update_weight(&s, &loop.pid, &chk);
    CHECK_CLOSE(s.omega, exp(1.0), 1e-14);
    CHECK(loop.pid.integral == 0.0 && loop.pid.e_prev == 0.0, "safeguard resets the PID state");
}

/* --weight-step-limit: d_d / d_p = e^5 from omega = 1 would move omega by exp(0.99 * 5 +
 * 0.01 * 5) = e^5; with F = 10 it moves by 10 exactly, and down by 1/10 the other way. */
static void test_pid_step_limit(void)
{
    slp_settings_t set;
    slp_settings_default(&set);
    set.pid_step_limit = 10.0;
    slp_pdhg_t s = {0};
    s.set = &set;
    s.omega = 1.0;
    slp_loop_t loop;
    slp_loop_init(&loop, 1.0, 1);
    slp_check_scalars_t chk = {.dist_x = 1.0, .dist_y = exp(5.0), .rel_p = 1.0, .rel_d = 1.0};
    slp_pdhg_update_weight(&s, &loop.pid, &chk);
    CHECK_CLOSE(s.omega, 10.0, 1e-13);
    slp_loop_init(&loop, 1.0, 1);
    s.omega = 1.0;
    chk.dist_y = exp(-5.0);
    slp_pdhg_update_weight(&s, &loop.pid, &chk);
    CHECK_CLOSE(s.omega, 0.1, 1e-14);
    set.pid_step_limit = 0.0; /* no limit: the full step */
    slp_loop_init(&loop, 1.0, 1);
    s.omega = 1.0;
    slp_pdhg_update_weight(&s, &loop.pid, &chk);
    CHECK_CLOSE(s.omega, exp(-5.0), 1e-14);
}

static void copy_vector(slp_backend_t *be, double *dst, const double *src, int64_t len)
{
    (void)be;
    for (int64_t i = 0; i < len; i++)
        dst[i] = src[i];
}

/* --weight-hold-first: the first restart (forced at the first check) keeps omega = 1 and
 * records it as the best weight (ratio 10: g = 1); the second restart, with d_d / d_p = e,
 * runs the PID from there: omega = exp(0.99 + 0.01) = e. Without the setting the first
 * restart already moves omega to e. */
static void test_pid_hold_first(void)
{
    slp_settings_t set;
    slp_settings_default(&set);
    set.eval_freq = 64;
    set.pid_hold_first = SLP_HOLD_ON;
    slp_backend_t be = {.vec_copy = copy_vector};
    double x[1] = {0}, x0[1] = {0}, xhat[1] = {2}, y[1] = {0}, y0[1] = {0}, yhat[1] = {3};
    slp_solve_inputs_t in = {0};
    slp_pdhg_t s = {.set = &set, .in = &in, .be = &be, .n = 1, .m = 1, .omega = 1.0, .x = x,
                    .x0 = x0, .xhat = xhat, .y = y, .y0 = y0, .yhat = yhat};
    slp_loop_t loop;
    slp_loop_init(&loop, 1.0, 1);
    slp_check_scalars_t chk = {.dist_x = 1.0, .dist_y = exp(1.0), .rel_p = 1.0, .rel_d = 10.0};
    loop.total = loop.epoch = set.eval_freq;
    slp_pdhg_after_check(&s, &loop, &chk);
    CHECK(loop.restarts == 1 && x0[0] == 2.0 && y[0] == 3.0, "the first check restarts");
    CHECK_CLOSE(s.omega, 1.0, 0.0);
    CHECK_CLOSE(loop.pid.g_best, 1.0, 1e-14);
    loop.total = 10 * set.eval_freq; /* artificial restart: epoch >= 0.36 total */
    loop.epoch = 4 * set.eval_freq;
    slp_pdhg_after_check(&s, &loop, &chk);
    CHECK(loop.restarts == 2, "the second restart");
    CHECK_CLOSE(s.omega, exp(1.0), 1e-14);
    set.pid_hold_first = SLP_HOLD_OFF;
    s.omega = 1.0;
    slp_loop_init(&loop, 1.0, 1);
    loop.total = loop.epoch = set.eval_freq;
    slp_pdhg_after_check(&s, &loop, &chk);
    CHECK_CLOSE(s.omega, exp(1.0), 1e-14);
}

/* The automatic interval and hold: 32 and on for targets of 1e-5 and looser (the
 * relative tol, or the larger of eps_abs and eps_rel); below, 64 for the first 10,000
 * iterations, then 200, and on; a given interval is kept throughout, and the hold
 * follows it. */
static void test_resolve(void)
{
    struct {
        int detailed;
        double tol, eps_abs, eps_rel;
        int eval, want_eval, want_late, want_hold;
    } cases[] = {
        {0, 1e-4, 0, 0, 0, 32, 32, SLP_HOLD_ON},
        {0, 1e-5, 0, 0, 0, 32, 32, SLP_HOLD_ON},
        {0, 1e-6, 0, 0, 0, 64, 200, SLP_HOLD_ON},
        {0, 1e-8, 0, 0, 0, 64, 200, SLP_HOLD_ON},
        {1, 1e-8, 1e-8, 1e-4, 0, 32, 32, SLP_HOLD_ON},
        {1, 1e-4, 1e-8, 1e-8, 0, 64, 200, SLP_HOLD_ON},
        {0, 1e-4, 0, 0, 200, 200, 200, SLP_HOLD_OFF},
        {0, 1e-8, 0, 0, 48, 48, 48, SLP_HOLD_ON},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        slp_settings_t set;
        slp_settings_default(&set);
        set.detailed = cases[k].detailed;
        set.tol = cases[k].tol;
        set.eps_abs = cases[k].eps_abs;
        set.eps_rel = cases[k].eps_rel;
        set.eval_freq = cases[k].eval;
        slp_settings_resolve(&set);
        int early = slp_check_interval(&set, 9999), late = slp_check_interval(&set, 10000);
        CHECK(early == cases[k].want_eval && late == cases[k].want_late &&
                  slp_check_interval(&set, 0) == early &&
                  set.pid_hold_first == cases[k].want_hold,
              "case %zu: intervals %d %d hold %d, want %d %d %d", k, early, late,
              set.pid_hold_first, cases[k].want_eval, cases[k].want_late, cases[k].want_hold);
        slp_settings_resolve(&set); /* resolving again changes nothing */
        CHECK(slp_check_interval(&set, 10000) == cases[k].want_late, "case %zu resolved twice", k);
    }
    slp_settings_t set;
    slp_settings_default(&set);
    set.pid_hold_first = SLP_HOLD_OFF; /* a choice made is kept */
    slp_settings_resolve(&set);
    CHECK(set.eval_freq == 32 && set.pid_hold_first == SLP_HOLD_OFF, "hold off kept");
}

static void test_restart_rules(void)
{
    slp_settings_t set;
    slp_settings_default(&set);
    set.eval_freq = 200;
    slp_solve_inputs_t in = {0};
    slp_pdhg_t s = {0};
    s.set = &set;
    s.in = &in;
    /* (base, total, epoch, fpe, fpe0, fpe_last) -> restart?  with 0.2 / 0.5 / 0.36 and
     * N = 200; base: the iterations of the solves this one continues (column fixing) */
    struct { int64_t base, total, epoch; double fpe, fpe0, fpe_last; int want; } cases[] = {
        {0, 200, 200, 1.0, 1.0, INFINITY, 1},  /* the first check always restarts */
        {0, 1000, 200, 0.2, 1.0, 0.1, 1},      /* sufficient: FPE <= 0.2 FPE0 */
        {0, 1000, 200, 0.5, 1.0, 0.4, 1},      /* necessary and no local progress */
        {0, 1000, 200, 0.5, 1.0, 0.6, 0},      /* necessary but still progressing */
        {0, 1000, 200, 0.9, 1.0, 0.8, 0},      /* none, epoch 200 < 0.36 * 1000 */
        {0, 1000, 400, 0.9, 1.0, 0.8, 1},      /* artificial: 400 >= 360 */
        {0, 400, 200, 0.9, 1.0, 0.8, 1},       /* artificial at N = 400: 200 >= 144 */
        {600, 400, 200, 0.9, 1.0, 0.8, 0},     /* continuing: 200 < 0.36 * (600 + 400) */
        {600, 400, 400, 0.9, 1.0, 0.8, 1},     /* continuing: 400 >= 360 */
        {5000, 200, 200, 1.0, 1.0, INFINITY, 1}, /* its own first check still restarts */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        in.iteration_base = cases[k].base;
        int got = slp_pdhg_should_restart(&s, cases[k].total, cases[k].epoch, cases[k].fpe,
                                          cases[k].fpe0, cases[k].fpe_last);
        CHECK(got == cases[k].want, "case %zu: restart %d, by hand %d", k, got, cases[k].want);
    }
}

int main(void)
{
    test_pid_steps();
    test_pid_step_limit();
    test_pid_hold_first();
    test_resolve();
    test_restart_rules();
    return check_summary();
}
