/* The CPU backend's two products on one block, per storage layout (bench/README.md,
 * docs/memory.md "The matrix"): time per product and the bandwidth it reaches by the
 * traffic model (each stored entry 12 bytes, each vector element
 * read or written once: 8).
 *
 *   build/bench_spmv DIR [REPS] [wide]   DIR: a 1x1 shard directory (shardlp gen/shard);
 *                                        wide: 64-bit line pointers (default 32-bit)
 *
 * Threads: OMP_NUM_THREADS. Inputs: all ones, or half of the entries 0 at random
 * (as near an LP's solution, where many variables sit at a zero bound). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/cpu_block.h"
#include "core/timer.h"
#include "grid/comm.h"
#include "grid/grid.h"
#include "shard/shard.h"

static double best_of(const slp_block_t *b, int transposed, const double *in, double *out,
                      int reps)
{
    double best = 1e300;
    for (int r = 0; r < reps; r++) {
        double t0 = slp_wall_seconds();
        if (transposed)
            slp_cpu_block_multiply_t(b, in, out);
        else
            slp_cpu_block_multiply(b, in, out);
        double t = slp_wall_seconds() - t0;
        best = t < best ? t : best;
    }
    return best;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_spmv SHARD_DIR [REPS] [wide]\n");
        return 2;
    }
    int reps = argc > 2 ? atoi(argv[2]) : 20;
    if (argc > 3 && !strcmp(argv[3], "wide"))
        slp_cpu_block_set_narrow_max(-1);
    slp_grid_t *grid = NULL;
    slp_local_problem_t lp;
    if (slp_grid_create(1, 1, &grid) != SLP_OK || slp_shard_read_local(argv[1], grid, &lp) != SLP_OK) {
        fprintf(stderr, "bench_spmv: %s\n", slp_error_message());
        return 1;
    }
    int64_t m = lp.m_loc, n = lp.n_loc, nnz = lp.A.nnz;
    printf("block %lld x %lld, %lld nonzeros\n", (long long)m, (long long)n, (long long)nnz);
    printf("%-6s %-4s %-5s %10s %10s\n", "layout", "op", "zeros", "ms", "GB/s");
    double *vin = malloc(sizeof(double) * (size_t)(m > n ? m : n));
    double *vout = malloc(sizeof(double) * (size_t)(m > n ? m : n));
    const char *names[] = {"both", "cols", "rows"};
    for (int layout = SLP_BLOCK_BOTH; layout <= SLP_BLOCK_ROWS; layout++) {
        slp_csr_t a;
        if (slp_csr_transpose(&lp.A, &a) != SLP_OK) /* a copy of A (twice transposed) */
            return 1;
        slp_csr_t copy;
        if (slp_csr_transpose(&a, &copy) != SLP_OK)
            return 1;
        slp_csr_free(&a);
        slp_block_t *b = NULL;
        if (slp_cpu_block_create(&copy, NULL, (slp_block_layout)layout, &b) != SLP_OK)
            return 1;
        for (int op = 0; op < 2; op++) {
            int64_t len_in = op ? m : n, len_out = op ? n : m;
            for (int half = 1; half >= 0; half--) {
                srand(1);
                for (int64_t k = 0; k < len_in; k++)
                    vin[k] = half && rand() % 2 == 0 ? 0.0 : 1.0;
                double t = best_of(b, op, vin, vout, reps);
                double bytes = 12.0 * (double)nnz + 8.0 * (double)(len_in + 2 * len_out);
                printf("%-6s %-4s %-5s %10.3f %10.2f\n", names[layout], op ? "A'y" : "Ax",
                       half ? "half" : "none", 1e3 * t, bytes / t / 1e9);
            }
        }
        slp_cpu_block_destroy(b);
    }
    free(vin);
    free(vout);
    slp_local_problem_free(&lp);
    slp_grid_destroy(&grid);
    return 0;
}
