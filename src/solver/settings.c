#include "solver/settings.h"

#include <math.h>

#include <stddef.h>
#include <stdint.h>

void slp_settings_default(slp_settings_t *s)
{
    *s = (slp_settings_t){0}; /* a setting added later without a line here is off */
    s->tol = 1e-4;
    s->detailed = 0;
    s->eps_abs = 1e-4;
    s->eps_rel = 1e-4;
    s->gap_rel = 1e-4;
    s->norm = SLP_NORM_L2;
    s->eps_infeas = 1e-8;
    s->time_limit = INFINITY; /* none, as in HiGHS */
    s->iter_limit = INT64_MAX;
    s->eval_freq = 0; /* automatic */
    s->curtis_reid_iters = 20; /* HPR-LP's first stage (docs/algorithm.md section 2) */
    s->geo_iters = 0;
    s->ruiz_iters = 10;
    s->pock_chambolle = 1;
    s->pc_alpha = 1.0;
    s->bound_obj_rescaling = 1;
    s->restart_sufficient = 0.2;
    s->restart_necessary = 0.5;
    s->restart_artificial = 0.36;
    s->pid_kp = 0.99;
    s->pid_ki = 0.01;
    s->pid_kd = 0.0;
    s->pid_decay = 0.3;
    s->pid_ratio_limit = 1e6;
    s->pid_step_limit = 100.0;
    s->pid_hold_first = SLP_HOLD_AUTO;
    s->polish = 0;
    s->step_boost = 0;
    s->fix_columns = 0.0;
    s->block_copies = 0;
    s->block_values = 0;
    s->precision = 0; /* SLP_PRECISION_FP64 */
    s->presolve = 1;
    s->threads = 0;
    s->comm_support = 0;
    s->comm_lib = 0; /* SLP_COMM_LIB_AUTO */
    s->log_every_check = 0;
}

/* The automatic intervals: a loose target's, a tight target's early and late ones and
 * where the late one starts, and the target that divides loose from tight (measured
 * on the corpus at 1e-4 and 1e-8, docs/method-experiments.md). */
#define SLP_EVAL_LOOSE 32
#define SLP_EVAL_TIGHT_EARLY 64
#define SLP_EVAL_TIGHT_LATE 200
#define SLP_EVAL_LATE_FROM 10000
#define SLP_LOOSE_TARGET 1e-5
/* Below this interval the first restart's distances are noise. */
#define SLP_HOLD_BELOW 100

void slp_settings_resolve(slp_settings_t *s)
{
    double target = s->detailed ? fmax(s->eps_abs, s->eps_rel) : s->tol;
    if (s->eval_freq <= 0 && target >= SLP_LOOSE_TARGET) {
        s->eval_freq = SLP_EVAL_LOOSE;
    } else if (s->eval_freq <= 0) {
        s->eval_freq = SLP_EVAL_TIGHT_EARLY;
        s->eval_freq_late = SLP_EVAL_TIGHT_LATE;
        s->eval_late_from = SLP_EVAL_LATE_FROM;
    }
    if (s->eval_freq_late <= 0)
        s->eval_freq_late = s->eval_freq;
    if (s->pid_hold_first == SLP_HOLD_AUTO)
        s->pid_hold_first = s->eval_freq < SLP_HOLD_BELOW ? SLP_HOLD_ON : SLP_HOLD_OFF;
}

int slp_check_interval(const slp_settings_t *s, int64_t total)
{
    return total >= s->eval_late_from && s->eval_freq_late > 0 ? s->eval_freq_late : s->eval_freq;
}
