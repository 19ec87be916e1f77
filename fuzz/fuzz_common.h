/* Shared helpers of the fuzz targets (fuzz/fuzz_*.c): a private scratch directory per
 * process and a "write these bytes to a file" helper. Each fuzz target is also
 * compiled into tests/unit/test_fuzz_regressions.c with SLP_FUZZ_ENTRY renamed, so
 * the regression inputs in tests/data/fuzz/ run through exactly the same code. */
#ifndef SLP_FUZZ_COMMON_H
#define SLP_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A scratch directory (created once per process, removed at exit with its files). */
static char slp_fuzz_dir_[256];
static void slp_fuzz_cleanup_(void)
{
    char cmd[300];
    if (slp_fuzz_dir_[0] && strncmp(slp_fuzz_dir_, "/tmp/slpfuzz.", 13) == 0) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", slp_fuzz_dir_);
        if (system(cmd) != 0)
            fprintf(stderr, "fuzz: could not remove %s\n", slp_fuzz_dir_);
    }
}
static const char *slp_fuzz_scratch(void)
{
    if (!slp_fuzz_dir_[0]) {
        snprintf(slp_fuzz_dir_, sizeof slp_fuzz_dir_, "/tmp/slpfuzz.XXXXXX");
        if (!mkdtemp(slp_fuzz_dir_)) {
            perror("mkdtemp");
            abort();
        }
        atexit(slp_fuzz_cleanup_);
    }
    return slp_fuzz_dir_;
}

/* Write size bytes to path (aborts on I/O failure: that is the harness, not the target). */
static void slp_fuzz_write(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

#endif
