/* Fuzz target: the parallel reader (grid/read_parallel.c on one rank: layout, piece,
 * names, bounds, blocks; grid/read_lp.c for LP files, told by their content as every
 * reader tells them) against the one-process reader. Byte 0 picks the file's form
 * (bit 0: plain, or BGZF as `shardlp convert` writes .gz, through io/text_at.c); the rest
 * is the file. Whenever the parallel reader takes a file, the one-process reader must
 * read it without a warning and give the same model (the grid-independent fingerprint
 * of docs/parallel-input.md "Checking"); a failure of the parallel reader itself (not a
 * give-up) is a finding too. */
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/local_problem.h"
#include "core/log.h"
#include "core/model.h"
#include "fuzz_common.h"
#include "grid/comm.h"
#include "grid/distribute.h"
#include "grid/fingerprint.h"
#include "grid/grid.h"
#include "grid/read_parallel.h"
#include "io/block_out.h"
#include "io/input_format.h"

#ifndef SLP_FUZZ_ENTRY
#define SLP_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

static void write_bgzf(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    slp_block_out_t *o = NULL;
    if (!f || slp_block_out_open(f, SLP_BLOCK_OUT_BGZF, path, &o) != SLP_OK ||
        slp_block_out_write(o, data, size) != 0 || slp_block_out_close(&o) != 0 || fclose(f))
        abort();
}

/* The fingerprint of the one-process reader's model, or 0 with *read_ok = 0. */
static uint64_t one_process(slp_grid_t *grid, const char *path, int *read_ok, int *warned)
{
    int64_t before = slp_warn_count();
    slp_model_t *model = NULL;
    *read_ok = slp_model_read(path, &model) == SLP_OK;
    *warned = slp_warn_count() != before;
    slp_error_clear();
    uint64_t print = 0;
    slp_local_problem_t lp;
    if (*read_ok) {
        if (slp_distribute_model(grid, model, &lp) != SLP_OK ||
            slp_model_fingerprint(grid, &lp, &print) != SLP_OK)
            abort();
        slp_local_problem_free(&lp);
    }
    slp_model_destroy(&model);
    return print;
}

int SLP_FUZZ_ENTRY(const uint8_t *data, size_t size);
int SLP_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    static slp_grid_t *grid;
    if (!grid) {
        if (slp_comm_init(NULL, NULL, 0) != SLP_OK || slp_grid_create(1, 1, &grid) != SLP_OK)
            abort();
        slp_log_set_level(SLP_LOG_QUIET);
        slp_log_set_printing(0); /* warnings counted, not printed */
    }
    if (size < 1)
        return 0;
    char path[300];
    int bgzf = data[0] & 1;
    snprintf(path, sizeof path, "%s/model.mps%s", slp_fuzz_scratch(), bgzf ? ".gz" : "");
    if (bgzf)
        write_bgzf(path, data + 1, size - 1);
    else
        slp_fuzz_write(path, data + 1, size - 1);
    slp_local_problem_t lp;
    slp_read_parallel_info_t info;
    int done = 0;
    if (slp_read_parallel(grid, path, 1, &lp, &info, NULL, &done) != SLP_OK)
        abort(); /* bad input makes the reader give up, never fail */
    if (done) {
        int read_ok, warned;
        uint64_t mine = 0, theirs = one_process(grid, path, &read_ok, &warned);
        slp_local_problem_canonical_bounds(&lp);
        if (!read_ok || warned || slp_model_fingerprint(grid, &lp, &mine) != SLP_OK ||
            mine != theirs)
            abort();
        slp_local_problem_free(&lp);
        free(info.name);
    }
    slp_error_clear();
    return 0;
}
