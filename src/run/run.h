/* The run layer: one solve from input to output, used by `shardlp solve`, the C API
 * and (through it) Python. Input is an MPS file, a shard directory or a model in
 * memory on rank 0; then grid, backend, presolve, solve, verification and recovery
 * (verdict/pipeline.h), and the outputs the options name (--sol, --out, --json),
 * plus whole vectors gathered to rank 0 or this rank's slices for a caller in
 * memory. docs/design.md describes the layers. Collective over the world. */
#ifndef SLP_RUN_H
#define SLP_RUN_H

#include "core/model.h"
#include "presolve/presolve.h"
#include "run/run_options.h"
#include "solver/solver.h"

/* The front ends (api/, cli/) read a solve through the run layer's names; the solver's
 * types behind them can change without the front ends knowing. */
typedef slp_progress_t slp_run_progress_t;   /* one check's scalars (solver.h) */
typedef slp_progress_fn slp_run_progress_fn;
typedef slp_result_t slp_run_result_t;       /* status, scalars, this rank's slices */
typedef slp_status slp_run_status;           /* optimal ... infeasible_or_unbounded */
#define SLP_RUN_STATUS_LAST SLP_STATUS_INFEASIBLE_OR_UNBOUNDED
/* "optimal", ... (the JSON's names) and HiGHS's wording ("Optimal", ...). */
const char *slp_run_status_name(slp_run_status status);
const char *slp_run_status_highs_name(slp_run_status status);

typedef struct slp_run_input {
    const char *path;         /* MPS file or shard directory; NULL: `model` */
    const slp_model_t *model; /* the whole model on rank 0 (other ranks: NULL) */
    const double *x0, *y0;    /* warm start: whole vectors on rank 0, or NULL */
    slp_run_progress_fn progress; /* called at every check, or NULL */
    void *progress_user;
} slp_run_input_t;

/* Caller's buffers for whole vectors, written on rank 0 (any may be NULL). */
typedef struct slp_run_vectors {
    double *x, *y, *rc, *ax;
} slp_run_vectors_t;

typedef struct slp_run_output {
    slp_run_result_t result; /* status, scalars and this rank's slices (owned) */
    int64_t m, n, nnz;      /* the model's sizes */
    int64_t col_lo, n_loc;  /* this rank's column slice */
    int64_t row_lo, m_loc;  /* this rank's row slice */
    int R, C;               /* the grid used */
    int warm_started;
    slp_presolve_stats_t presolve;
    double setup_seconds;   /* input, distribution, backend */
    double total_seconds;
    int error_rank;         /* after a failure: the rank whose message every rank now holds */
} slp_run_output_t;

/* Solve. On failure every rank returns the same code and holds the same message
 * (slp_error_message(), that of the rank that saw the problem: out->error_rank). */
slp_err slp_run(const slp_run_options_t *opt, const slp_run_input_t *in,
                const slp_run_vectors_t *gather, slp_run_output_t *out);
void slp_run_output_free(slp_run_output_t *out);

#endif
