/* Distributed Lanczos on A~ A~^T for sigma_max(A~), the step size (docs/algorithm.md section 3). */
#ifndef SLP_SIGMA_MAX_H
#define SLP_SIGMA_MAX_H

#include "backend/backend.h"
#include "grid/grid.h"
#include "plan/exchange.h"

/* 0/1 backend vectors selecting rows (m_loc entries) and columns (n_loc entries):
 * the estimate is then of the submatrix they select (the step-size boost). */
typedef struct slp_sigma_mask {
    const double *rows, *cols;
} slp_sigma_mask_t;

/* Estimate sigma_max(A~) (of the masked submatrix when mask is not NULL) (a lower bound: the largest Ritz value). The start vector is index-addressable (entry i depends
 * only on the global row index), so every grid shape starts identically.
 * Returns 0 in *sigma_max when the estimate is degenerate (caller uses eta = 1).
 * work_m, work_m2 are backend vectors of m_loc entries, work_n of n_loc; the
 * products are summed through ex (the solver's plan, so the estimate is bitwise
 * the same on every grid shape and plan). At the wall-clock `deadline` (INFINITY:
 * none; agreed over the grid) it stops with the estimate so far. */
slp_err slp_sigma_max_estimate(slp_grid_t *grid, slp_backend_t *be, slp_exchange_t *ex,
                            const slp_block_t *a, const slp_sigma_mask_t *mask,
                            int64_t m_loc, int64_t n_loc, int64_t row_lo, double *work_m,
                            double *work_m2, double *work_n, double deadline, double *sigma_max,
                            int *iterations);

/* Standard normal deviate for (seed, index), from a counter-based hash. */
double slp_normal_at(uint64_t seed, uint64_t index);

#endif
