/* The distributed r2HPDHG solve of one rank's local problem (docs/algorithm.md
 * sections 2-6). Collective over the grid: every rank calls slp_solve with its
 * own block and slices and gets back its own slices of the solution. */
#ifndef SLP_SOLVER_H
#define SLP_SOLVER_H

#include <stdint.h>
#include <stdio.h>

#include "backend/backend.h"
#include "core/local_problem.h"
#include "grid/grid.h"
#include "solver/settings.h"

typedef enum {
    SLP_STATUS_OPTIMAL = 0,
    SLP_STATUS_PRIMAL_INFEASIBLE,
    SLP_STATUS_DUAL_INFEASIBLE,
    SLP_STATUS_TIME_LIMIT,
    SLP_STATUS_ITERATION_LIMIT,
    SLP_STATUS_NUMERICAL_ERROR,
    SLP_STATUS_INTERRUPTED,
    /* Neither primal feasibility nor a Farkas certificate could be established after
     * evidence of an unbounded direction (HiGHS "Primal infeasible or unbounded"). */
    SLP_STATUS_INFEASIBLE_OR_UNBOUNDED
} slp_status;

/* "optimal", "primal_infeasible", ... (the JSON spelling). */
const char *slp_status_name(slp_status status);
/* "Optimal", "Infeasible", ... (HiGHS's model status text). */
const char *slp_status_highs_name(slp_status status);

typedef struct slp_result {
    slp_status status;
    double objective;       /* primal objective, user's sense, original space */
    double dual_objective;  /* dual objective, user's sense */
    int64_t iterations;
    int64_t restarts;
    /* At the last check, original space, in the termination norm. */
    double abs_primal_residual, abs_dual_residual, abs_gap;
    double rel_primal_residual, rel_dual_residual, rel_gap;
    double primal_weight, step_size;
    /* Certificate quality at the last check (docs/algorithm.md section 6): a dual ray
     * proves primal infeasibility when dual_ray_obj > 0 and dual_ray_infeas /
     * dual_ray_obj <= eps; a primal ray proves dual infeasibility when
     * primal_ray_obj < 0 and primal_ray_infeas / -primal_ray_obj <= eps. */
    double primal_ray_obj, primal_ray_infeas, dual_ray_obj, dual_ray_infeas;
    double scaling_seconds, power_seconds, solve_seconds; /* wall clock phases */
    int64_t boost_rises, boost_rollbacks; /* step-size boost (0 when off) */
    int64_t polish_iterations;  /* iterations spent in polishing phases (not in `iterations`) */
    double polish_seconds;      /* their wall time (included in solve_seconds) */
    /* Column fixing (verdict/fixing.h; 0 when it did not take place): the iterations on
     * reduced problems (in `iterations`), its rounds, the columns held in the last one
     * (global). */
    int64_t reduced_iterations, fixing_rounds, fixed_columns;
    int64_t dropped_entries;  /* |a| <= 1e-9 entries removed, global */
    int64_t matrix_bytes;     /* the blocks' bytes over the grid (backend.h block_report) */
    int64_t matrix_nnz;       /* their nonzeros (after presolve) */
    /* Modelled logical scalar-hops per iteration of the dense and the support-aware
     * plan (both reported whichever plan ran), and the measured wall seconds this rank
     * spent in the plan's sums and synchronisations (0 for the dense MPI_Allreduce
     * path, which is not timed separately). */
    double dense_hops_per_iter, support_hops_per_iter;
    /* the plan's traffic over the whole grid (comm_plan.h): scalars sent by the sums and
     * the synchronisations, the model's hops for the same sums and syncs, the sync calls */
    double sum_scalars, sync_scalars, sum_modelled, sync_modelled, messages;
    int64_t syncs;
    double comm_seconds;
    /* This rank's solution slices, original space and sense (host memory, owned). */
    double *x;   /* [n_loc] primal values of column block c */
    double *rc;  /* [n_loc] reduced costs */
    double *y;   /* [m_loc] row duals of row block r */
    double *ax;  /* [m_loc] row activities */
    /* Certificates in original coordinates (docs/statuses.md), NULL when none:
     * ray_y [m_loc] a Farkas dual ray (primal_infeasible), ray_x [n_loc] an improving
     * primal ray (dual_infeasible). Any positive multiple is the same certificate. */
    double *ray_x;
    double *ray_y;
} slp_result_t;

/* What a progress callback sees at each check of the main loop (identical on every
 * rank; objectives in the user's sense). */
typedef struct slp_progress {
    int64_t iteration;
    double seconds;               /* since the solver started (the time limit's clock) */
    double objective, dual_objective;
    double abs_primal_residual, abs_dual_residual;
    double rel_primal_residual, rel_dual_residual, rel_gap;
    double primal_weight;
    int restarted;                /* a restart happened since the previous check */
} slp_progress_t;
/* Called on every rank at every check; nonzero asks the solve to stop (status
 * interrupted, the current iterate returned). */
typedef int (*slp_progress_fn)(const slp_progress_t *progress, void *user);

/* Asked on every rank (collective) at a check whose termination test says optimal,
 * with the current point in original space (`point`: x, rc, y, ax, the objectives,
 * residuals and iterations: a copy, the callee's to change, discarded after the call).
 * *accept = 0 rejects it: the solve goes on, and the test and the question come again
 * at the next check. The answer must be the same on every rank. */
typedef slp_err (*slp_accept_fn)(slp_result_t *point, void *user, int *accept);

/* The step-size estimate of one matrix, kept by a caller that solves problems with that
 * same matrix again (a session, docs/session.md): the scaled matrix depends on the matrix
 * alone, so its norm estimate does too. sigma_max 0: not known yet (the solve estimates
 * it and fills the memo). */
typedef struct slp_step_memo {
    double sigma_max;
    double seconds_per_step;      /* the estimate's time per power step (agreed) */
} slp_step_memo_t;

/* What one solve is given besides the problem and the settings (run data). */
typedef struct slp_solve_inputs {
    /* Warm start: this rank's column slice of x and row slice of y in original space
     * and the user's sense (borrowed; NULL = start from 0). */
    const double *x0, *y0;
    /* ||b|| and ||c|| for the relative tolerances (borrowed; NULL = computed from the
     * problem given to slp_solve). The presolve pipeline passes the original problem's
     * norms, so tolerances stay relative to the user's model. */
    const struct slp_norms *norms;
    /* CSV trace, one row per check of the main loop (rank 0; borrowed; NULL = none). */
    FILE *trace;
    slp_progress_fn progress;     /* NULL: none */
    void *progress_user;
    slp_accept_fn accept;         /* NULL: the termination test decides alone */
    void *accept_user;
    /* With accept set: the question is asked also where the termination test holds
     * with its tolerances multiplied by this (> 1: looser; an answer yes ends the solve
     * as optimal). 0 or 1: only where the test itself holds. */
    double accept_scale;
    /* The problem's matrix is the one this memo was filled for, or the memo is empty
     * (borrowed; NULL = estimate the step size and keep nothing). */
    slp_step_memo_t *step_memo;
    /* An offer to end the solve early (column fixing, verdict/fixing.h; NULL: none):
     * asked like `accept`, with the current point, at a check where the termination
     * test does not hold but the relative residuals and gap are all below
     * offer_level. *accept = 1 ends the solve with status interrupted and that point;
     * 0 declines, and the question comes again once they are all below a tenth of
     * the level it was asked at. */
    slp_accept_fn offer;
    void *offer_user;
    double offer_level;
    /* Added to the iteration numbers that the log, the trace and `progress` show (a
     * solve that continues another one's count; the trace's header is written only
     * when this is 0), and to the count the artificial restart rule compares an
     * epoch with (docs/algorithm.md section 5). The result counts this solve's
     * iterations alone. */
    int64_t iteration_base;
} slp_solve_inputs_t;

/* Solve. `inputs` may be NULL (none). `lp` is modified in place (preprocessed and scaled) and its matrix is
 * released once the backend holds its copy (lp->A is empty afterwards); the cuts
 * and sizes stay valid for output. */
slp_err slp_solve(slp_grid_t *grid, slp_local_problem_t *lp, const slp_settings_t *settings,
                  const slp_solve_inputs_t *inputs, slp_backend_t *be, slp_result_t *result);
void slp_result_free(slp_result_t *result);
/* Adds the iterations and times of another solve of the same run, `from`, to `into`. */
void slp_result_add_effort(slp_result_t *into, const slp_result_t *from);

#endif
