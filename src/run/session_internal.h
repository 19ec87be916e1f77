/* What a session holds (run/session.h); shared by session.c and session_update.c. */
#ifndef SLP_SESSION_INTERNAL_H
#define SLP_SESSION_INTERNAL_H

#include <stdio.h>

#include "backend/backend.h"
#include "core/log.h"
#include "grid/grid.h"
#include "run/run_output.h"
#include "run/session.h"
#include "shard/shard.h"

struct slp_session {
    slp_run_options_t opt;          /* owned copy of the options */
    char *path;                     /* owned copy of the input path, or NULL */
    slp_settings_t set;             /* the solver's settings */
    slp_run_progress_fn progress;       /* NULL: none */
    void *progress_user;
    int keep;                       /* the problem is kept for further solves */
    int sharded;                    /* shard directory input */
    slp_grid_t *grid;
    slp_shard_manifest_t manifest;  /* shard input */
    slp_local_problem_t lp;         /* this rank's part of the problem, updates applied */
    slp_backend_t *be;
    slp_run_info_t info;            /* for the outputs */
    char backend[32];               /* the backend's name, for info */
    double *start_x, *start_y;      /* this rank's slices of the next warm start, or NULL */
    slp_step_memo_t step_memo;      /* the step-size estimate of the session's matrix */
    FILE *log_file, *trace;         /* rank 0, or NULL */
    int checkpoint_lock;            /* rank 0: flock on the checkpoint directory, or -1 */
    int solves;                     /* solves so far */
    double t_open, setup_seconds;
    slp_log_level saved_level;      /* the process's, while a call runs */
};

/* After an agreed failure: one message on every rank (the lowest rank that saw it
 * first), in the log file too; returns that rank. Collective. */
int slp_session_report_failure(slp_session_t *s, slp_err rc);

#endif
