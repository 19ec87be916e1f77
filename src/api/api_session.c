/* Sessions through the public C API (include/shardlp.h, docs/session.md): a run-layer
 * session (run/session.h) with the caller's callbacks. */
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "core/log.h"
#include "run/session.h"

struct shardlp_session {
    slp_session_t *session;
    shardlp_settings callbacks; /* the settings' callbacks (its options are unused) */
};

/* The caller's log callback for the length of one call. */
static void sink_on(const shardlp_session *s)
{
    if (s->callbacks.log)
        slp_log_set_sink(s->callbacks.log, s->callbacks.log_user);
}

static void sink_off(void) { slp_log_set_sink(NULL, NULL); }

static shardlp_error create(const char *dir, const shardlp_problem *problem,
                            const shardlp_settings *settings, shardlp_session **out)
{
    slp_error_clear();
    if (!out)
        return slp_api_code(slp_error(SLP_ERR_INPUT, "shardlp_session_create: NULL out"));
    *out = NULL;
    if (slp_api_start_comm() != SLP_OK)
        return SHARDLP_ERR_MPI;
    int root = slp_comm_rank(slp_comm_world()) == 0;
    shardlp_session *s = calloc(1, sizeof *s);
    slp_run_options_t opt;
    slp_api_default_options(&opt);
    slp_err rc = s ? SLP_OK : slp_error(SLP_ERR_NOMEM, "out of memory");
    if (rc == SLP_OK && settings) {
        rc = slp_run_options_copy(&settings->opt, &opt);
        s->callbacks.progress = settings->progress;
        s->callbacks.progress_user = settings->progress_user;
        s->callbacks.log = settings->log;
        s->callbacks.log_user = settings->log_user;
    }
    rc = slp_comm_agree(slp_comm_world(), rc);
    if (rc != SLP_OK) {
        free(s);
        slp_run_options_free(&opt);
        return slp_api_code(rc);
    }
    slp_run_input_t in = {.path = dir,
                          .model = !dir && root && problem ? problem->model : NULL,
                          .x0 = !dir && root && problem ? problem->x0 : NULL,
                          .y0 = !dir && root && problem ? problem->y0 : NULL};
    if (s->callbacks.progress) {
        in.progress = slp_api_progress;
        in.progress_user = &s->callbacks;
    }
    int error_rank = 0;
    sink_on(s);
    rc = slp_session_open(&opt, &in, 1, &s->session, &error_rank);
    sink_off();
    slp_run_options_free(&opt);
    if (rc != SLP_OK) {
        free(s);
        return slp_api_code(rc);
    }
    *out = s;
    return SHARDLP_OK;
}

shardlp_error shardlp_session_create(const shardlp_problem *problem,
                                     const shardlp_settings *settings, shardlp_session **out)
{
    return create(NULL, problem, settings, out);
}

shardlp_error shardlp_session_create_shards(const char *dir, const shardlp_settings *settings,
                                            shardlp_session **out)
{
    if (!dir)
        return slp_api_code(slp_error(SLP_ERR_INPUT, "shardlp_session_create_shards: NULL "
                                      "directory"));
    return create(dir, NULL, settings, out);
}

static slp_err no_session(const char *call)
{
    return slp_error(SLP_ERR_INPUT, "%s: NULL session", call);
}

shardlp_error shardlp_session_solve(shardlp_session *session, int warm, shardlp_info *info,
                                    double *x, double *y, double *rc, double *ax)
{
    slp_error_clear();
    if (info)
        memset(info, 0, sizeof *info);
    if (!session)
        return slp_api_code(no_session("shardlp_session_solve"));
    slp_run_vectors_t gather = {x, y, rc, ax};
    slp_run_output_t out;
    sink_on(session);
    slp_err err = slp_session_solve(session->session, warm != 0, &gather, &out);
    sink_off();
    if (err == SLP_OK && info)
        slp_api_fill_info(&out, info);
    slp_run_output_free(&out);
    return slp_api_code(err);
}

shardlp_error shardlp_session_set_objective(shardlp_session *session, const double *c)
{
    slp_error_clear();
    if (!session)
        return slp_api_code(no_session("shardlp_session_set_objective"));
    return slp_api_code(slp_session_set_objective(session->session, c));
}

shardlp_error shardlp_session_set_col_bounds(shardlp_session *session, const double *lv,
                                             const double *uv)
{
    slp_error_clear();
    if (!session)
        return slp_api_code(no_session("shardlp_session_set_col_bounds"));
    return slp_api_code(slp_session_set_col_bounds(session->session, lv, uv));
}

shardlp_error shardlp_session_set_row_bounds(shardlp_session *session, const double *lc,
                                             const double *uc)
{
    slp_error_clear();
    if (!session)
        return slp_api_code(no_session("shardlp_session_set_row_bounds"));
    return slp_api_code(slp_session_set_row_bounds(session->session, lc, uc));
}

void shardlp_session_size(const shardlp_session *session, int64_t *m, int64_t *n)
{
    int64_t mm = 0, nn = 0;
    if (session)
        slp_session_size(session->session, &mm, &nn);
    if (m)
        *m = mm;
    if (n)
        *n = nn;
}

void shardlp_session_destroy(shardlp_session **session)
{
    if (!session || !*session)
        return;
    slp_session_close(&(*session)->session);
    free(*session);
    *session = NULL;
}
