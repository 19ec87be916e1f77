/* Internals shared by the solver's files: the per-rank solver state, the check
 * scalars, and the building blocks of the r2HPDHG loop (docs/algorithm.md sections 3-6).
 * Not part of the public interface. */
#ifndef SLP_SOLVER_INTERNAL_H
#define SLP_SOLVER_INTERNAL_H

#include "plan/comm_plan.h"
#include "plan/exchange.h"
#include "solver/scaling.h"
#include "solver/solver.h"

/* Everything one rank holds during the solve. Vectors live in backend memory. */
typedef struct {
    slp_backend_t *be;            /* borrowed */
    slp_grid_t *grid;             /* borrowed */
    const slp_settings_t *set;    /* borrowed */
    const slp_solve_inputs_t *in; /* borrowed, never NULL */
    int64_t n, m;                 /* local slice lengths */
    slp_block_t *a;               /* scaled A_rc and its transpose */
    uint32_t matrix_crc;          /* crc32 of the scaled A_rc as uploaded (checkpoints only) */
    slp_comm_plan_t *plan;        /* communication plan of the products */
    slp_exchange_t *ex;           /* the plan applied to backend vectors */
    /* Column slice (replicated down the grid column). The state keeps what the method
     * needs and no more (docs/memory.md "State vectors"):
     *   col_work  in an iteration A^T y, overwritten in place by the reflected point
     *             xbar (the primal pass reads each g_j before it writes xbar_j); at a
     *             check each product in turn: A^T yhat, A^T dy, A^T of the dual ray;
     *   dx        the last step xhat - x, then the primal ray projected in place. */
    double *c, *lv, *uv, *dcol;
    double *x, *x0, *xhat, *slack, *dx, *col_work;
    /* Row slice (replicated along the grid row).
     *   h   A xbar in an iteration (the step boost reads it after a check);
     *   ax  A xhat at a check, then A of the primal ray;
     *   dy  the last step yhat - y, then the dual ray projected in place. */
    double *lc, *uc, *drow;
    double *y, *y0, *yhat, *dy, *h, *ax;
    double theta_b, theta_c, obj_const;
    slp_norms_t norms;
    double eta, omega;
    double eta0;                  /* step size from the norm estimate (the boost's floor) */
    int64_t row_lo;               /* global index of this rank's first row */
    double omega0;                /* initial primal weight (polishing phases keep it) */
    double warm_omega;            /* ||y~0|| / ||x~0|| of a warm start with both, 0: none */
    double offer_level;           /* inputs->offer's next level (solver.h) */
    double comm_seconds;          /* wall time inside the products' sums (this rank) */
    double seconds_per_iter;      /* agreed estimate (time limit: the last window's length) */
    int fp32_iterations;          /* the iterations' products read FP32 values (--precision
                                   * fp32-matrix, until slp_fp32_handover says otherwise) */
    double fp32_best;             /* the least max. relative residual of a check on FP32 */
    int64_t fp32_best_iter;       /* the iteration it was reached at */
} slp_pdhg_t;

/* A warm start's primal weight ||y~0|| / ||x~0|| is kept within [1/L, L] for this L
 * (docs/algorithm.md section 3): a start whose x is nearly 0 (a flow that uses few arcs)
 * gave 2e5 and a solve that stalled with the dual frozen. */
#define SLP_WARM_WEIGHT_LIMIT 100.0

/* --precision fp32-matrix (docs/memory.md, "FP32 matrix values"): the iterations read the
 * FP64 values once a check's relative residuals and gap are all below SLP_FP32_HANDOVER,
 * or when SLP_FP32_STALL iterations have not halved the largest of them. */
#define SLP_FP32_HANDOVER 1e-5
#define SLP_FP32_STALL 5000

/* The state vectors of slp_pdhg_t, declared once (solver/state.c): their space and
 * what they are for. Allocation and release, checkpoints, polishing phases and the
 * synchronisation at a check all walk this table. */
enum {
    SLP_VEC_PROBLEM = 1, /* problem data: c, bounds */
    SLP_VEC_SCALING = 2, /* cumulative scaling factors */
    SLP_VEC_ITERATE = 4, /* iterate state: what a checkpoint saves */
    SLP_VEC_SYNC = 8,    /* made whole on every replica at a check (support plan): what
                          * the check reads and what the plan's sums leave stale on
                          * non-participants; x0, y0 are whole already (set at restarts
                          * from synced vectors), so they are not synchronised */
    SLP_VEC_PHASE = 16   /* a polishing phase owns its own copy */
};
#define SLP_STATE_MAX_VECS 32

/* The vectors with any of `flags` (SLP_VEC_ALL: every one) in `space` (SLP_COLS, SLP_ROWS
 * or SLP_ANY_SPACE), in table order: their fields' addresses in s and their lengths.
 * Returns how many. */
#define SLP_VEC_ALL 31
enum { SLP_COLS = 0, SLP_ROWS = 1, SLP_ANY_SPACE = 2 };
int slp_state_vectors(slp_pdhg_t *s, unsigned flags, int space,
                      double **addr[SLP_STATE_MAX_VECS], int64_t len[SLP_STATE_MAX_VECS]);
/* Create every vector with any of `flags` and none of `except` (zero-filled) / destroy
 * every non-NULL one with any of `flags`. */
slp_err slp_state_create(slp_pdhg_t *s, unsigned flags, unsigned except);
void slp_state_destroy(slp_pdhg_t *s, unsigned flags);

/* Scalars of one check, identical on every rank. */
typedef struct {
    double fpe;
    double fpe_eta0;             /* the FPE in the metric of the initial step size eta0 */
    double rp, rd, gap;          /* absolute residuals (termination norm), original space */
    double rel_p, rel_d, rel_gap;
    double pobj, dobj;           /* minimisation form */
    double dist_x, dist_y;       /* ||xhat - x0||, ||yhat - y0|| (scaled space) */
    /* infeasibility certificates from the last step (docs/algorithm.md section 6) */
    double primal_ray_obj;       /* c^T d_x of the normalised primal ray (< 0: improving) */
    double primal_ray_infeas;    /* its worst row violation */
    double dual_ray_obj;         /* dual objective of the normalised dual ray (> 0: Farkas) */
    double dual_ray_infeas;      /* its worst reduced-cost sign violation */
    /* sums of the magnitudes of the objective terms of each ray (same normalisation):
     * a ray objective below SLP_RAY_SIGNIFICANCE times this is rounding, not a proof */
    double primal_ray_size, dual_ray_size;
} slp_check_scalars_t;

typedef struct {
    double omega_best, g_best, integral, e_prev;
    double fpe_best, omega_fpe_best; /* the smallest FPE of any check and omega then (hpr rule) */
} slp_pid_t;

/* The restart loop's bookkeeping (one per run: the main solve, or a polishing phase). */
typedef struct {
    int64_t total;        /* iterations of this run */
    int64_t epoch;        /* iterations since the last restart */
    int64_t restarts, checks;
    double fpe0;          /* FPE at the first iteration of the epoch */
    double fpe0_eta0;     /* the same in the metric of eta0 (step boost) */
    double fpe_last;      /* FPE at the previous check (+inf right after a restart) */
    slp_pid_t pid;
    int use_pid;          /* PID primal-weight updates at restarts (off while polishing) */
    int restarted_since_log;
    int64_t restarts_reported; /* restarts when the progress callback last ran */
} slp_loop_t;

void slp_loop_init(slp_loop_t *loop, double omega, int use_pid);

/* pdhg_step.c: one iteration and the evaluation at a check. */
slp_err slp_pdhg_iterate(slp_pdhg_t *s, int64_t k, int major);
/* The infeasibility ray a check forms (docs/algorithm.md section 6): none, the last
 * step (xhat - x, yhat - y) or the epoch's displacement (xhat - x0, yhat - y0). */
typedef enum { SLP_RAY_NONE = -1, SLP_RAY_OF_STEP = 0, SLP_RAY_OF_EPOCH = 1 } slp_ray_source;
/* combined = 1 for a point assembled from two polishing phases (bound-form dual objective).
 * Leaves the ray, if any, in dx, dy and its products in col_work, ax. */
slp_err slp_pdhg_measure(slp_pdhg_t *s, slp_check_scalars_t *chk, int combined,
                         slp_ray_source ray);
/* A^T yhat into col_work and A xhat into ax, with the check's synchronisation of the
 * state (collective). */
slp_err slp_pdhg_point_products(slp_pdhg_t *s);
/* `iters` iterations (eval_freq, or fewer before the time limit; measuring FPE0 at an
 * epoch's first iteration), then the check. */
slp_err slp_pdhg_window(slp_pdhg_t *s, slp_loop_t *loop, int iters, slp_check_scalars_t *chk);
double slp_pdhg_norm(const slp_pdhg_t *s, double l2, double linf);

/* solution.c: the point in original units and the user's sense (x, rc, y, ax of
 * `res`). extract ends the solve (the state's vectors become the result, with the
 * certificate of an infeasible or unbounded res->status); current_point copies the
 * current point at a check and leaves the state as it was. */
slp_err slp_pdhg_extract(slp_pdhg_t *s, double sense, slp_result_t *res);
slp_err slp_pdhg_current_point(slp_pdhg_t *s, double sense, slp_result_t *pt);

/* termination.c */
int slp_pdhg_is_optimal(const slp_pdhg_t *s, const slp_check_scalars_t *chk);
/* The same test with every tolerance multiplied by `scale`. */
int slp_pdhg_is_optimal_scaled(const slp_pdhg_t *s, const slp_check_scalars_t *chk, double scale);
int slp_pdhg_primal_feasible(const slp_pdhg_t *s, const slp_check_scalars_t *chk);
int slp_pdhg_dual_feasible(const slp_pdhg_t *s, const slp_check_scalars_t *chk);
int slp_pdhg_gap_small(const slp_pdhg_t *s, const slp_check_scalars_t *chk);
int slp_pdhg_primal_infeasible(const slp_pdhg_t *s, const slp_check_scalars_t *chk);
int slp_pdhg_dual_infeasible(const slp_pdhg_t *s, const slp_check_scalars_t *chk);
int slp_pdhg_all_finite(const slp_check_scalars_t *chk);

/* restart.c */
void slp_pdhg_update_weight(slp_pdhg_t *s, slp_pid_t *pid, const slp_check_scalars_t *chk);
int slp_pdhg_should_restart(const slp_pdhg_t *s, int64_t total, int64_t epoch, double fpe,
                            double fpe0, double fpe_last);
void slp_pdhg_restart_at_pdhg_point(slp_pdhg_t *s);
/* The restart test after a check and, when it fires, the restart itself. */
void slp_pdhg_after_check(slp_pdhg_t *s, slp_loop_t *loop, const slp_check_scalars_t *chk);

/* step_boost.c: the active-set step-size boost (NULL when off). */
typedef struct slp_boost slp_boost_t;
slp_err slp_boost_create(slp_pdhg_t *s, slp_boost_t **out);
void slp_boost_destroy(slp_pdhg_t *s, slp_boost_t **boost);
/* After a check that did not end the run: roll back a rise that made the FPE grow
 * (*rolled_back = 1: a new epoch from the saved point), else update the active set. */
slp_err slp_boost_after_check(slp_boost_t *b, slp_pdhg_t *s, slp_loop_t *loop,
                              const slp_check_scalars_t *chk, int *rolled_back);
/* After a restart: estimate ||A_{B,F}|| when due and raise eta when that allows. */
slp_err slp_boost_at_restart(slp_boost_t *b, slp_pdhg_t *s, slp_loop_t *loop,
                             const slp_check_scalars_t *chk);
int64_t slp_boost_rises(const slp_boost_t *b);
int64_t slp_boost_rollbacks(const slp_boost_t *b);

/* polish.c: PDLP-style feasibility polishing. */
typedef struct slp_polish slp_polish_t;
slp_err slp_polish_create(slp_pdhg_t *main_solver, slp_polish_t **out);
void slp_polish_destroy(slp_polish_t **polish);
/* Whether to polish after this check of the main loop. */
int slp_polish_due(const slp_polish_t *polish, const slp_pdhg_t *s, int64_t total,
                   const slp_check_scalars_t *chk);
/* Run a primal and a dual phase from the main solver's current PDHG point; when both
 * reach their tolerance, evaluate the combined point on the original problem into
 * *chk (and the main solver's xhat/yhat/slack) and set *optimal when it passes. The
 * phases end once time_limit seconds have passed since `start` (this rank's clock;
 * elapsed times are agreed over the ranks). */
slp_err slp_polish_run(slp_polish_t *polish, slp_pdhg_t *s, int64_t total, double start,
                       double time_limit, slp_check_scalars_t *chk, int *optimal);
int64_t slp_polish_iterations(const slp_polish_t *polish);
double slp_polish_seconds(const slp_polish_t *polish);

#endif
