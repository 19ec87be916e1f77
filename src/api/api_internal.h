/* Private parts of the public C API (include/shardlp.h): the problem object and
 * the mapping of internal codes. */
#ifndef SLP_API_INTERNAL_H
#define SLP_API_INTERNAL_H

#include "shardlp.h"

#include "core/model.h"
#include "run/run.h"
#include "run/run_options.h"

struct shardlp_problem {
    slp_model_t *model; /* owned: the whole LP (rank 0 of a solve) */
    double *x0;         /* [n] warm start or NULL (owned) */
    double *y0;         /* [m] warm start or NULL (owned) */
    char name_buf[32];  /* generated names */
};

struct shardlp_settings {
    slp_run_options_t opt;
    shardlp_progress_callback progress;
    void *progress_user;
    shardlp_log_callback log;
    void *log_user;
};

/* The library's defaults: the command line's, except that a library does not print
 * unless asked (verbosity 0). */
static inline void slp_api_default_options(slp_run_options_t *o)
{
    slp_run_options_default(o);
    o->verbosity = 0;
}

/* The communication layer started for a solve (MPI only under a launcher). */
slp_err slp_api_start_comm(void);
/* A run's outcome as the public info. */
void slp_api_fill_info(const slp_run_output_t *out, shardlp_info *info);
/* The solver's progress handed to the callback of `user`, a const shardlp_settings *. */
int slp_api_progress(const slp_run_progress_t *p, void *user);

/* Record `rc` as the public code (the message stays in slp_error_message()). */
static inline shardlp_error slp_api_code(slp_err rc) { return (shardlp_error)rc; }

#endif
