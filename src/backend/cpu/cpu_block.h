/* The CPU backend's block A_rc (one or two CSR copies) and its products
 * (cpu_block.c; docs/memory.md "The matrix"). Shared by the CPU and guarded backends. */
#ifndef SLP_CPU_BLOCK_H
#define SLP_CPU_BLOCK_H

#include "backend/backend.h"

/* Which CSR copies a block keeps: the automatic choice, both, only A_rc (rows), or only
 * A_rc^T (cols). */
typedef enum { SLP_BLOCK_AUTO = -1, SLP_BLOCK_BOTH = 0, SLP_BLOCK_COLS = 1, SLP_BLOCK_ROWS = 2 } slp_block_layout;

/* The automatic choice for a rows x cols block with nnz entries and `threads` threads:
 * one copy when the short side is at most half the long side, its private
 * accumulators (threads - 1 of them) cost at most a quarter of the copy saved, and
 * that copy is at least 8 MiB. */
slp_block_layout slp_cpu_block_layout_for(int64_t rows, int64_t cols, int64_t nnz, int threads);
/* The one copy for a rows x cols block: the one whose lines are the long side. */
slp_block_layout slp_cpu_block_one_copy(int64_t rows, int64_t cols);
/* The layout --block-copies asks for (copies: slp_block_copies): both copies, A_rc alone
 * (rows), the one copy of the long side (one), or the automatic choice for `threads`. */
slp_block_layout slp_cpu_block_layout_asked(int copies, int64_t rows, int64_t cols, int64_t nnz,
                                            int threads);

/* Takes over the arrays of a and at (at may be NULL: transposed here when needed);
 * both are left empty. The products' work is cut for `parts` threads (the most that
 * will run them; their results depend on it, not on the threads that do run). */
slp_err slp_cpu_block_create(slp_csr_t *a, slp_csr_t *at, slp_block_layout layout, int parts,
                             const slp_block_options_t *opt, slp_block_t **out);
void slp_cpu_block_destroy(slp_block_t *block);
/* Copies with at most this many nonzeros keep 32-bit line pointers (default 2^32 - 1;
 * tests lower it to run the 64-bit ones). */
void slp_cpu_block_set_narrow_max(int64_t nnz);
/* Bytes the block holds (copies, split points aside, private accumulators). */
int64_t slp_cpu_block_bytes(const slp_block_t *block);
/* The matrix's bytes (private accumulators aside) and each kept copy's form. */
void slp_cpu_block_report(const slp_block_t *block, slp_block_report_t *out);
void slp_cpu_block_multiply(const slp_block_t *block, const double *x, double *y);   /* y = A x */
void slp_cpu_block_multiply_t(const slp_block_t *block, const double *y, double *x); /* x = A^T y */
/* The iterations' products: the FP32 values of the copies that keep them
 * (--precision fp32-matrix), else the same as the two above. */
void slp_cpu_block_iterate_multiply(const slp_block_t *block, const double *x, double *y);
void slp_cpu_block_iterate_multiply_t(const slp_block_t *block, const double *y, double *x);

#endif
