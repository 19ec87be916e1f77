/* The communication plan of the two products (docs/design.md section 5, issue 8,
 * docs/comm-support.md).
 *
 * Both plans sum a coordinate's partial products in a fixed order: the sum is
 * 0.0 + p_0 + p_1 + ... over the ranks of the group in rank order, computed on
 * the coordinate's owner and sent back. A rank whose block has no nonzero in a
 * coordinate contributes +0.0, which leaves such a sum bitwise unchanged, so the
 * support plan (which skips those ranks) gives bitwise the same sums as the dense
 * plan, and the same iterates.
 *
 * dense    every coordinate of the group's slice: MPI_Alltoallv of the partials
 *          (segment k of the slice is summed by rank k), then MPI_Allgatherv.
 * support  per coordinate, the participant set S (ranks whose block holds a
 *          nonzero in it), fixed after presolve. Coordinates with S = the whole
 *          group ("full bucket") use the dense collectives restricted to them;
 *          coordinates with 2 <= |S| < P ("partial buckets") are reduced by
 *          point-to-point to the lowest participant, which sends the sum back to
 *          the other participants; |S| = 1 needs nothing; empty coordinates are
 *          computed identically everywhere. Non-participants' copies go stale
 *          inside an evaluation window and are rebuilt by slp_plan_sync_rows /
 *          slp_plan_sync_cols from the authoritative owner (lowest participant;
 *          rank 0 of the group for empty coordinates).
 *
 * A NULL plan is the dense plan with MPI_Allreduce (unordered sums). In the
 * single-process layer every plan is dense. All functions are collective over
 * the grid unless they say otherwise. */
#ifndef SLP_COMM_PLAN_H
#define SLP_COMM_PLAN_H

#include <stdint.h>

#include "core/local_problem.h"
#include "grid/grid.h"
#include "plan/plan_model.h"

typedef struct slp_comm_plan slp_comm_plan_t;

/* Build the plan from this rank's block (after presolve; support is fixed from
 * then on). mode: "dense" or "support". Memory O(nnz(A_rc) + m_loc + n_loc) for
 * R, C <= 64 (participant masks are ceil(P/64) words per coordinate), plus
 * receive buffers of the size of what this rank receives per product. */
slp_err slp_plan_create(slp_grid_t *grid, const slp_local_problem_t *lp, const char *mode,
                        slp_comm_plan_t **out);
/* Not collective; accepts NULL and *plan == NULL. Call before MPI is finalised. */
void slp_plan_destroy(slp_comm_plan_t **plan);

/* Sum the partial products: v = A_rc x_c summed over the grid row (rows of block r),
 * or v = A_rc^T y_r summed over the grid column (columns of block c). With the
 * support plan only coordinates this rank participates in are current afterwards. */
slp_err slp_plan_sum_rows(slp_comm_plan_t *plan, slp_grid_t *grid, double *v, int64_t m_loc);
slp_err slp_plan_sum_cols(slp_comm_plan_t *plan, slp_grid_t *grid, double *v, int64_t n_loc);

/* Make the row-slice (m-space) / column-slice (n-space) vectors identical on every
 * replica again, from each coordinate's authoritative owner. No-op for dense. */
slp_err slp_plan_sync_rows(slp_comm_plan_t *plan, slp_grid_t *grid, double **vecs, int count,
                           int64_t m_loc);
slp_err slp_plan_sync_cols(slp_comm_plan_t *plan, slp_grid_t *grid, double **vecs, int count,
                           int64_t n_loc);

/* Modelled logical scalar-hops per iteration (plan_model.h): dense plan and this
 * plan (equal for dense). Identical on every rank. */
slp_err slp_plan_hops(slp_comm_plan_t *plan, slp_grid_t *grid, const slp_local_problem_t *lp,
                      double *dense_hops, double *plan_hops);
/* Iterations between synchronisation boundaries (the solver's eval_freq; default
 * 200), used by slp_plan_hops to amortise the synchronisation hops. Local. */
void slp_plan_set_sync_interval(slp_comm_plan_t *plan, int iterations);
/* The full model computed at creation (NULL plan: NULL). Local. */
const slp_plan_model_t *slp_plan_model(const slp_comm_plan_t *plan);

/* Wall seconds this rank spent inside the plan's sums and syncs (waiting for
 * partners included), and the number of sums and syncs. Local; 0 for NULL. */
double slp_plan_comm_seconds(const slp_comm_plan_t *plan);
int64_t slp_plan_sum_calls(const slp_comm_plan_t *plan);
int64_t slp_plan_sync_calls(const slp_comm_plan_t *plan);
/* 1 if the plan is support-aware (and has more than one rank somewhere). Local. */
int slp_plan_is_support(const slp_comm_plan_t *plan);

/* What the plan sent so far, over the whole grid (collective): scalars sent by all the
 * sums' legs and by the synchronisations, the number of synchronisation calls, and the
 * model's hops for the calls that ran (per sum the direction's support legs, per sync
 * count x the direction's sync hops per vector; identical on every rank). Measured and
 * modelled traffic are equal when the model describes the code (tests/mpi/comm_support.sh,
 * docs/comm-support.md). */
typedef struct slp_plan_traffic {
    double sum_scalars, sync_scalars;
    double messages;        /* point-to-point sends and non-empty collective destinations */
    int64_t syncs;
    double sync_modelled, sum_modelled;
} slp_plan_traffic_t;
slp_err slp_plan_traffic(slp_comm_plan_t *plan, slp_grid_t *grid, slp_plan_traffic_t *out);

#endif
