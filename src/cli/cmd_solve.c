/* shardlp solve: read (MPS on rank 0, or shards on every rank), distribute,
 * solve on the grid, report and write the outputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/backend.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/solve_output.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/timer.h"
#include "grid/distribute.h"
#include "io/mps.h"
#include "presolve/pipeline.h"
#include "shard/shard.h"
#include "solver/checkpoint.h"
#include "solver/solver.h"

static void print_usage(void)
{
    printf(
        "usage: shardlp solve MODEL [options]      (MODEL: file.mps, file.mps.gz, shard directory)\n"
        "\n"
        "termination:\n"
        "  --tol EPS            relative tolerance for primal, dual and gap (default 1e-4)\n"
        "  --eps-abs A --eps-rel R --gap-rel G\n"
        "                       OR-Tools form: ||rp|| <= A + R ||b||, ||rd|| <= A + R ||c||,\n"
        "                       |p - d| <= A + G (|p| + |d|)\n"
        "  --norm l2|linf       norm of the residuals (default l2)\n"
        "  --time-limit SEC     wall-clock limit for the main loop (default 3600)\n"
        "  --iter-limit N       iteration limit (checked every 200 iterations)\n"
        "  --eps-infeas E       tolerance of the infeasibility certificates (default 1e-10)\n"
        "distribution:\n"
        "  --grid RxC           process grid for MPS input (default: from the number of ranks)\n"
        "  --comm dense|support communication plan (default dense)\n"
        "  --backend cpu|cuda   --threads N (CPU threads per rank)\n"
        "method:\n"
        "  --polish / --no-polish      feasibility polishing (default off)\n"
        "  --presolve / --no-presolve  distributed presolve (default on)\n"
        "  --relax              solve the LP relaxation of a model with integer columns\n"
        "                       (HiGHS: solve_relaxation=true); without it such a model is refused\n"
        "output:\n"
        "  --sol FILE           text solution (HiGHS raw style)\n"
        "  --out DIR            sharded solution\n"
        "  --json FILE          run summary\n"
        "  --log-csv FILE       one CSV row per check (iteration, time, objectives, residuals)\n"
        "  --quiet / --verbose\n"
        "reliability:\n"
        "  --checkpoint DIR     save the solver state to DIR (atomically, every rank)\n"
        "  --checkpoint-every S seconds between checkpoints (default 300)\n"
        "  --resume DIR         continue from the checkpoint in DIR (same model, grid, options)\n"
        "  --mem-limit BYTES    per-rank memory for the up-front size check of shard input\n"
        "                       (default: the node's available memory / ranks on the node)\n"
        "  SIGINT/SIGTERM stop at the next check with status 'interrupted' and write outputs\n"
        "HiGHS spellings: --model_file F, --time_limit S, --solution_file F, --options_file F,\n"
        "                 --version\n");
}

typedef struct {
    const char *model_path;
    const char *grid_text;
    const char *sol_path;
    const char *out_dir;
    const char *json_path;
    const char *trace_path; /* --log-csv: one CSV row per check (rank 0) */
    const char *backend;
    const char *comm_mode;
    const char *log_path; /* HiGHS log_file: the log is also written there (rank 0) */
    const char *checkpoint_dir; /* --checkpoint (NULL: off) */
    const char *resume_dir;     /* --resume (NULL: off) */
    double checkpoint_every;    /* --checkpoint-every seconds */
    double mem_limit;           /* --mem-limit bytes (0: from the system) */
    int relax;                  /* --relax: integer columns solved as continuous */
    int help;
    slp_settings_t set;
    char *owned[16]; /* strings copied from an options file */
    int n_owned;
} solve_options_t;

static void free_options(solve_options_t *o)
{
    for (int k = 0; k < o->n_owned; k++)
        free(o->owned[k]);
    o->n_owned = 0;
}

static slp_err read_highs_options(const char *path, solve_options_t *o);

/* HiGHS booleans: true/false, on/off, 1/0. */
static slp_err parse_bool(const char *name, const char *value, int *out)
{
    if (!strcmp(value, "true") || !strcmp(value, "on") || !strcmp(value, "1"))
        *out = 1;
    else if (!strcmp(value, "false") || !strcmp(value, "off") || !strcmp(value, "0"))
        *out = 0;
    else
        return slp_error(SLP_ERR_INPUT, "option %s: '%s' is not true or false", name, value);
    return SLP_OK;
}

/* Apply one `name value` setting (command line or HiGHS options file). */
static slp_err apply_option(solve_options_t *o, const char *name, const char *value)
{
    slp_settings_t *s = &o->set;
    int64_t iv = 0;
    if (!strcmp(name, "--tol")) {
        SLP_CALL(slp_parse_double(name, value, 1e-300, 1.0, &s->tol));
    } else if (!strcmp(name, "--eps-abs")) {
        SLP_CALL(slp_parse_double(name, value, 0.0, 1e300, &s->eps_abs));
        s->detailed = 1;
    } else if (!strcmp(name, "--eps-rel")) {
        SLP_CALL(slp_parse_double(name, value, 0.0, 1.0, &s->eps_rel));
        s->detailed = 1;
    } else if (!strcmp(name, "--gap-rel")) {
        SLP_CALL(slp_parse_double(name, value, 0.0, 1.0, &s->gap_rel));
        s->detailed = 1;
    } else if (!strcmp(name, "--norm")) {
        if (!strcmp(value, "l2"))
            s->norm = SLP_NORM_L2;
        else if (!strcmp(value, "linf"))
            s->norm = SLP_NORM_LINF;
        else
            return slp_error(SLP_ERR_INPUT, "option --norm: '%s' is not l2 or linf", value);
    } else if (!strcmp(name, "--time-limit") || !strcmp(name, "--time_limit") ||
               !strcmp(name, "time_limit")) {
        SLP_CALL(slp_parse_double(name, value, 0.0, 1e300, &s->time_limit));
    } else if (!strcmp(name, "--iter-limit")) {
        SLP_CALL(slp_parse_int64(name, value, 1, INT64_MAX, &s->iter_limit));
    } else if (!strcmp(name, "--eval-freq")) {
        SLP_CALL(slp_parse_int64(name, value, 3, 1000000, &iv));
        s->eval_freq = (int)iv;
    } else if (!strcmp(name, "--threads") || !strcmp(name, "threads")) {
        SLP_CALL(slp_parse_int64(name, value, 0, 4096, &iv));
        s->threads = (int)iv;
    } else if (!strcmp(name, "--grid")) {
        o->grid_text = value;
    } else if (!strcmp(name, "--comm")) {
        if (strcmp(value, "dense") && strcmp(value, "support"))
            return slp_error(SLP_ERR_INPUT, "option --comm: '%s' is not dense or support", value);
        o->comm_mode = value;
        s->comm_support = !strcmp(value, "support");
    } else if (!strcmp(name, "--backend")) {
        if (strcmp(value, "cpu") && strcmp(value, "cuda"))
            return slp_error(SLP_ERR_INPUT, "option --backend: '%s' is not cpu or cuda", value);
        o->backend = value;
    } else if (!strcmp(name, "--sol") || !strcmp(name, "--solution_file") ||
               !strcmp(name, "solution_file")) {
        o->sol_path = value;
    } else if (!strcmp(name, "--out")) {
        o->out_dir = value;
    } else if (!strcmp(name, "--log-csv")) {
        o->trace_path = value;
    } else if (!strcmp(name, "--eps-infeas")) {
        SLP_CALL(slp_parse_double(name, value, 0.0, 1.0, &s->eps_infeas));
    } else if (!strcmp(name, "--json")) {
        o->json_path = value;
    } else if (!strcmp(name, "--log_file") || !strcmp(name, "log_file")) {
        o->log_path = value;
    } else if (!strcmp(name, "--presolve")) { /* HiGHS: --presolve on|off|choose */
        if (strcmp(value, "on") && strcmp(value, "off") && strcmp(value, "choose"))
            return slp_error(SLP_ERR_INPUT, "option --presolve: '%s' is not on, off or choose",
                             value);
        s->presolve = strcmp(value, "off") != 0;
    } else if (!strcmp(name, "--solver") || !strcmp(name, "--parallel") ||
               !strcmp(name, "--run_crossover") || !strcmp(name, "--ranging") ||
               !strcmp(name, "--random_seed") || !strcmp(name, "--read_solution_file") ||
               !strcmp(name, "--read_basis_file") || !strcmp(name, "--write_basis_file")) {
        /* HiGHS command-line options a modelling tool may pass (PuLP: --solver=simplex
         * when mip=False, --parallel=on with threads): accepted, no effect here. */
        slp_warn("option %s=%s is a HiGHS option that shardlp ignores\n", name, value);
    } else if (!strcmp(name, "--checkpoint")) {
        o->checkpoint_dir = value;
    } else if (!strcmp(name, "--checkpoint-every")) {
        SLP_CALL(slp_parse_double(name, value, 0.0, 1e300, &o->checkpoint_every));
    } else if (!strcmp(name, "--resume")) {
        o->resume_dir = value;
    } else if (!strcmp(name, "--mem-limit")) {
        SLP_CALL(slp_parse_double(name, value, 1.0, 1e300, &o->mem_limit));
    } else if (!strcmp(name, "--solve_relaxation") || !strcmp(name, "solve_relaxation")) {
        SLP_CALL(parse_bool(name, value, &o->relax));
    } else if (!strcmp(name, "--model_file")) {
        o->model_path = value;
    } else if (!strcmp(name, "--options_file")) {
        SLP_CALL(read_highs_options(value, o));
    } else {
        return slp_error(SLP_ERR_INPUT, "unknown option %s (see shardlp solve --help)", name);
    }
    return SLP_OK;
}

static slp_err parse_flag(solve_options_t *o, const char *arg, int *handled)
{
    *handled = 1;
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h"))
        o->help = 1;
    else if (!strcmp(arg, "--quiet"))
        slp_log_set_level(SLP_LOG_QUIET);
    else if (!strcmp(arg, "--verbose")) {
        slp_log_set_level(SLP_LOG_VERBOSE);
        o->set.log_every_check = 1;
    } else if (!strcmp(arg, "--polish"))
        o->set.polish = 1;
    else if (!strcmp(arg, "--no-polish"))
        o->set.polish = 0;
    else if (!strcmp(arg, "--presolve"))
        o->set.presolve = 1;
    else if (!strcmp(arg, "--no-presolve"))
        o->set.presolve = 0;
    else if (!strcmp(arg, "--relax"))
        o->relax = 1;
    else
        *handled = 0;
    return SLP_OK;
}

static slp_err parse_options(int argc, char **argv, solve_options_t *o)
{
    memset(o, 0, sizeof *o);
    slp_settings_default(&o->set);
    o->backend = "cpu";
    o->comm_mode = "dense";
    o->checkpoint_every = 300.0;
    for (int k = 1; k < argc; k++) {
        const char *arg = argv[k];
        int handled = 0;
        SLP_CALL(parse_flag(o, arg, &handled));
        if (handled)
            continue;
        if (arg[0] == '-' && arg[1] == '-') {
            const char *eq = strchr(arg, '=');
            if (eq) { /* --name=value */
                char name[128];
                size_t len = (size_t)(eq - arg);
                if (len >= sizeof name)
                    return slp_error(SLP_ERR_INPUT, "unknown option %s", arg);
                memcpy(name, arg, len);
                name[len] = '\0';
                SLP_CALL(apply_option(o, name, eq + 1));
            } else {
                const char *value = NULL;
                SLP_CALL(slp_option_value(argc, argv, &k, &value));
                SLP_CALL(apply_option(o, arg, value));
            }
        } else if (!o->model_path) {
            o->model_path = arg;
        } else {
            return slp_error(SLP_ERR_INPUT, "unexpected argument '%s' (one model per run)", arg);
        }
    }
    if (!o->help && !o->model_path)
        return slp_error(SLP_ERR_INPUT, "no model given (usage: shardlp solve MODEL [options])");
    if ((o->checkpoint_dir || o->resume_dir) && o->set.polish)
        return slp_error(SLP_ERR_INPUT, "--checkpoint / --resume do not support --polish yet");
    return SLP_OK;
}

/* HiGHS options file: lines `name = value`; '#' starts a comment. Options this
 * solver has no use for are accepted with a warning so HiGHS callers work. */
static slp_err read_highs_options(const char *path, solve_options_t *o)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return slp_error(SLP_ERR_IO, "%s: cannot open options file", path);
    char line[4096];
    int lineno = 0;
    slp_err rc = SLP_OK;
    while (rc == SLP_OK && fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char name[256], value[2048];
        if (sscanf(line, " %255[^= \t] = %2047s", name, value) != 2) {
            char rest[8];
            if (sscanf(line, " %7s", rest) == 1)
                rc = slp_error(SLP_ERR_INPUT, "%s:%d: expected 'name = value'", path, lineno);
            continue;
        }
        if (!strcmp(name, "time_limit") || !strcmp(name, "threads") || !strcmp(name, "solution_file") ||
            !strcmp(name, "log_file") || !strcmp(name, "solve_relaxation")) {
            /* the value outlives this buffer (file names are kept as pointers) */
            char *copy = o->n_owned < 16 ? slp_strdup(value) : NULL;
            if (!copy) {
                rc = slp_error(SLP_ERR_INPUT, "%s:%d: too many options", path, lineno);
                continue;
            }
            o->owned[o->n_owned++] = copy;
            rc = apply_option(o, name, copy);
        }
        else if (!strcmp(name, "primal_feasibility_tolerance") || !strcmp(name, "dual_feasibility_tolerance") ||
                 !strcmp(name, "pdlp_d_gap_tol") || !strcmp(name, "kkt_tolerance"))
            rc = slp_parse_double(name, value, 1e-300, 1.0, &o->set.tol);
        else if (!strcmp(name, "log_to_console") && (!strcmp(value, "false") || !strcmp(value, "0")))
            slp_log_set_level(SLP_LOG_QUIET);
        else if (!strcmp(name, "write_solution_to_file") || !strcmp(name, "write_solution_style"))
            ; /* the text solution is always HiGHS's raw style, written when a file is named */
        else
            slp_warn("%s:%d: option '%s' is not used by shardlp\n", path, lineno, name);
    }
    fclose(f);
    return rc;
}

/* ------------------------------------------------------------------ run */

/* After a collectively agreed failure: one rank prints, so the user sees one line:
 * the lowest rank whose message describes its own failure (messages that only say
 * "failed on rank k (see its message)" defer to that rank), else the lowest rank
 * with any message. Collective. */
static int report_failure(slp_comm_t *world, slp_err rc)
{
    const char *msg = slp_error_message();
    int rank = slp_comm_rank(world);
    double pick[2] = {msg[0] && !strstr(msg, "(see its message)") ? (double)rank : 1e300,
                      msg[0] ? (double)rank : 1e300};
    slp_comm_min(world, pick, 2);
    double chosen = pick[0] < 1e300 ? pick[0] : pick[1];
    if (chosen == (double)rank)
        slp_cli_error("%s", msg);
    return rc == SLP_ERR_INPUT || rc == SLP_ERR_IO ? 1 : 2;
}

static int is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Choose the grid: --grid, else a default factorisation of the world size. */
static slp_err make_grid(const solve_options_t *o, slp_grid_t **grid)
{
    int P = slp_comm_size(slp_comm_world()), R = 1, C = 1;
    if (o->grid_text) {
        SLP_CALL(slp_grid_parse(o->grid_text, &R, &C));
        if ((long)R * C != P)
            return slp_error(SLP_ERR_INPUT, "--grid %dx%d needs %ld ranks but the job has %d "
                             "(run with mpirun -np %ld)", R, C, (long)R * C, P, (long)R * C);
    } else {
        slp_grid_default_shape(P, &R, &C);
    }
    return slp_grid_create(R, C, grid);
}

/* Shard input: the grid is the manifest's; the world size must match (checked
 * collectively by the reader, same message on every rank). */
static slp_err make_shard_grid(const solve_options_t *o, slp_shard_manifest_t *man,
                               slp_grid_t **grid)
{
    SLP_CALL(slp_shard_read_manifest_all(o->model_path, man));
    if (o->grid_text) {
        int R = 0, C = 0;
        SLP_CALL(slp_grid_parse(o->grid_text, &R, &C));
        if (R != man->R || C != man->C)
            return slp_error(SLP_ERR_INPUT, "%s: the shards are cut for a %dx%d grid, not --grid %s",
                             o->model_path, man->R, man->C, o->grid_text);
    }
    return slp_grid_create(man->R, man->C, grid);
}

/* Bytes of memory available to new allocations on this node: MemAvailable from
 * /proc/meminfo (free memory plus reclaimable cache), else the physical memory; 0 when
 * unknown. */
static double available_memory(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[256];
        double kb = 0.0;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1)
                break;
        fclose(f);
        if (kb > 0.0)
            return kb * 1024.0;
    }
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (double)pages * (double)page : 0.0;
}

/* Input limits: refuse, before reading, a block that would not fit this rank's memory.
 * The estimate follows slp_shard_rank_bytes: the block is held twice (A_rc and its
 * transpose) and the solver keeps about 20 column-slice and 18 row-slice vectors.
 * The limit is --mem-limit, or the node's available memory divided by the ranks on the
 * node (OMPI_COMM_WORLD_LOCAL_SIZE / SLURM_NTASKS_PER_NODE when set). Collective. */
static slp_err check_memory(const solve_options_t *o, const slp_shard_manifest_t *man,
                            const slp_grid_t *grid)
{
    int64_t matrix = 0, vectors = 0;
    slp_shard_rank_bytes(man, grid->r, grid->c, &matrix, &vectors);
    int64_t n_loc = man->col_off[grid->c + 1] - man->col_off[grid->c];
    int64_t m_loc = man->row_off[grid->r + 1] - man->row_off[grid->r];
    double need = 2.0 * (double)matrix + 8.0 * (20.0 * (double)n_loc + 18.0 * (double)m_loc);
    double limit = o->mem_limit;
    const char *source = "--mem-limit";
    if (limit <= 0.0) {
        limit = available_memory();
        if (limit <= 0.0)
            return SLP_OK; /* unknown: no check */
        const char *local = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
        if (!local)
            local = getenv("SLURM_NTASKS_PER_NODE");
        double per_node = local ? atof(local) : 1.0;
        limit /= per_node >= 1.0 ? per_node : 1.0;
        source = "available memory";
    }
    slp_err rc = SLP_OK;
    if (need > limit)
        rc = slp_error(SLP_ERR_INPUT,
                       "%s: block (%d, %d) needs about %.3g GB on rank %d (matrix %.3g GB, "
                       "vectors %.3g GB) but the limit is %.3g GB (%s); cut the model for more "
                       "ranks (shardlp shard --grid) or raise --mem-limit",
                       o->model_path, grid->r, grid->c, need / 1e9, grid->rank,
                       2.0 * (double)matrix / 1e9, (need - 2.0 * (double)matrix) / 1e9,
                       limit / 1e9, source);
    return slp_comm_agree(grid->world, rc);
}

/* Rank 0 reads and validates the MPS model. */
static slp_err read_model_root(const solve_options_t *o, slp_grid_t *grid, slp_model_t **model)
{
    *model = NULL;
    if (grid->rank != 0)
        return SLP_OK;
    SLP_CALL(slp_mps_read(o->model_path, model));
    slp_err rc = slp_model_validate(*model, o->model_path);
    if (rc == SLP_OK)
        rc = slp_integer_rule(slp_model_integer_columns(*model), o->model_path, o->relax);
    if (rc != SLP_OK)
        slp_model_destroy(model);
    return rc;
}

static slp_err load_local_problem(const solve_options_t *o, slp_grid_t *grid,
                                  slp_local_problem_t *lp, slp_run_info_t *info)
{
    slp_model_t *model = NULL;
    slp_err rc = read_model_root(o, grid, &model);
    rc = slp_comm_agree(grid->world, rc);
    if (rc != SLP_OK)
        return rc;
    if (grid->rank == 0) {
        info->model_name = slp_strdup(model->name);
        if (o->sol_path) { /* keep the names for the text solution (rank 0 had the model anyway) */
            info->row_names = model->row_names;
            info->col_names = model->col_names;
            model->row_names = NULL;
            model->col_names = NULL;
        }
        slp_log("Model %s: %lld rows, %lld columns, %lld nonzeros (%s)\n",
                model->name[0] ? model->name : "(unnamed)", (long long)model->m,
                (long long)model->n, (long long)model->nnz,
                model->sense < 0 ? "maximize" : "minimize");
    }
    rc = slp_distribute_model(grid, model, lp);
    slp_model_destroy(&model);
    return rc;
}

static slp_err create_backend(const solve_options_t *o, slp_backend_t **be)
{
    if (!strcmp(o->backend, "cuda"))
        return slp_backend_cuda_create(-1, be);
    /* Under MPI several ranks usually share a node: one thread each unless asked. */
    int threads = o->set.threads;
    if (threads == 0 && slp_comm_size(slp_comm_world()) > 1)
        threads = 1;
    return slp_backend_cpu_create(threads, be);
}

static void close_log_file(FILE *file)
{
    slp_log_set_file(NULL);
    if (file)
        fclose(file);
}

int slp_cmd_solve(int argc, char **argv)
{
    int status_ = 0;
    double t_start = slp_wall_seconds();
    slp_interrupt_install();
    slp_comm_t *world = slp_comm_world();
    slp_log_set_printing(slp_comm_rank(world) == 0);
    solve_options_t o;
    slp_err rc = parse_options(argc, argv, &o);
    if (rc != SLP_OK) {
        free_options(&o);
        return report_failure(world, rc); /* every rank parsed the same arguments */
    }
    if (o.help) {
        if (slp_comm_rank(world) == 0)
            print_usage();
        free_options(&o);
        return 0;
    }
    FILE *log_file = NULL;
    if (o.log_path && slp_comm_rank(world) == 0) {
        log_file = fopen(o.log_path, "w");
        if (!log_file)
            slp_warn("%s: cannot open the log file; logging to the console only\n", o.log_path);
        slp_log_set_file(log_file);
    }
    slp_grid_t *grid = NULL;
    slp_shard_manifest_t manifest = {0};
    int sharded = is_directory(o.model_path);
    if (sharded)
        rc = make_shard_grid(&o, &manifest, &grid);
    else
        rc = make_grid(&o, &grid);
    if (rc == SLP_OK && sharded)
        rc = check_memory(&o, &manifest, grid);
    if (rc == SLP_OK)
        rc = slp_checkpoint_configure(o.checkpoint_dir, o.checkpoint_every, o.resume_dir);
    if (rc == SLP_OK && o.trace_path && slp_comm_rank(world) == 0) {
        o.set.trace = fopen(o.trace_path, "w");
        if (!o.set.trace)
            rc = slp_error(SLP_ERR_IO, "%s: cannot write the CSV trace", o.trace_path);
    }
    if (grid)
        rc = slp_comm_agree(world, rc);
    if (rc != SLP_OK) {
        if (o.set.trace)
            fclose(o.set.trace);
        slp_shard_manifest_free(&manifest);
        slp_checkpoint_reset();
        slp_grid_destroy(&grid);
        free_options(&o);
        status_ = report_failure(world, rc);
        close_log_file(log_file);
        return status_;
    }
    slp_log("shardlp %s: %d rank%s, grid %dx%d, backend %s\n", SLP_VERSION, grid->size,
            grid->size == 1 ? "" : "s", grid->R, grid->C, o.backend);

    slp_local_problem_t lp = {0};
    slp_backend_t *be = NULL;
    slp_result_t result = {0};
    slp_run_info_t info = {0};
    info.model_path = o.model_path;
    if (sharded) {
        info.shard_dir = o.model_path;
        info.shard_manifest = &manifest;
        info.model_name = slp_strdup(manifest.name ? manifest.name : "");
        rc = slp_shard_read_local(o.model_path, grid, &lp);
        slp_log("Model %s: %lld rows, %lld columns, %lld nonzeros (%s), from shards\n",
                manifest.name && manifest.name[0] ? manifest.name : "(unnamed)",
                (long long)manifest.m, (long long)manifest.n, (long long)manifest.nnz,
                manifest.sense < 0 ? "maximize" : "minimize");
    } else {
        rc = load_local_problem(&o, grid, &lp, &info);
    }
    double t_read = slp_wall_seconds();
    if (rc == SLP_OK)
        rc = create_backend(&o, &be);
    rc = slp_comm_agree(world, rc);
    if (rc == SLP_OK) {
        info.m = lp.m;
        info.n = lp.n;
        info.nnz = lp.nnz;
        info.local_nnz = lp.A.nnz;
        info.R = grid->R;
        info.C = grid->C;
        info.comm_mode = o.comm_mode;
        info.backend = o.backend;
        rc = slp_comm_agree(world, slp_solve_pipeline(grid, &lp, &o.set, be, &result,
                                                      &info.presolve));
    }
    if (rc == SLP_OK) {
        info.read_seconds = t_read - t_start;
        info.t_start = t_start;
        rc = slp_write_outputs(grid, &lp, &result, &info, o.sol_path, o.out_dir, o.json_path);
        rc = slp_comm_agree(world, rc);
    }
    int status = rc == SLP_OK ? 0 : report_failure(world, rc);
    slp_result_free(&result);
    slp_local_problem_free(&lp);
    if (be)
        be->destroy(be);
    slp_run_info_free(&info);
    free_options(&o);
    slp_grid_destroy(&grid);
    slp_shard_manifest_free(&manifest);
    slp_checkpoint_reset();
    if (o.set.trace)
        fclose(o.set.trace);
    close_log_file(log_file);
    return status;
}
