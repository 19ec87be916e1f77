/* shardlp convert IN OUT: a model from one format to another (docs/cli.md, "convert").
 * IN: an MPS or LP file in any compression, or a shard directory; OUT: FILE.mps,
 * FILE.mps.gz, FILE.lp, or a shard directory. In one process, in memory: for models
 * that fit one machine (`shardlp shard` streams large MPS files into shards). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/commands.h"
#include "core/log.h"
#include "grid/grid.h"
#include "io/input_format.h"
#include "io/lp.h"
#include "io/mps.h"
#include "shard/shard.h"

static void print_usage(void)
{
    printf("usage: shardlp convert IN OUT [--grid RxC] [--relax] [--quiet]\n"
           "\n"
           "Convert a model between MPS, CPLEX LP and shard directories (docs/cli.md).\n"
           "IN: an MPS or LP file (plain, gzip, bzip2 or xz) or a shard directory.\n"
           "OUT: NAME.mps or NAME.mps.gz (free MPS that HiGHS, Clp and GLPK read), NAME.lp,\n"
           "or any other name: a shard directory.\n"
           "\n"
           "  --grid RxC   grid of a shard directory written (default 1x1)\n"
           "  --relax      integer columns become continuous; without it a model with integer\n"
           "               columns can be written as MPS or LP (markers kept) but not as shards\n"
           "  --quiet\n");
}

typedef enum { OUT_MPS, OUT_LP, OUT_SHARDS } out_kind;

static out_kind kind_of(const char *path)
{
    size_t len = strlen(path);
    if ((len > 4 && !strcasecmp(path + len - 4, ".mps")) ||
        (len > 7 && !strcasecmp(path + len - 7, ".mps.gz")))
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

static slp_err convert(const char *in, const char *out, int R, int C, int relax)
{
    slp_model_t *model = NULL;
    SLP_CALL(read_input(in, &model));
    out_kind kind = kind_of(out);
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
                              : slp_shard_write_model(model, R, C, out);
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
    const char *in = NULL, *out = NULL;
    int R = 1, C = 1, relax = 0;
    slp_err rc = SLP_OK;
    for (int k = 1; k < argc && rc == SLP_OK; k++) {
        const char *a = argv[k];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            print_usage();
            return 0;
        } else if (!strcmp(a, "--grid") && k + 1 < argc) {
            rc = slp_grid_parse(argv[++k], &R, &C);
        } else if (!strcmp(a, "--relax")) {
            relax = 1;
        } else if (!strcmp(a, "--quiet")) {
            slp_log_set_level(SLP_LOG_QUIET);
        } else if (a[0] == '-' && a[1] == '-') {
            rc = slp_error(SLP_ERR_INPUT, "unknown option %s (see shardlp convert --help)", a);
        } else if (!in) {
            in = a;
        } else if (!out) {
            out = a;
        } else {
            rc = slp_error(SLP_ERR_INPUT, "unexpected argument '%s' (usage: shardlp convert IN OUT)",
                           a);
        }
    }
    if (rc == SLP_OK && (!in || !out))
        rc = slp_error(SLP_ERR_INPUT, "usage: shardlp convert IN OUT [--grid RxC] [--relax]");
    if (rc == SLP_OK)
        rc = convert(in, out, R, C, relax);
    if (rc != SLP_OK) {
        slp_cli_error("%s", slp_error_message());
        return rc == SLP_ERR_INPUT || rc == SLP_ERR_IO ? 1 : 2;
    }
    return 0;
}
