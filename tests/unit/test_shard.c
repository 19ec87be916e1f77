/* Shard format: round trip model -> shards -> every rank's local problem on several grid
 * shapes (simulated in one process), bounded-memory conversion byte-identical to the
 * in-memory path, corrupted and mismatched directories, names, solution slices and the
 * automatic grid. Expected values come from the generated model itself (entries are
 * compared exactly: the format stores float64 bit patterns). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "shard/shard.h"
#include "shard/shard_internal.h"

static char base[256];

/* A random-ish LP with empty rows and columns, names, maximisation and a constant. */
static slp_model_t *make_model(int64_t m, int64_t n, unsigned seed, int names)
{
    slp_model_t *model = NULL;
    if (m < 1 || n < 1)
        return NULL;
    int64_t cap = m * n;
    if (slp_model_create(m, n, cap, &model) != SLP_OK)
        return NULL;
    unsigned s = seed;
    int64_t k = 0;
    for (int64_t j = 0; j < n; j++) {
        model->col_ptr[j] = k;
        for (int64_t i = 0; i < m; i++) {
            s = s * 1103515245u + 12345u;
            if (j % 7 == 3 || i % 5 == 4) /* empty columns and rows */
                continue;
            if ((s >> 16) % 100 < 30) {
                model->row_idx[k] = i;
                model->val[k++] = ((double)((s >> 8) % 2001) - 1000.0) / 7.0;
            }
        }
        model->c[j] = (double)j / 3.0 - 2.0;
        model->lv[j] = j % 3 ? 0.0 : -INFINITY;
        model->uv[j] = j % 4 ? INFINITY : 10.0 + (double)j;
    }
    model->col_ptr[n] = k;
    model->nnz = k;
    for (int64_t i = 0; i < m; i++) {
        model->lc[i] = i % 2 ? -INFINITY : (double)i;
        model->uc[i] = i % 3 ? 100.5 : INFINITY;
    }
    model->sense = -1;
    model->obj_const = 1.25;
    free(model->name);
    model->name = strdup("testlp");
    if (names) {
        model->row_names = calloc((size_t)m, sizeof(char *));
        model->col_names = calloc((size_t)n, sizeof(char *));
        char buf[64];
        for (int64_t i = 0; i < m; i++) {
            snprintf(buf, sizeof buf, "row_%lld", (long long)i);
            model->row_names[i] = strdup(buf);
        }
        for (int64_t j = 0; j < n; j++) {
            snprintf(buf, sizeof buf, "x%lld", (long long)j);
            model->col_names[j] = strdup(buf);
        }
    }
    return model;
}

static void path_of(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", base, name);
}

static void rm_dir(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", dir);
}

static void copy_dir(const char *from, const char *to)
{
    char cmd[800];
    rm_dir(to);
    snprintf(cmd, sizeof cmd, "cp -r '%s' '%s'", from, to);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot copy %s\n", from);
}

/* Every rank's local problem against the model's entries. */
static void check_round_trip(const slp_model_t *model, int R, int C, const char *dir)
{
    slp_shard_manifest_t man;
    slp_err rc = slp_shard_read_manifest(dir, &man);
    CHECK(rc == SLP_OK, "%dx%d manifest: %s", R, C, slp_error_message());
    if (rc != SLP_OK)
        return;
    CHECK(man.R == R && man.C == C && man.m == model->m && man.n == model->n &&
              man.nnz == model->nnz && man.sense == -1 && man.obj_const == 1.25,
          "%dx%d manifest fields", R, C);
    /* Dense copy of A for comparison. */
    double *dense = calloc((size_t)(model->m * model->n), sizeof(double));
    char *present = calloc((size_t)(model->m * model->n), 1);
    for (int64_t j = 0; j < model->n; j++)
        for (int64_t k = model->col_ptr[j]; k < model->col_ptr[j + 1]; k++) {
            dense[model->row_idx[k] * model->n + j] = model->val[k];
            present[model->row_idx[k] * model->n + j] = 1;
        }
    int64_t seen = 0;
    int bad_entries = 0, bad_vectors = 0;
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            slp_local_problem_t lp;
            rc = slp_shard_read_block(dir, &man, r, c, &lp);
            CHECK(rc == SLP_OK, "%dx%d read (%d,%d): %s", R, C, r, c, slp_error_message());
            if (rc != SLP_OK)
                continue;
            CHECK(lp.r == r && lp.c == c && lp.row_lo == man.row_off[r] &&
                      lp.col_lo == man.col_off[c] && lp.A.nnz == man.block_nnz[r * C + c],
                  "%dx%d block (%d,%d) position", R, C, r, c);
            for (int64_t i = 0; i < lp.m_loc; i++)
                for (int64_t k = lp.A.row_ptr[i]; k < lp.A.row_ptr[i + 1]; k++) {
                    int64_t gi = lp.row_lo + i, gj = lp.col_lo + lp.A.col_idx[k];
                    if (!present[gi * model->n + gj] || dense[gi * model->n + gj] != lp.A.val[k])
                        bad_entries++;
                    seen++;
                }
            for (int64_t j = 0; j < lp.n_loc; j++) {
                int64_t g = lp.col_lo + j;
                if (memcmp(&lp.obj[j], &model->c[g], 8) || memcmp(&lp.lv[j], &model->lv[g], 8) ||
                    memcmp(&lp.uv[j], &model->uv[g], 8))
                    bad_vectors++;
            }
            for (int64_t i = 0; i < lp.m_loc; i++) {
                int64_t g = lp.row_lo + i;
                if (memcmp(&lp.lc[i], &model->lc[g], 8) || memcmp(&lp.uc[i], &model->uc[g], 8))
                    bad_vectors++;
            }
            slp_local_problem_free(&lp);
        }
    CHECK(bad_entries == 0 && seen == model->nnz, "%dx%d: %d wrong entries, %lld of %lld seen", R,
          C, bad_entries, (long long)seen, (long long)model->nnz);
    CHECK(bad_vectors == 0, "%dx%d: %d wrong vector entries", R, C, bad_vectors);
    /* Names, block by block. */
    int bad_names = 0;
    for (int r = 0; r < R; r++) {
        slp_shard_names_t nm;
        if (slp_shard_read_names(dir, &man, 1, r, &nm) != SLP_OK) {
            bad_names++;
            continue;
        }
        for (int64_t k = 0; k < nm.count; k++)
            if (strcmp(nm.name[k], model->row_names[man.row_off[r] + k]))
                bad_names++;
        slp_shard_names_free(&nm);
    }
    for (int c = 0; c < C; c++) {
        slp_shard_names_t nm;
        if (slp_shard_read_names(dir, &man, 0, c, &nm) != SLP_OK) {
            bad_names++;
            continue;
        }
        for (int64_t k = 0; k < nm.count; k++)
            if (strcmp(nm.name[k], model->col_names[man.col_off[c] + k]))
                bad_names++;
        slp_shard_names_free(&nm);
    }
    CHECK(bad_names == 0, "%dx%d: %d wrong names", R, C, bad_names);
    free(dense);
    free(present);
    slp_shard_manifest_free(&man);
}

static int files_identical(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        int x = fgetc(fa), y = fgetc(fb);
        if (x != y)
            same = 0;
        if (x == EOF || y == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

static int dirs_identical(const char *a, const char *b)
{
    slp_shard_manifest_t man;
    if (slp_shard_read_manifest(a, &man) != SLP_OK)
        return 0;
    char pa[512], pb[512];
    snprintf(pa, sizeof pa, "%s/manifest.json", a);
    snprintf(pb, sizeof pb, "%s/manifest.json", b);
    int same = files_identical(pa, pb);
    for (int64_t k = 0; same && k < man.nfiles; k++) {
        snprintf(pa, sizeof pa, "%s/%s", a, man.files[k].path);
        snprintf(pb, sizeof pb, "%s/%s", b, man.files[k].path);
        same = files_identical(pa, pb);
    }
    slp_shard_manifest_free(&man);
    return same;
}

/* A source that delivers the model's entries backwards (rows unsorted within blocks). */
static slp_err reverse_scan(void *ctx, slp_shard_entry_fn entry, void *user, slp_model_t **skel)
{
    const slp_model_t *model = ctx;
    if (skel) {
        slp_shard_source_t fwd;
        slp_shard_model_source(model, &fwd);
        int64_t *rn = NULL, *cn = NULL;
        SLP_CALL(slp_shard_count(&fwd, &rn, &cn, skel));
        free(rn);
        free(cn);
    }
    for (int64_t j = model->n - 1; j >= 0; j--)
        for (int64_t k = model->col_ptr[j + 1] - 1; k >= model->col_ptr[j]; k--)
            SLP_CALL(entry(user, model->row_idx[k], j, model->val[k]));
    return SLP_OK;
}

/* Flip one byte of a file at offset. */
static void flip_byte(const char *path, long offset)
{
    FILE *f = fopen(path, "r+b");
    if (!f)
        return;
    fseek(f, offset, SEEK_SET);
    int ch = fgetc(f);
    fseek(f, offset, SEEK_SET);
    fputc(ch ^ 0x5A, f);
    fclose(f);
}

static void replace_in_file(const char *path, const char *from, const char *to)
{
    FILE *f = fopen(path, "rb");
    char buf[65536];
    size_t len = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[len] = '\0';
    char *p = strstr(buf, from);
    if (!p)
        return;
    char out[70000];
    snprintf(out, sizeof out, "%.*s%s%s", (int)(p - buf), buf, to, p + strlen(from));
    f = fopen(path, "wb");
    fputs(out, f);
    fclose(f);
}

/* Expect reading `dir` (every block) to fail with a message containing `needle`. */
static void expect_read_error(const char *dir, const char *needle, const char *what)
{
    slp_error_clear();
    slp_shard_manifest_t man;
    slp_err rc = slp_shard_read_manifest(dir, &man);
    int have_manifest = rc == SLP_OK;
    for (int r = 0; rc == SLP_OK && r < man.R; r++)
        for (int c = 0; rc == SLP_OK && c < man.C; c++) {
            slp_local_problem_t lp;
            rc = slp_shard_read_block(dir, &man, r, c, &lp);
            if (rc == SLP_OK)
                slp_local_problem_free(&lp);
        }
    if (have_manifest)
        slp_shard_manifest_free(&man);
    CHECK(rc != SLP_OK && strstr(slp_error_message(), needle), "%s: rc %d, message '%s' (want '%s')",
          what, rc, slp_error_message(), needle);
    slp_error_clear();
}

static void test_corruption(const char *good)
{
    char dir[512], file[600];
    path_of(dir, sizeof dir, "bad.shards");

    copy_dir(good, dir);
    snprintf(file, sizeof file, "%s/block_1_0.bin", dir);
    if (truncate(file, 150) != 0)
        perror("truncate");
    expect_read_error(dir, "block_1_0.bin: file is 150 bytes but the manifest says", "truncated block");

    copy_dir(good, dir);
    flip_byte(file, 200);
    expect_read_error(dir, "block_1_0.bin: checksum mismatch", "flipped payload byte");

    copy_dir(good, dir);
    flip_byte(file, 40);
    expect_read_error(dir, "block_1_0.bin: header checksum mismatch", "flipped header byte");

    copy_dir(good, dir);
    flip_byte(file, 0);
    expect_read_error(dir, "block_1_0.bin: wrong magic", "wrong magic");

    /* Version 2 with a valid header checksum. */
    copy_dir(good, dir);
    {
        FILE *f = fopen(file, "r+b");
        unsigned char h[128];
        if (f && fread(h, 1, 128, f) == 128) {
            h[8] = 3;
            uint32_t crc = (uint32_t)crc32(0L, h, 124);
            for (int k = 0; k < 4; k++)
                h[124 + k] = (unsigned char)(crc >> (8 * k));
            fseek(f, 0, SEEK_SET);
            fwrite(h, 1, 128, f);
        }
        if (f)
            fclose(f);
    }
    expect_read_error(dir, "block_1_0.bin: format version 3, this reader supports 1 and 2",
                      "wrong file version");

    copy_dir(good, dir);
    snprintf(file, sizeof file, "%s/row_1.bin", dir);
    remove(file);
    expect_read_error(dir, "row_1.bin: cannot open", "missing file");

    /* A block from another position: swap two equal-sized files and their manifest lines
     * would still be caught by the header's r/c; here: copy block_0_0 over block_1_1. */
    copy_dir(good, dir);
    {
        char a[600], b[600], cmd[1300];
        snprintf(a, sizeof a, "%s/block_0_0.bin", dir);
        snprintf(b, sizeof b, "%s/block_1_1.bin", dir);
        snprintf(cmd, sizeof cmd, "cp '%s' '%s'", a, b);
        if (system(cmd) != 0)
            perror("cp");
    }
    expect_read_error(dir, "block_1_1.bin", "block in the wrong place");

    snprintf(file, sizeof file, "%s/manifest.json", dir);
    copy_dir(good, dir);
    replace_in_file(file, "\"version\": 1", "\"version\": 7");
    expect_read_error(dir, "manifest.json: format version 7", "manifest version");

    copy_dir(good, dir);
    replace_in_file(file, "\"grid\": [2, 3]", "\"grid\": [3, 2]");
    expect_read_error(dir, "manifest.json: field 'row_off' must be an array of 4", "manifest grid");

    copy_dir(good, dir);
    replace_in_file(file, "\"nnz\":", "\"nnz\" ");
    expect_read_error(dir, "manifest.json:7: malformed JSON: expected ':'", "malformed manifest");

    copy_dir(good, dir);
    {
        /* The first listed checksum, off by one (the file itself is intact). */
        FILE *mf = fopen(file, "rb");
        char text[65536];
        size_t len = mf ? fread(text, 1, sizeof text - 1, mf) : 0;
        if (mf)
            fclose(mf);
        text[len] = '\0';
        char *p = strstr(text, "\"crc32\": ");
        if (p) {
            unsigned long v = strtoul(p + 9, NULL, 10);
            char from[64], to[64];
            snprintf(from, sizeof from, "\"crc32\": %lu", v);
            snprintf(to, sizeof to, "\"crc32\": %lu", v ^ 1ul);
            replace_in_file(file, from, to);
        }
    }
    expect_read_error(dir, "does not match", "manifest checksum"); /* the fingerprint or the block */

    copy_dir(good, dir);
    remove(file);
    expect_read_error(dir, "manifest.json: cannot open", "missing manifest");
    rm_dir(dir);
}

static void test_solution(void)
{
    char dir[512];
    path_of(dir, sizeof dir, "sol");
    mkdir(dir, 0777);
    /* A 2x3 grid's slices written one by one, as ranks (0, c) and (r, 0) would. */
    int64_t row_off[3] = {0, 4, 7}, col_off[4] = {0, 2, 5, 9};
    double v[9], w[9];
    for (int k = 0; k < 9; k++) {
        v[k] = k * 1.5;
        w[k] = -k / 3.0;
    }
    slp_shard_solution_manifest_t man;
    memset(&man, 0, sizeof man);
    snprintf(man.status, sizeof man.status, "optimal");
    man.objective = -464.75;
    man.dual_objective = -464.7;
    man.iterations = 1234;
    man.m = 7;
    man.n = 9;
    man.R = 2;
    man.C = 3;
    man.row_off = row_off;
    man.col_off = col_off;
    slp_shard_file_t files[5];
    man.files = files;
    man.nfiles = 5;
    slp_err rc = SLP_OK;
    for (int c = 0; c < 3 && rc == SLP_OK; c++)
        rc = slp_shard_write_solution_slice(dir, SLP_SHARD_SOL_X, 2, 3, c, col_off[c],
                                            col_off[c + 1] - col_off[c], 7, 9, v + col_off[c],
                                            w + col_off[c], &files[c]);
    for (int r = 0; r < 2 && rc == SLP_OK; r++)
        rc = slp_shard_write_solution_slice(dir, SLP_SHARD_SOL_Y, 2, 3, r, row_off[r],
                                            row_off[r + 1] - row_off[r], 7, 9, w + row_off[r],
                                            v + row_off[r], &files[3 + r]);
    if (rc == SLP_OK)
        rc = slp_shard_write_solution_manifest(dir, &man);
    CHECK(rc == SLP_OK, "solution write: %s", slp_error_message());
    slp_shard_solution_manifest_t back;
    rc = slp_shard_read_solution_manifest(dir, &back);
    CHECK(rc == SLP_OK, "solution manifest read: %s", slp_error_message());
    if (rc == SLP_OK) {
        CHECK(!strcmp(back.status, "optimal") && back.objective == -464.75 &&
                  back.iterations == 1234 && back.R == 2 && back.C == 3,
              "solution manifest fields");
        int bad = 0;
        for (int c = 0; c < 3; c++) {
            int64_t len;
            double *x, *rcost;
            if (slp_shard_read_solution_slice(dir, &back, SLP_SHARD_SOL_X, c, &len, &x, &rcost)) {
                bad++;
                continue;
            }
            for (int64_t k = 0; k < len; k++)
                bad += x[k] != v[col_off[c] + k] || rcost[k] != w[col_off[c] + k];
            free(x);
            free(rcost);
        }
        for (int r = 0; r < 2; r++) {
            int64_t len;
            double *y, *ax;
            if (slp_shard_read_solution_slice(dir, &back, SLP_SHARD_SOL_Y, r, &len, &y, &ax)) {
                bad++;
                continue;
            }
            bad += len != row_off[r + 1] - row_off[r];
            for (int64_t k = 0; k < len; k++)
                bad += y[k] != w[row_off[r] + k] || ax[k] != v[row_off[r] + k];
            free(y);
            free(ax);
        }
        CHECK(bad == 0, "%d wrong solution values", bad);
        slp_shard_solution_manifest_free(&back);
    }
    /* The collective writer on a 1x1 grid (trivial communication layer). */
    slp_grid_t *grid = NULL;
    char dir2[512];
    path_of(dir2, sizeof dir2, "sol11");
    rc = slp_grid_create(1, 1, &grid);
    slp_local_problem_t lp;
    memset(&lp, 0, sizeof lp);
    if (rc == SLP_OK)
        rc = slp_local_problem_alloc(&lp, 1, 1, 7, 9, 0);
    if (rc == SLP_OK) {
        lp.m = 7;
        lp.n = 9;
        lp.row_off[1] = 7;
        lp.col_off[1] = 9;
        slp_shard_solution_values_t sv = {"optimal", 1.0, 1.0, 10, v, w, w, v, NULL, NULL};
        rc = slp_shard_write_solution(dir2, grid, &lp, &sv);
        /* Writing again replaces the previous solution directory. */
        slp_shard_solution_values_t again = {"time_limit", 2.0, 1.0, 20, v, w, w, v, NULL, NULL};
        if (rc == SLP_OK)
            rc = slp_shard_write_solution(dir2, grid, &lp, &again);
    }
    CHECK(rc == SLP_OK, "collective solution write: %s", slp_error_message());
    rc = slp_shard_read_solution_manifest(dir2, &back);
    CHECK(rc == SLP_OK && !strcmp(back.status, "time_limit") && back.objective == 2.0,
          "rewritten solution: %s", slp_error_message());
    if (rc == SLP_OK)
        slp_shard_solution_manifest_free(&back);
    slp_local_problem_free(&lp);
    slp_grid_destroy(&grid);
    rm_dir(dir);
    rm_dir(dir2);
}

/* A block beyond 32-bit local indices is refused before any allocation (a 3e9-row
 * block would otherwise be cast to int32 in the transpose). */
/* ---- Compact values (docs/shard-format.md, "Block payload") ---------------------------- */

/* Every value of the model replaced by one of `kinds` values (+1/-1 for kinds = 2):
 * distinct values per block drive the form the writer picks. */
static void set_values(slp_model_t *model, int kinds)
{
    for (int64_t k = 0; k < model->nnz; k++) {
        int v = (int)((k * 2654435761u) % (unsigned)kinds);
        model->val[k] = kinds == 2 ? (v ? -1.0 : 1.0) : 0.5 + (double)v / 3.0;
    }
}

/* The values form and version in a block file's header. */
static void block_form(const char *dir, const char *file, uint32_t *version, uint32_t *form,
                       uint32_t *table_len)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    unsigned char h[128] = {0};
    FILE *f = fopen(path, "rb");
    if (f) {
        if (fread(h, 1, 128, f) != 128)
            memset(h, 0, sizeof h);
        fclose(f);
    }
    *version = slp_le_get_u32(h + 8);
    *form = slp_le_get_u32(h + 96);
    *table_len = slp_le_get_u32(h + 100);
}

static long file_size(const char *dir, const char *file)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* After a test changed a block's payload: a valid trailer and manifest again, so that
 * only the reader's own checks can catch the change (a forged file). */
static void reseal(const char *dir, const char *file, int r, int c)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r+b");
    if (!f)
        return;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    unsigned char *bytes = malloc((size_t)size);
    fseek(f, 0, SEEK_SET);
    if (bytes && fread(bytes, 1, (size_t)size, f) == (size_t)size) {
        uint32_t crc = (uint32_t)crc32(0L, bytes, (uInt)(size - 4));
        unsigned char t[4];
        slp_le_put_u32(t, crc);
        fseek(f, size - 4, SEEK_SET);
        fwrite(t, 1, 4, f);
        slp_shard_manifest_t man;
        if (slp_shard_read_manifest(dir, &man) == SLP_OK) {
            slp_shard_file_t *e = (slp_shard_file_t *)slp_shard_manifest_find(&man, SLP_SHARD_BLOCK,
                                                                              r, c);
            if (e)
                e->crc32 = crc;
            fclose(f);
            f = NULL;
            slp_shard_manifest_write(dir, &man);
            slp_shard_manifest_free(&man);
        }
    }
    free(bytes);
    if (f)
        fclose(f);
}

/* Values +-1 (signed-unit), a few distinct (table8) and many (table16): written compact
 * by the in-memory writer and by the streaming one (several chunks and one), the two
 * byte-identical; read back bit for bit; the 1x1 block in the expected form and
 * smaller than the plain file; forged tables refused. */
static void test_compact_values(void)
{
    static const struct {
        int64_t m, n;
        int kinds;
        uint32_t form;
        const char *name;
    } cases[] = {{23, 31, 2, SLP_VALUES_SIGNED, "signed-unit"},
                 {23, 31, 5, SLP_VALUES_TABLE8, "table8"},
                 {90, 120, 700, SLP_VALUES_TABLE16, "table16"},
                 {23, 31, 0, SLP_VALUES_PLAIN, "plain"}};
    int grids[][2] = {{1, 1}, {2, 3}};
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        slp_model_t *model = make_model(cases[t].m, cases[t].n, 11u, 1);
        if (!model)
            continue;
        if (cases[t].kinds)
            set_values(model, cases[t].kinds);
        for (size_t g = 0; g < 2; g++) {
            int R = grids[g][0], C = grids[g][1];
            char dir[512], pdir[512], sdir[512], name[64];
            snprintf(name, sizeof name, "c%s%dx%d.shards", cases[t].name, R, C);
            path_of(dir, sizeof dir, name);
            slp_err rc = slp_shard_write_model(model, R, C, 1, dir);
            CHECK(rc == SLP_OK, "%s %dx%d compact write: %s", cases[t].name, R, C,
                  slp_error_message());
            check_round_trip(model, R, C, dir);
            for (int b = 0; b < 2; b++) {
                path_of(sdir, sizeof sdir, "cstream.shards");
                slp_shard_source_t src;
                slp_shard_model_source(model, &src);
                rc = slp_shard_write_stream(&src, R, C, b ? ((int64_t)1 << 26) : 40, 1, sdir);
                CHECK(rc == SLP_OK && dirs_identical(dir, sdir),
                      "%s %dx%d compact stream (budget %d) not byte-identical: %s",
                      cases[t].name, R, C, b, slp_error_message());
                rm_dir(sdir);
            }
            if (R == 1) {
                uint32_t version, form, table_len;
                block_form(dir, "block_0_0.bin", &version, &form, &table_len);
                uint32_t want_version = cases[t].form == SLP_VALUES_PLAIN ? 1 : 2;
                CHECK(form == cases[t].form && version == want_version,
                      "%s: block form %u version %u (want %u, %u)", cases[t].name, form, version,
                      cases[t].form, want_version);
                path_of(pdir, sizeof pdir, "cplain.shards");
                rc = slp_shard_write_model(model, R, C, 0, pdir);
                long compact = file_size(dir, "block_0_0.bin");
                long plain = file_size(pdir, "block_0_0.bin");
                CHECK(rc == SLP_OK && (cases[t].form == SLP_VALUES_PLAIN ? compact == plain
                                                                         : compact < plain),
                      "%s: compact block %ld bytes, plain %ld", cases[t].name, compact, plain);
                if (cases[t].form == SLP_VALUES_SIGNED) /* the values take no bytes */
                    CHECK(compact == 128 + 8 * (model->m + 1) + 4 * model->nnz + 4,
                          "signed-unit block of %ld bytes", compact);
                rm_dir(pdir);
                if (cases[t].form == SLP_VALUES_TABLE8) {
                    /* A code past the table, with valid checksums: the reader's check. */
                    char file[700];
                    snprintf(file, sizeof file, "%s/block_0_0.bin", dir);
                    FILE *f = fopen(file, "r+b");
                    if (f) {
                        fseek(f, file_size(dir, "block_0_0.bin") - 5, SEEK_SET);
                        fputc(200, f);
                        fclose(f);
                    }
                    reseal(dir, "block_0_0.bin", 0, 0);
                    expect_read_error(dir, "has a value code past the block's table of 5 values",
                                      "forged table code");
                    /* A table length past what 1-byte codes address. */
                    f = fopen(file, "r+b");
                    unsigned char h[128];
                    if (f && fread(h, 1, 128, f) == 128) {
                        slp_le_put_u32(h + 100, 300);
                        slp_le_put_u32(h + 124, (uint32_t)crc32(0L, h, 124));
                        fseek(f, 0, SEEK_SET);
                        fwrite(h, 1, 128, f);
                    }
                    if (f)
                        fclose(f);
                    reseal(dir, "block_0_0.bin", 0, 0);
                    expect_read_error(dir, "300 table values for a table8 block", "table too long");
                }
            }
            rm_dir(dir);
        }
        slp_model_destroy(&model);
    }
}

static void test_block_index_limit(void)
{
    slp_local_problem_t lp;
    slp_error_clear();
    CHECK(slp_local_problem_alloc(&lp, 1, 1, (int64_t)3000000000, 1, 0) == SLP_ERR_INPUT,
          "3e9 local rows accepted");
    CHECK(strstr(slp_error_message(), "use a grid with more rows") != NULL, "message: %s",
          slp_error_message());
    CHECK(lp.lc == NULL && lp.A.row_ptr == NULL, "nothing allocated");
    slp_error_clear();
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    test_block_index_limit();
    snprintf(base, sizeof base, "/tmp/test_shard.%ld", (long)getpid());
    mkdir(base, 0777);
    test_compact_values();
    slp_model_t *model = make_model(23, 31, 7u, 1);
    CHECK(model && model->nnz > 50, "test model built");
    if (!model)
        return check_summary();

    int grids[][2] = {{1, 1}, {2, 2}, {1, 4}, {4, 1}, {2, 3}};
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
        int R = grids[g][0], C = grids[g][1];
        char dir[512], sdir[512], name[64];
        snprintf(name, sizeof name, "m%dx%d.shards", R, C);
        path_of(dir, sizeof dir, name);
        slp_err rc = slp_shard_write_model(model, R, C, 0, dir);
        CHECK(rc == SLP_OK, "write %dx%d: %s", R, C, slp_error_message());
        check_round_trip(model, R, C, dir);
        /* Bounded path: a tiny budget (multi-chunk blocks) and a large one. */
        for (int b = 0; b < 2; b++) {
            snprintf(name, sizeof name, "s%dx%d_%d.shards", R, C, b);
            path_of(sdir, sizeof sdir, name);
            slp_shard_source_t src;
            slp_shard_model_source(model, &src);
            rc = slp_shard_write_stream(&src, R, C, b ? ((int64_t)1 << 26) : 40, 0, sdir);
            CHECK(rc == SLP_OK, "stream %dx%d: %s", R, C, slp_error_message());
            CHECK(dirs_identical(dir, sdir), "stream %dx%d budget %d: not byte-identical", R, C, b);
            rm_dir(sdir);
        }
        slp_shard_source_t rev = {model, reverse_scan, "model", 1};
        path_of(sdir, sizeof sdir, "rev.shards");
        rc = slp_shard_write_stream(&rev, R, C, 100, 0, sdir);
        CHECK(rc == SLP_OK && dirs_identical(dir, sdir), "stream %dx%d of reversed entries: %s", R,
              C, slp_error_message());
        rm_dir(sdir);
        if (R != 2 || C != 3)
            rm_dir(dir);
    }

    /* Corruption and mismatch cases on the 2x3 directory. */
    char good[512];
    path_of(good, sizeof good, "m2x3.shards");
    test_corruption(good);

    /* Overwriting: a shard directory is replaced; a foreign non-empty directory is not. */
    slp_err rc = slp_shard_write_model(model, 1, 2, 0, good);
    CHECK(rc == SLP_OK, "overwrite a shard directory: %s", slp_error_message());
    char foreign[512], stray[600];
    path_of(foreign, sizeof foreign, "foreign");
    mkdir(foreign, 0777);
    snprintf(stray, sizeof stray, "%s/keep.txt", foreign);
    FILE *f = fopen(stray, "w");
    fputs("user data\n", f);
    fclose(f);
    slp_error_clear();
    rc = slp_shard_write_model(model, 1, 2, 0, foreign);
    CHECK(rc != SLP_OK && strstr(slp_error_message(), "refusing to overwrite"),
          "foreign directory: %s", slp_error_message());
    struct stat st;
    CHECK(stat(stray, &st) == 0, "foreign directory left intact");
    slp_error_clear();

    /* A failed conversion leaves nothing behind: duplicate entries on the streaming path. */
    {
        slp_model_t *dup = make_model(5, 4, 3u, 0);
        int64_t j = 0;
        while (dup->col_ptr[j + 1] - dup->col_ptr[j] < 2)
            j++;
        int64_t k = dup->col_ptr[j];
        dup->row_idx[k + 1] = dup->row_idx[k]; /* same row twice in column j */
        slp_shard_source_t src;
        slp_shard_model_source(dup, &src);
        char dd[512], tmpd[600];
        path_of(dd, sizeof dd, "dup.shards");
        rc = slp_shard_write_stream(&src, 2, 2, 1000, 0, dd);
        CHECK(rc != SLP_OK && strstr(slp_error_message(), "duplicate"), "duplicate entry: %s",
              slp_error_message());
        snprintf(tmpd, sizeof tmpd, "%s.tmp.%ld", dd, (long)getpid());
        CHECK(stat(dd, &st) != 0 && stat(tmpd, &st) != 0, "no partial output after a failure");
        slp_error_clear();
        slp_model_destroy(&dup);
    }

    /* Names absent: generated R<i> / C<j> with global indices. */
    {
        slp_model_t *plain = make_model(9, 6, 5u, 0);
        char pd[512];
        path_of(pd, sizeof pd, "plain.shards");
        rc = slp_shard_write_model(plain, 2, 2, 0, pd);
        slp_shard_manifest_t man;
        if (rc == SLP_OK)
            rc = slp_shard_read_manifest(pd, &man);
        CHECK(rc == SLP_OK && !man.has_names, "unnamed model: %s", slp_error_message());
        if (rc == SLP_OK) {
            slp_shard_names_t nm;
            rc = slp_shard_read_names(pd, &man, 0, 1, &nm);
            char want[32];
            snprintf(want, sizeof want, "C%lld", (long long)man.col_off[1]);
            CHECK(rc == SLP_OK && nm.count == man.col_off[2] - man.col_off[1] &&
                      !strcmp(nm.name[0], want),
                  "generated names");
            if (rc == SLP_OK)
                slp_shard_names_free(&nm);
            slp_shard_manifest_free(&man);
        }
        rm_dir(pd);
        slp_model_destroy(&plain);
    }

    /* Automatic grid: a generous budget gives 1x1; a tight one more ranks, and the
     * picked grid really fits while every grid with fewer ranks does not. */
    {
        slp_shard_source_t src;
        slp_shard_model_source(model, &src);
        int64_t *rn = NULL, *cn = NULL;
        slp_model_t *skel = NULL;
        rc = slp_shard_count(&src, &rn, &cn, &skel);
        int R = 0, C = 0;
        int64_t bytes = 0;
        if (rc == SLP_OK)
            rc = slp_shard_pick_grid(&src, model->m, model->n, rn, cn, 1 << 20, &R, &C, &bytes);
        CHECK(rc == SLP_OK && R == 1 && C == 1, "auto grid, large budget: %dx%d", R, C);
        int64_t budget = 2000;
        if (rc == SLP_OK)
            rc = slp_shard_pick_grid(&src, model->m, model->n, rn, cn, budget, &R, &C, &bytes);
        CHECK(rc == SLP_OK && R * C > 1 && bytes <= budget, "auto grid, tight budget: %dx%d %lld",
              R, C, (long long)bytes);
        if (rc == SLP_OK) {
            char ad[512];
            path_of(ad, sizeof ad, "auto.shards");
            slp_shard_manifest_t man;
            if (slp_shard_write_model(model, R, C, 0, ad) == SLP_OK &&
                slp_shard_read_manifest(ad, &man) == SLP_OK) {
                int64_t worst = 0;
                for (int r = 0; r < R; r++)
                    for (int c = 0; c < C; c++) {
                        int64_t a, b;
                        slp_shard_rank_bytes(&man, r, c, &a, &b);
                        if (a + b > worst)
                            worst = a + b;
                    }
                CHECK(worst == bytes, "auto grid bytes %lld == written %lld", (long long)bytes,
                      (long long)worst);
                slp_shard_manifest_free(&man);
            }
            /* Every grid with fewer ranks needs more than the budget. */
            for (int P = 1; P < R * C; P++)
                for (int r2 = 1; r2 <= P; r2++) {
                    if (P % r2)
                        continue;
                    int c2 = P / r2;
                    int64_t worst = 0;
                    if (slp_shard_write_model(model, r2, c2, 0, ad) == SLP_OK &&
                        slp_shard_read_manifest(ad, &man) == SLP_OK) {
                        for (int r = 0; r < r2; r++)
                            for (int c = 0; c < c2; c++) {
                                int64_t a, b;
                                slp_shard_rank_bytes(&man, r, c, &a, &b);
                                if (a + b > worst)
                                    worst = a + b;
                            }
                        slp_shard_manifest_free(&man);
                    }
                    CHECK(worst > budget, "grid %dx%d needs %lld > %lld", r2, c2, (long long)worst,
                          (long long)budget);
                }
            rm_dir(ad);
        }
        free(rn);
        free(cn);
        slp_model_destroy(&skel);
    }

    /* Communication model: 2 (C-1) m + 2 n. */
    int64_t ax, aty;
    slp_shard_dense_hops(27, 32, 2, 2, &ax, &aty);
    CHECK(ax == 54 && aty == 64, "dense hops %lld %lld", (long long)ax, (long long)aty);
    slp_shard_dense_hops(100, 50, 1, 1, &ax, &aty);
    CHECK(ax == 0 && aty == 0, "1x1 has no communication");

    test_solution();
    rm_dir(good);
    rm_dir(foreign);
    slp_model_destroy(&model);
    rmdir(base);
    return check_summary();
}
