/* The communication plan of the two products (DESIGN.md section 5, issue 8).
 *
 * The dense plan sums the partial products over the whole grid row (A x) or grid
 * column (A^T y). A support-aware plan moves a row's partial sums only among the
 * ranks whose block holds a nonzero in that row (its participants), and likewise
 * for columns; the other ranks' copies of that coordinate go stale inside an
 * evaluation window and are rebuilt at synchronisation points (before every check
 * and before output) by slp_plan_sync_rows / slp_plan_sync_cols.
 *
 * A NULL plan is the dense plan. All functions are collective over the grid. */
#ifndef SLP_COMM_PLAN_H
#define SLP_COMM_PLAN_H

#include <stdint.h>

#include "core/local_problem.h"
#include "grid/grid.h"

typedef struct slp_comm_plan slp_comm_plan_t;

/* Build the plan from this rank's block (after presolve; support is fixed from
 * then on). mode: "dense" (returns NULL) or "support". */
slp_err slp_plan_create(slp_grid_t *grid, const slp_local_problem_t *lp, const char *mode,
                        slp_comm_plan_t **out);
void slp_plan_destroy(slp_comm_plan_t **plan);

/* Sum the partial products: v = A_rc x_c summed over the grid row (rows of block r),
 * or v = A_rc^T y_r summed over the grid column (columns of block c). */
slp_err slp_plan_sum_rows(slp_comm_plan_t *plan, slp_grid_t *grid, double *v, int64_t m_loc);
slp_err slp_plan_sum_cols(slp_comm_plan_t *plan, slp_grid_t *grid, double *v, int64_t n_loc);

/* Make the row-slice (m-space) / column-slice (n-space) vectors identical on every
 * replica again, from each coordinate's authoritative owner. No-op for dense. */
slp_err slp_plan_sync_rows(slp_comm_plan_t *plan, slp_grid_t *grid, double **vecs, int count,
                           int64_t m_loc);
slp_err slp_plan_sync_cols(slp_comm_plan_t *plan, slp_grid_t *grid, double **vecs, int count,
                           int64_t n_loc);

/* Modelled logical scalar-hops per iteration: dense plan and this plan (equal for
 * dense). Identical on every rank. */
slp_err slp_plan_hops(slp_comm_plan_t *plan, slp_grid_t *grid, const slp_local_problem_t *lp,
                      double *dense_hops, double *plan_hops);

#endif
