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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/values.h"

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
/* A copy that also serves the scattering product keeps plain values rather than a table
 * when its lines hold fewer entries than this on average. */
#define SLP_SCATTER_TABLE_LINE 4

/* One CSR copy: its lines' indices and values, and the line pointers in 64 bits
 * (csr.row_ptr) or, narrowed, in 32 (ptr32; csr.row_ptr is then NULL). The values are
 * held in one of the exact forms of core/values.h: plain (csr.val), signed-unit (no
 * values: the sign in bit 31 of csr.col_idx), or a table (codes into table). */
typedef struct {
    slp_csr_t csr;
    uint32_t *ptr32;
    int kept;           /* the block keeps this copy */
    int64_t *split;     /* [parts * SLP_RANGES_PER_PART + 1] range starts, balanced by nonzeros */
    slp_values_form form;
    double *table;      /* table forms: the distinct values */
    int table_len;
    void *codes;        /* table forms: a uint8_t or uint16_t code per entry */
    float *val32;       /* --precision fp32-matrix, plain values: the iterations' values */
} block_copy_t;

/* The kernels' form for a plain copy's FP32 values (not exact: the iterations only). */
#define FORM_FP32 16

/* What a kernel reads of a copy's entries, in locals (the form is a constant in each
 * specialised kernel, so the branches below fold away). */
typedef struct {
    const int32_t *idx;
    const double *val, *table;
    const uint8_t *code8;
    const uint16_t *code16;
    const float *val32;
} entries_t;

static entries_t entries_of(const block_copy_t *c)
{
    return (entries_t){c->csr.col_idx, c->csr.val, c->table, c->codes, c->codes, c->val32};
}

/* The index of entry k. */
static inline __attribute__((always_inline)) int32_t entry_index(entries_t e, int form, int64_t k)
{
    return form == SLP_VALUES_SIGNED ? (int32_t)((uint32_t)e.idx[k] & SLP_INDEX_MASK) : e.idx[k];
}

/* +1 and -1 by the sign bit of a signed-unit index word. */
static const double unit_of_sign[2] = {1.0, -1.0};

/* value_k * x, bit for bit what the plain form computes (a signed-unit entry multiplies
 * by the +-1 its sign bit selects, as the plain form multiplies by its stored +-1; a
 * table lookup rather than a select, which compiles to a branch the signs mispredict). */
static inline __attribute__((always_inline)) double entry_times(entries_t e, int form, int64_t k,
                                                                double x)
{
    if (form == SLP_VALUES_SIGNED)
        return unit_of_sign[(uint32_t)e.idx[k] >> 31] * x;
    if (form == SLP_VALUES_TABLE8)
        return e.table[e.code8[k]] * x;
    if (form == SLP_VALUES_TABLE16)
        return e.table[e.code16[k]] * x;
    if (form == FORM_FP32)
        return (double)e.val32[k] * x;
    return e.val[k] * x;
}

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

slp_block_layout slp_cpu_block_layout_asked(int copies, int64_t rows, int64_t cols, int64_t nnz,
                                            int threads)
{
    return copies == SLP_COPIES_TWO    ? SLP_BLOCK_BOTH
           : copies == SLP_COPIES_ROWS ? SLP_BLOCK_ROWS
           : copies == SLP_COPIES_ONE  ? slp_cpu_block_one_copy(rows, cols)
                                       : slp_cpu_block_layout_for(rows, cols, nnz, threads);
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
    free(c->table);
    free(c->codes);
    free(c->val32);
    memset(c, 0, sizeof *c);
}

/* The copy's values in the exact form of fewest bytes (core/values.h), unless plain
 * values are asked for, or (auto) a table would serve a scattering product over short lines:
 * there each entry's extra load (the code, then the table) costs more time than the
 * bytes saved (docs/memory.md, "Compact values": 20% on the 4.6M mcf's scatter). */
static slp_err compact_values(block_copy_t *c, slp_block_values values, int scattered)
{
    if (values == SLP_BLOCK_VALUES_PLAIN || c->csr.nnz == 0)
        return SLP_OK;
    slp_values_survey_t survey;
    SLP_CALL(slp_values_survey(c->csr.val, c->csr.nnz, &survey));
    int table = survey.form == SLP_VALUES_TABLE8 || survey.form == SLP_VALUES_TABLE16;
    if (table && scattered && values == SLP_BLOCK_VALUES_AUTO &&
        c->csr.nnz < SLP_SCATTER_TABLE_LINE * c->csr.rows)
        return SLP_OK;
    if (survey.form == SLP_VALUES_SIGNED) {
        uint32_t *idx = (uint32_t *)c->csr.col_idx;
        for (int64_t k = 0; k < c->csr.nnz; k++)
            idx[k] |= c->csr.val[k] < 0 ? SLP_SIGN_BIT : 0u;
    } else if (survey.form != SLP_VALUES_PLAIN) {
        SLP_CALL(slp_values_encode(c->csr.val, c->csr.nnz, survey.form, &c->table, &c->table_len,
                                   &c->codes));
    } else {
        return SLP_OK;
    }
    c->form = survey.form;
    free(c->csr.val);
    c->csr.val = NULL;
    return SLP_OK;
}

/* Keeps the copy: split points of its ranges, the narrowed pointers, the values' form
 * (scattered: the copy also serves the scattering product). */
static slp_err copy_keep(block_copy_t *c, int parts, const slp_block_options_t *opt,
                         int scattered)
{
    c->kept = 1;
    SLP_CALL(balanced_split(c, parts * SLP_RANGES_PER_PART));
    SLP_CALL(narrow(c));
    SLP_CALL(compact_values(c, opt->values, scattered));
    if (!opt->fp32_iterations || c->form != SLP_VALUES_PLAIN || c->csr.nnz == 0)
        return SLP_OK; /* an exact compact form is as small already */
    SLP_CALL(slp_alloc(&c->val32, (size_t)c->csr.nnz, sizeof(float)));
    for (int64_t k = 0; k < c->csr.nnz; k++)
        c->val32[k] = (float)c->csr.val[k];
    return SLP_OK;
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
                             const slp_block_options_t *opt, slp_block_t **out)
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
        rc = copy_keep(&b->a, b->parts, opt, choice == SLP_BLOCK_ROWS);
    if (rc == SLP_OK && choice != SLP_BLOCK_ROWS)
        rc = copy_keep(&b->at, b->parts, opt, choice == SLP_BLOCK_COLS);
    size_t partial_len = (size_t)(b->parts - 1) * (size_t)scattered;
    if (rc == SLP_OK && choice != SLP_BLOCK_BOTH && b->parts > 1 &&
        (rc = slp_alloc(&b->partial, partial_len + 1, sizeof(double))) == SLP_OK)
        memset(b->partial, 0, partial_len * sizeof(double)); /* zero between products */
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
            bytes += 4 * copies[k]->csr.nnz +
                     slp_values_bytes(copies[k]->form, copies[k]->csr.nnz, copies[k]->table_len) +
                     (copies[k]->val32 ? 4 * copies[k]->csr.nnz : 0) +
                     (copies[k]->ptr32 ? 4 : 8) * (copies[k]->csr.rows + 1);
    int64_t scattered = block->a.kept ? block->a.csr.cols : block->at.csr.cols;
    if (block->partial)
        bytes += 8 * (int64_t)(block->parts - 1) * scattered;
    return bytes;
}

void slp_cpu_block_report(const slp_block_t *block, slp_block_report_t *out)
{
    int64_t accumulators = block->partial ? 8 * (int64_t)(block->parts - 1) *
                                                (block->a.kept ? block->a.csr.cols : block->at.csr.cols)
                                          : 0;
    out->bytes = slp_cpu_block_bytes(block) - accumulators;
    out->forms[0] = '\0';
    const block_copy_t *copies[] = {&block->a, &block->at};
    const char *names[] = {"A", "A^T"};
    size_t used = 0;
    for (int k = 0; k < 2; k++) {
        const block_copy_t *c = copies[k];
        if (!c->kept || used >= sizeof out->forms)
            continue;
        char values[24] = "";
        if (c->form == SLP_VALUES_TABLE8 || c->form == SLP_VALUES_TABLE16)
            snprintf(values, sizeof values, " (%d values)", c->table_len);
        used += (size_t)snprintf(out->forms + used, sizeof out->forms - used, "%s%s: %s%s%s",
                                 used ? ", " : "", names[k], slp_values_form_name(c->form), values,
                                 c->val32 ? " + fp32" : "");
    }
}

/* out = (lines of c) . in over lines [lo, hi): the gathering product, for one form of
 * the values. */
static inline __attribute__((always_inline)) void
gather_lines(const block_copy_t *c, int form, const double *in, double *out, int64_t lo, int64_t hi)
{
    entries_t e = entries_of(c);
    for (int64_t i = lo; i < hi; i++) {
        /* Four independent accumulators break the add-latency chain of long lines. */
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
        int64_t k = line_begin(c, i), end = line_begin(c, i + 1);
        for (; k + 4 <= end; k += 4) {
            s0 += entry_times(e, form, k, in[entry_index(e, form, k)]);
            s1 += entry_times(e, form, k + 1, in[entry_index(e, form, k + 1)]);
            s2 += entry_times(e, form, k + 2, in[entry_index(e, form, k + 2)]);
            s3 += entry_times(e, form, k + 3, in[entry_index(e, form, k + 3)]);
        }
        for (; k < end; k++)
            s0 += entry_times(e, form, k, in[entry_index(e, form, k)]);
        out[i] = (s0 + s1) + (s2 + s3);
    }
}

/* The form a product reads: FP32 values for the iterations' products where the copy
 * has them, else the exact form. */
static int form_for(const block_copy_t *c, int iteration)
{
    return iteration && c->val32 ? FORM_FP32 : (int)c->form;
}

static void gather_range(const block_copy_t *c, int form, const double *in, double *out,
                         int64_t lo, int64_t hi)
{
    switch (form) {
    case FORM_FP32: gather_lines(c, FORM_FP32, in, out, lo, hi); break;
    case SLP_VALUES_SIGNED: gather_lines(c, SLP_VALUES_SIGNED, in, out, lo, hi); break;
    case SLP_VALUES_TABLE8: gather_lines(c, SLP_VALUES_TABLE8, in, out, lo, hi); break;
    case SLP_VALUES_TABLE16: gather_lines(c, SLP_VALUES_TABLE16, in, out, lo, hi); break;
    default: gather_lines(c, SLP_VALUES_PLAIN, in, out, lo, hi); break;
    }
}

static void gather(const slp_block_t *b, const block_copy_t *c, int form, const double *in,
                   double *out)
{
    int ranges = b->parts * SLP_RANGES_PER_PART;
#pragma omp parallel for schedule(dynamic, 1) if (b->parts > 1)
    for (int r = 0; r < ranges; r++)
        gather_range(c, form, in, out, c->split[r], c->split[r + 1]);
}

/* out += in[k] (line k of c) for one line. (Skipping lines whose input is 0 saves
 * their reads but costs a mispredicted branch each time the zero pattern is irregular:
 * 60% slower on mcf with half the inputs 0 at random, bench/spmv.c.) */
static inline __attribute__((always_inline)) void
scatter_line(const block_copy_t *c, entries_t e, int form, const double *in, double *out,
             int64_t k)
{
    double v = in[k];
    if (form == SLP_VALUES_SIGNED) { /* here a select of v or -v measures faster than the table */
        double minus_v = -v;
        for (int64_t j = line_begin(c, k), end = line_begin(c, k + 1); j < end; j++)
            out[entry_index(e, form, j)] += (int32_t)e.idx[j] < 0 ? minus_v : v;
        return;
    }
    for (int64_t j = line_begin(c, k), end = line_begin(c, k + 1); j < end; j++)
        out[entry_index(e, form, j)] += entry_times(e, form, j, v);
}

/* out += sum over lines k in [lo, hi) of in[k] (line k of c): the scattering product.
 * Neighbouring lines often update the same outputs (one row's consecutive columns),
 * which chains each update to the last through memory; four interleaved streams of
 * lines from distant parts of the range keep four chains in flight instead. */
static inline __attribute__((always_inline)) void
scatter_lines(const block_copy_t *c, int form, const double *in, double *out, int64_t lo,
              int64_t hi)
{
    entries_t e = entries_of(c);
    /* A 1-byte code's table copied to the stack: the compiler then knows that the
     * stores into out cannot change it, and schedules its loads freely. */
    double table8[256];
    if (form == SLP_VALUES_TABLE8) {
        memcpy(table8, c->table, (size_t)c->table_len * sizeof(double));
        e.table = table8;
    }
    int64_t quarter = (hi - lo) / 4;
    for (int64_t k = lo; k < lo + quarter; k++) {
        scatter_line(c, e, form, in, out, k);
        scatter_line(c, e, form, in, out, k + quarter);
        scatter_line(c, e, form, in, out, k + 2 * quarter);
        scatter_line(c, e, form, in, out, k + 3 * quarter);
    }
    for (int64_t k = lo + 4 * quarter; k < hi; k++)
        scatter_line(c, e, form, in, out, k);
}

static void scatter_range(const block_copy_t *c, int form, const double *in, double *out,
                          int64_t lo, int64_t hi)
{
    switch (form) {
    case FORM_FP32: scatter_lines(c, FORM_FP32, in, out, lo, hi); break;
    case SLP_VALUES_SIGNED: scatter_lines(c, SLP_VALUES_SIGNED, in, out, lo, hi); break;
    case SLP_VALUES_TABLE8: scatter_lines(c, SLP_VALUES_TABLE8, in, out, lo, hi); break;
    case SLP_VALUES_TABLE16: scatter_lines(c, SLP_VALUES_TABLE16, in, out, lo, hi); break;
    default: scatter_lines(c, SLP_VALUES_PLAIN, in, out, lo, hi); break;
    }
}

static void scatter(const slp_block_t *b, const block_copy_t *c, int form, const double *in,
                    double *out)
{
    const int64_t len = c->csr.cols;
    if (b->parts == 1) {
        memset(out, 0, (size_t)len * sizeof(double));
        scatter_range(c, form, in, out, 0, c->csr.rows);
        return;
    }
    /* The private accumulators are zero here (made so, and left so by the sum below,
     * which reads them anyway): no pass of its own clears them, about half of what the
     * parts cost on one thread against a single part (docs/threads.md). */
#pragma omp parallel for schedule(dynamic, 1)
    for (int p = 0; p < b->parts; p++) {
        double *mine = p == 0 ? out : b->partial + (size_t)(p - 1) * (size_t)len;
        if (p == 0)
            memset(out, 0, (size_t)len * sizeof(double));
        scatter_range(c, form, in, mine, c->split[p * SLP_RANGES_PER_PART],
                      c->split[(p + 1) * SLP_RANGES_PER_PART]);
    }
#pragma omp parallel for schedule(dynamic, 4096)
    for (int64_t i = 0; i < len; i++) {
        double s = out[i];
        for (int p = 1; p < b->parts; p++) {
            double *acc = &b->partial[(size_t)(p - 1) * (size_t)len + (size_t)i];
            s += *acc;
            *acc = 0.0;
        }
        out[i] = s;
    }
}

/* y = A x through whichever copy is kept (iteration: the FP32 values where kept). */
static void multiply(const slp_block_t *b, int iteration, const double *x, double *y)
{
    if (b->a.kept)
        gather(b, &b->a, form_for(&b->a, iteration), x, y);
    else
        scatter(b, &b->at, form_for(&b->at, iteration), x, y);
}

static void multiply_t(const slp_block_t *b, int iteration, const double *y, double *x)
{
    if (b->at.kept)
        gather(b, &b->at, form_for(&b->at, iteration), y, x);
    else
        scatter(b, &b->a, form_for(&b->a, iteration), y, x);
}

void slp_cpu_block_multiply(const slp_block_t *b, const double *x, double *y)
{
    multiply(b, 0, x, y);
}

void slp_cpu_block_multiply_t(const slp_block_t *b, const double *y, double *x)
{
    multiply_t(b, 0, y, x);
}

void slp_cpu_block_iterate_multiply(const slp_block_t *b, const double *x, double *y)
{
    multiply(b, 1, x, y);
}

void slp_cpu_block_iterate_multiply_t(const slp_block_t *b, const double *y, double *x)
{
    multiply_t(b, 1, y, x);
}
