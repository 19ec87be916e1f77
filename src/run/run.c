/* The run layer (run/run.h): the steps of one solve, each collective and agreed. */
#include "run/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/log.h"
#include "core/timer.h"
#include "grid/distribute.h"
#include "io/input_format.h"
#include "io/out_file.h"
#include "verdict/pipeline.h"
#include "run/run_input.h"
#include "run/run_output.h"
#include "run/run_vectors.h"
#include "run/watchdog.h"
#include "shard/shard.h"
#include "solver/checkpoint.h"

/* ---- contents ---------------------------------------------------------------
 * run_t              what one run holds while it goes
 * open_side_files    checkpoint directory, CSV trace, log file (before any work)
 * load               read or distribute the problem, scatter the warm start
 * solve              backend and the presolve pipeline
 * share_failure      one message for every rank after an agreed failure
 * slp_run            the steps in order
 * ------------------------------------------------------------------------------ */

typedef struct run {
    const slp_run_options_t *opt;
    const slp_run_input_t *in;
    slp_settings_t set;           /* the solver's settings for this run */
    slp_solve_inputs_t inputs;    /* warm start and trace */
    slp_grid_t *grid;
    slp_shard_manifest_t manifest; /* shard input */
    int sharded;
    slp_local_problem_t lp;
    slp_backend_t *be;
    slp_run_info_t info;          /* for the outputs */
    double *x0s, *y0s;            /* this rank's warm-start slices */
    double *start_x, *start_y;    /* rank 0: the whole warm start read from --start */
    FILE *log_file;
    int checkpoint_lock;          /* rank 0: flock on the checkpoint directory, or -1 */
    double t_start;
} run_t;

/* Rank 0: no output is an input or another output, and every output file can be
 * written, before any work is done. */
static slp_err check_outputs(const slp_run_options_t *o, const char *model)
{
    const slp_run_path_t files[] = {
        {model, "model", 0, 0},
        {o->start_path, "start solution", 0, 0},
        {o->resume_dir, "resume directory", 0, 1},
        {o->checkpoint_dir, "checkpoint directory", 1, 1},
        {o->write_solution ? o->sol_path : NULL, "solution", 1, 0},
        {o->json_path, "JSON summary", 1, 0},
        {o->trace_path, "CSV trace", 1, 0},
        {o->log_path, "log file", 1, 0},
        {o->out_dir, "sharded solution", 1, 0},
    };
    SLP_CALL(slp_out_distinct(files, (int)(sizeof files / sizeof files[0])));
    const char *paths[] = {o->write_solution ? o->sol_path : NULL, o->json_path, o->trace_path};
    const char *what[] = {"solution", "JSON summary", "CSV trace"};
    for (int k = 0; k < 3; k++)
        if (paths[k])
            SLP_CALL(slp_out_check(paths[k], what[k], 0));
    return o->out_dir ? slp_shard_check_output_dir(o->out_dir, 1) : SLP_OK;
}

/* The HiGHS options given that change nothing here, in one warning (rank 0). */
static void warn_highs_options(const slp_run_options_t *o)
{
    if (slp_comm_rank(slp_comm_world()) != 0)
        return;
    if (o->highs_ignored[0])
        slp_warn("HiGHS options without effect in shardlp were ignored: %s\n", o->highs_ignored);
    if (o->solution_style != 0 && o->sol_path && o->write_solution)
        slp_warn("write_solution_style %d: the solution is written in the raw style (0)\n",
                 o->solution_style);
}

/* Rank 0 checks the outputs, opens the CSV trace and the log file; every rank
 * configures checkpoints. */
static slp_err open_side_files(run_t *r)
{
    const slp_run_options_t *o = r->opt;
    int root = slp_comm_rank(slp_comm_world()) == 0;
    if (root)
        SLP_CALL(check_outputs(o, r->in->path));
    if (root && o->checkpoint_dir)
        SLP_CALL(slp_dir_lock(o->checkpoint_dir, "checkpoint directory", &r->checkpoint_lock));
    if (o->log_path && o->output_flag && root) {
        r->log_file = fopen(o->log_path, "w");
        if (!r->log_file)
            slp_warn("%s: cannot open the log file; logging to the console only\n", o->log_path);
        slp_log_set_file(r->log_file);
    }
    SLP_CALL(slp_checkpoint_configure(o->checkpoint_dir, o->checkpoint_every, o->resume_dir));
    if (o->trace_path && root) {
        r->inputs.trace = fopen(o->trace_path, "w");
        if (!r->inputs.trace)
            return slp_error(SLP_ERR_IO, "%s: cannot write the CSV trace", o->trace_path);
    }
    return SLP_OK;
}

static void close_side_files(run_t *r)
{
    if (r->inputs.trace)
        fclose(r->inputs.trace);
    r->inputs.trace = NULL;
    slp_checkpoint_reset();
    slp_dir_unlock(&r->checkpoint_lock);
    slp_log_set_file(NULL);
    if (r->log_file)
        fclose(r->log_file);
    r->log_file = NULL;
}

static slp_err load(run_t *r)
{
    double t0 = slp_wall_seconds();
    const char *path = r->in->path;
    r->info.model_path = path ? path : "(in memory)";
    slp_err rc;
    if (r->sharded)
        rc = slp_run_read_shards(path, &r->manifest, r->grid, &r->lp, &r->info);
    else
        rc = slp_run_distribute(&r->grid, path, r->in->model, r->opt, &r->lp, &r->info,
                                &r->start_x, &r->start_y);
    rc = slp_comm_agree(slp_comm_world(), rc);
    const double *x0 = r->in->x0 ? r->in->x0 : r->start_x;
    const double *y0 = r->in->x0 || r->in->y0 ? r->in->y0 : r->start_y;
    if (rc == SLP_OK)
        rc = slp_comm_agree(r->grid->world,
                            slp_run_scatter_start(r->grid, &r->lp, x0, y0, &r->x0s, &r->y0s));
    r->inputs.x0 = r->x0s;
    r->inputs.y0 = r->y0s;
    r->inputs.progress = r->in->progress;
    r->inputs.progress_user = r->in->progress_user;
    r->info.read_seconds = slp_wall_seconds() - t0;
    return rc;
}

static const char *backend_name(const slp_run_options_t *o)
{
    static char name[32]; /* the option's choice text (SLP_BACKEND_CHOICES) */
    if (slp_option_get(o, "backend", name, sizeof name) != SLP_OK)
        snprintf(name, sizeof name, "?");
    return name;
}

static slp_err create_backend(const run_t *r, slp_backend_t **be)
{
    if (r->opt->backend == SLP_BACKEND_CUDA)
        return slp_backend_cuda_create(-1, be);
    /* Under MPI several ranks usually share a node: one thread each unless asked. */
    int threads = r->set.threads;
    if (threads == 0 && r->grid->size > 1) {
        threads = 1;
        slp_log("Threads: 1 per rank (the default under MPI; --threads N sets more)\n");
    }
    if (r->opt->backend == SLP_BACKEND_GUARDED)
        return slp_backend_guarded_create(threads, be);
    return slp_backend_cpu_create(threads, be);
}

/* slp_original_source_t for shard input: this rank's block, read again. */
static slp_err reread_block(void *ctx, slp_local_problem_t *out)
{
    run_t *r = ctx;
    return slp_shard_read_local_from(r->in->path, &r->manifest, r->grid, out);
}

static slp_err solve(run_t *r, slp_run_output_t *out)
{
    SLP_CALL(slp_comm_agree(r->grid->world, create_backend(r, &r->be)));
    out->setup_seconds = slp_wall_seconds() - r->t_start;
    r->info.m = r->lp.m;
    r->info.n = r->lp.n;
    r->info.nnz = r->lp.nnz;
    r->info.local_nnz = r->lp.A.nnz;
    r->info.R = r->grid->R;
    r->info.C = r->grid->C;
    r->info.comm_mode = r->set.comm_support ? "support" : "dense";
    r->info.backend = backend_name(r->opt);
    /* From here the time limit holds even if a rank stops answering. */
    slp_watchdog_t *dog = NULL;
    SLP_CALL(slp_watchdog_start(r->set.time_limit, r->grid->rank, &dog));
    /* Shard input: the verdict rereads this rank's block instead of keeping a copy of
     * the original problem through the solve (docs/memory.md). */
    slp_original_source_t original = {r->sharded ? reread_block : NULL, r};
    slp_err rc = slp_solve_pipeline(r->grid, &r->lp, &r->set, &r->inputs, &original, r->be,
                                    &out->result, &r->info.presolve);
    slp_watchdog_stop(&dog);
    return slp_comm_agree(r->grid->world, rc);
}

/* After an agreed failure: the lowest rank whose message describes its own failure
 * (a message that only points at another rank's, slp_error_origin() >= 0, defers to it),
 * else the lowest rank with any message; its message is broadcast so that every
 * rank reports the same line. Collective. */
static int share_failure(slp_err rc)
{
    slp_comm_t *world = slp_comm_world();
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", slp_error_message());
    int rank = slp_comm_rank(world);
    double pick[2] = {msg[0] && slp_error_origin() < 0 ? (double)rank : 1e300,
                      msg[0] ? (double)rank : 1e300};
    if (slp_comm_min(world, pick, 2) != SLP_OK)
        return rank;
    double chosen = pick[0] < 1e300 ? pick[0] : pick[1];
    int root = chosen < 1e300 ? (int)chosen : 0;
    if (slp_comm_bcast(world, msg, sizeof msg, root) == SLP_OK) {
        slp_error_clear(); /* the first message wins: replace this rank's */
        slp_error(rc, "%s", msg);
    }
    return root;
}

static void fill_output(const run_t *r, slp_run_output_t *out)
{
    out->m = r->lp.m;
    out->n = r->lp.n;
    out->nnz = r->lp.nnz;
    out->col_lo = r->lp.col_lo;
    out->n_loc = r->lp.n_loc;
    out->row_lo = r->lp.row_lo;
    out->m_loc = r->lp.m_loc;
    out->R = r->grid ? r->grid->R : 0;
    out->C = r->grid ? r->grid->C : 0;
    out->presolve = r->info.presolve;
    out->warm_started = r->x0s || r->y0s;
}

/* Log level for the run (restored by the caller's slp_log_set_level). */
static void set_log_level(const slp_run_options_t *o)
{
    int v = o->output_flag && o->log_to_console ? o->verbosity : 0;
    slp_log_set_level(v <= 0 ? SLP_LOG_QUIET : v == 1 ? SLP_LOG_NORMAL : SLP_LOG_VERBOSE);
    slp_log_set_printing(slp_comm_rank(slp_comm_world()) == 0);
}

slp_err slp_run(const slp_run_options_t *opt, const slp_run_input_t *in,
                const slp_run_vectors_t *gather, slp_run_output_t *out)
{
    run_t r = {.opt = opt, .in = in, .set = opt->solver, .checkpoint_lock = -1,
               .t_start = slp_wall_seconds()};
    memset(out, 0, sizeof *out);
    slp_log_level old_level = slp_log_get_level();
    set_log_level(opt);
    r.set.log_every_check = opt->verbosity >= 2;
    r.set.tol = slp_run_tolerance(opt);
    slp_input_format format = SLP_INPUT_MPS;
    slp_err rc = slp_run_options_validate(opt);
    if (rc == SLP_OK && in->path)
        rc = slp_input_format_of(in->path, &format);
    r.sharded = in->path && format == SLP_INPUT_SHARDS;
    if (rc == SLP_OK)
        rc = r.sharded ? slp_run_shard_grid(in->path, opt, &r.manifest, &r.grid)
                       : slp_run_grid(opt, &r.grid);
    if (rc == SLP_OK && r.sharded && opt->start_path)
        rc = slp_error(SLP_ERR_UNSUPPORTED, "%s: start = FILE needs a model file; a shard "
                       "directory has no warm start from a text solution yet", in->path);
    if (rc == SLP_OK && r.sharded)
        rc = slp_run_check_memory(in->path, opt->mem_limit, &r.manifest, r.grid);
    if (rc == SLP_OK)
        rc = open_side_files(&r);
    rc = slp_comm_agree(slp_comm_world(), rc);
    if (rc == SLP_OK) {
        warn_highs_options(opt);
        int ranks = slp_comm_size(slp_comm_world());
        if (r.grid)
            slp_log("shardlp %s: %d rank%s, grid %dx%d, backend %s\n", SLP_VERSION, ranks,
                    ranks == 1 ? "" : "s", r.grid->R, r.grid->C, backend_name(opt));
        else
            slp_log("shardlp %s: %d rank%s, grid auto, backend %s\n", SLP_VERSION, ranks,
                    ranks == 1 ? "" : "s", backend_name(opt));
        if (r.set.tol != opt->solver.tol && !opt->solver.detailed)
            slp_log("Tolerance %g: a HiGHS-style run's default (HiGHS's feasibility "
                    "tolerance); --tol sets another\n", r.set.tol);
        rc = load(&r);
    }
    if (rc == SLP_OK)
        rc = solve(&r, out);
    if (rc == SLP_OK) {
        r.info.t_start = r.t_start;
        rc = slp_comm_agree(r.grid->world,
                            slp_write_outputs(r.grid, &r.lp, &out->result, &r.info,
                                              opt->write_solution ? opt->sol_path : NULL,
                                              opt->out_dir, opt->json_path));
    }
    if (rc == SLP_OK && gather)
        rc = slp_comm_agree(r.grid->world, slp_run_gather(r.grid, &r.lp, &out->result, gather));
    fill_output(&r, out);
    if (rc != SLP_OK) {
        /* where the failure travelled (SLP_CALL's file:line), in a verbose run's log only:
         * the error itself stays one line */
        if (slp_error_trace_text()[0])
            slp_log_verbose("error trace (rank %d): %s\n", slp_comm_rank(slp_comm_world()),
                            slp_error_trace_text());
        out->error_rank = share_failure(rc);
        if (r.log_file) /* a caller reading only the log (PuLP) sees why the run failed */
            fprintf(r.log_file, "ERROR: %s\n", slp_error_message());
    }
    out->total_seconds = slp_wall_seconds() - r.t_start;
    close_side_files(&r);
    free(r.x0s);
    free(r.start_x);
    free(r.start_y);
    free(r.y0s);
    if (r.be)
        r.be->destroy(r.be);
    slp_run_info_free(&r.info);
    slp_local_problem_free(&r.lp);
    slp_shard_manifest_free(&r.manifest);
    slp_grid_destroy(&r.grid);
    slp_log_set_level(old_level);
    return rc;
}

void slp_run_output_free(slp_run_output_t *out) { slp_result_free(&out->result); }
