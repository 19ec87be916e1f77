/* Solving through the public C API: one run of the run layer (run/run.h) with the
 * caller's model in memory (results gathered into the caller's buffers on rank 0)
 * or a shard directory (this rank's slices handed over). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "core/log.h"
#include "grid/comm_mpi.h"
#include "run/run.h"

static int comm_started = 0;

shardlp_error shardlp_init(int *argc, char ***argv)
{
    slp_error_clear();
    if (comm_started)
        return SHARDLP_OK;
    slp_err rc = slp_comm_init(argc, argv, 0);
    if (rc == SLP_OK)
        comm_started = 1;
    return slp_api_code(rc);
}

shardlp_error shardlp_init_comm(const void *mpi_comm)
{
    slp_error_clear();
    if (!mpi_comm)
        return slp_api_code(slp_error(SLP_ERR_INPUT, "shardlp_init_comm: NULL communicator"));
    slp_err rc = slp_comm_init_with(*(const MPI_Comm *)mpi_comm);
    if (rc == SLP_OK)
        comm_started = 1;
    return slp_api_code(rc);
}

slp_err slp_api_start_comm(void)
{
    if (!comm_started && shardlp_init(NULL, NULL) != SHARDLP_OK)
        return SLP_ERR_MPI;
    return SLP_OK;
}

void shardlp_finalize(void)
{
    if (comm_started)
        slp_comm_finalize();
    comm_started = 0;
}

int shardlp_rank(void) { return slp_comm_rank(slp_comm_world()); }
int shardlp_ranks(void) { return slp_comm_size(slp_comm_world()); }
const char *shardlp_last_error(void) { return slp_error_message(); }
const char *shardlp_status_name(shardlp_status status)
{
    if (status == SHARDLP_NOT_SOLVED)
        return "not_solved";
    return slp_run_status_name((slp_run_status)(status - SHARDLP_OPTIMAL));
}
const char *shardlp_status_highs_name(shardlp_status status)
{
    if (status == SHARDLP_NOT_SOLVED)
        return "Not Set"; /* HiGHS's model status before a run */
    return slp_run_status_highs_name((slp_run_status)(status - SHARDLP_OPTIMAL));
}
const char *shardlp_version(void) { return SLP_VERSION; }
int shardlp_api_version(void) { return SHARDLP_API_VERSION; }
void shardlp_free(void *buffer) { free(buffer); }

/* The settings to run with: the caller's, or the library's defaults. */
static slp_err settings_or_default(const shardlp_settings *in, slp_run_options_t *out)
{
    if (in)
        return slp_run_options_copy(&in->opt, out);
    slp_api_default_options(out);
    return SLP_OK;
}

_Static_assert(SHARDLP_OPTIMAL + SLP_RUN_STATUS_LAST ==
                   SHARDLP_INFEASIBLE_OR_UNBOUNDED,
               "shardlp_status lists the run layer's statuses in their order");

void slp_api_fill_info(const slp_run_output_t *out, shardlp_info *info)
{
    const slp_run_result_t *r = &out->result;
    /* the run layer's statuses in their order, after SHARDLP_NOT_SOLVED */
    info->status = (shardlp_status)(SHARDLP_OPTIMAL + (int)r->status);
    info->objective = r->objective;
    info->dual_objective = r->dual_objective;
    info->rel_primal_residual = r->rel_primal_residual;
    info->rel_dual_residual = r->rel_dual_residual;
    info->rel_gap = r->rel_gap;
    info->abs_primal_residual = r->abs_primal_residual;
    info->abs_dual_residual = r->abs_dual_residual;
    info->abs_gap = r->abs_gap;
    info->iterations = r->iterations;
    info->restarts = r->restarts;
    info->m = out->m;
    info->n = out->n;
    info->nnz = out->nnz;
    info->grid_rows = out->R;
    info->grid_cols = out->C;
    info->warm_started = out->warm_started;
    info->setup_seconds = out->setup_seconds;
    info->scaling_seconds = r->scaling_seconds;
    info->power_seconds = r->power_seconds;
    info->solve_seconds = r->solve_seconds;
    info->total_seconds = out->total_seconds;
    info->presolve_rows_removed = out->presolve.total.rows;
    info->presolve_cols_removed = out->presolve.total.cols;
    info->presolve_nnz_removed = out->presolve.total.nnz;
}

/* The solver's progress, handed to the caller's callback in the public form. */
int slp_api_progress(const slp_run_progress_t *p, void *user)
{
    const shardlp_settings *s = user;
    shardlp_progress q = {p->iteration,           p->seconds,          p->objective,
                          p->dual_objective,      p->abs_primal_residual, p->abs_dual_residual,
                          p->rel_primal_residual, p->rel_dual_residual, p->rel_gap,
                          p->primal_weight,       p->restarted};
    return s->progress(&q, s->progress_user);
}

/* One run of the run layer for the API: settings and callbacks, the run, the info. */
static slp_err api_run(const shardlp_settings *settings, const slp_run_input_t *given,
                       const slp_run_vectors_t *gather, shardlp_info *info,
                       slp_run_output_t *out)
{
    memset(out, 0, sizeof *out);
    SLP_CALL(slp_api_start_comm());
    slp_run_options_t opt;
    SLP_CALL(settings_or_default(settings, &opt));
    slp_run_input_t in = *given;
    if (settings && settings->progress) {
        in.progress = slp_api_progress;
        in.progress_user = (void *)settings;
    }
    if (settings && settings->log)
        slp_log_set_sink(settings->log, settings->log_user);
    slp_err rc = slp_run(&opt, &in, gather, out);
    slp_log_set_sink(NULL, NULL);
    slp_run_options_free(&opt);
    if (rc == SLP_OK && info)
        slp_api_fill_info(out, info);
    return rc;
}

shardlp_error shardlp_solve(shardlp_problem *problem, const shardlp_settings *settings,
                            shardlp_info *info, double *x, double *y, double *rc, double *ax)
{
    slp_error_clear();
    if (info)
        memset(info, 0, sizeof *info);
    int root = slp_comm_rank(slp_comm_world()) == 0;
    slp_run_input_t in = {.model = root && problem ? problem->model : NULL,
                          .x0 = root && problem ? problem->x0 : NULL,
                          .y0 = root && problem ? problem->y0 : NULL};
    slp_run_vectors_t gather = {x, y, rc, ax};
    slp_run_output_t out;
    slp_err err = api_run(settings, &in, &gather, info, &out);
    slp_run_output_free(&out);
    return slp_api_code(err);
}

/* Hand a result slice to the caller (ownership moves) or leave it to be freed. */
static void hand_over(double **slot, double **out)
{
    if (out) {
        *out = *slot;
        *slot = NULL;
    }
}

shardlp_error shardlp_solve_shards(const char *dir, const shardlp_settings *settings,
                                   shardlp_info *info, int64_t *col_lo, int64_t *n_loc,
                                   double **x, double **rc, int64_t *row_lo, int64_t *m_loc,
                                   double **y, double **ax)
{
    slp_error_clear();
    if (info)
        memset(info, 0, sizeof *info);
    double **outs[4] = {x, rc, y, ax};
    for (int k = 0; k < 4; k++)
        if (outs[k])
            *outs[k] = NULL;
    slp_run_input_t in = {.path = dir};
    slp_run_output_t out;
    slp_err err = dir ? api_run(settings, &in, NULL, info, &out)
                      : slp_error(SLP_ERR_INPUT, "shardlp_solve_shards: dir is NULL");
    if (err == SLP_OK) {
        int64_t *where[4] = {col_lo, n_loc, row_lo, m_loc};
        int64_t what[4] = {out.col_lo, out.n_loc, out.row_lo, out.m_loc};
        for (int k = 0; k < 4; k++)
            if (where[k])
                *where[k] = what[k];
        hand_over(&out.result.x, x);
        hand_over(&out.result.rc, rc);
        hand_over(&out.result.y, y);
        hand_over(&out.result.ax, ax);
    }
    if (dir)
        slp_run_output_free(&out);
    return slp_api_code(err);
}
