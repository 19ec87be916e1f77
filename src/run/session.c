/* A solver session (run/session.h, docs/session.md): set up once, solve many times.
 * Each step is collective and agreed: every rank returns the same code. */
#include "run/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/log.h"
#include "core/timer.h"
#include "grid/fingerprint.h"
#include "io/input_format.h"
#include "io/out_file.h"
#include "run/run_input.h"
#include "run/run_output.h"
#include "run/run_vectors.h"
#include "run/session_internal.h"
#include "run/watchdog.h"
#include "shard/shard.h"
#include "solver/checkpoint.h"
#include "verdict/fixing.h"
#include "verdict/pipeline.h"

/* ---- contents ---------------------------------------------------------------
 * enter / leave      the session's log level and log file, for one call
 * open_side_files    output checks, checkpoint lock, log file, CSV trace
 * load               read or distribute the problem, scatter the given start
 * create_backend     the backend with its threads
 * share_failure      one message for every rank after an agreed failure
 * slp_session_report_failure  ... and in the log
 * slp_session_open   the set-up in order
 * slp_session_solve  one solve: copy, pipeline, outputs, the next start
 * ------------------------------------------------------------------------------ */

/* The session's log settings for one call; leave() puts the process's back. */
static void enter(slp_session_t *s)
{
    const slp_run_options_t *o = &s->opt;
    s->saved_level = slp_log_get_level();
    int v = o->output_flag && o->log_to_console ? o->verbosity : 0;
    slp_log_set_level(v <= 0 ? SLP_LOG_QUIET : v == 1 ? SLP_LOG_NORMAL : SLP_LOG_VERBOSE);
    slp_log_set_printing(slp_comm_rank(slp_comm_world()) == 0);
    slp_log_set_file(s->log_file);
}

static void leave(slp_session_t *s)
{
    slp_log_set_file(NULL);
    slp_log_set_level(s->saved_level);
}

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

/* Rank 0 checks the outputs, locks the checkpoint directory, opens the log file and the
 * CSV trace; they stay open for the session. */
static slp_err open_side_files(slp_session_t *s)
{
    const slp_run_options_t *o = &s->opt;
    if (slp_comm_rank(slp_comm_world()) != 0)
        return SLP_OK;
    SLP_CALL(check_outputs(o, s->path));
    if (o->checkpoint_dir)
        SLP_CALL(slp_dir_lock(o->checkpoint_dir, "checkpoint directory", &s->checkpoint_lock));
    if (o->log_path && o->output_flag) {
        s->log_file = fopen(o->log_path, "w");
        if (!s->log_file)
            slp_warn("%s: cannot open the log file; logging to the console only\n", o->log_path);
        slp_log_set_file(s->log_file);
    }
    if (o->trace_path) {
        s->trace = fopen(o->trace_path, "w");
        if (!s->trace)
            return slp_error(SLP_ERR_IO, "%s: cannot write the CSV trace", o->trace_path);
    }
    return SLP_OK;
}

static slp_err load(slp_session_t *s, const slp_run_input_t *in)
{
    double t0 = slp_wall_seconds();
    s->info.model_path = s->path ? s->path : "(in memory)";
    double *start_x = NULL, *start_y = NULL; /* rank 0: the whole start read from --start */
    slp_err rc;
    if (s->sharded)
        rc = slp_run_read_shards(s->path, &s->manifest, s->grid, &s->lp, &s->info);
    else
        rc = slp_run_distribute(&s->grid, s->path, in->model, &s->opt, &s->lp, &s->info,
                                &start_x, &start_y);
    rc = slp_comm_agree(slp_comm_world(), rc);
    if (rc == SLP_OK && s->opt.verbosity >= 2) {
        uint64_t fp = 0;
        rc = slp_model_fingerprint(s->grid, &s->lp, &fp);
        slp_log("Model fingerprint: %016llx\n", (unsigned long long)fp);
    }
    const double *x0 = in->x0 ? in->x0 : start_x;
    const double *y0 = in->x0 || in->y0 ? in->y0 : start_y;
    if (rc == SLP_OK)
        rc = slp_comm_agree(s->grid->world, slp_run_scatter_start(s->grid, &s->lp, x0, y0,
                                                                  &s->start_x, &s->start_y));
    free(start_x);
    free(start_y);
    s->info.read_seconds = slp_wall_seconds() - t0;
    s->info.read_peak_rss = slp_peak_rss_bytes();
    return rc;
}

static const char *backend_name(const slp_run_options_t *o, char *name, size_t size)
{
    if (slp_option_get(o, "backend", name, size) != SLP_OK)
        snprintf(name, size, "?");
    return name;
}

static slp_err create_backend(slp_session_t *s)
{
    if (s->opt.backend == SLP_BACKEND_CUDA)
        return slp_backend_cuda_create(-1, &s->be);
    /* Under MPI several ranks usually share a node: one thread each unless asked. */
    int threads = s->set.threads;
    if (threads == 0 && s->grid->size > 1) {
        threads = 1;
        slp_log("Threads: 1 per rank (the default under MPI; --threads N sets more)\n");
    }
    if (s->opt.backend == SLP_BACKEND_GUARDED)
        return slp_backend_guarded_create(threads, &s->be);
    return slp_backend_cpu_create(threads, &s->be);
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

/* The failure's trace in a verbose log, one message on every rank, and the message in
 * the log file (a caller reading only the log, PuLP, sees why the run failed). */
int slp_session_report_failure(slp_session_t *s, slp_err rc)
{
    if (slp_error_trace_text()[0])
        slp_log_verbose("error trace (rank %d): %s\n", slp_comm_rank(slp_comm_world()),
                        slp_error_trace_text());
    int root = share_failure(rc);
    if (s->log_file)
        fprintf(s->log_file, "ERROR: %s\n", slp_error_message());
    return root;
}

static void log_header(const slp_session_t *s)
{
    char name[32];
    const char *backend = backend_name(&s->opt, name, sizeof name);
    int ranks = slp_comm_size(slp_comm_world());
    if (s->grid)
        slp_log("shardlp %s: %d rank%s, grid %dx%d, backend %s\n", SLP_VERSION, ranks,
                ranks == 1 ? "" : "s", s->grid->R, s->grid->C, backend);
    else
        slp_log("shardlp %s: %d rank%s, grid auto, backend %s\n", SLP_VERSION, ranks,
                ranks == 1 ? "" : "s", backend);
    if (s->set.tol != s->opt.solver.tol && !s->opt.solver.detailed)
        slp_log("Tolerance %g: a HiGHS-style run's default (HiGHS's feasibility "
                "tolerance); --tol sets another\n", s->set.tol);
}

/* Options, grid and side files: everything before the problem is read. */
static slp_err prepare(slp_session_t *s, const slp_run_options_t *opt, const slp_run_input_t *in)
{
    if (in->path && !(s->path = strdup(in->path)))
        return slp_error(SLP_ERR_NOMEM, "out of memory");
    s->progress = in->progress;
    s->progress_user = in->progress_user;
    s->set = opt->solver;
    s->set.log_every_check = opt->verbosity >= 2;
    s->set.tol = slp_run_tolerance(opt);
    SLP_CALL(slp_run_options_validate(opt));
    slp_input_format format = SLP_INPUT_MPS;
    if (in->path)
        SLP_CALL(slp_input_format_of(in->path, &format));
    s->sharded = in->path && format == SLP_INPUT_SHARDS;
    if (s->sharded)
        SLP_CALL(slp_run_shard_grid(in->path, opt, &s->manifest, &s->grid));
    else
        SLP_CALL(slp_run_grid(opt, &s->grid));
    if (s->sharded && opt->start_path)
        return slp_error(SLP_ERR_UNSUPPORTED, "%s: start = FILE needs a model file; a shard "
                         "directory has no warm start from a text solution yet", in->path);
    if (s->sharded)
        SLP_CALL(slp_run_check_memory(in->path, opt->mem_limit, &s->manifest, s->grid,
                                      slp_fixing_enabled(&s->set), &s->set.block_copies));
    return open_side_files(s);
}

static void describe(slp_session_t *s)
{
    s->info.m = s->lp.m;
    s->info.n = s->lp.n;
    s->info.nnz = s->lp.nnz;
    s->info.local_nnz = s->lp.A.nnz;
    s->info.column_fixing = slp_fixing_enabled(&s->set);
    s->info.block_copies = s->set.block_copies;
    s->info.R = s->grid->R;
    s->info.C = s->grid->C;
    s->info.comm_mode = s->set.comm_support ? "support" : "dense";
    s->info.backend = backend_name(&s->opt, s->backend, sizeof s->backend);
}

slp_err slp_session_open(const slp_run_options_t *opt, const slp_run_input_t *in, int keep,
                         slp_session_t **out, int *error_rank)
{
    *out = NULL;
    *error_rank = 0;
    double t0 = slp_wall_seconds();
    slp_session_t *s = slp_calloc(1, sizeof *s);
    slp_err rc = slp_comm_agree(slp_comm_world(), s ? SLP_OK : SLP_ERR_NOMEM);
    if (rc != SLP_OK) {
        free(s);
        *error_rank = share_failure(rc);
        return rc;
    }
    s->keep = keep;
    s->checkpoint_lock = -1;
    s->t_open = t0;
    rc = slp_run_options_copy(opt, &s->opt);
    if (rc != SLP_OK) /* the defaults, for the log level and for freeing */
        slp_run_options_default(&s->opt);
    enter(s);
    if (rc == SLP_OK)
        rc = prepare(s, opt, in);
    rc = slp_comm_agree(slp_comm_world(), rc);
    if (rc == SLP_OK) {
        warn_highs_options(&s->opt);
        log_header(s);
        rc = load(s, in);
    }
    if (rc == SLP_OK)
        rc = slp_comm_agree(s->grid->world, create_backend(s));
    if (rc == SLP_OK)
        describe(s);
    s->setup_seconds = slp_wall_seconds() - t0;
    if (rc != SLP_OK) {
        *error_rank = slp_session_report_failure(s, rc);
        leave(s);
        slp_session_close(&s);
        return rc;
    }
    leave(s);
    *out = s;
    return SLP_OK;
}

/* shard input solved once: the verdict reads this rank's block again instead of keeping
 * a copy of the original through the solve (docs/memory.md). */
static slp_err reread_block(void *ctx, slp_local_problem_t *out)
{
    slp_session_t *s = ctx;
    return slp_shard_read_local_from(s->path, &s->manifest, s->grid, out);
}

/* The pipeline on `work` (the session's problem itself, or a copy of it when kept),
 * under the watchdog. */
static slp_err run_pipeline(slp_session_t *s, slp_local_problem_t *work, const double *x0,
                            const double *y0, slp_result_t *result)
{
    slp_solve_inputs_t inputs = {.x0 = x0, .y0 = y0, .trace = s->trace,
                                 .progress = s->progress, .progress_user = s->progress_user,
                                 .step_memo = s->keep ? &s->step_memo : NULL};
    slp_original_source_t original = {NULL, s, NULL};
    if (s->keep)
        original.kept = &s->lp;
    else if (s->sharded)
        original.reload = reread_block;
    /* the resume directory is for the session's first solve */
    SLP_CALL(slp_checkpoint_configure(s->opt.checkpoint_dir, s->opt.checkpoint_every,
                                      s->solves == 0 ? s->opt.resume_dir : NULL));
    /* From here the time limit holds even if a rank stops answering. */
    slp_watchdog_t *dog = NULL;
    slp_err rc = slp_watchdog_start(s->set.time_limit, s->grid->rank, &dog);
    if (rc == SLP_OK)
        rc = slp_solve_pipeline(s->grid, work, &s->set, &inputs, &original, s->be, result,
                                &s->info.presolve);
    slp_watchdog_stop(&dog);
    slp_checkpoint_reset();
    return slp_comm_agree(s->grid->world, rc);
}

/* The next warm start: this solve's x and y slices (kept sessions). */
static slp_err keep_point(slp_session_t *s, const slp_result_t *res)
{
    const slp_local_problem_t *lp = &s->lp;
    if (!s->start_x)
        SLP_CALL(slp_alloc(&s->start_x, (size_t)(lp->n_loc > 0 ? lp->n_loc : 1),
                           sizeof *s->start_x));
    if (!s->start_y)
        SLP_CALL(slp_alloc(&s->start_y, (size_t)(lp->m_loc > 0 ? lp->m_loc : 1),
                           sizeof *s->start_y));
    memcpy(s->start_x, res->x, (size_t)lp->n_loc * sizeof *s->start_x);
    memcpy(s->start_y, res->y, (size_t)lp->m_loc * sizeof *s->start_y);
    return SLP_OK;
}

static void fill_output(const slp_session_t *s, const slp_local_problem_t *lp, int warm,
                        slp_run_output_t *out)
{
    out->m = lp->m;
    out->n = lp->n;
    out->nnz = lp->nnz;
    out->col_lo = lp->col_lo;
    out->n_loc = lp->n_loc;
    out->row_lo = lp->row_lo;
    out->m_loc = lp->m_loc;
    out->R = s->grid->R;
    out->C = s->grid->C;
    out->presolve = s->info.presolve;
    out->warm_started = warm && (s->start_x || s->start_y);
}

slp_err slp_session_solve(slp_session_t *s, int warm, const slp_run_vectors_t *gather,
                          slp_run_output_t *out)
{
    double t0 = slp_wall_seconds();
    memset(out, 0, sizeof *out);
    enter(s);
    slp_err rc = SLP_OK;
    if (!s->keep && s->solves > 0)
        rc = slp_error(SLP_ERR_INTERNAL, "a session opened for one solve was solved again");
    if (s->keep && s->solves > 0)
        slp_log("Session: solve %d, %s\n", s->solves + 1,
                warm && s->start_x ? "warm from the last solve's point" : "cold");
    /* a kept problem is solved on a copy: the pipeline reduces and scales its problem */
    slp_local_problem_t copy;
    memset(&copy, 0, sizeof copy);
    if (rc == SLP_OK && s->keep)
        rc = slp_local_problem_copy(&s->lp, &copy);
    slp_local_problem_t *work = s->keep ? &copy : &s->lp;
    rc = slp_comm_agree(s->grid->world, rc);
    if (rc == SLP_OK)
        rc = run_pipeline(s, work, warm ? s->start_x : NULL, warm ? s->start_y : NULL,
                          &out->result);
    /* outputs are laid out as the problem was distributed; a copy's cuts are the same */
    const slp_local_problem_t *layout = s->keep ? &s->lp : work;
    if (rc == SLP_OK) {
        s->info.t_start = s->solves == 0 ? s->t_open : t0;
        rc = slp_comm_agree(s->grid->world,
                            slp_write_outputs(s->grid, layout, &out->result, &s->info,
                                              s->opt.write_solution ? s->opt.sol_path : NULL,
                                              s->opt.out_dir, s->opt.json_path));
    }
    if (rc == SLP_OK && gather)
        rc = slp_comm_agree(s->grid->world,
                            slp_run_gather(s->grid, layout, &out->result, gather));
    fill_output(s, layout, warm, out);
    if (rc == SLP_OK && s->keep)
        rc = slp_comm_agree(s->grid->world, keep_point(s, &out->result));
    if (rc != SLP_OK)
        out->error_rank = slp_session_report_failure(s, rc);
    slp_local_problem_free(&copy);
    out->setup_seconds = s->solves == 0 ? s->setup_seconds : 0.0;
    out->total_seconds = slp_wall_seconds() - t0;
    s->solves++;
    leave(s);
    return rc;
}

void slp_session_size(const slp_session_t *s, int64_t *m, int64_t *n)
{
    *m = s->lp.m;
    *n = s->lp.n;
}

void slp_session_close(slp_session_t **sp)
{
    slp_session_t *s = sp ? *sp : NULL;
    if (!s)
        return;
    enter(s); /* the backend's summary (threads) goes to the session's log */
    if (s->be)
        s->be->destroy(s->be);
    leave(s);
    if (s->trace)
        fclose(s->trace);
    slp_dir_unlock(&s->checkpoint_lock);
    if (s->log_file)
        fclose(s->log_file);
    free(s->start_x);
    free(s->start_y);
    slp_run_info_free(&s->info);
    slp_local_problem_free(&s->lp);
    slp_shard_manifest_free(&s->manifest);
    slp_grid_destroy(&s->grid);
    slp_run_options_free(&s->opt);
    free(s->path);
    free(s);
    *sp = NULL;
}
