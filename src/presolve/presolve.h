/* Distributed presolve and its recovery (docs/design.md section 4.2, docs/presolve.md).
 *
 * The reductions "neutralise in place": the row and column partition of the
 * grid never changes, so every vector keeps its length and every rank keeps its
 * slices. A removed column keeps its slot with obj = 0, lv = uv = 0 and no matrix
 * entries (its value v is stored here, its contributions a_ij v moved into the
 * row bounds and c_j v into obj_const); a removed row keeps its slot with bounds
 * (-inf, +inf) and no entries (the PDHG projection leaves its dual at 0). Removed
 * entries are really deleted from the block, so the iteration does less work.
 *
 * Passes, repeated in rounds while something changes, each collective over the
 * grid (counts summed over row_comm / col_comm, never gathered):
 *   paper      rows with lc = uc = 0 and one nonzero a_ik globally fix x_k = 0;
 *              the row and column k (all its entries) are removed;
 *   fixed      columns with lv = uv are substituted and removed;
 *   singleton  rows with one nonzero become bounds on their variable, then the
 *              row is removed (columns whose bounds meet are then removed too);
 *   empty      empty rows are checked (0 in [lc, uc]) and removed; empty columns
 *              are fixed at the bound that minimises c_j x_j and removed;
 *   activity   rows whose activity bounds (over the column bounds) exclude them
 *              are infeasible, rows they always satisfy are removed, and rows
 *              they force fix their columns (presolve_rows.c);
 *   dual fix   columns whose cost and rows favour one finite bound are fixed;
 *   free col   implied free column singletons are substituted out of their row
 *              (presolve_columns.c);
 *   slack col  a zero-cost column singleton is its row's slack: the column goes and
 *              the row's bounds widen by its range (presolve_slack.c);
 *   doubleton  equations a x_j + b x_k = d eliminate x_j; its entries become fill
 *              at column k, sent within the grid row (presolve_doubleton.c);
 *   parallel   columns with A_k = lambda A_j, found by hashes joined over the grid row:
 *              merged when c_k = lambda c_j, else one fixed where the pair's cost
 *              favours it; rows with a_l = lambda a_i likewise: l's bounds move
 *              onto i (presolve_parallel.c).
 * Infeasible bounds (lv > uv, lc > uc, crossing implied bounds, an empty row
 * that excludes 0, judged against the row's own bounds) give primal infeasibility.
 * An empty column that improves without limit decides nothing by itself: it is
 * fixed at a finite value and recorded, and the pipeline reports unbounded only
 * once the rest of the problem is shown feasible (docs/statuses.md).
 *
 * Memory per rank: O(n_loc + m_loc + removed local entries) while presolve and the
 * recovery run, the latter bounded by nnz(A_rc); while the solve runs, O(removed
 * lines + removed local entries): the record is packed (presolve_toolkit.c). */
#ifndef SLP_PRESOLVE_H
#define SLP_PRESOLVE_H

#include <stdint.h>

#include "core/local_problem.h"
#include "grid/grid.h"
#include "solver/scaling.h"
#include "solver/solver.h"

/* What one category of reduction removed (global counts, identical on every rank). */
typedef struct slp_presolve_count {
    int64_t rows, cols, nnz;
} slp_presolve_count_t;

typedef enum {
    SLP_PRESOLVE_PAPER = 0,  /* lc = uc = 0 singleton rows forcing x_k = 0 */
    SLP_PRESOLVE_FIXED,      /* columns with lv = uv */
    SLP_PRESOLVE_SINGLETON,  /* singleton rows turned into bounds */
    SLP_PRESOLVE_EMPTY_ROW,  /* rows with no entries */
    SLP_PRESOLVE_EMPTY_COL,  /* columns with no entries */
    SLP_PRESOLVE_REDUNDANT,  /* rows their activity bounds always satisfy */
    SLP_PRESOLVE_FORCING,    /* rows whose activity bound meets a row bound: columns fixed */
    SLP_PRESOLVE_DUAL_FIX,   /* columns fixed at the bound their cost and rows favour */
    SLP_PRESOLVE_FREE_COL,   /* implied free column singletons substituted out of their rows */
    SLP_PRESOLVE_SLACK_COL,  /* zero-cost column singletons folded into their rows' bounds */
    SLP_PRESOLVE_DOUBLETON,  /* doubleton equations: one column substituted by the other */
    SLP_PRESOLVE_PARALLEL,   /* parallel columns with proportional costs merged into one */
    SLP_PRESOLVE_PARALLEL_FIX, /* a column of a parallel pair fixed where the pair's cost favours it */
    SLP_PRESOLVE_DUPLICATE_ROW, /* rows proportional to another: bounds moved onto it */
    SLP_PRESOLVE_DOMINATED,  /* columns whose reduced cost keeps one sign: fixed at that bound */
    SLP_PRESOLVE_NKINDS
} slp_presolve_kind;

typedef struct slp_presolve_stats {
    slp_presolve_count_t kind[SLP_PRESOLVE_NKINDS];
    slp_presolve_count_t total;  /* sum over the kinds */
    int64_t nnz_before;          /* global nonzeros before presolve */
    int rounds;                  /* rounds run */
    /* A row whose activity bounds exclude its bounds (-1: none): its global index and
     * the side, +1 when the least activity exceeds uc, -1 when the greatest is below lc */
    int64_t infeasible_row;
    int infeasible_side;
    double seconds;              /* wall clock of slp_presolve_run */
} slp_presolve_stats_t;

/* Short name of a kind ("paper", "fixed", "singleton", "empty_row", "empty_col"). */
const char *slp_presolve_kind_name(int kind);

typedef struct slp_presolve slp_presolve_t;

/* Collective. Reduces lp in place (lp->nnz becomes the global nonzero count of
 * the reduced problem). *status_out is -1 when presolve decided nothing, else
 * SLP_STATUS_PRIMAL_INFEASIBLE (then the solve should be skipped; *out is still
 * created). Logs one summary line on rank 0. */
slp_err slp_presolve_run(slp_grid_t *grid, slp_local_problem_t *lp, slp_presolve_t **out,
                         int *status_out);

/* Collective. Turns the result of solving the reduced problem into the result
 * of the original one: x, rc, y, ax of every removed row and column, duals of
 * removed singleton rows, and objective / dual_objective recomputed in the
 * original space (user's sense, the dual objective with the checker's formula,
 * docs/checker.md) from orig, this rank's slices of the problem as presolve was
 * given it (its block gives the row activities). The residual and gap statistics still describe
 * the reduced problem. */
slp_err slp_presolve_recover(slp_grid_t *grid, slp_presolve_t *pre,
                             const slp_local_problem_t *orig, slp_result_t *result);
/* The recovery in two steps, so that the record's entries can go before the original
 * problem is brought back (docs/memory.md "Presolve"): undo the reductions (x, rc, y
 * of every line, in min form; needs no original), then finish (row activities and
 * objectives from orig, values back to the user's sense). Both collective. */
slp_err slp_presolve_undo(slp_grid_t *grid, slp_presolve_t *pre, slp_result_t *result);
slp_err slp_presolve_finish(slp_grid_t *grid, const slp_presolve_t *pre,
                            const slp_local_problem_t *orig, slp_result_t *result);
/* Free the record (removed entries, lines, pairs) once no undo will follow: finish
 * still works, a later undo fails. */
void slp_presolve_drop_record(slp_presolve_t *pre);

/* A warm start's duals (this rank's row slice, original problem) on the reduced one:
 * the reduced problem keeps every line, its removed rows emptied, and a removed row's
 * dual there is 0 (the recovery recomputes the original's); *y_out is allocated (NULL
 * for a NULL y0). Column values need no change: a removed column is empty and fixed. */
slp_err slp_presolve_reduce_start(const slp_presolve_t *pre, const double *y0, double **y_out);

/* Empty columns found to improve the objective without limit (global count). */
int64_t slp_presolve_unbounded_columns(const slp_presolve_t *pre);
/* Moves the value each such column is recovered at by t along its ray (+-1 on that
 * column, the direction that improves the objective): a recovery
 * before and after the move differ by t times the ray lifted to the original problem
 * wherever the recovery is affine in those values (the pipeline checks it there). */
void slp_presolve_shift_unbounded(slp_presolve_t *pre, double t);

/* The reduced problem's norms for the relative tolerances (identical on every rank):
 * those of its objective and row bounds, except that a row widened by slack columns
 * counts its bounds without the widening (docs/presolve.md, pass 9). */
const slp_norms_t *slp_presolve_norms(const slp_presolve_t *pre);

/* The counts (identical on every rank). */
const slp_presolve_stats_t *slp_presolve_stats(const slp_presolve_t *pre);

void slp_presolve_free(slp_presolve_t **pre);

#endif
