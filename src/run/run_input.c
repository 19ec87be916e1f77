/* A run's input (run/run_input.h). */
#include "run/run_input.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/interrupt.h"
#include "core/log.h"
#include "grid/distribute.h"
#include "grid/read_parallel.h"
#include "io/input_format.h"
#include "io/solution_text.h"

slp_err slp_run_grid(const slp_run_options_t *o, slp_grid_t **grid)
{
    *grid = NULL;
    if (o->grid[0] < 0)
        return SLP_OK; /* --grid auto: made once rank 0 holds the model (slp_run_distribute) */
    int P = slp_comm_size(slp_comm_world()), R = o->grid[0], C = o->grid[1];
    if (R > 0 && C > 0) {
        if ((long)R * C != P)
            return slp_error(SLP_ERR_INPUT, "grid = %dx%d needs %ld ranks but the job has %d "
                             "(run with mpirun -np %ld)", R, C, (long)R * C, P, (long)R * C);
    } else {
        slp_grid_default_shape(P, &R, &C);
    }
    return slp_grid_create(R, C, grid);
}

slp_err slp_run_shard_grid(const char *dir, const slp_run_options_t *o,
                           slp_shard_manifest_t *man, slp_grid_t **grid)
{
    SLP_CALL(slp_shard_read_manifest_all(dir, man));
    int R = o->grid[0], C = o->grid[1];
    if (R > 0 && (R != man->R || C != man->C))
        return slp_error(SLP_ERR_INPUT, "%s: the shards are cut for a %dx%d grid, not grid = %dx%d",
                         dir, man->R, man->C, R, C);
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

/* The estimate is the solver's modelled peak of the block (slp_shard_solver_bytes,
 * docs/memory.md). The limit is mem_limit, or the node's available memory divided by the ranks on the
 * node (OMPI_COMM_WORLD_LOCAL_SIZE / SLURM_NTASKS_PER_NODE when set). With the backend's
 * own choice of copies (*copies auto), a block that fits only with A_rc alone makes every
 * rank take --block-copies rows (logged) instead of a refusal. Collective. */
slp_err slp_run_check_memory(const char *dir, double mem_limit, const slp_shard_manifest_t *man,
                             const slp_grid_t *grid, int fixing, int *copies)
{
    int64_t n_loc = man->col_off[grid->c + 1] - man->col_off[grid->c];
    int64_t m_loc = man->row_off[grid->r + 1] - man->row_off[grid->r];
    int64_t nnz_rc = man->block_nnz[(int64_t)grid->r * man->C + grid->c];
    double limit = mem_limit;
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
    double need = (double)slp_shard_solver_bytes(m_loc, n_loc, nnz_rc, fixing, *copies);
    /* A_rc alone (--block-copies rows) may fit where the default copies do not. */
    double need_rows = (double)slp_shard_solver_bytes(m_loc, n_loc, nnz_rc, fixing,
                                                      SLP_COPIES_ROWS);
    double take_rows[1] = {*copies == SLP_COPIES_AUTO && need > limit && need_rows <= limit};
    SLP_CALL(slp_comm_max(grid->world, take_rows, 1));
    if (take_rows[0] > 0.0) {
        *copies = SLP_COPIES_ROWS;
        need = need_rows;
        slp_log("Memory: a block fits the limit (%.3g GB, %s) only with A_rc alone: "
                "--block-copies rows taken (slower products; docs/memory.md)\n",
                limit / 1e9, source);
    }
    double matrix = need - (double)slp_shard_solver_bytes(m_loc, n_loc, 0, fixing, *copies);
    char rows_hint[96] = "";
    if (*copies != SLP_COPIES_ROWS && need_rows <= limit)
        snprintf(rows_hint, sizeof rows_hint, ", or --block-copies rows (about %.3g GB, "
                 "slower products)", need_rows / 1e9);
    slp_err rc = SLP_OK;
    if (need > limit)
        rc = slp_error(SLP_ERR_INPUT,
                       "%s: block (%d, %d) needs about %.3g GB on rank %d (matrix entries %.3g "
                       "GB, the rest %.3g GB) but the limit is %.3g GB (%s); cut the model for "
                       "more ranks (shardlp shard --grid) or raise --mem-limit%s",
                       dir, grid->r, grid->c, need / 1e9, grid->rank, matrix / 1e9,
                       (need - matrix) / 1e9, limit / 1e9, source, rows_hint);
    return slp_comm_agree(grid->world, rc);
}

/* The model line of the log ("Model NAME: m rows, n columns, nnz nonzeros (sense)"). */
static void log_model(const char *name, int64_t m, int64_t n, int64_t nnz, int sense,
                      const char *source)
{
    slp_log("Model %s: %lld rows, %lld columns, %lld nonzeros (%s)%s\n",
            name && name[0] ? name : "(unnamed)", (long long)m, (long long)n, (long long)nnz,
            sense < 0 ? "maximize" : "minimize", source);
}

slp_err slp_run_read_shards(const char *dir, const slp_shard_manifest_t *man, slp_grid_t *grid,
                            slp_local_problem_t *lp, slp_run_info_t *info)
{
    info->shard_dir = dir;
    info->shard_manifest = man;
    info->model_name = slp_strdup(man->name ? man->name : "");
    log_model(man->name, man->m, man->n, man->nnz, man->sense, ", from shards");
    return slp_shard_read_local_from(dir, man, grid, lp); /* the manifest is read once */
}

/* A copy of `count` names (NULL stays NULL). */
static slp_err copy_names(char *const *names, int64_t count, char ***out)
{
    *out = NULL;
    if (!names)
        return SLP_OK;
    if (!(*out = slp_calloc((size_t)(count > 0 ? count : 1), sizeof **out)))
        return slp_error(SLP_ERR_NOMEM, "out of memory copying names");
    for (int64_t k = 0; k < count; k++)
        if (!((*out)[k] = slp_strdup(names[k] ? names[k] : "")))
            return slp_error(SLP_ERR_NOMEM, "out of memory copying names");
    return SLP_OK;
}

/* Rank 0: the model to distribute (read from `path`, or the caller's), validated and
 * put through the integer rule; *owned is set when it was read here. */
static slp_err root_model(const char *path, const slp_model_t *given, const slp_run_options_t *o,
                          slp_model_t **owned, const slp_model_t **model)
{
    const char *source = path ? path : "the model";
    *owned = NULL;
    *model = given;
    if (path) {
        slp_interrupt_reads_interruptible(1); /* the reader polls the flag */
        slp_interrupt_graceful(1);
        slp_err rc = slp_model_read(path, owned);
        slp_interrupt_graceful(0);
        slp_interrupt_reads_interruptible(0);
        SLP_CALL(rc);
        *model = *owned;
    }
    if (!*model)
        return slp_error(SLP_ERR_INPUT, "no model given on rank 0");
    SLP_CALL(slp_model_validate(*model, source));
    return slp_integer_rule(slp_model_integer_columns(*model), source,
                            o->relax || o->highs_solver != 0);
}

/* Rank 0: the warm start of --start, from a text solution of `model` (its names): the
 * column values (missing ones 0, with a warning) and, when the file has every row
 * dual, the duals. Both in the user's sense, as the C API's x0 / y0. */
static slp_err read_start(const char *path, const slp_model_t *model, double **x0, double **y0)
{
    slp_solution_t *sol = NULL;
    SLP_CALL(slp_solution_text_read_model(path, model, &sol));
    int64_t missing = 0;
    for (int64_t j = 0; j < model->n; j++)
        if (!isfinite(sol->x[j])) {
            sol->x[j] = 0.0;
            missing++;
        }
    if (missing == model->n)
        slp_warn("%s: no column values: the warm start is x = 0\n", path);
    else if (missing)
        slp_warn("%s: %lld of %lld column values missing or not finite: 0 used there\n", path,
                 (long long)missing, (long long)model->n);
    *x0 = sol->x;
    sol->x = NULL;
    int duals = sol->missing[SLP_SOL_DUAL_ROWS] == 0 && model->m > 0;
    for (int64_t i = 0; duals && i < model->m; i++)
        duals = isfinite(sol->y[i]);
    if (duals) {
        *y0 = sol->y;
        sol->y = NULL;
    }
    slp_log("Warm start from %s: column values%s\n", path, duals ? " and row duals" : "");
    slp_solution_destroy(&sol);
    return SLP_OK;
}

/* Rank 0: what the outputs keep of the model (name, and the names for --sol). */
static slp_err keep_for_outputs(slp_model_t *owned, const slp_model_t *model,
                                const slp_run_options_t *o, slp_run_info_t *info)
{
    info->model_name = slp_strdup(model->name ? model->name : "");
    info->m = model->m; /* the name arrays' lengths, also after a failure */
    info->n = model->n;
    log_model(model->name, model->m, model->n, model->nnz, model->sense, "");
    if (!o->sol_path)
        return SLP_OK;
    if (owned) { /* read here: move the names instead of copying them */
        info->row_names = owned->row_names;
        info->col_names = owned->col_names;
        owned->row_names = owned->col_names = NULL;
        return SLP_OK;
    }
    SLP_CALL(copy_names(model->row_names, model->m, &info->row_names));
    return copy_names(model->col_names, model->n, &info->col_names);
}

/* Rank 0: --grid auto's R x C for `model` on P ranks: every R x C = P with the cuts
 * the distribution makes (balanced by nonzeros), the smallest modelled peak of the
 * largest rank (slp_shard_solver_bytes), the candidates logged. */
static slp_err pick_model_grid(const slp_model_t *model, int P, int shape[2])
{
    slp_shard_source_t src;
    slp_shard_model_source(model, &src);
    int64_t *row_nnz = NULL, *col_nnz = NULL;
    slp_model_t *dims = NULL;
    slp_err rc = slp_shard_count(&src, &row_nnz, &col_nnz, &dims);
    if (rc == SLP_OK)
        rc = slp_shard_pick_grid_ranks_logged(&src, model->m, model->n, row_nnz, col_nnz, P,
                                              &shape[0], &shape[1]);
    free(row_nnz);
    free(col_nnz);
    slp_model_destroy(&dims);
    return rc;
}

/* The grid of --grid auto once rank 0 holds the model: picked there, then made on every
 * rank. Collective over the world. */
static slp_err auto_grid(const slp_model_t *model, slp_grid_t **grid)
{
    slp_comm_t *world = slp_comm_world();
    int shape[2] = {1, 1}, P = slp_comm_size(world);
    slp_err rc = slp_comm_rank(world) == 0 && P > 1 ? pick_model_grid(model, P, shape) : SLP_OK;
    SLP_CALL(slp_comm_agree(world, rc));
    SLP_CALL(slp_comm_bcast(world, shape, (int64_t)sizeof shape, 0));
    return slp_comm_agree(world, slp_grid_create(shape[0], shape[1], grid));
}

/* The parallel reader takes a model file when the option asks for it, the file is MPS or LP,
 * the grid is known before reading (not --grid auto) and no output needs the names on
 * rank 0 (--sol, --start). Agreed by all ranks (a rank that cannot see the file says no
 * for all; the one-process reader then says why). */
static int parallel_read_wanted(const char *path, const slp_model_t *given, const slp_grid_t *grid,
                                const slp_run_options_t *o)
{
    slp_input_format format = SLP_INPUT_SHARDS;
    int64_t no = !path || given || !grid || o->parallel_read == 2 || o->sol_path ||
                 o->start_path || (o->parallel_read == 0 && grid->size == 1);
    if (!no && slp_input_format_of(path, &format) != SLP_OK)
        slp_error_clear();
    no = no || format == SLP_INPUT_SHARDS;
    if (slp_comm_max_i64(slp_comm_world(), &no, 1) != SLP_OK) {
        slp_error_clear();
        return 0;
    }
    return no == 0;
}

/* Every rank reads its part of the file (grid/read_parallel.h); *done = 0 when the file
 * is left to rank 0. */
static slp_err read_in_parallel(slp_grid_t *grid, const char *path, const slp_run_options_t *o,
                                slp_local_problem_t *lp, slp_run_info_t *info, int *done)
{
    slp_read_parallel_info_t pi;
    int relax = o->relax || o->highs_solver != 0; /* as root_model's integer rule */
    slp_interrupt_reads_interruptible(1);
    slp_interrupt_graceful(1);
    slp_err rc = slp_read_parallel(grid, path, relax, lp, &pi, NULL, done);
    slp_interrupt_graceful(0);
    slp_interrupt_reads_interruptible(0);
    if (rc != SLP_OK || !*done)
        return rc;
    slp_local_problem_canonical_bounds(lp);
    info->model_name = pi.name;
    SLP_CALL(slp_integer_rule(pi.n_int, path, relax)); /* relaxed here: it only logs */
    char source[64];
    snprintf(source, sizeof source, ", read by %d rank%s in parallel", grid->size,
             grid->size == 1 ? "" : "s");
    log_model(pi.name, pi.m, pi.n, pi.nnz, pi.sense, source);
    return SLP_OK;
}

slp_err slp_run_distribute(slp_grid_t **grid, const char *path, const slp_model_t *given,
                           const slp_run_options_t *o, slp_local_problem_t *lp,
                           slp_run_info_t *info, double **start_x, double **start_y)
{
    if (parallel_read_wanted(path, given, *grid, o)) {
        int done = 0;
        slp_err rc = read_in_parallel(*grid, path, o, lp, info, &done);
        if (rc != SLP_OK || done)
            return rc;
    }
    slp_model_t *owned = NULL;
    const slp_model_t *model = NULL;
    slp_err rc = SLP_OK;
    slp_comm_t *world = slp_comm_world();
    if (slp_comm_rank(world) == 0) {
        rc = root_model(path, given, o, &owned, &model);
        if (rc == SLP_OK && o->start_path)
            rc = read_start(o->start_path, model, start_x, start_y);
        if (rc == SLP_OK)
            rc = keep_for_outputs(owned, model, o, info);
    }
    rc = slp_comm_agree(world, rc);
    if (rc == SLP_OK && !*grid)
        rc = auto_grid(model, grid);
    if (rc == SLP_OK)
        rc = slp_distribute_model(*grid, (*grid)->rank == 0 ? model : NULL, lp);
    slp_model_destroy(&owned);
    return rc;
}
