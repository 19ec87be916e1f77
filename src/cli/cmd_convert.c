/* shardlp convert IN OUT: a model from one format to another (docs/cli.md, "convert").
 * IN: an MPS or LP file in any compression, or a shard directory; OUT: FILE.mps,
 * FILE.mps.gz (BGZF), FILE.mps.zst (seekable zstd), FILE.lp, or a shard directory. In one process, in memory: for models
 * that fit one machine (`shardlp shard` streams large MPS files into shards). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_args.h"
#include "cli/commands.h"
#include "core/log.h"
#include "grid/grid.h"
#include "io/input_format.h"
#include "io/lp.h"
#include "io/mps.h"
#include "shard/shard.h"

typedef struct {
    const char *paths[2]; /* IN, OUT */
    const char *grid;
    int relax, compact_values, quiet;
} convert_options_t;

#define OPT(field) offsetof(convert_options_t, field)
static const cli_option_t OPTIONS[] = {
    {"--grid", CLI_TEXT, OPT(grid), 0, 0, NULL, "RxC", "grid of a shard directory written (default 1x1)"},
    {"--relax", CLI_FLAG, OPT(relax), 0, 0, NULL, NULL,
     "integer columns become continuous; without it a model with integer\n"
     "columns can be written as MPS or LP (markers kept) but not as shards"},
    {"--compact-values", CLI_FLAG, OPT(compact_values), 0, 0, NULL, NULL,
     "a shard directory written holds each block whose values have an exact\n"
     "form of fewer bytes in it (version 2 block files, docs/shard-format.md)"},
    {"--quiet", CLI_FLAG, OPT(quiet), 0, 0, NULL, NULL, "no log line"},
};

static const cli_command_t COMMAND = {
    .name = "convert",
    .usage = "convert IN OUT [--grid RxC] [--relax] [--compact-values] [--quiet]",
    .about = "Convert a model between MPS, CPLEX LP and shard directories (docs/cli.md).\n"
             "IN: an MPS or LP file (plain, gzip, bzip2, xz or zstd) or a shard directory.\n"
             "OUT: NAME.mps (free MPS that HiGHS, Clp and GLPK read), NAME.mps.gz (BGZF:\n"
             "gzip in 64 KiB members) or NAME.mps.zst (zstd in 1 MiB frames with a seek\n"
             "table), which every rank of a parallel read can read at offsets; NAME.lp;\n"
             "or any other name: a shard directory.",
    .options = OPTIONS,
    .option_count = sizeof OPTIONS / sizeof OPTIONS[0],
    .positional_offset = OPT(paths),
    .positional_max = 2,
};

typedef enum { OUT_MPS, OUT_LP, OUT_SHARDS } out_kind;

static out_kind kind_of(const char *path)
{
    size_t len = strlen(path);
    if ((len > 4 && !strcasecmp(path + len - 4, ".mps")) ||
        (len > 7 && !strcasecmp(path + len - 7, ".mps.gz")) ||
        (len > 8 && !strcasecmp(path + len - 8, ".mps.zst")))
        return OUT_MPS;
    if (len > 3 && !strcasecmp(path + len - 3, ".lp"))
        return OUT_LP;
    return OUT_SHARDS;
}

static slp_err read_input(const char *in, slp_model_t **model)
{
    slp_input_format format;
    SLP_CALL(slp_input_format_of(in, &format));
    return format == SLP_INPUT_SHARDS ? slp_shard_read_model(in, model) : slp_model_read(in, model);
}

static slp_err convert(const char *in, const char *out, int R, int C, int relax, int compact)
{
    out_kind kind = kind_of(out);
    if (compact && kind != OUT_SHARDS)
        return slp_error(SLP_ERR_INPUT, "convert: --compact-values applies to a shard directory, "
                         "not to %s", out);
    slp_model_t *model = NULL;
    SLP_CALL(read_input(in, &model));
    slp_err rc = SLP_OK;
    int64_t integers = slp_model_integer_columns(model);
    if (relax && model->is_int) { /* the LP relaxation: no markers written */
        free(model->is_int);
        model->is_int = NULL;
    } else if (kind == OUT_SHARDS) {
        rc = slp_integer_rule(integers, in, 0);
    }
    if (rc == SLP_OK)
        rc = kind == OUT_MPS  ? slp_mps_write(model, out)
             : kind == OUT_LP ? slp_lp_write(model, out)
                              : slp_shard_write_model(model, R, C, compact, out);
    if (rc == SLP_OK)
        slp_log("wrote %s: %lld rows, %lld columns, %lld nonzeros (%s%s)\n", out,
                (long long)model->m, (long long)model->n, (long long)model->nnz,
                kind == OUT_MPS ? "MPS" : kind == OUT_LP ? "LP" : "shard directory",
                integers && !relax && kind != OUT_SHARDS ? ", integer markers kept" : "");
    slp_model_destroy(&model);
    return rc;
}

int slp_cmd_convert(int argc, char **argv)
{
    convert_options_t o = {{NULL, NULL}, NULL, 0, 0, 0};
    int help = 0, R = 1, C = 1;
    slp_err rc = slp_cli_parse(&COMMAND, argc, argv, &o, &help);
    if (rc == SLP_OK && help) {
        slp_cli_print_help(&COMMAND, stdout);
        return 0;
    }
    if (rc == SLP_OK && (!o.paths[0] || !o.paths[1]))
        rc = slp_error(SLP_ERR_INPUT, "convert: needs IN and OUT (usage: shardlp %s)", COMMAND.usage);
    if (rc == SLP_OK && o.grid)
        rc = slp_grid_parse(o.grid, &R, &C);
    if (rc == SLP_OK && o.quiet)
        slp_log_set_level(SLP_LOG_QUIET);
    if (rc == SLP_OK)
        rc = convert(o.paths[0], o.paths[1], R, C, o.relax, o.compact_values);
    if (rc != SLP_OK) {
        slp_cli_error("%s", slp_error_message());
        return rc == SLP_ERR_INPUT || rc == SLP_ERR_IO ? 1 : 2;
    }
    return 0;
}
