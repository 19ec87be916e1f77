/* Solver settings with the defaults of docs/algorithm.md. Settings only: what a run
 * is given besides them (warm start, norms, trace) is slp_solve_inputs_t (solver.h). */
#ifndef SLP_SETTINGS_H
#define SLP_SETTINGS_H

#include <stdint.h>
#include <stdio.h>

typedef enum { SLP_NORM_L2 = 0, SLP_NORM_LINF = 1 } slp_norm;

typedef struct slp_settings {
    /* Termination. The cuPDLPx relative form (default): ||rp|| < tol (1 + ||b||),
     * ||rd|| < tol (1 + ||c||), gap < tol (1 + |p| + |d|). The OR-Tools detailed
     * form is used when `detailed` is set: ||rp|| <= eps_abs + eps_rel ||b^c|| ... */
    double tol;          /* 1e-4 */
    int detailed;        /* 0: relative form; 1: eps_abs/eps_rel/gap_rel form */
    double eps_abs;      /* detailed form */
    double eps_rel;
    double gap_rel;
    slp_norm norm;       /* L2 (default) or L-infinity, for both forms */
    double eps_infeas;   /* ray test tolerance (1e-8) */

    double time_limit;   /* wall-clock seconds from the end of reading, presolve and every
                          * follow-up solve included, agreed over the ranks (none: inf) */
    int64_t iter_limit;  /* INT64_MAX */
    int eval_freq;       /* 0: automatic (slp_settings_resolve) */
    int eval_freq_late;  /* the interval from iteration eval_late_from on (resolved; 0: */
    int64_t eval_late_from; /* eval_freq throughout) */

    int curtis_reid_iters; /* Curtis-Reid sweeps before the geometric mean (20) */
    int geo_iters;       /* geometric-mean passes before Ruiz (0) */
    int ruiz_iters;      /* 10 */
    int pock_chambolle;  /* 1 */
    double pc_alpha;     /* 1.0 */
    int bound_obj_rescaling; /* 1 */

    double restart_sufficient; /* 0.2 */
    double restart_necessary;  /* 0.5 */
    double restart_artificial; /* 0.36 */
    double pid_kp, pid_ki, pid_kd, pid_decay; /* 0.99, 0.01, 0, 0.3 */
    double pid_ratio_limit; /* PID only while rel_dual / rel_primal is within [1/L, L] (1e6) */
    double pid_step_limit;  /* a restart changes omega by at most this factor (100; 0: no limit) */
    int pid_hold_first;     /* the first restart keeps omega (SLP_HOLD_AUTO) */
    int weight_rule;        /* SLP_WEIGHT_PID or SLP_WEIGHT_HPR (--weight-rule) */

    int polish;          /* feasibility polishing (off) */
    int step_boost;      /* active-set step-size boost (off) */
    double fix_columns;  /* column fixing's level (verdict/fixing.h; 0: off) */
    int block_copies;    /* slp_block_copies: CSR copies of each block (0: the backend's choice) */
    int block_values;    /* slp_block_values: exact compact values (0, auto) or plain doubles */
    int precision;       /* SLP_PRECISION_FP64 or SLP_PRECISION_FP32_MATRIX (--precision) */
    int presolve;        /* distributed presolve (on) */
    int threads;         /* CPU threads per rank (0 = default) */
    int comm_support;    /* 1: support-aware communication plan (--comm support) */
    int comm_lib;        /* slp_comm_lib (plan/exchange.h): --comm-lib auto|mpi|nccl */
    int log_every_check; /* print every check (--verbose) */
} slp_settings_t;

void slp_settings_default(slp_settings_t *s);

/* precision's values (the --precision choices, in order). */
enum { SLP_PRECISION_FP64 = 0, SLP_PRECISION_FP32_MATRIX = 1 };
/* weight_rule's values (the --weight-rule choices, in order). */
enum { SLP_WEIGHT_PID = 0, SLP_WEIGHT_HPR = 1 };
/* pid_hold_first's values (the --weight-hold-first choices, in order). */
enum { SLP_HOLD_AUTO = 0, SLP_HOLD_OFF = 1, SLP_HOLD_ON = 2 };
/* The check interval and the first restart's weight where they are automatic
 * (docs/algorithm.md section 3): a target of 1e-5 or looser checks every 32
 * iterations, a tighter one every 64 for the first 10,000 iterations and every 200
 * after; the first restart keeps omega when the first interval is below 100. Every
 * solve resolves its settings once, at its start. */
void slp_settings_resolve(slp_settings_t *s);
/* The check interval of the window that starts after `total` iterations. */
int slp_check_interval(const slp_settings_t *s, int64_t total);

#endif
