/* The verification of an optimum on the original model (docs/statuses.md, step 4),
 * after a solve and at the solver's checks. Collective over the grid. */
#ifndef SLP_VERIFY_H
#define SLP_VERIFY_H

#include "presolve/presolve.h"

typedef struct slp_verification {
    /* the checker's normwise criteria: relative (the relative termination form), or
     * absolute in the criterion's norm (the detailed form) */
    double primal, dual, gap;
    const char *terms;        /* "relative", "absolute L2" or "absolute L-inf" */
    double coord;             /* its worst coordinatewise or sign criterion */
    int ok;                   /* within the thresholds of docs/statuses.md */
    int primal_ok;            /* the primal criteria alone within them */
} slp_verification_t;

/* Evaluates `result` on `orig` against the user's tolerances of `settings`, in the
 * terms of the user's criterion (docs/statuses.md, step 4). Under the relative form it
 * sets the reduced costs at far bounds to 0 first ("Reduced costs at far bounds"):
 * `result` is changed. */
slp_err slp_verify_optimal(slp_grid_t *grid, const slp_local_problem_t *orig,
                           const slp_settings_t *settings, slp_result_t *result,
                           slp_verification_t *v);
/* "Verification <where>: primal ..., worst coordinate ...: meets/FAILS the tolerance". */
void slp_verification_log(const char *where, const slp_verification_t *v);

/* The solver's acceptance test (slp_accept_fn, user = this struct): the point (the
 * solver's copy) is recovered in place to the original problem when presolve reduced
 * it, and verified there.
 * A point that fails is rejected, and the solve goes on, until it has run as many
 * iterations again as it had at the first failure (at least budget_floor: a retry
 * gets as many as the run before it); then the point is accepted unverified and the
 * verdict's retries take over. */
typedef struct slp_verify_in_loop {
    slp_grid_t *grid;
    slp_presolve_t *pre;             /* NULL: the solve is of the original problem */
    const slp_local_problem_t *orig;
    const slp_settings_t *settings;  /* the user's tolerances */
    int64_t budget_floor;            /* the budget is at least this many iterations */
    int64_t first_failure;           /* iterations at the first rejection (0: none) */
} slp_verify_in_loop_t;

slp_err slp_verify_accept(slp_result_t *point, void *user, int *accept);

#endif
