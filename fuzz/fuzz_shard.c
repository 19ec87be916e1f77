/* Fuzz target: the shard directory readers (manifest.json, solution.json, block, slice
 * and name files).
 *
 * Input layout: byte 0 selects what the rest replaces, in a valid 2x2 shard directory
 * of a small model built at start-up (fixed below):
 *   0 manifest.json   1 solution.json (alone)   2 block_r_c.bin   3 col_c.bin
 *   4 row_r.bin       5 colnames_c.bin / rownames_r.bin (bit 2 of byte 2 picks)
 * For the binary files (2..5), byte 1 gives r = bit 0, c = bit 1; byte 2 bit 0 asks the
 * harness to recompute the header checksum and bit 1 the trailer checksum, and the
 * manifest entry is rewritten with the file's real size and checksum, so the fuzzer
 * reaches the structural checks behind the checksums (the interesting part: a forged
 * or buggy file). The directory is restored after each input. */
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "core/error.h"
#include "core/local_problem.h"
#include "core/log.h"
#include "core/model.h"
#include "fuzz_common.h"
#include "io/mps.h"
#include "shard/shard.h"
#include "shard/shard_internal.h"

#ifndef SLP_FUZZ_ENTRY
#define SLP_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

/* 4 rows, 5 columns, a ranged row, a free and a bounded column, names. */
static const char slp_fuzz_shard_mps_[] =
    "NAME          FUZZ\n"
    "ROWS\n"
    " N  obj\n"
    " L  r1\n"
    " G  r2\n"
    " E  r3\n"
    " L  r4\n"
    "COLUMNS\n"
    "    x1  obj  1.0  r1  2.0\n"
    "    x1  r3   1.0\n"
    "    x2  obj  -1.5 r2  1.0\n"
    "    x2  r4   3.0\n"
    "    x3  r1   1.0  r3  -2.0\n"
    "    x4  obj  2.0  r2  4.0\n"
    "    x4  r4   1.0\n"
    "    x5  obj  0.5  r1  1.0\n"
    "    x5  r2   1.0  r3  1.0\n"
    "RHS\n"
    "    rhs r1 10.0 r2 1.0 r3 2.0 r4 8.0\n"
    "RANGES\n"
    "    rng r4 4.0\n"
    "BOUNDS\n"
    " UP bnd x1 4.0\n"
    " FR bnd x3\n"
    " LO bnd x4 -1.0\n"
    " UP bnd x4 3.0\n"
    "ENDATA\n";

static char slp_fuzz_shard_dir_[300];  /* the valid directory */
static char slp_fuzz_sol_dir_[300];    /* holds only the fuzzed solution.json */
static slp_shard_manifest_t slp_fuzz_shard_man_;

static void slp_fuzz_shard_init_(void)
{
    if (slp_fuzz_shard_dir_[0])
        return;
    const char *base = slp_fuzz_scratch();
    char mps[300];
    snprintf(mps, sizeof mps, "%s/shard_model.mps", base);
    slp_fuzz_write(mps, (const uint8_t *)slp_fuzz_shard_mps_, sizeof slp_fuzz_shard_mps_ - 1);
    snprintf(slp_fuzz_shard_dir_, sizeof slp_fuzz_shard_dir_, "%s/model.shards", base);
    snprintf(slp_fuzz_sol_dir_, sizeof slp_fuzz_sol_dir_, "%s/sol", base);
    slp_model_t *model = NULL;
    if (slp_mps_read(mps, &model) != SLP_OK ||
        slp_shard_write_model(model, 2, 2, 0, slp_fuzz_shard_dir_) != SLP_OK ||
        slp_shard_read_manifest(slp_fuzz_shard_dir_, &slp_fuzz_shard_man_) != SLP_OK) {
        fprintf(stderr, "fuzz_shard: cannot build the base shards: %s\n", slp_error_message());
        abort();
    }
    slp_model_destroy(&model);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", slp_fuzz_sol_dir_);
    if (system(cmd) != 0)
        abort();
}

static uint8_t *slp_fuzz_shard_slurp_(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        abort();
    uint8_t *buf = malloc(1 << 16);
    *size = fread(buf, 1, 1 << 16, f);
    fclose(f);
    return buf;
}

/* Read everything the directory offers for block (r, c), as a rank would. */
static void slp_fuzz_shard_read_all_(int r, int c)
{
    slp_shard_manifest_t man;
    if (slp_shard_read_manifest(slp_fuzz_shard_dir_, &man) != SLP_OK)
        return;
    int row_ok[2] = {0, 0}, col_ok[2] = {0, 0};
    for (int rr = 0; rr < man.R && rr < 2; rr++)
        for (int cc = 0; cc < man.C && cc < 2; cc++) {
            if ((rr != r || cc != c) && !(r < 0))
                continue;
            slp_local_problem_t lp;
            if (slp_shard_read_block(slp_fuzz_shard_dir_, &man, rr, cc, &lp) == SLP_OK) {
                slp_local_problem_free(&lp);
                row_ok[rr] = col_ok[cc] = 1;
            }
        }
    /* Names of a row / column block are read, as the solver does, only after a block of
     * it has been read: generated names take memory in proportion to the (then
     * verified) sizes. */
    for (int is_row = 0; is_row < 2; is_row++)
        for (int b = 0; b < 2 && b < (is_row ? man.R : man.C); b++) {
            if (!(is_row ? row_ok[b] : col_ok[b]))
                continue;
            slp_shard_names_t names;
            if (slp_shard_read_names(slp_fuzz_shard_dir_, &man, is_row, b, &names) == SLP_OK)
                slp_shard_names_free(&names);
        }
    slp_shard_manifest_free(&man);
}

static void slp_fuzz_put_u32_(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}

int SLP_FUZZ_ENTRY(const uint8_t *data, size_t size);
int SLP_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    slp_log_set_level(SLP_LOG_QUIET);
    slp_fuzz_shard_init_();
    if (size < 1)
        return 0;
    int mode = data[0] % 6;
    char path[400];
    if (mode == 0) {
        snprintf(path, sizeof path, "%s/%s", slp_fuzz_shard_dir_, SLP_SHARD_MANIFEST);
        slp_fuzz_write(path, data + 1, size - 1);
        slp_fuzz_shard_read_all_(-1, -1);
        if (slp_shard_manifest_write(slp_fuzz_shard_dir_, &slp_fuzz_shard_man_) != SLP_OK)
            abort();
    } else if (mode == 1) {
        snprintf(path, sizeof path, "%s/%s", slp_fuzz_sol_dir_, SLP_SOLUTION_MANIFEST);
        slp_fuzz_write(path, data + 1, size - 1);
        slp_shard_solution_manifest_t sm;
        if (slp_shard_read_solution_manifest(slp_fuzz_sol_dir_, &sm) == SLP_OK)
            slp_shard_solution_manifest_free(&sm);
    } else {
        if (size < 3)
            return 0;
        int r = data[1] & 1, c = (data[1] >> 1) & 1, flags = data[2];
        int role = mode == 2   ? SLP_SHARD_BLOCK
                   : mode == 3 ? SLP_SHARD_COL_SLICE
                   : mode == 4 ? SLP_SHARD_ROW_SLICE
                   : (flags & 4) ? SLP_SHARD_ROW_NAMES
                                 : SLP_SHARD_COL_NAMES;
        int fr = (role == SLP_SHARD_COL_SLICE || role == SLP_SHARD_COL_NAMES) ? -1 : r;
        int fc = (role == SLP_SHARD_ROW_SLICE || role == SLP_SHARD_ROW_NAMES) ? -1 : c;
        const slp_shard_file_t *entry = slp_shard_manifest_find(&slp_fuzz_shard_man_, role, fr, fc);
        if (!entry)
            abort();
        snprintf(path, sizeof path, "%s/%s", slp_fuzz_shard_dir_, entry->path);
        size_t orig_size;
        uint8_t *orig = slp_fuzz_shard_slurp_(path, &orig_size);
        size_t len = size - 3;
        uint8_t *file = malloc(len ? len : 1);
        memcpy(file, data + 3, len);
        if ((flags & 1) && len >= 128)
            slp_fuzz_put_u32_(file + 124, (uint32_t)crc32(0L, file, 124));
        uint32_t crc = 0;
        if (len >= 4) {
            crc = (uint32_t)crc32(0L, file, (uInt)(len - 4));
            if (flags & 2)
                slp_fuzz_put_u32_(file + len - 4, crc);
        }
        slp_fuzz_write(path, file, len);
        /* The manifest lists the fuzzed file with its real size and checksum. */
        slp_shard_file_t saved = *entry;
        slp_shard_file_t *e = (slp_shard_file_t *)entry;
        e->bytes = (int64_t)len;
        e->crc32 = crc;
        if (slp_shard_manifest_write(slp_fuzz_shard_dir_, &slp_fuzz_shard_man_) != SLP_OK)
            abort();
        slp_fuzz_shard_read_all_(r, c);
        *e = saved;
        slp_fuzz_write(path, orig, orig_size);
        if (slp_shard_manifest_write(slp_fuzz_shard_dir_, &slp_fuzz_shard_man_) != SLP_OK)
            abort();
        free(orig);
        free(file);
    }
    slp_error_clear();
    return 0;
}

/* Seeds of every file (or every block) of the directory `dir` (manifest `man`) with its
 * selector bytes; `prefix` starts their names. */
static void slp_fuzz_shard_file_seeds_(const char *dir, const slp_shard_manifest_t *man,
                                       const char *out, const char *prefix, int blocks_only)
{
    for (int64_t k = 0; k < man->nfiles; k++) {
        const slp_shard_file_t *e = &man->files[k];
        if (blocks_only && e->role != SLP_SHARD_BLOCK)
            continue;
        int mode = e->role == SLP_SHARD_BLOCK       ? 2
                   : e->role == SLP_SHARD_COL_SLICE ? 3
                   : e->role == SLP_SHARD_ROW_SLICE ? 4
                                                    : 5;
        char path[400];
        snprintf(path, sizeof path, "%s/%s", dir, e->path);
        size_t n;
        uint8_t *buf = slp_fuzz_shard_slurp_(path, &n);
        uint8_t *seed = malloc(n + 3);
        seed[0] = (uint8_t)mode;
        seed[1] = (uint8_t)((e->r > 0 ? 1 : 0) | (e->c > 0 ? 2 : 0));
        seed[2] = (uint8_t)(3 | (e->role == SLP_SHARD_ROW_NAMES ? 4 : 0));
        memcpy(seed + 3, buf, n);
        snprintf(path, sizeof path, "%s/%s%s", out, prefix, e->path);
        slp_fuzz_write(path, seed, n + 3);
        free(seed);
        free(buf);
    }
}

/* Seeds for the binary modes: every file of the base directory, and the blocks of the
 * same model written with compact values (version 2 block files: docs/shard-format.md),
 * with their selector bytes (fuzz/build.sh calls this through SLP_FUZZ_SHARD_SEEDS=DIR). */
void slp_fuzz_shard_write_seeds(const char *out);
void slp_fuzz_shard_write_seeds(const char *out)
{
    slp_fuzz_shard_init_();
    slp_fuzz_shard_file_seeds_(slp_fuzz_shard_dir_, &slp_fuzz_shard_man_, out, "seed_", 0);
    char mps[300], compact[300];
    snprintf(mps, sizeof mps, "%s/shard_model.mps", slp_fuzz_scratch());
    snprintf(compact, sizeof compact, "%s/compact.shards", slp_fuzz_scratch());
    slp_model_t *model = NULL;
    slp_shard_manifest_t cman;
    if (slp_mps_read(mps, &model) == SLP_OK &&
        slp_shard_write_model(model, 2, 2, 1, compact) == SLP_OK &&
        slp_shard_read_manifest(compact, &cman) == SLP_OK) {
        slp_fuzz_shard_file_seeds_(compact, &cman, out, "seed_compact_", 1);
        slp_shard_manifest_free(&cman);
    }
    slp_model_destroy(&model);
    char mpath[400];
    snprintf(mpath, sizeof mpath, "%s/%s", slp_fuzz_shard_dir_, SLP_SHARD_MANIFEST);
    size_t n;
    uint8_t *buf = slp_fuzz_shard_slurp_(mpath, &n);
    uint8_t *seed = malloc(n + 1);
    seed[0] = 0;
    memcpy(seed + 1, buf, n);
    snprintf(mpath, sizeof mpath, "%s/seed_manifest.json", out);
    slp_fuzz_write(mpath, seed, n + 1);
    free(seed);
    free(buf);
}

#ifndef SLP_FUZZ_NO_INIT
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *seeds = getenv("SLP_FUZZ_SHARD_SEEDS");
    if (seeds) {
        slp_fuzz_shard_write_seeds(seeds);
        exit(0);
    }
    return 0;
}
#endif
