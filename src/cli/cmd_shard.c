/* shardlp shard MODEL --grid RxC|auto --out DIR: the offline converter. In memory for
 * models that fit the budget and for LP files, otherwise two streaming passes of the
 * MPS file with bounded buffers (shard/shard.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "core/parse.h"
#include "io/input_format.h"
#include "core/log.h"
#include "grid/comm.h"
#include "io/mps.h"
#include "shard/shard.h"

static void print_usage(void)
{
    printf("usage: shardlp shard MODEL.mps[.gz] --grid RxC --out DIR [options]\n"
           "       shardlp shard MODEL.mps[.gz] --grid auto --ranks P --out DIR\n"
           "       shardlp shard MODEL.mps[.gz] --grid auto --mem-per-rank BYTES --out DIR\n"
           "\n"
           "Convert an MPS model into a shard directory (format version 1, docs/shard-format.md).\n"
           "Rows and columns are cut into contiguous blocks balanced by nonzeros.\n"
           "\n"
           "  --grid RxC|auto       grid shape; auto with --ranks P: the R x C = P whose largest\n"
           "                        modelled per-rank peak is smallest (ties: fewer hops), the\n"
           "                        alternatives printed; auto with --mem-per-rank: the fewest\n"
           "                        ranks whose largest block and slices fit the budget\n"
           "  --ranks P             rank count for --grid auto\n"
           "  --mem-per-rank BYTES  per-rank budget for --grid auto (suffixes K, M, G: powers of 1024)\n"
           "  --mem-budget BYTES    memory for the converter's matrix buffers; given, the bounded\n"
           "                        two-pass path is used (default: a quarter of physical memory,\n"
           "                        the in-memory path when the model is estimated to fit)\n"
           "  --out DIR             output directory (replaced only if empty or a shard directory)\n"
           "  --relax               accept integer columns as continuous (the LP relaxation);\n"
           "                        without it a model with integer columns is refused\n"
           "  --quiet\n");
}

/* "123", "64K", "2M", "1G" (powers of 1024). */
static slp_err parse_bytes(const char *option, const char *text, int64_t *out)
{
    char *end;
    double v = strtod(text, &end);
    double mult = 1;
    if (end != text && *end) {
        switch (toupper((unsigned char)*end)) {
        case 'K': mult = 1024.0; break;
        case 'M': mult = 1024.0 * 1024; break;
        case 'G': mult = 1024.0 * 1024 * 1024; break;
        case 'T': mult = 1024.0 * 1024 * 1024 * 1024; break;
        default: mult = 0; break;
        }
        end++;
        if (*end == 'i' || *end == 'I')
            end++;
        if (*end == 'B' || *end == 'b')
            end++;
    }
    if (end == text || *end || mult == 0 || !(v >= 1) || v * mult > 9e18)
        return slp_error(SLP_ERR_INPUT, "option %s: '%s' is not a positive byte count (e.g. 512M)",
                         option, text);
    *out = (int64_t)(v * mult);
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

int slp_cmd_shard(int argc, char **argv)
{
    const char *model_path = NULL, *grid_text = NULL, *out_dir = NULL;
    int64_t mem_per_rank = 0, mem_budget = 0;
    int ranks = 0; /* --ranks, for --grid auto */
    int relax = 0;
    slp_err rc = SLP_OK;
    for (int k = 1; k < argc && rc == SLP_OK; k++) {
        const char *a = argv[k], *value = NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            print_usage();
            return 0;
        } else if (!strcmp(a, "--grid")) {
            rc = slp_option_value(argc, argv, &k, &grid_text);
        } else if (!strcmp(a, "--out")) {
            rc = slp_option_value(argc, argv, &k, &out_dir);
        } else if (!strcmp(a, "--mem-per-rank")) {
            rc = slp_option_value(argc, argv, &k, &value);
            if (rc == SLP_OK)
                rc = parse_bytes(a, value, &mem_per_rank);
        } else if (!strcmp(a, "--ranks")) {
            int64_t p = 0;
            rc = slp_option_value(argc, argv, &k, &value);
            if (rc == SLP_OK)
                rc = slp_parse_int64(a, value, 1, 65536, &p);
            ranks = (int)p;
        } else if (!strcmp(a, "--mem-budget")) {
            rc = slp_option_value(argc, argv, &k, &value);
            if (rc == SLP_OK)
                rc = parse_bytes(a, value, &mem_budget);
        } else if (!strcmp(a, "--quiet")) {
            slp_log_set_level(SLP_LOG_QUIET);
        } else if (!strcmp(a, "--relax")) {
            relax = 1;
        } else if (a[0] == '-' && a[1]) {
            rc = slp_error(SLP_ERR_INPUT, "unknown option %s (see shardlp shard --help)", a);
        } else if (!model_path) {
            model_path = a;
        } else {
            rc = slp_error(SLP_ERR_INPUT, "unexpected argument '%s'", a);
        }
    }
    if (rc == SLP_OK && !model_path)
        rc = slp_error(SLP_ERR_INPUT, "shard: no model given (usage: shardlp shard MODEL.mps --grid RxC --out DIR)");
    if (rc == SLP_OK && !grid_text)
        rc = slp_error(SLP_ERR_INPUT, "shard: --grid RxC or --grid auto is required");
    if (rc == SLP_OK && !out_dir)
        rc = slp_error(SLP_ERR_INPUT, "shard: --out DIR is required");
    int automatic = grid_text && !strcmp(grid_text, "auto");
    int R = 0, C = 0;
    if (rc == SLP_OK && automatic && (mem_per_rank == 0) == (ranks == 0))
        rc = slp_error(SLP_ERR_INPUT, "shard: --grid auto needs --ranks P or --mem-per-rank BYTES "
                       "(one of them)");
    if (rc == SLP_OK && !automatic && ranks > 0)
        rc = slp_error(SLP_ERR_INPUT, "shard: --ranks is for --grid auto");
    if (rc == SLP_OK && !automatic)
        rc = slp_grid_parse(grid_text, &R, &C);
    if (rc == SLP_OK && slp_comm_size(slp_comm_world()) > 1)
        rc = slp_error(SLP_ERR_INPUT, "shard is an offline converter: run it as one process");
    if (rc != SLP_OK) {
        slp_cli_error("%s", slp_error_message());
        return 2;
    }

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
            rc = slp_shard_write_stream(&src, R, C, mem_budget, out_dir);
        else
            rc = slp_shard_write_model(model, R, C, out_dir);
    }
    slp_model_destroy(&model);
    if (rc == SLP_OK) {
        slp_shard_manifest_t man;
        rc = slp_shard_read_manifest(out_dir, &man);
        if (rc == SLP_OK) {
            int64_t max_nnz = 0;
            for (int64_t b = 0; b < (int64_t)man.R * man.C; b++)
                if (man.block_nnz[b] > max_nnz)
                    max_nnz = man.block_nnz[b];
            slp_log("wrote %s: %lld rows, %lld columns, %lld nonzeros on a %dx%d grid "
                    "(largest block %lld nonzeros; %s path)\n",
                    out_dir, (long long)man.m, (long long)man.n, (long long)man.nnz, man.R, man.C,
                    (long long)max_nnz, bounded ? "bounded-memory streaming" : "in-memory");
            slp_shard_manifest_free(&man);
        }
    }
    if (rc != SLP_OK) {
        slp_cli_error("%s", slp_error_message());
        return 1;
    }
    return 0;
}
