/* The communication model of the two plans (docs/design.md section 5, paper Appendix D):
 * logical scalar-hops, counting reduction and dissemination legs of the two
 * products per iteration plus one-way full-state synchronisation boundaries.
 * Packing, imbalance, topology and latency are not modelled.
 *
 * Per coordinate (a row in its grid row of P = C ranks, or a column in its grid
 * column of P = R ranks) with participant set S, k = |S|:
 *   dense plan    2 (P - 1) hops per product (reduce to a root, send back);
 *   support plan  2 (k - 1) hops per product (reduce to the lowest participant,
 *                 send back to the other participants), 0 when k = 0;
 *                 plus (P - k) hops per synchronised state vector at every
 *                 synchronisation boundary when 0 < k < P (the owner sends the
 *                 coordinate to each non-participant; empty coordinates are
 *                 computed identically everywhere, full ones are everywhere).
 * Pure functions, no communication (except slp_plan_model_local). */
#ifndef SLP_PLAN_MODEL_H
#define SLP_PLAN_MODEL_H

#include <stdint.h>

#include "core/local_problem.h"
#include "grid/grid.h"

/* Tallies of one direction (rows: A x over row_comm; columns: A^T y over col_comm). */
typedef struct slp_plan_tally {
    int64_t dense_hops;    /* per product */
    int64_t support_hops;  /* per product: reduction + dissemination legs */
    int64_t sync_hops;     /* per synchronisation boundary and state vector */
    int64_t empty, single, partial, full; /* coordinates by participant count */
    int64_t buckets;       /* distinct participant sets with 2 <= k < P (0 if not counted) */
} slp_plan_tally_t;

/* The whole model: rows and columns, and how state is synchronised. */
typedef struct slp_plan_model {
    slp_plan_tally_t rows, cols;
    int sync_interval;     /* iterations between synchronisation boundaries (checks) */
    int row_vectors;       /* m-space state vectors synchronised per boundary */
    int col_vectors;       /* n-space state vectors synchronised per boundary */
} slp_plan_model_t;

/* Defaults matching the solver: a check every 200 iterations (settings.c) that
 * synchronises 6 row-space vectors (y, yhat, dy, ax: the SLP_VEC_SYNC rows of
 * solver/state.c; A d_x of the step's ray and of the epoch's ray) and 8 column-space
 * vectors (x, xhat, slack, dx, g, aty; A^T d_y twice), pdhg_step.c. The epoch's ray is
 * evaluated when the step's certifies nothing (almost always), and the first iteration
 * of an epoch is a further boundary (its FPE is measured): the plan counts the
 * boundaries that happen and their traffic (comm_plan.h, slp_plan_traffic). */
#define SLP_PLAN_SYNC_INTERVAL 200
#define SLP_PLAN_ROW_VECTORS 6
#define SLP_PLAN_COL_VECTORS 8

/* Number of 64-bit words in a participant mask over P ranks. */
static inline int slp_plan_mask_words(int P) { return (P + 63) / 64; }

/* Add one coordinate with participant mask `mask` (words words) of a group of P ranks. */
void slp_plan_tally_add(slp_plan_tally_t *t, const uint64_t *mask, int words, int P);
/* Number of set bits in a mask, and the lowest set bit (-1 if none). */
int slp_plan_mask_count(const uint64_t *mask, int words);
int slp_plan_mask_lowest(const uint64_t *mask, int words);

/* Logical scalar-hops per iteration of the dense plan and of the support plan
 * (legs of both products plus the synchronisation hops amortised over the
 * interval). */
double slp_plan_model_dense(const slp_plan_model_t *m);
double slp_plan_model_support(const slp_plan_model_t *m);

/* Collective over the grid: participant masks of this rank's row block (over
 * row_comm) and column block (over col_comm) from the local block's support,
 * tallied over the whole grid (identical on every rank). When masks_rows /
 * masks_cols are not NULL they receive the masks (m_loc * words_C and
 * n_loc * words_R words, caller frees with free()). */
slp_err slp_plan_model_local(slp_grid_t *grid, const slp_local_problem_t *lp,
                             slp_plan_model_t *out, uint64_t **masks_rows,
                             uint64_t **masks_cols);

/* One line per direction describing the model (for logs and `shardlp info`). */
void slp_plan_model_print(const slp_plan_model_t *m, const char *indent);

#endif
