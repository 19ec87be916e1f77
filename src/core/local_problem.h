/* What one rank (r, c) of an R x C grid owns: its block A_rc of the constraint
 * matrix and the slices of the problem vectors for its column block c and row
 * block r (docs/design.md section 3). Produced either by splitting an MPS model on
 * rank 0 (grid/distribute.c) or by reading a shard directory (shard/), and
 * consumed by the solver. Memory is O(nnz(A_rc) + n/C + m/R). */
#ifndef SLP_LOCAL_PROBLEM_H
#define SLP_LOCAL_PROBLEM_H

#include <stdint.h>

#include "error.h"

/* A sparse block in CSR with block-local indices. Rows are < 2^63, column
 * indices are 32-bit (a block has fewer than 2^31 columns), the row pointer is
 * 64-bit so a block may hold more than 2^31 - 1 nonzeros. */
typedef struct slp_csr {
    int64_t rows, cols, nnz;
    int64_t *row_ptr; /* [rows+1] */
    int32_t *col_idx; /* [nnz], sorted within each row */
    double *val;      /* [nnz] */
} slp_csr_t;

slp_err slp_csr_create(int64_t rows, int64_t cols, int64_t nnz, slp_csr_t *out);
void slp_csr_free(slp_csr_t *a);
/* out = a^T in CSR (i.e. a in CSC). */
slp_err slp_csr_transpose(const slp_csr_t *a, slp_csr_t *out);
/* Give back the room of entries deleted in place (arrays cut to a->nnz). */
void slp_csr_shrink(slp_csr_t *a);

typedef struct slp_local_problem {
    /* Global facts, identical on every rank. */
    int64_t m, n, nnz;      /* global sizes */
    int R, C;               /* grid shape */
    int64_t *row_off;       /* [R+1] row cut points */
    int64_t *col_off;       /* [C+1] column cut points */
    int sense;              /* +1 minimize, -1 maximize (values below are as in the file) */
    double obj_const;

    /* This rank's position and block. */
    int r, c;
    int64_t row_lo, m_loc;  /* rows [row_lo, row_lo + m_loc) = row block r */
    int64_t col_lo, n_loc;  /* columns [col_lo, col_lo + n_loc) = column block c */
    slp_csr_t A;            /* A_rc, m_loc x n_loc */

    /* Column slice c (replicated over the R ranks of grid column c). */
    double *obj;            /* [n_loc] */
    double *lv, *uv;        /* [n_loc] */
    /* Row slice r (replicated over the C ranks of grid row r). */
    double *lc, *uc;        /* [m_loc] */
} slp_local_problem_t;

/* Allocate the per-rank arrays for the given sizes (matrix included). */
slp_err slp_local_problem_alloc(slp_local_problem_t *lp, int R, int C, int64_t m_loc,
                                int64_t n_loc, int64_t nnz_loc);
void slp_local_problem_free(slp_local_problem_t *lp);
/* Bounds with |v| >= SLP_INFINITE_BOUND become +-INFINITY: the canonical form of
 * infinite bounds, applied once where a local problem enters (slp_distribute_model,
 * slp_shard_read_local); presolve, the solver and the verdict rely on it. The objective
 * stays in the user's sense (the solver negates a maximisation internally). */
#define SLP_INFINITE_BOUND 1e20
void slp_local_problem_canonical_bounds(slp_local_problem_t *lp);

/* Deep copy (block and slices). */
slp_err slp_local_problem_copy(const slp_local_problem_t *src, slp_local_problem_t *dst);

/* Split [0, len) into `parts` contiguous intervals with roughly equal sums of
 * weights[k] + 1 (the +1 keeps empty rows and columns spread out too).
 * off has parts+1 entries; off[0] = 0, off[parts] = len. */
void slp_balanced_cuts(const int64_t *weights, int64_t len, int parts, int64_t *off);

/* The part p with off[p] <= k < off[p + 1], for k in [off[0], off[parts]) (of empty
 * parts sharing a start, the last one: the one that holds k). */
static inline int64_t slp_part_of(const int64_t *off, int64_t parts, int64_t k)
{
    int64_t lo = 0, hi = parts - 1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (off[mid] <= k)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static inline int slp_block_of(const int64_t *off, int parts, int64_t k)
{
    return (int)slp_part_of(off, parts, k);
}

#endif
