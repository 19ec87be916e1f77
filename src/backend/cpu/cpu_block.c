/* The CPU backend's block A_rc and its two products (docs/memory.md "The matrix").
 *
 * Storage. The products y = A x and x = A^T y each read the matrix once. Read
 * through a CSR copy whose lines are the product's outputs (CSR of A for A x), a
 * product gathers its input at random and writes its output in order; read through
 * the other copy (CSR of A^T for A x), it streams its input and scatters into its
 * output. When one side of the block is much shorter than the other, its vector is
 * small and cache-resident, and one copy serves both products with every random
 * access on the short side: the copy whose lines are the long side. That halves
 * the matrix's memory. Otherwise both copies are kept and both products gather.
 *
 * Threads. Lines are split among the threads by their nonzeros (split points
 * computed once). A scattering product gives each thread after the first a private
 * accumulator of the short side, added in thread order: results depend on the
 * thread count only through that order. */
#include "backend/cpu/cpu_block.h"

#include <stdlib.h>
#include <string.h>

#ifdef SLP_HAVE_OPENMP
#include <omp.h>
#endif

/* Below this many nonzeros a product runs on one thread (fork/join costs more). */
#define SLP_BLOCK_PAR_MIN 20000
/* One copy when the short side is at most this fraction of the long side, ... */
#define SLP_ONE_COPY_RATIO 0.5
/* ... the private accumulators cost at most this fraction of the copy saved, ... */
#define SLP_ONE_COPY_SCRATCH 0.25
/* ... and the copy saved is at least this large: below it the memory does not matter,
 * and the products keep the rounding of the row-wise form (PDHG can be sensitive to
 * the last bits: khb05250's 1e-8 retry converges or stalls with them). */
#define SLP_ONE_COPY_MIN_BYTES (8.0 * 1024 * 1024)

struct slp_block {
    slp_csr_t a;        /* A_rc (rows), or empty when only the transpose is kept */
    slp_csr_t at;       /* A_rc^T (columns), or empty when only A_rc is kept */
    int parts;          /* threads of a product */
    int64_t *split_a;   /* [parts + 1] line split points of a, balanced by nonzeros */
    int64_t *split_at;  /* [parts + 1] the same for at */
    double *partial;    /* [(parts - 1) x short side]: scattering products' private sums */
};

static int thread_limit(void)
{
#ifdef SLP_HAVE_OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

static int thread_id(void)
{
#ifdef SLP_HAVE_OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

slp_block_layout slp_cpu_block_layout_for(int64_t rows, int64_t cols, int64_t nnz, int threads)
{
    int parts = nnz >= SLP_BLOCK_PAR_MIN && threads > 1 ? threads : 1;
    int64_t shorter = rows < cols ? rows : cols;
    int64_t longer = rows < cols ? cols : rows;
    double copy_bytes = 12.0 * (double)nnz + 8.0 * (double)longer;
    double scratch_bytes = 8.0 * (double)shorter * (double)(parts - 1);
    if (nnz == 0 || (double)shorter > SLP_ONE_COPY_RATIO * (double)longer ||
        scratch_bytes > SLP_ONE_COPY_SCRATCH * copy_bytes || copy_bytes < SLP_ONE_COPY_MIN_BYTES)
        return SLP_BLOCK_BOTH;
    return slp_cpu_block_one_copy(rows, cols);
}

slp_block_layout slp_cpu_block_one_copy(int64_t rows, int64_t cols)
{
    return rows <= cols ? SLP_BLOCK_COLS : SLP_BLOCK_ROWS;
}

/* Split points of the lines of c into `parts` ranges of about equal nonzeros. */
static slp_err balanced_split(const slp_csr_t *c, int parts, int64_t **out)
{
    SLP_CALL(slp_alloc(out, (size_t)parts + 1, sizeof(int64_t)));
    int64_t *split = *out, line = 0;
    split[0] = 0;
    for (int t = 1; t < parts; t++) {
        int64_t target = c->nnz * t / parts;
        while (line < c->rows && c->row_ptr[line] < target)
            line++;
        split[t] = line;
    }
    split[parts] = c->rows;
    return SLP_OK;
}

void slp_cpu_block_destroy(slp_block_t *block)
{
    if (!block)
        return;
    slp_csr_free(&block->a);
    slp_csr_free(&block->at);
    free(block->split_a);
    free(block->split_at);
    free(block->partial);
    free(block);
}

slp_err slp_cpu_block_create(slp_csr_t *a, slp_csr_t *at, slp_block_layout layout,
                             slp_block_t **out)
{
    *out = NULL;
    slp_block_t *b = slp_calloc(1, sizeof *b);
    if (!b)
        return SLP_ERR_NOMEM;
    b->parts = a->nnz >= SLP_BLOCK_PAR_MIN ? thread_limit() : 1;
    int choice = layout == SLP_BLOCK_AUTO ? slp_cpu_block_layout_for(a->rows, a->cols, a->nnz, b->parts)
                                          : layout;
    slp_err rc = SLP_OK;
    if (at) {
        b->at = *at;
        memset(at, 0, sizeof *at);
    } else if (choice != SLP_BLOCK_ROWS) {
        rc = slp_csr_transpose(a, &b->at);
    }
    b->a = *a; /* take the arrays */
    memset(a, 0, sizeof *a);
    if (choice == SLP_BLOCK_COLS)
        slp_csr_free(&b->a);
    if (choice == SLP_BLOCK_ROWS)
        slp_csr_free(&b->at);
    /* the scattering product's output: A x over at (length m), or A^T y over a (n) */
    int64_t scattered = choice == SLP_BLOCK_COLS ? b->at.cols : b->a.cols;
    if (rc == SLP_OK && b->a.row_ptr)
        rc = balanced_split(&b->a, b->parts, &b->split_a);
    if (rc == SLP_OK && b->at.row_ptr)
        rc = balanced_split(&b->at, b->parts, &b->split_at);
    if (rc == SLP_OK && choice != SLP_BLOCK_BOTH && b->parts > 1)
        rc = slp_alloc(&b->partial, (size_t)(b->parts - 1) * (size_t)scattered + 1, sizeof(double));
    if (rc != SLP_OK) {
        slp_cpu_block_destroy(b);
        return rc;
    }
    *out = b;
    return SLP_OK;
}

int64_t slp_cpu_block_bytes(const slp_block_t *block)
{
    int64_t bytes = 0;
    const slp_csr_t *copies[] = {&block->a, &block->at};
    for (int k = 0; k < 2; k++)
        if (copies[k]->row_ptr)
            bytes += 12 * copies[k]->nnz + 8 * (copies[k]->rows + 1);
    int64_t scattered = block->a.row_ptr ? block->a.cols : block->at.cols;
    if (block->partial)
        bytes += 8 * (int64_t)(block->parts - 1) * scattered;
    return bytes;
}

/* out = (lines of c) . in over lines [lo, hi): the gathering product. */
static void gather_range(const slp_csr_t *c, const double *in, double *out, int64_t lo, int64_t hi)
{
    const int64_t *ptr = c->row_ptr;
    const int32_t *idx = c->col_idx;
    const double *val = c->val;
    for (int64_t i = lo; i < hi; i++) {
        /* Four independent accumulators break the add-latency chain of long lines. */
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
        int64_t k = ptr[i], end = ptr[i + 1];
        for (; k + 4 <= end; k += 4) {
            s0 += val[k] * in[idx[k]];
            s1 += val[k + 1] * in[idx[k + 1]];
            s2 += val[k + 2] * in[idx[k + 2]];
            s3 += val[k + 3] * in[idx[k + 3]];
        }
        for (; k < end; k++)
            s0 += val[k] * in[idx[k]];
        out[i] = (s0 + s1) + (s2 + s3);
    }
}

static void gather(const slp_block_t *b, const slp_csr_t *c, const int64_t *split,
                   const double *in, double *out)
{
#pragma omp parallel num_threads(b->parts) if (b->parts > 1)
    {
        int t = thread_id();
        gather_range(c, in, out, split[t], split[t + 1]);
    }
}

/* out += in[k] (line k of c) for one line. (Skipping lines whose input is 0 saves
 * their reads but costs a mispredicted branch each time the zero pattern is irregular:
 * 60% slower on mcf with half the inputs 0 at random, bench/spmv.c.) */
static inline void scatter_line(const slp_csr_t *c, const double *in, double *out, int64_t k)
{
    double v = in[k];
    for (int64_t e = c->row_ptr[k]; e < c->row_ptr[k + 1]; e++)
        out[c->col_idx[e]] += c->val[e] * v;
}

/* out += sum over lines k in [lo, hi) of in[k] (line k of c): the scattering product.
 * Neighbouring lines often update the same outputs (one row's consecutive columns),
 * which chains each update to the last through memory; four interleaved streams of
 * lines from distant parts of the range keep four chains in flight instead. */
static void scatter_range(const slp_csr_t *c, const double *in, double *out, int64_t lo,
                          int64_t hi)
{
    int64_t quarter = (hi - lo) / 4;
    for (int64_t k = lo; k < lo + quarter; k++) {
        scatter_line(c, in, out, k);
        scatter_line(c, in, out, k + quarter);
        scatter_line(c, in, out, k + 2 * quarter);
        scatter_line(c, in, out, k + 3 * quarter);
    }
    for (int64_t k = lo + 4 * quarter; k < hi; k++)
        scatter_line(c, in, out, k);
}

static void scatter(const slp_block_t *b, const slp_csr_t *c, const int64_t *split,
                    const double *in, double *out)
{
    const int64_t len = c->cols;
    if (b->parts == 1) {
        memset(out, 0, (size_t)len * sizeof(double));
        scatter_range(c, in, out, 0, c->rows);
        return;
    }
#pragma omp parallel num_threads(b->parts)
    {
        int t = thread_id();
        double *mine = t == 0 ? out : b->partial + (size_t)(t - 1) * (size_t)len;
        memset(mine, 0, (size_t)len * sizeof(double));
        scatter_range(c, in, mine, split[t], split[t + 1]);
#pragma omp barrier
#pragma omp for schedule(static)
        for (int64_t i = 0; i < len; i++) {
            double s = out[i];
            for (int p = 1; p < b->parts; p++)
                s += b->partial[(size_t)(p - 1) * (size_t)len + (size_t)i];
            out[i] = s;
        }
    }
}

void slp_cpu_block_multiply(const slp_block_t *b, const double *x, double *y)
{
    if (b->a.row_ptr)
        gather(b, &b->a, b->split_a, x, y);
    else
        scatter(b, &b->at, b->split_at, x, y);
}

void slp_cpu_block_multiply_t(const slp_block_t *b, const double *y, double *x)
{
    if (b->at.row_ptr)
        gather(b, &b->at, b->split_at, y, x);
    else
        scatter(b, &b->a, b->split_a, y, x);
}
