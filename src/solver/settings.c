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
    s->eval_freq = 200;
    s->geo_iters = 12;
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
    s->polish = 0;
    s->step_boost = 0;
    s->block_copies = 0;
    s->presolve = 1;
    s->threads = 0;
    s->comm_support = 0;
    s->comm_lib = 0; /* SLP_COMM_LIB_AUTO */
    s->log_every_check = 0;
}
