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

static void test_restart_rules(void)
{
    slp_settings_t set;
    slp_settings_default(&set);
    slp_pdhg_t s = {0};
    s.set = &set;
    /* (total, epoch, fpe, fpe0, fpe_last) -> restart?  with 0.2 / 0.5 / 0.36 and N = 200 */
    struct { int64_t total, epoch; double fpe, fpe0, fpe_last; int want; } cases[] = {
        {200, 200, 1.0, 1.0, INFINITY, 1},  /* the first check always restarts */
        {1000, 200, 0.2, 1.0, 0.1, 1},      /* sufficient: FPE <= 0.2 FPE0 */
        {1000, 200, 0.5, 1.0, 0.4, 1},      /* necessary and no local progress */
        {1000, 200, 0.5, 1.0, 0.6, 0},      /* necessary but still progressing */
        {1000, 200, 0.9, 1.0, 0.8, 0},      /* none, epoch 200 < 0.36 * 1000 */
        {1000, 400, 0.9, 1.0, 0.8, 1},      /* artificial: 400 >= 360 */
        {400, 200, 0.9, 1.0, 0.8, 1},       /* artificial at N = 400: 200 >= 144 */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int got = slp_pdhg_should_restart(&s, cases[k].total, cases[k].epoch, cases[k].fpe,
                                          cases[k].fpe0, cases[k].fpe_last);
        CHECK(got == cases[k].want, "case %zu: restart %d, by hand %d", k, got, cases[k].want);
    }
}

int main(void)
{
    test_pid_steps();
    test_pid_step_limit();
    test_restart_rules();
    return check_summary();
}
