/* Throughput of the MPS reader (docs/mps.md, "Reading speed"): the parser alone
 * (slp_mps_parse with an entry callback that only folds each entry into a checksum)
 * and the whole in-memory read (slp_mps_read: the model's CSC). Best of REPS runs; the
 * checksum (the bits of every entry's indices and value, and of the objective, bounds
 * and row bounds) must not change when the reader does.
 *
 *   build/bench_mps FILE [REPS]        (`make bench_mps` in build/) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/timer.h"
#include "io/mps.h"
#include "io/mps_parse.h"

typedef struct {
    uint64_t sum;
    int64_t entries;
} fold_t;

static void fold_bits(fold_t *f, uint64_t bits)
{
    f->sum = (f->sum ^ bits) * 0x100000001b3ULL;
}

static void fold_doubles(fold_t *f, const double *v, int64_t len)
{
    for (int64_t k = 0; k < len; k++) {
        uint64_t bits;
        memcpy(&bits, &v[k], sizeof bits);
        fold_bits(f, bits);
    }
}

static slp_err fold_entry(void *user, int64_t col, int64_t row, double value)
{
    fold_t *f = user;
    fold_bits(f, (uint64_t)col);
    fold_bits(f, (uint64_t)row);
    fold_doubles(f, &value, 1);
    f->entries++;
    return SLP_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_mps FILE [REPS]\n");
        return 2;
    }
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    struct stat st;
    if (stat(argv[1], &st) != 0) {
        perror(argv[1]);
        return 1;
    }
    double mb = (double)st.st_size / 1e6, best_parse = 1e300, best_read = 1e300;
    fold_t fold = {0};
    for (int r = 0; r < reps; r++) {
        fold = (fold_t){0};
        slp_mps_callbacks_t cb = {.user = &fold, .on_entry = fold_entry, .quiet = 1};
        slp_mps_result_t res;
        double t0 = slp_wall_seconds();
        if (slp_mps_parse(argv[1], &cb, &res) != SLP_OK) {
            fprintf(stderr, "bench_mps: %s\n", slp_error_message());
            return 1;
        }
        double t = slp_wall_seconds() - t0;
        best_parse = t < best_parse ? t : best_parse;
        fold_doubles(&fold, res.c, res.n); /* and the vectors */
        fold_doubles(&fold, res.lv, res.n);
        fold_doubles(&fold, res.uv, res.n);
        fold_doubles(&fold, res.lc, res.m);
        fold_doubles(&fold, res.uc, res.m);
        slp_mps_result_free(&res);
        slp_model_t *model = NULL;
        t0 = slp_wall_seconds();
        if (slp_mps_read(argv[1], &model) != SLP_OK) {
            fprintf(stderr, "bench_mps: %s\n", slp_error_message());
            return 1;
        }
        t = slp_wall_seconds() - t0;
        best_read = t < best_read ? t : best_read;
        slp_model_destroy(&model);
    }
    printf("%s: %.1f MB, %lld entries, checksum %016llx\n", argv[1], mb, (long long)fold.entries,
           (unsigned long long)fold.sum);
    printf("parse %.3f s (%.0f MB/s), read into a model %.3f s (%.0f MB/s), best of %d\n",
           best_parse, mb / best_parse, best_read, mb / best_read, reps);
    return 0;
}
