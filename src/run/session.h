/* A solver session (docs/session.md): the set-up of a run done once (options, grid,
 * the problem read or distributed, backend, log file), then any number of solves of
 * the problem and of its updates (objective, variable bounds, row bounds), each warm
 * from the last solve's point unless asked cold. slp_run (run.h) is one session with
 * one solve. Everything a solve configures that lives in the process (log level, log
 * file, checkpoints) is set from the session's own options at the start of each call
 * and put back at its end, so that sessions interleave. Collective over the world:
 * every rank makes the same calls in the same order. */
#ifndef SLP_SESSION_H
#define SLP_SESSION_H

#include "run/run.h"

typedef struct slp_session slp_session_t;

/* The set-up. `keep`: the problem is kept for further solves (a session); 0 lets the
 * one solve reduce it in place, as one run does (no second copy). Reading, distribution
 * and the backend happen here; their seconds are the first solve's setup_seconds.
 * On failure every rank returns the same code and message (*error_rank: the rank that
 * saw it) and *out is NULL. `in` is not kept (the path and the progress callback are). */
slp_err slp_session_open(const slp_run_options_t *opt, const slp_run_input_t *in, int keep,
                         slp_session_t **out, int *error_rank);
/* Solve the session's problem as it stands. warm: start from the last solve's x and y
 * (before the first solve: the input's start, if any); 0: from zero. Writes the files
 * the options name (each solve overwrites them) and gathers whole vectors to rank 0 when
 * `gather` is given. A session opened with keep = 0 solves once. */
slp_err slp_session_solve(slp_session_t *s, int warm, const slp_run_vectors_t *gather,
                          slp_run_output_t *out);
/* Updates, for the next solve (session_update.c): rank 0 passes whole vectors in the
 * model's units and sense (NULL: that vector unchanged), other ranks NULL. Checked on
 * rank 0 as a new model's are (finite costs; bounds not NaN, lower <= upper, no lower
 * bound of +inf or upper of -inf); a refused update changes nothing. */
slp_err slp_session_set_objective(slp_session_t *s, const double *c);
slp_err slp_session_set_col_bounds(slp_session_t *s, const double *lower, const double *upper);
slp_err slp_session_set_row_bounds(slp_session_t *s, const double *lower, const double *upper);
/* Model sizes, the same on every rank. */
void slp_session_size(const slp_session_t *s, int64_t *m, int64_t *n);
/* Accepts NULL and sets *s to NULL. Collective. */
void slp_session_close(slp_session_t **s);

#endif
