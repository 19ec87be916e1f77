/* The CPU backend's block (src/backend/cpu/cpu_block.c, docs/memory.md "The matrix"):
 *
 *  1. both products of every layout (two copies, only A_rc^T, only A_rc), on 1 and
 *     3 threads, against a product computed here entry by entry in long double from a
 *     dense copy, on wide, tall and square random blocks with empty rows and columns,
 *     with 32-bit line pointers (the default here) and 64-bit ones;
 *  2. the automatic choice on the shapes docs/memory.md names (mcf, design-match, a
 *     random-pattern LP, a small block, many threads);
 *  3. the bytes the block reports for each layout and pointer width, counted by hand;
 *  4. (in 1) products of a block made on T threads run on 1 to 4: bitwise the same;
 *  5. the compact forms of the values (signed-unit, 1- and 2-byte tables; core/values.h):
 *     for every layout and 1 or 3 parts, products bitwise those of the plain form, the
 *     form the report names, and the bytes it counts. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef SLP_HAVE_OPENMP
#include <omp.h>
#endif

#include "backend/cpu/cpu_block.h"
#include "check.h"
#include "core/local_problem.h"

static const slp_block_options_t PLAIN = {SLP_COPIES_AUTO, SLP_BLOCK_VALUES_PLAIN, 0};
static const slp_block_options_t COMPACT = {SLP_COPIES_AUTO, SLP_BLOCK_VALUES_AUTO, 0};

static unsigned long long rng_state = 12345;
static double uniform(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* A rows x cols block, each entry present with probability `density` except in rows
 * i % 7 == 3 and columns j % 11 == 5 (empty); dense copy in *dense (row-major). */
static void random_block(int64_t rows, int64_t cols, double density, slp_csr_t *a, double **dense)
{
    *dense = calloc((size_t)(rows * cols), sizeof(double));
    int64_t nnz = 0;
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            if (i % 7 != 3 && j % 11 != 5 && uniform() < density) {
                (*dense)[i * cols + j] = 2.0 * uniform() - 1.0;
                nnz++;
            }
    slp_csr_create(rows, cols, nnz, a);
    int64_t k = 0;
    for (int64_t i = 0; i < rows; i++) {
        a->row_ptr[i] = k;
        for (int64_t j = 0; j < cols; j++)
            if ((*dense)[i * cols + j] != 0.0) {
                a->col_idx[k] = (int32_t)j;
                a->val[k++] = (*dense)[i * cols + j];
            }
    }
    a->row_ptr[rows] = k;
}

static void set_threads(int t)
{
#ifdef SLP_HAVE_OPENMP
    omp_set_num_threads(t);
#else
    (void)t;
#endif
}

/* Largest error of a product against the dense one in long double, relative to
 * 1 + the sum of the magnitudes of its terms: out = A in, or A^T in when transposed. */
static double product_error(const double *dense, int64_t rows, int64_t cols, int transposed,
                            const double *in, const double *out)
{
    int64_t outer = transposed ? cols : rows, inner = transposed ? rows : cols;
    double worst = 0.0;
    for (int64_t p = 0; p < outer; p++) {
        long double s = 0.0L, size = 0.0L;
        for (int64_t q = 0; q < inner; q++) {
            long double t = (long double)dense[transposed ? q * cols + p : p * cols + q] * in[q];
            s += t;
            size += fabsl(t);
        }
        worst = fmax(worst, (double)(fabsl((long double)out[p] - s) / (1.0L + size)));
    }
    return worst;
}

static void check_layout(int64_t rows, int64_t cols, double density, slp_block_layout layout,
                         int threads)
{
    slp_csr_t a;
    double *dense;
    random_block(rows, cols, density, &a, &dense);
    set_threads(threads);
    slp_block_t *b = NULL;
    CHECK(slp_cpu_block_create(&a, NULL, layout, threads, &PLAIN, &b) == SLP_OK, "create: %s", slp_error_message());
    CHECK(a.row_ptr == NULL && a.val == NULL, "the block's arrays were not taken over");
    double *x = malloc(sizeof(double) * (size_t)cols), *y = malloc(sizeof(double) * (size_t)rows);
    double *ax = malloc(sizeof(double) * (size_t)rows), *aty = malloc(sizeof(double) * (size_t)cols);
    for (int64_t j = 0; j < cols; j++)
        x[j] = j % 3 == 0 ? 0.0 : 2.0 * uniform() - 1.0;
    for (int64_t i = 0; i < rows; i++)
        y[i] = i % 4 == 0 ? 0.0 : 2.0 * uniform() - 1.0;
    for (int rep = 0; rep < 2; rep++) { /* twice: private sums must start from 0 each time */
        slp_cpu_block_multiply(b, x, ax);
        slp_cpu_block_multiply_t(b, y, aty);
    }
    double worst = fmax(product_error(dense, rows, cols, 0, x, ax),
                        product_error(dense, rows, cols, 1, y, aty));
    CHECK(worst <= 1e-14, "%lld x %lld, layout %d, %d threads: products off by %.3e", (long long)rows,
          (long long)cols, (int)layout, threads, worst);
    /* The thread governor (docs/threads.md) runs a block's products on fewer or more
     * threads than it was made with: the same bits on any count. */
    double *ax2 = malloc(sizeof(double) * (size_t)rows), *aty2 = malloc(sizeof(double) * (size_t)cols);
    for (int run_on = 1; run_on <= 4; run_on++) {
        set_threads(run_on);
        slp_cpu_block_multiply(b, x, ax2);
        slp_cpu_block_multiply_t(b, y, aty2);
        CHECK(!memcmp(ax, ax2, sizeof(double) * (size_t)rows) &&
                  !memcmp(aty, aty2, sizeof(double) * (size_t)cols),
              "%lld x %lld, layout %d, made on %d threads: other bits on %d", (long long)rows,
              (long long)cols, (int)layout, threads, run_on);
    }
    free(ax2);
    free(aty2);
    slp_cpu_block_destroy(b);
    free(x);
    free(y);
    free(ax);
    free(aty);
    free(dense);
}

static void test_products(void)
{
    /* large enough for several threads (>= 20000 entries) */
    const int64_t shapes[][2] = {{120, 900}, {900, 120}, {400, 400}};
    for (int wide = 0; wide <= 1; wide++) {
        slp_cpu_block_set_narrow_max(wide ? (int64_t)-1 : (int64_t)UINT32_MAX);
        for (int s = 0; s < 3; s++)
            for (int layout = SLP_BLOCK_BOTH; layout <= SLP_BLOCK_ROWS; layout++)
                for (int threads = 1; threads <= 3; threads += 2)
                    check_layout(shapes[s][0], shapes[s][1], 0.25, (slp_block_layout)layout,
                                 threads);
        check_layout(5, 8, 0.5, SLP_BLOCK_COLS, 1); /* small: one thread whatever is asked */
        check_layout(0, 8, 0.5, SLP_BLOCK_COLS, 1); /* no rows */
    }
    slp_cpu_block_set_narrow_max(UINT32_MAX);
}

static void test_automatic_choice(void)
{
    /* mcf (400, 5, 100, 50): 62,100 x 2,200,100, 4.6M entries: only A^T */
    CHECK(slp_cpu_block_layout_for(62100, 2200100, 4600100, 1) == SLP_BLOCK_COLS, "mcf");
    CHECK(slp_cpu_block_layout_for(62100, 2200100, 4600100, 2) == SLP_BLOCK_COLS, "mcf, 2 threads");
    /* its transpose shape keeps only A */
    CHECK(slp_cpu_block_layout_for(2200100, 62100, 4600100, 1) == SLP_BLOCK_ROWS, "tall");
    /* design-match 63,230 x 90,460: sides within a factor 2, both copies */
    CHECK(slp_cpu_block_layout_for(63230, 90460, 20916460, 1) == SLP_BLOCK_BOTH, "design-match");
    /* random pattern 200k x 500k, 4M entries: 0.4, one copy (52 MB saved) */
    CHECK(slp_cpu_block_layout_for(200000, 500000, 4000000, 1) == SLP_BLOCK_COLS, "random");
    /* ... but with 16 threads 15 private sums of 200k rows (24 MB) exceed a quarter of it */
    CHECK(slp_cpu_block_layout_for(200000, 500000, 4000000, 16) == SLP_BLOCK_BOTH, "16 threads");
    /* a corpus-sized block: the copy saved (1.3 MB) is below 8 MiB */
    CHECK(slp_cpu_block_layout_for(1000, 10000, 100000, 1) == SLP_BLOCK_BOTH, "small block");
    CHECK(slp_cpu_block_layout_for(10, 10, 0, 1) == SLP_BLOCK_BOTH, "empty block");
}

/* A 120 x 900 block's bytes: 12 per entry per copy kept, ptr_bytes per line pointer
 * (901 of A^T's, 121 of A's). */
static void check_bytes(slp_block_layout layout, int ptr_bytes)
{
    slp_csr_t a;
    double *dense;
    random_block(120, 900, 0.25, &a, &dense);
    int64_t nnz = a.nnz;
    slp_block_t *b = NULL;
    CHECK(slp_cpu_block_create(&a, NULL, layout, 1, &PLAIN, &b) == SLP_OK, "create");
    int64_t want = layout == SLP_BLOCK_COLS ? 12 * nnz + ptr_bytes * 901
                                            : 24 * nnz + ptr_bytes * (121 + 901);
    CHECK(slp_cpu_block_bytes(b) == want, "layout %d, %d-byte pointers: bytes %lld, want %lld",
          (int)layout, ptr_bytes, (long long)slp_cpu_block_bytes(b), (long long)want);
    slp_cpu_block_destroy(b);
    free(dense);
}

static void test_bytes(void)
{
    set_threads(1);
    check_bytes(SLP_BLOCK_COLS, 4);
    check_bytes(SLP_BLOCK_BOTH, 4);
    slp_cpu_block_set_narrow_max(-1); /* 64-bit line pointers */
    check_bytes(SLP_BLOCK_BOTH, 8);
    slp_cpu_block_set_narrow_max(UINT32_MAX);
}

/* A copy of a with its values replaced: kind 0 +-1, 1 eight values, 2 three hundred
 * values, 3 the random values as they are. */
static void with_values(const slp_csr_t *a, int kind, slp_csr_t *out)
{
    slp_csr_create(a->rows, a->cols, a->nnz, out);
    memcpy(out->row_ptr, a->row_ptr, sizeof(int64_t) * (size_t)(a->rows + 1));
    memcpy(out->col_idx, a->col_idx, sizeof(int32_t) * (size_t)a->nnz);
    for (int64_t k = 0; k < a->nnz; k++) {
        double v = a->val[k];
        int64_t pick = (int64_t)(1000.0 * fabs(v)) + k;
        out->val[k] = kind == 0   ? (v < 0 ? -1.0 : 1.0)
                      : kind == 1 ? (double)(pick % 8 - 4) * 0.3 + 0.1
                      : kind == 2 ? ldexp((double)(pick % 300) + 1.0, -7) * (v < 0 ? -1 : 1)
                                  : v;
    }
}

static void check_compact(slp_block_layout layout, int parts, int kind)
{
    static const char *expect[] = {"signed-unit", "table8 (8 values)", "table16 (600 values)",
                                   "plain"};
    slp_csr_t a, p, c;
    double *dense;
    random_block(400, 400, 0.2, &a, &dense);
    with_values(&a, kind, &p);
    with_values(&a, kind, &c);
    slp_csr_free(&a);
    free(dense);
    int64_t rows = p.rows, cols = p.cols, nnz = p.nnz;
    set_threads(parts);
    slp_block_t *plain = NULL, *compact = NULL;
    CHECK(slp_cpu_block_create(&p, NULL, layout, parts, &PLAIN, &plain) == SLP_OK &&
              slp_cpu_block_create(&c, NULL, layout, parts, &COMPACT, &compact) == SLP_OK,
          "create: %s", slp_error_message());
    slp_block_report_t report;
    slp_cpu_block_report(compact, &report);
    CHECK(strstr(report.forms, expect[kind]) != NULL, "layout %d, values %d: forms '%s', want %s",
          (int)layout, kind, report.forms, expect[kind]);
    /* indices 4 bytes, 32-bit line pointers 4, values by form */
    int copies = layout == SLP_BLOCK_BOTH ? 2 : 1;
    int64_t lines = layout == SLP_BLOCK_BOTH ? rows + cols + 2 : layout == SLP_BLOCK_COLS ? cols + 1
                                                                                          : rows + 1;
    int64_t value_bytes[] = {0, nnz + 8 * 8, 2 * nnz + 8 * 600, 8 * nnz};
    CHECK(report.bytes == copies * (4 * nnz + value_bytes[kind]) + 4 * lines,
          "layout %d, values %d: %lld bytes reported", (int)layout, kind, (long long)report.bytes);
    double *x = malloc(sizeof(double) * (size_t)cols), *y = malloc(sizeof(double) * (size_t)rows);
    double *ax[2], *aty[2];
    for (int k = 0; k < 2; k++) {
        ax[k] = malloc(sizeof(double) * (size_t)rows);
        aty[k] = malloc(sizeof(double) * (size_t)cols);
    }
    for (int64_t j = 0; j < cols; j++)
        x[j] = j % 3 == 0 ? -0.0 : 2.0 * uniform() - 1.0; /* signed zeros too */
    for (int64_t i = 0; i < rows; i++)
        y[i] = i % 4 == 0 ? 0.0 : 2.0 * uniform() - 1.0;
    slp_block_t *blocks[2] = {plain, compact};
    for (int k = 0; k < 2; k++) {
        slp_cpu_block_multiply(blocks[k], x, ax[k]);
        slp_cpu_block_multiply_t(blocks[k], y, aty[k]);
    }
    CHECK(!memcmp(ax[0], ax[1], sizeof(double) * (size_t)rows) &&
              !memcmp(aty[0], aty[1], sizeof(double) * (size_t)cols),
          "layout %d, %d parts, values %d: products differ from the plain form's bits",
          (int)layout, parts, kind);
    for (int k = 0; k < 2; k++) {
        free(ax[k]);
        free(aty[k]);
        slp_cpu_block_destroy(blocks[k]);
    }
    free(x);
    free(y);
}

static void test_compact_values(void)
{
    for (int kind = 0; kind < 4; kind++)
        for (int layout = SLP_BLOCK_BOTH; layout <= SLP_BLOCK_ROWS; layout++)
            for (int parts = 1; parts <= 3; parts += 2)
                check_compact((slp_block_layout)layout, parts, kind);
}

int main(void)
{
    test_compact_values();
    test_products();
    test_automatic_choice();
    test_bytes();
    return check_summary();
}
