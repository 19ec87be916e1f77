/* The CPU backend's two products on one block, per storage layout (bench/README.md,
 * docs/memory.md "The matrix"): time per product and the bandwidth it reaches by the
 * traffic model (each stored entry its bytes in the block, pointers included; each
 * vector element read or written once: 8), for plain values and the compact forms
 * (core/values.h: the values as read, and times 1, 2 or 3 by row for a table).
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

static double time_once(const slp_block_t *b, int transposed, const double *in, double *out)
{
    double t0 = slp_wall_seconds();
    if (transposed)
        slp_cpu_block_multiply_t(b, in, out);
    else
        slp_cpu_block_multiply(b, in, out);
    return slp_wall_seconds() - t0;
}

/* A copy of A with its values as asked: as read, or each entry times 1, 2 or 3 by its
 * row (a few distinct values: the table forms of a ±1 matrix after scaling). */
static int copy_of(const slp_csr_t *a, int table, slp_csr_t *out)
{
    slp_csr_t t;
    if (slp_csr_transpose(a, &t) != SLP_OK || slp_csr_transpose(&t, out) != SLP_OK)
        return 1;
    slp_csr_free(&t);
    for (int64_t i = 0; table && i < out->rows; i++)
        for (int64_t k = out->row_ptr[i]; k < out->row_ptr[i + 1]; k++)
            out->val[k] *= (double)(1 + i % 3);
    return 0;
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
    printf("%-6s %-22s %-4s %-5s %10s %10s %10s\n", "layout", "values", "op", "zeros", "ms",
           "bytes/nnz", "GB/s");
    double *vin = malloc(sizeof(double) * (size_t)(m > n ? m : n));
    double *vout = malloc(sizeof(double) * (size_t)(m > n ? m : n));
    const char *names[] = {"both", "cols", "rows"};
    enum { VARIANTS = 9 }; /* 3 layouts x (plain, compact as read, compact x1..3) */
    slp_block_t *blocks[VARIANTS];
    double best[VARIANTS][2][2];
    for (int v = 0; v < VARIANTS; v++) {
        slp_csr_t copy;
        if (copy_of(&lp.A, v % 3 == 2, &copy) ||
            slp_cpu_block_create(&copy, NULL, (slp_block_layout)(v / 3), 1,
                                 &(slp_block_options_t){SLP_COPIES_AUTO,
                                                        v % 3 ? SLP_BLOCK_VALUES_AUTO
                                                              : SLP_BLOCK_VALUES_PLAIN, 0},
                                 &blocks[v]) != SLP_OK)
            return 1;
        for (int k = 0; k < 4; k++)
            best[v][k / 2][k % 2] = 1e300;
    }
    /* Round robin: every variant sees the same stretches of a noisy machine. */
    for (int r = 0; r < reps; r++)
        for (int v = 0; v < VARIANTS; v++)
            for (int op = 0; op < 2; op++)
                for (int half = 0; half < 2; half++) {
                    srand(1);
                    for (int64_t k = 0; k < (op ? m : n); k++)
                        vin[k] = half && rand() % 2 == 0 ? 0.0 : 1.0;
                    double t = time_once(blocks[v], op, vin, vout);
                    best[v][op][half] = t < best[v][op][half] ? t : best[v][op][half];
                }
    for (int v = 0; v < VARIANTS; v++) {
        slp_block_report_t report;
        slp_cpu_block_report(blocks[v], &report);
        const char *form = strchr(report.forms, ':') ? strchr(report.forms, ':') + 2 : "";
        double per_entry = (double)report.bytes / (double)nnz / (v / 3 == SLP_BLOCK_BOTH ? 2 : 1);
        for (int op = 0; op < 2; op++)
            for (int half = 1; half >= 0; half--) {
                int64_t len_in = op ? m : n, len_out = op ? n : m;
                double t = best[v][op][half];
                double bytes = per_entry * (double)nnz + 8.0 * (double)(len_in + 2 * len_out);
                printf("%-6s %-22.22s %-4s %-5s %10.3f %10.2f %10.2f\n", names[v / 3], form,
                       op ? "A'y" : "Ax", half ? "half" : "none", 1e3 * t, per_entry,
                       bytes / t / 1e9);
            }
        slp_cpu_block_destroy(blocks[v]);
    }
    free(vin);
    free(vout);
    slp_local_problem_free(&lp);
    slp_grid_destroy(&grid);
    return 0;
}
