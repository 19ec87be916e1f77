/* shardlp shard MODEL --grid RxC|auto --out DIR: the converter. In one process: in
 * memory for models that fit the budget and for LP files, otherwise two streaming passes
 * of the MPS file with bounded buffers (shard/shard.h). On R x C ranks: the parallel
 * reader, each rank writing its own files (docs/parallel-input.md "Shards from P
 * ranks"). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_args.h"
#include "cli/commands.h"
#include "io/input_format.h"
#include "core/log.h"
#include "grid/comm.h"
#include "io/mps.h"
#include "grid/grid.h"
#include "grid/read_parallel.h"
#include "shard/shard.h"

typedef struct {
    const char *model_path;
    const char *grid, *out_dir;
    int64_t ranks, mem_per_rank, mem_budget;
    int relax, compact_values, quiet;
} shard_options_t;

#define OPT(field) offsetof(shard_options_t, field)
static const cli_option_t OPTIONS[] = {
    {"--grid", CLI_TEXT, OPT(grid), 0, 0, NULL, "RxC|auto",
     "grid shape; auto with --ranks P: the R x C = P whose largest\n"
     "modelled per-rank peak is smallest (ties: fewer hops), the\n"
     "alternatives printed; auto with --mem-per-rank: the fewest\n"
     "ranks whose largest block and slices fit the budget"},
    {"--ranks", CLI_INT, OPT(ranks), 1, 65536, NULL, "P", "rank count for --grid auto"},
    {"--mem-per-rank", CLI_BYTES, OPT(mem_per_rank), 0, 0, NULL, "BYTES",
     "per-rank budget for --grid auto (suffixes K, M, G: powers of 1024)"},
    {"--mem-budget", CLI_BYTES, OPT(mem_budget), 0, 0, NULL, "BYTES",
     "memory for the converter's matrix buffers; given, the bounded\n"
     "two-pass path is used (default: a quarter of physical memory,\n"
     "the in-memory path when the model is estimated to fit)"},
    {"--out", CLI_TEXT, OPT(out_dir), 0, 0, NULL, "DIR",
     "output directory (replaced only if empty or a shard directory)"},
    {"--relax", CLI_FLAG, OPT(relax), 0, 0, NULL, NULL,
     "accept integer columns as continuous (the LP relaxation);\n"
     "without it a model with integer columns is refused"},
    {"--compact-values", CLI_FLAG, OPT(compact_values), 0, 0, NULL, NULL,
     "blocks whose values have an exact form of fewer bytes are\n"
     "written in it: signs in the column indices (all +-1) or codes\n"
     "into a table of the block's distinct values (version 2 block\n"
     "files, docs/shard-format.md); default: doubles, version 1"},
    {"--quiet", CLI_FLAG, OPT(quiet), 0, 0, NULL, NULL, "no log lines"},
};

static const cli_command_t COMMAND = {
    .name = "shard",
    .usage = "shard MODEL --grid RxC --out DIR [options]\n"
             "shard MODEL --grid auto --ranks P --out DIR\n"
             "shard MODEL --grid auto --mem-per-rank BYTES --out DIR",
    .about = "Convert an MPS or LP model into a shard directory (format version 1, block\n"
             "files of version 2 with --compact-values; docs/shard-format.md). Rows and\n"
             "columns are cut into contiguous blocks balanced by nonzeros. Under mpirun with\n"
             "R x C ranks (--grid RxC) the ranks read the MPS file in parallel and each\n"
             "writes its own files: the same directory.",
    .options = OPTIONS,
    .option_count = sizeof OPTIONS / sizeof OPTIONS[0],
    .positional_offset = OPT(model_path),
    .positional_max = 1,
};

/* The options read and checked against each other; the grid parsed unless auto. */
static slp_err read_options(int argc, char **argv, shard_options_t *o, int *help, int *R, int *C)
{
    SLP_CALL(slp_cli_parse(&COMMAND, argc, argv, o, help));
    if (*help)
        return SLP_OK;
    if (!o->model_path)
        return slp_error(SLP_ERR_INPUT, "shard: no model given (usage: shardlp shard MODEL.mps "
                         "--grid RxC --out DIR)");
    if (!o->grid)
        return slp_error(SLP_ERR_INPUT, "shard: --grid RxC or --grid auto is required");
    if (!o->out_dir)
        return slp_error(SLP_ERR_INPUT, "shard: --out DIR is required");
    int automatic = !strcmp(o->grid, "auto");
    if (automatic && (o->mem_per_rank == 0) == (o->ranks == 0))
        return slp_error(SLP_ERR_INPUT, "shard: --grid auto needs --ranks P or --mem-per-rank "
                         "BYTES (one of them)");
    if (!automatic && o->ranks > 0)
        return slp_error(SLP_ERR_INPUT, "shard: --ranks is for --grid auto");
    if (!automatic)
        SLP_CALL(slp_grid_parse(o->grid, R, C));
    int P = slp_comm_size(slp_comm_world());
    if (P > 1 && (automatic || (int64_t)*R * *C != P))
        return slp_error(SLP_ERR_INPUT, "shard on %d ranks takes --grid RxC with R x C = %d "
                         "(each rank writes its own block; --grid auto is for one process)",
                         P, P);
    if (o->quiet)
        slp_log_set_level(SLP_LOG_QUIET);
    return SLP_OK;
}

static int64_t default_budget(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0)
        return (int64_t)1 << 30;
    return (int64_t)pages * size / 4;
}

/* Rough in-memory footprint of a model read from `path`: the CSC model plus one row
 * block copy take about 40 bytes per nonzero, and an MPS line holds one or two
 * nonzeros in 25-40 bytes; gzip compresses MPS about 5x. */
static int64_t estimate_model_bytes(const char *path)
{
    return 2 * slp_input_text_bytes(path);
}

/* The one-process converter: in memory, or streaming with bounded buffers. */
static slp_err convert_one_process(const shard_options_t *o, int R, int C, const char **how)
{
    const char *model_path = o->model_path, *out_dir = o->out_dir;
    int automatic = !strcmp(o->grid, "auto"), relax = o->relax, ranks = (int)o->ranks;
    int64_t mem_per_rank = o->mem_per_rank, mem_budget = o->mem_budget;
    slp_err rc = SLP_OK;

    int bounded = mem_budget > 0;
    if (!bounded)
        mem_budget = default_budget();
    if (!bounded && estimate_model_bytes(model_path) > mem_budget)
        bounded = 1;
    slp_input_format format = SLP_INPUT_MPS;
    if (slp_input_format_of(model_path, &format) == SLP_OK && format == SLP_INPUT_LP)
        bounded = 0; /* the LP reader builds the model in memory; the streaming path is MPS's */
    slp_error_clear();
    slp_model_t *model = NULL;
    slp_shard_source_t src;
    if (bounded) {
        slp_shard_mps_source(model_path, &src);
        src.relax = relax;
    } else {
        rc = slp_model_read(model_path, &model);
        if (rc == SLP_OK)
            rc = slp_integer_rule(slp_model_integer_columns(model), model_path, relax);
        if (rc == SLP_OK)
            slp_shard_model_source(model, &src);
    }
    int64_t picked_bytes = 0;
    if (rc == SLP_OK && automatic) {
        /* Nonzero counts per row and column: one pass of the source. */
        int64_t *row_nnz = NULL, *col_nnz = NULL;
        slp_model_t *dims = NULL;
        rc = slp_shard_count(&src, &row_nnz, &col_nnz, &dims);
        if (rc == SLP_OK && ranks > 0)
            rc = slp_shard_pick_grid_ranks_logged(&src, dims->m, dims->n, row_nnz, col_nnz, ranks,
                                                  &R, &C); /* --ranks P: every candidate logged */
        else if (rc == SLP_OK)
            rc = slp_shard_pick_grid(&src, dims->m, dims->n, row_nnz, col_nnz, mem_per_rank, &R, &C,
                                     &picked_bytes);
        if (rc == SLP_OK && ranks == 0)
            slp_log("grid auto: picked %dx%d (%d rank%s): the largest rank reads %lld bytes, "
                    "budget %lld per rank\n",
                    R, C, R * C, R * C == 1 ? "" : "s", (long long)picked_bytes,
                    (long long)mem_per_rank);
        free(row_nnz);
        free(col_nnz);
        slp_model_destroy(&dims);
    }
    if (rc == SLP_OK) {
        if (bounded)
            rc = slp_shard_write_stream(&src, R, C, mem_budget, o->compact_values, out_dir);
        else
            rc = slp_shard_write_model(model, R, C, o->compact_values, out_dir);
    }
    slp_model_destroy(&model);
    *how = bounded ? "bounded-memory streaming path" : "in-memory path";
    return rc;
}

/* `shardlp shard` on P = R x C ranks: the ranks read the file in parallel and each writes
 * its own files (docs/parallel-input.md "Shards from P ranks"); a file the parallel
 * reader leaves to one process is converted by rank 0 as without MPI. */
static slp_err convert_on_ranks(const shard_options_t *o, int R, int C, const char **how)
{
    slp_grid_t *grid = NULL;
    SLP_CALL(slp_grid_create(R, C, &grid));
    slp_local_problem_t lp;
    slp_read_parallel_info_t info;
    slp_read_names_t names;
    int done = 0;
    slp_err rc = slp_read_parallel(grid, o->model_path, o->relax, &lp, &info, &names, &done);
    if (rc == SLP_OK && done)
        rc = slp_integer_rule(info.n_int, o->model_path, o->relax); /* relaxed: a log line */
    if (rc == SLP_OK && done) {
        slp_shard_rank_names_t rank_names = {names.rows, names.rows_bytes, names.cols,
                                             names.cols_bytes};
        rc = slp_shard_write_ranks(grid->world, &lp, info.name, &rank_names, o->compact_values,
                                   o->out_dir);
        *how = "read and written by the ranks in parallel";
    }
    slp_local_problem_free(&lp);
    slp_read_names_free(&names);
    free(info.name);
    if (rc == SLP_OK && !done) {
        rc = grid->rank == 0 ? convert_one_process(o, R, C, how) : SLP_OK;
        rc = slp_comm_agree(grid->world, rc);
    }
    slp_grid_destroy(&grid);
    return rc;
}

static void log_written(const char *out_dir, const char *how)
{
    slp_shard_manifest_t man;
    if (slp_shard_read_manifest(out_dir, &man) != SLP_OK) {
        slp_error_clear();
        return;
    }
    int64_t max_nnz = 0;
    for (int64_t b = 0; b < (int64_t)man.R * man.C; b++)
        if (man.block_nnz[b] > max_nnz)
            max_nnz = man.block_nnz[b];
    slp_log("wrote %s: %lld rows, %lld columns, %lld nonzeros on a %dx%d grid "
            "(largest block %lld nonzeros; %s)\n",
            out_dir, (long long)man.m, (long long)man.n, (long long)man.nnz, man.R, man.C,
            (long long)max_nnz, how);
    slp_shard_manifest_free(&man);
}

int slp_cmd_shard(int argc, char **argv)
{
    int rank = slp_comm_rank(slp_comm_world());
    slp_log_set_printing(rank == 0);
    shard_options_t o;
    memset(&o, 0, sizeof o);
    int help = 0, R = 0, C = 0;
    slp_err rc = read_options(argc, argv, &o, &help, &R, &C); /* the same on every rank */
    if (rc == SLP_OK && help) {
        if (rank == 0)
            slp_cli_print_help(&COMMAND, stdout);
        return 0;
    }
    if (rc != SLP_OK) {
        if (rank == 0)
            slp_cli_error("%s", slp_error_message());
        return 2;
    }
    const char *how = "";
    if (slp_comm_size(slp_comm_world()) > 1)
        rc = convert_on_ranks(&o, R, C, &how);
    else
        rc = convert_one_process(&o, R, C, &how);
    if (rc == SLP_OK && rank == 0)
        log_written(o.out_dir, how);
    if (rc != SLP_OK) {
        /* this rank's own failure: the other ranks' messages are empty or point at it */
        if (slp_error_origin() < 0 && slp_error_message()[0])
            slp_cli_error("%s", slp_error_message());
        return 1;
    }
    return 0;
}
