/* Fuzz regression inputs (issue 9). Every file in tests/data/fuzz/<target>/ is fed to
 * the same entry function the libFuzzer target uses (fuzz/fuzz_<target>.c, compiled in
 * here with the entry renamed), in the normal and the ASan/UBSan builds. The entries
 * abort on any broken invariant (a reader that accepts an input must return a
 * consistent result; a failure must leave a message and no result), and the sanitizer
 * build catches memory errors and leaks. Expected: every input returns 0 without a
 * crash; the files are the crashes the fuzzers found (named after the bug, see
 * docs/fuzzing.md) plus seeds that reach deep paths (forged shard files).
 * argv[1] = shared dir (unused), argv[2] = repository root. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define SLP_FUZZ_ENTRY slp_fuzz_mps_entry
#include "../../fuzz/fuzz_mps.c"
#undef SLP_FUZZ_ENTRY
#define SLP_FUZZ_ENTRY slp_fuzz_solution_entry
#include "../../fuzz/fuzz_solution.c"
#undef SLP_FUZZ_ENTRY
#define SLP_FUZZ_ENTRY slp_fuzz_shard_entry
#define SLP_FUZZ_NO_INIT 1
#include "../../fuzz/fuzz_shard.c"
#undef SLP_FUZZ_ENTRY
#define SLP_FUZZ_ENTRY slp_fuzz_mps_parallel_entry
#include "../../fuzz/fuzz_mps_parallel.c"
#undef SLP_FUZZ_ENTRY
#define SLP_FUZZ_ENTRY slp_fuzz_lp_entry
#include "../../fuzz/fuzz_lp.c"
#undef SLP_FUZZ_ENTRY

typedef int (*fuzz_entry)(const uint8_t *data, size_t size);

static uint8_t *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *bigger = realloc(buf, cap *= 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
            }
            buf = bigger;
        }
    }
    fclose(f);
    *size = len;
    return buf;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Run every regular file of dir through entry, after the byte `prefix` when it is not
 * -1 (the form byte of fuzz_mps_parallel); returns the number of files. */
static int run_dir(const char *dir, fuzz_entry entry, int prefix)
{
    DIR *d = opendir(dir);
    CHECK(d != NULL, "cannot open %s", dir);
    if (!d)
        return 0;
    char *names[4096];
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) && count < 4096)
        if (e->d_name[0] != '.' && strcmp(e->d_name, "README.md") != 0)
            names[count++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)count, sizeof *names, cmp_names);
    for (int k = 0; k < count; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        size_t size = 0;
        uint8_t *data = slurp(path, &size);
        CHECK(data != NULL, "cannot read %s", path);
        if (data && prefix >= 0) {
            uint8_t *with = malloc(size + 1);
            with[0] = (uint8_t)prefix;
            memcpy(with + 1, data, size);
            free(data);
            data = with;
            size++;
        }
        if (data) {
            int rc = entry(data, size);
            CHECK(rc == 0, "%s: entry returned %d", path, rc);
            free(data);
        }
        free(names[k]);
    }
    printf("%s: %d inputs\n", dir, count);
    return count;
}

int main(int argc, char **argv)
{
    const char *root = argc > 2 ? argv[2] : ".";
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/data/fuzz/mps", root);
    CHECK(run_dir(dir, slp_fuzz_mps_entry, -1) > 0, "no mps regression inputs");
    /* the parallel reader on the same inputs, plain and BGZF, and on the MPS test files */
    snprintf(dir, sizeof dir, "%s/tests/data/fuzz/mps_parallel", root);
    CHECK(run_dir(dir, slp_fuzz_mps_parallel_entry, -1) > 0, "no mps_parallel inputs");
    snprintf(dir, sizeof dir, "%s/tests/data/fuzz/mps", root);
    for (int form = 0; form < 2; form++) {
        run_dir(dir, slp_fuzz_mps_parallel_entry, form);
        char mps[1024];
        snprintf(mps, sizeof mps, "%s/tests/data/mps", root);
        CHECK(run_dir(mps, slp_fuzz_mps_parallel_entry, form) > 0, "no MPS test files");
    }
    /* the LP reader on the LP test files (the LP target's seeds) */
    snprintf(dir, sizeof dir, "%s/tests/data/lp", root);
    CHECK(run_dir(dir, slp_fuzz_lp_entry, -1) > 0, "no LP test files");
    snprintf(dir, sizeof dir, "%s/tests/data/fuzz/solution", root);
    CHECK(run_dir(dir, slp_fuzz_solution_entry, -1) > 0, "no solution regression inputs");
    snprintf(dir, sizeof dir, "%s/tests/data/fuzz/shard", root);
    CHECK(run_dir(dir, slp_fuzz_shard_entry, -1) > 0, "no shard regression inputs");
    /* The seed corpora of the solution target are regression inputs too. */
    snprintf(dir, sizeof dir, "%s/fuzz/seeds/solution", root);
    run_dir(dir, slp_fuzz_solution_entry, -1);
    return check_summary();
}
