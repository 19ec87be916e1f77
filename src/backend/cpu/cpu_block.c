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
 * Line pointers. A copy with fewer than 2^32 nonzeros keeps its line pointers in 32
 * bits: 4 bytes per line less to hold and to read in every product.
 *
 * Threads. Lines are cut into ranges of about equal nonzeros (split points computed
 * once): SLP_RANGES_PER_PART ranges for each of `parts`, the most threads the backend
 * may use (backend.h), whatever count runs now. A gathering product hands the ranges out to threads as they come
 * free: each output is one line's sum, whoever computes it. A scattering product
 * gives each part after the first a private accumulator of the short side, added in
 * part order: its results depend on `parts`, fixed for the block's life, not on how
 * many threads run the parts (the governor's count, docs/threads.md). */
#include "backend/cpu/cpu_block.h"

#include <stdlib.h>
#include <string.h>

/* Below this many nonzeros a product runs on one thread (fork/join costs more). */
#define SLP_BLOCK_PAR_MIN 20000
/* Ranges of lines per part: a thread slowed by another process delays a gathering
 * product by one range, an eighth of its share. */
#define SLP_RANGES_PER_PART 8
/* One copy when the short side is at most this fraction of the long side, ... */
#define SLP_ONE_COPY_RATIO 0.5
/* ... the private accumulators cost at most this fraction of the copy saved, ... */
#define SLP_ONE_COPY_SCRATCH 0.25
/* ... and the copy saved is at least this large: below it the memory does not matter,
 * and the products keep the rounding of the row-wise form (PDHG can be sensitive to
 * the last bits: khb05250's 1e-8 retry converges or stalls with them). */
#define SLP_ONE_COPY_MIN_BYTES (8.0 * 1024 * 1024)

/* One CSR copy: its lines' indices and values, and the line pointers in 64 bits
 * (csr.row_ptr) or, narrowed, in 32 (ptr32; csr.row_ptr is then NULL). */
typedef struct {
    slp_csr_t csr;
    uint32_t *ptr32;
    int kept;           /* the block keeps this copy */
    int64_t *split;     /* [parts * SLP_RANGES_PER_PART + 1] range starts, balanced by nonzeros */
} block_copy_t;

struct slp_block {
    block_copy_t a;     /* A_rc (rows), unless only the transpose is kept */
    block_copy_t at;    /* A_rc^T (columns), unless only A_rc is kept */
    int parts;          /* threads when the block was made: parts of a product */
    double *partial;    /* [(parts - 1) x short side]: scattering products' private sums */
};

/* Copies with at most this many nonzeros get 32-bit line pointers (tests lower it). */
static int64_t narrow_max = UINT32_MAX;

void slp_cpu_block_set_narrow_max(int64_t nnz)
{
    narrow_max = nnz;
}

static inline int64_t line_begin(const block_copy_t *c, int64_t line)
{
    return c->ptr32 ? (int64_t)c->ptr32[line] : c->csr.row_ptr[line];
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
static slp_err balanced_split(block_copy_t *c, int parts)
{
    SLP_CALL(slp_alloc(&c->split, (size_t)parts + 1, sizeof(int64_t)));
    int64_t line = 0;
    c->split[0] = 0;
    for (int t = 1; t < parts; t++) {
        int64_t target = c->csr.nnz * t / parts;
        while (line < c->csr.rows && c->csr.row_ptr[line] < target)
            line++;
        c->split[t] = line;
    }
    c->split[parts] = c->csr.rows;
    return SLP_OK;
}

/* The line pointers in 32 bits when the nonzeros allow. */
static slp_err narrow(block_copy_t *c)
{
    if (c->csr.nnz > narrow_max || !c->csr.row_ptr)
        return SLP_OK;
    SLP_CALL(slp_alloc(&c->ptr32, (size_t)c->csr.rows + 1, sizeof(uint32_t)));
    for (int64_t i = 0; i <= c->csr.rows; i++)
        c->ptr32[i] = (uint32_t)c->csr.row_ptr[i];
    free(c->csr.row_ptr);
    c->csr.row_ptr = NULL;
    return SLP_OK;
}

static void copy_free(block_copy_t *c)
{
    slp_csr_free(&c->csr);
    free(c->ptr32);
    free(c->split);
    memset(c, 0, sizeof *c);
}

/* Keeps the copy: split points of its ranges, then the narrowed pointers. */
static slp_err copy_keep(block_copy_t *c, int parts)
{
    c->kept = 1;
    SLP_CALL(balanced_split(c, parts * SLP_RANGES_PER_PART));
    return narrow(c);
}

void slp_cpu_block_destroy(slp_block_t *block)
{
    if (!block)
        return;
    copy_free(&block->a);
    copy_free(&block->at);
    free(block->partial);
    free(block);
}

slp_err slp_cpu_block_create(slp_csr_t *a, slp_csr_t *at, slp_block_layout layout, int parts,
                             slp_block_t **out)
{
    *out = NULL;
    slp_block_t *b = slp_calloc(1, sizeof *b);
    if (!b)
        return SLP_ERR_NOMEM;
    b->parts = a->nnz >= SLP_BLOCK_PAR_MIN && parts > 1 ? parts : 1;
    int choice = layout == SLP_BLOCK_AUTO ? slp_cpu_block_layout_for(a->rows, a->cols, a->nnz, b->parts)
                                          : layout;
    slp_err rc = SLP_OK;
    if (at) {
        b->at.csr = *at;
        memset(at, 0, sizeof *at);
    } else if (choice != SLP_BLOCK_ROWS) {
        rc = slp_csr_transpose(a, &b->at.csr);
    }
    b->a.csr = *a; /* take the arrays */
    memset(a, 0, sizeof *a);
    if (choice == SLP_BLOCK_COLS)
        copy_free(&b->a);
    if (choice == SLP_BLOCK_ROWS)
        copy_free(&b->at);
    /* the scattering product's output: A x over at (length m), or A^T y over a (n) */
    int64_t scattered = choice == SLP_BLOCK_COLS ? b->at.csr.cols : b->a.csr.cols;
    if (rc == SLP_OK && choice != SLP_BLOCK_COLS)
        rc = copy_keep(&b->a, b->parts);
    if (rc == SLP_OK && choice != SLP_BLOCK_ROWS)
        rc = copy_keep(&b->at, b->parts);
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
    const block_copy_t *copies[] = {&block->a, &block->at};
    for (int k = 0; k < 2; k++)
        if (copies[k]->kept)
            bytes += 12 * copies[k]->csr.nnz +
                     (copies[k]->ptr32 ? 4 : 8) * (copies[k]->csr.rows + 1);
    int64_t scattered = block->a.kept ? block->a.csr.cols : block->at.csr.cols;
    if (block->partial)
        bytes += 8 * (int64_t)(block->parts - 1) * scattered;
    return bytes;
}

/* out = (lines of c) . in over lines [lo, hi): the gathering product. */
static void gather_range(const block_copy_t *c, const double *in, double *out, int64_t lo,
                         int64_t hi)
{
    const int32_t *idx = c->csr.col_idx;
    const double *val = c->csr.val;
    for (int64_t i = lo; i < hi; i++) {
        /* Four independent accumulators break the add-latency chain of long lines. */
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
        int64_t k = line_begin(c, i), end = line_begin(c, i + 1);
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

static void gather(const slp_block_t *b, const block_copy_t *c, const double *in, double *out)
{
    int ranges = b->parts * SLP_RANGES_PER_PART;
#pragma omp parallel for schedule(dynamic, 1) if (b->parts > 1)
    for (int r = 0; r < ranges; r++)
        gather_range(c, in, out, c->split[r], c->split[r + 1]);
}

/* out += in[k] (line k of c) for one line. (Skipping lines whose input is 0 saves
 * their reads but costs a mispredicted branch each time the zero pattern is irregular:
 * 60% slower on mcf with half the inputs 0 at random, bench/spmv.c.) */
static inline void scatter_line(const block_copy_t *c, const double *in, double *out, int64_t k)
{
    double v = in[k];
    const int32_t *idx = c->csr.col_idx;
    const double *val = c->csr.val;
    for (int64_t e = line_begin(c, k), end = line_begin(c, k + 1); e < end; e++)
        out[idx[e]] += val[e] * v;
}

/* out += sum over lines k in [lo, hi) of in[k] (line k of c): the scattering product.
 * Neighbouring lines often update the same outputs (one row's consecutive columns),
 * which chains each update to the last through memory; four interleaved streams of
 * lines from distant parts of the range keep four chains in flight instead. */
static void scatter_range(const block_copy_t *c, const double *in, double *out, int64_t lo,
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

static void scatter(const slp_block_t *b, const block_copy_t *c, const double *in, double *out)
{
    const int64_t len = c->csr.cols;
    if (b->parts == 1) {
        memset(out, 0, (size_t)len * sizeof(double));
        scatter_range(c, in, out, 0, c->csr.rows);
        return;
    }
#pragma omp parallel for schedule(dynamic, 1)
    for (int p = 0; p < b->parts; p++) {
        double *mine = p == 0 ? out : b->partial + (size_t)(p - 1) * (size_t)len;
        memset(mine, 0, (size_t)len * sizeof(double));
        scatter_range(c, in, mine, c->split[p * SLP_RANGES_PER_PART],
                      c->split[(p + 1) * SLP_RANGES_PER_PART]);
    }
#pragma omp parallel for schedule(dynamic, 4096)
    for (int64_t i = 0; i < len; i++) {
        double s = out[i];
        for (int p = 1; p < b->parts; p++)
            s += b->partial[(size_t)(p - 1) * (size_t)len + (size_t)i];
        out[i] = s;
    }
}

void slp_cpu_block_multiply(const slp_block_t *b, const double *x, double *y)
{
    if (b->a.kept)
        gather(b, &b->a, x, y);
    else
        scatter(b, &b->at, x, y);
}

void slp_cpu_block_multiply_t(const slp_block_t *b, const double *y, double *x)
{
    if (b->at.kept)
        gather(b, &b->at, y, x);
    else
        scatter(b, &b->a, y, x);
}
