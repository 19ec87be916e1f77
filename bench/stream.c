/* STREAM-like memory-bandwidth benchmark for bench/run.sh.
 *
 * Kernels (McCalpin's STREAM conventions for the byte counts):
 *   copy   c[i] = a[i]              16 B / element (read a, write c)
 *   scale  b[i] = s * c[i]          16 B / element
 *   add    c[i] = a[i] + b[i]       24 B / element
 *   triad  a[i] = b[i] + s * c[i]   24 B / element
 *   read   sum += a[i]              8 B / element (read-only, like an SpMV's matrix stream)
 * Write-allocate traffic is not counted (as in STREAM), so a machine without
 * non-temporal stores reports ~2/3 (copy) or ~3/4 (triad) of its raw bandwidth.
 *
 * Usage: stream [N_ELEMENTS] [REPEATS]   (default 2^25 doubles per array = 256 MiB,
 * three arrays = 768 MiB, far larger than any cache; best of 10 repeats).
 * Threads: OpenMP when built with -fopenmp (OMP_NUM_THREADS), else 1.
 * Output: one line per kernel "name GB/s best_seconds", then a CSV line
 * "csv,threads,n,copy,scale,add,triad,read" (GB/s = 1e9 B/s).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : (1L << 25);
    int reps = argc > 2 ? atoi(argv[2]) : 10;
    if (n < 1000 || reps < 1) {
        fprintf(stderr, "stream: bad arguments\n");
        return 2;
    }
    double *a = aligned_alloc(64, (size_t)n * sizeof(double));
    double *b = aligned_alloc(64, (size_t)n * sizeof(double));
    double *c = aligned_alloc(64, (size_t)n * sizeof(double));
    if (!a || !b || !c) {
        fprintf(stderr, "stream: out of memory\n");
        return 1;
    }
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    /* first touch in parallel so pages land where the threads run */
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        a[i] = 1.0;
        b[i] = 2.0;
        c[i] = 0.0;
    }
    const double s = 3.0;
    const char *names[5] = {"copy", "scale", "add", "triad", "read"};
    const double bytes[5] = {16.0, 16.0, 24.0, 24.0, 8.0};
    double best[5] = {1e30, 1e30, 1e30, 1e30, 1e30};
    volatile double sink = 0.0;
    for (int r = 0; r < reps; r++) {
        double t;
        t = now();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) c[i] = a[i];
        t = now() - t;
        if (t < best[0]) best[0] = t;

        t = now();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) b[i] = s * c[i];
        t = now() - t;
        if (t < best[1]) best[1] = t;

        t = now();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) c[i] = a[i] + b[i];
        t = now() - t;
        if (t < best[2]) best[2] = t;

        t = now();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) a[i] = b[i] + s * c[i];
        t = now() - t;
        if (t < best[3]) best[3] = t;

        /* eight independent accumulators so the read is not add-latency bound */
        double sum = 0.0;
        t = now();
#pragma omp parallel for schedule(static) reduction(+ : sum)
        for (long i = 0; i < n / 8; i++) {
            const double *p = a + 8 * i;
            sum += ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
        }
        t = now() - t;
        sink += sum;
        if (t < best[4]) best[4] = t;
    }
    double gbs[5];
    for (int k = 0; k < 5; k++) {
        gbs[k] = bytes[k] * (double)n / best[k] / 1e9;
        printf("%-6s %8.2f GB/s  %.6f s\n", names[k], gbs[k], best[k]);
    }
    printf("csv,%d,%ld,%.3f,%.3f,%.3f,%.3f,%.3f\n", threads, n, gbs[0], gbs[1], gbs[2],
           gbs[3], gbs[4]);
    if (sink == 42.0) printf(" \n");
    free(a);
    free(b);
    free(c);
    return 0;
}
