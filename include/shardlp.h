/* shardlp public C API (docs/c-api.md).
 *
 * Solves   minimize (or maximize)  c^T x + c0
 *          subject to  lc <= A x <= uc,   lv <= x <= uv
 * with the distributed first-order method of shardlp (restarted reflected-Halpern
 * PDHG). Any bound may be infinite (+-INFINITY from <math.h>).
 *
 * Lifetime:  shardlp_problem_create*() -> [shardlp_problem_set_warm_start()] ->
 *            shardlp_solve() (any number of times) -> shardlp_problem_destroy();
 *            shardlp_settings_create() -> shardlp_set_option()... -> any number of
 *            solves -> shardlp_settings_destroy().
 * Errors:    every function returns a shardlp_error (SHARDLP_OK == 0); the one-line
 *            message of the last failure is shardlp_last_error(). The outcome of a
 *            solve (optimal, infeasible, time limit, ...) is NOT an error: it is
 *            shardlp_info.status.
 * MPI:       a program that does not use MPI needs nothing: the library runs as one
 *            process and never starts MPI. Under a launcher (mpirun/srun), call
 *            shardlp_init() first and shardlp_finalize() last (they start and stop
 *            MPI), and call shardlp_solve() on every rank: rank 0 holds the model, the
 *            others pass NULL. See shardlp_solve() for what each rank gets back.
 * Threads:   the library keeps one error message per process; do not call it from
 *            two threads at once.
 * Indices:   0-based; sizes, offsets and indices are 64-bit. */
#ifndef SHARDLP_H
#define SHARDLP_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The layout of the structs and enums below. A program or binding checks that the
 * library it loaded was built from the same header: shardlp_api_version() ==
 * SHARDLP_API_VERSION (the Python package refuses to import otherwise). */
#define SHARDLP_API_VERSION 5 /* 5: sessions; 4: shardlp_api_version, shardlp_free; 3: SHARDLP_NOT_SOLVED = 0 */

/* The call failed (mirrors the library's internal codes). */
typedef enum {
    SHARDLP_OK = 0,
    SHARDLP_ERR_INPUT = 1,      /* malformed model or argument (message says which) */
    SHARDLP_ERR_IO = 2,         /* cannot open, read or write a file */
    SHARDLP_ERR_NOMEM = 3,      /* allocation failed */
    SHARDLP_ERR_MPI = 4,        /* communication failure or grid / rank-count mismatch */
    SHARDLP_ERR_INTERNAL = 5,   /* a bug: please report with the model */
    SHARDLP_ERR_UNSUPPORTED = 6 /* feature not built or not available in this build */
} shardlp_error;

/* What the solve found (not an error); the names in quotes are `shardlp solve --json`'s.
 * The zero value says that no solve filled the struct (a failed call, a zeroed struct):
 * it never reads as a result. */
typedef enum {
    SHARDLP_NOT_SOLVED = 0,        /* "not_solved": no solve filled this (an error, or none ran) */
    SHARDLP_OPTIMAL = 1,           /* "optimal": all three tolerances met */
    SHARDLP_PRIMAL_INFEASIBLE = 2, /* "primal_infeasible": a dual ray proves it */
    SHARDLP_DUAL_INFEASIBLE = 3,   /* "dual_infeasible": unbounded (a primal ray) */
    SHARDLP_TIME_LIMIT = 4,        /* "time_limit": best iterate returned */
    SHARDLP_ITERATION_LIMIT = 5,   /* "iteration_limit": best iterate returned */
    SHARDLP_NUMERICAL_ERROR = 6,   /* "numerical_error" */
    SHARDLP_INTERRUPTED = 7,       /* "interrupted" */
    SHARDLP_INFEASIBLE_OR_UNBOUNDED = 8 /* "infeasible_or_unbounded": an unbounded direction
                                       * exists but primal feasibility is undecided */
} shardlp_status;

/* Objective sense. */
enum { SHARDLP_MINIMIZE = 1, SHARDLP_MAXIMIZE = -1 };

/* Sparse matrix formats accepted by shardlp_problem_create. */
typedef enum {
    SHARDLP_CSC = 0, /* ptr[n+1] column starts, row[nnz] row indices */
    SHARDLP_CSR = 1, /* ptr[m+1] row starts, col[nnz] column indices */
    SHARDLP_COO = 2  /* row[nnz], col[nnz] (triplets, any order) */
} shardlp_format;

/* A borrowed view of the constraint matrix A (m x n); nothing is kept after the
 * create call returns. Duplicate entries are summed; indices need not be sorted. */
typedef struct shardlp_matrix {
    shardlp_format format;
    int64_t nnz;          /* number of stored entries */
    const int64_t *ptr;   /* CSC: [n+1], CSR: [m+1] offsets, ptr[0] == 0; COO: unused */
    const int64_t *row;   /* CSC and COO: [nnz] row indices in [0, m); CSR: unused */
    const int64_t *col;   /* CSR and COO: [nnz] column indices in [0, n); CSC: unused */
    const double *val;    /* [nnz] finite values */
} shardlp_matrix;

typedef struct shardlp_problem shardlp_problem; /* opaque: the whole LP, on one rank */

/* Build a problem from arrays (all copied; the caller keeps ownership).
 *   m, n     rows and columns (either may be 0)
 *   sense    SHARDLP_MINIMIZE or SHARDLP_MAXIMIZE (results are in this sense)
 *   c        [n] objective, NULL = zeros;   c0  objective constant
 *   A        the matrix (may be NULL when it has no entries)
 *   lc, uc   [m] row bounds; NULL = -inf / +inf. lc[i] == uc[i] is an equality.
 *   lv, uv   [n] variable bounds; NULL = 0 / +inf (the linprog and MPS default).
 * Checks: finite c and values, indices in range, no NaN bound, lower <= upper,
 * no lower bound of +inf or upper bound of -inf (SHARDLP_ERR_INPUT, message names
 * the first offending index). */
shardlp_error shardlp_problem_create(int64_t m, int64_t n, int sense, const double *c, double c0,
                                     const shardlp_matrix *A, const double *lc, const double *uc,
                                     const double *lv, const double *uv, shardlp_problem **out);
/* Read an MPS file (.mps, .mps.gz, free or fixed format). Errors name file and line. */
shardlp_error shardlp_problem_read(const char *path, shardlp_problem **out);
/* Write the problem as a file: CPLEX LP when the path ends in ".lp", else free MPS
 * (values with 17 digits: read back exactly). Python's crossover hands models to HiGHS
 * this way. */
shardlp_error shardlp_problem_write(const shardlp_problem *problem, const char *path);
/* Accepts NULL and sets *problem to NULL. */
void shardlp_problem_destroy(shardlp_problem **problem);

/* Sizes of a problem (any pointer may be NULL). */
void shardlp_problem_size(const shardlp_problem *problem, int64_t *m, int64_t *n, int64_t *nnz);
/* Name of row i / column j as read from a file, or generated ("R<i>", "C<j>").
 * Valid until the problem is destroyed or the next call; NULL when out of range. */
const char *shardlp_problem_row_name(const shardlp_problem *problem, int64_t i);
const char *shardlp_problem_col_name(const shardlp_problem *problem, int64_t j);

/* Warm start (copied): x0[n] primal and/or y0[m] dual values in the model's own
 * units and sense (as shardlp_solve returns them), either may be NULL. Used by the
 * next solves until cleared with (NULL, NULL). Values must be finite. */
shardlp_error shardlp_problem_set_warm_start(shardlp_problem *problem, const double *x0,
                                             const double *y0);

/* Settings: every option of `shardlp solve` (docs/cli.md lists them: tol, time_limit,
 * iter_limit, presolve, polish, termination, eps_abs, norm, threads, grid, comm,
 * backend, relax, sol, out, json, verbosity, ...), set by name with the same words as
 * on the command line or in a HiGHS options file. Names may use '-' or '_'; HiGHS's
 * names are accepted (time_limit, solve_relaxation, primal_feasibility_tolerance).
 * A settings object starts at the defaults, except verbosity 0: the library does not
 * print unless asked. NULL settings in a solve mean these defaults. */
typedef struct shardlp_settings shardlp_settings; /* opaque */

shardlp_error shardlp_settings_create(shardlp_settings **out);
/* Accepts NULL and sets *settings to NULL. */
void shardlp_settings_destroy(shardlp_settings **settings);
/* Set one option from text ("presolve", "off"; "time_limit", "60"; "grid", "2x2").
 * An unknown name or a value out of range is SHARDLP_ERR_INPUT with one line naming
 * the option and the allowed values; the settings are then unchanged for it. */
shardlp_error shardlp_set_option(shardlp_settings *settings, const char *name, const char *value);
/* The current value as text (NUL-terminated, truncated to size). */
shardlp_error shardlp_get_option(const shardlp_settings *settings, const char *name, char *buf,
                                 int64_t size);
/* The options, for listing: count, and the name, kind and one-line help of option k
 * (NULL when k is out of range). Kinds: "real", "integer", "bool", "choice" (the
 * values are in the help of `shardlp solve --help`), "grid" ("RxC"), "path", "flag"
 * (value "true"), "file" (an options file to read now), "ignored" (a HiGHS option
 * that has no effect). */
int shardlp_option_count(void);
const char *shardlp_option_name(int k);
const char *shardlp_option_kind(int k);
const char *shardlp_option_help(int k);

/* Callbacks (docs/c-api.md, "Callbacks"), kept in the settings.
 * Progress: called at every check of the main loop (every eval_freq iterations) on
 * every rank with the same values; a nonzero return stops the solve at that check
 * with status SHARDLP_INTERRUPTED and the current iterate. Log: every console log
 * line of a solve (the iteration table, summaries; the level is the verbosity
 * option) goes to fn(text, user) instead of stdout, on rank 0; warnings stay on
 * stderr. NULL fn removes a callback. The callbacks run in the solving thread. */
typedef struct shardlp_progress {
    int64_t iteration;
    double seconds;             /* since the solver started */
    double objective, dual_objective; /* user's sense */
    double abs_primal_residual, abs_dual_residual;
    double rel_primal_residual, rel_dual_residual, rel_gap;
    double primal_weight;
    int restarted;              /* a restart happened since the previous check */
} shardlp_progress;
typedef int (*shardlp_progress_callback)(const shardlp_progress *progress, void *user);
typedef void (*shardlp_log_callback)(const char *text, void *user);
shardlp_error shardlp_set_progress_callback(shardlp_settings *settings,
                                            shardlp_progress_callback fn, void *user);
shardlp_error shardlp_set_log_callback(shardlp_settings *settings, shardlp_log_callback fn,
                                       void *user);

/* Scalars of a solve; identical on every rank. */
typedef struct shardlp_info {
    shardlp_status status;
    double objective;         /* primal objective c^T x + c0, user's sense */
    double dual_objective;    /* dual objective, user's sense */
    double rel_primal_residual, rel_dual_residual, rel_gap;
    double abs_primal_residual, abs_dual_residual, abs_gap;
    int64_t iterations;
    int64_t restarts;
    int64_t m, n, nnz;        /* problem sizes */
    int grid_rows, grid_cols; /* the grid used */
    int warm_started;         /* 1 if the problem's warm start was used, 0 if none was set or
                                 this build's solver cannot take one (see docs/c-api.md) */
    double setup_seconds;     /* distribution and backend set-up */
    double scaling_seconds, power_seconds, solve_seconds; /* solver phases */
    double total_seconds;     /* the whole shardlp_solve call */
    int64_t presolve_rows_removed, presolve_cols_removed, presolve_nnz_removed;
} shardlp_info;

/* Solve. Collective over the world when running under MPI (every rank calls it;
 * `problem` is read on rank 0 only, other ranks may pass NULL).
 *   info            filled on every rank (may be NULL)
 *   x[n], rc[n]     primal values and reduced costs rc = c - A^T y (may be NULL)
 *   y[m], ax[m]     row duals and row activities A x (may be NULL)
 * Vectors are in the model's units and sense, HiGHS's sign convention (for a
 * minimisation y_i >= 0 on an active lower row bound, rc_j >= 0 at a lower
 * variable bound; all signs flip for a maximisation). They are written on rank 0
 * only (gathered slice by slice); other ranks' buffers are left untouched (use
 * shardlp_solve_shards for slices on every rank). On a status other than optimal
 * the vectors hold the last iterate. The solve is the command line's: presolve,
 * verification on the original model, the chosen backend, and the files the settings
 * name (sol, out, json, log_file). A model with integer columns is refused
 * (SHARDLP_ERR_INPUT) unless the option relax is on. Returns SHARDLP_OK whenever the
 * solve ran, whatever its status. */
shardlp_error shardlp_solve(shardlp_problem *problem, const shardlp_settings *settings,
                            shardlp_info *info, double *x, double *y, double *rc, double *ax);

/* Solve a shard directory (`shardlp shard` output, docs/shard-format.md) on as many
 * ranks as its grid has, each rank reading only its own block. Collective. Each rank
 * gets back its own slices: x and rc for columns [*col_lo, *col_lo + *n_loc), y and ax
 * for rows [*row_lo, *row_lo + *m_loc). The buffers are allocated with malloc and
 * owned by the caller (free() or shardlp_free); pass NULL for those you do not want.
 * Warm start is not available on this path. */
shardlp_error shardlp_solve_shards(const char *dir, const shardlp_settings *settings,
                                   shardlp_info *info, int64_t *col_lo, int64_t *n_loc,
                                   double **x, double **rc, int64_t *row_lo, int64_t *m_loc,
                                   double **y, double **ax);

/* Sessions (docs/session.md): set up once (grid, distribution, backend, log file),
 * then solve the problem and its updates any number of times, each solve warm from the
 * last one's point unless asked cold. shardlp_solve is a session with one solve.
 * Every call is collective under MPI, like shardlp_solve: rank 0 passes the problem
 * and whole vectors, the other ranks NULL. Sessions are independent: several may be
 * open in one process and used in any order (one call at a time).
 *
 *   create    the problem is copied out of `problem` (and its warm start taken as the
 *             first solve's start); the settings are copied, callbacks included.
 *   solve     warm = 1: from the last solve's x and y (the first solve: the problem's
 *             warm start, or zero); warm = 0: from zero. Vectors as shardlp_solve's.
 *             A warm start with row duals solves without presolve (docs/statuses.md).
 *   set_*     the next solves' objective c[n], variable bounds lv/uv[n], row bounds
 *             lc/uc[m] in the model's units and sense; NULL leaves that vector as it
 *             is. Checked as shardlp_problem_create checks them (SHARDLP_ERR_INPUT
 *             naming the first offending index; nothing changes then). The matrix and
 *             the objective sense are fixed for the session.
 *   destroy   accepts NULL and sets *session to NULL. */
typedef struct shardlp_session shardlp_session; /* opaque */

shardlp_error shardlp_session_create(const shardlp_problem *problem,
                                     const shardlp_settings *settings, shardlp_session **out);
/* A shard directory (as shardlp_solve_shards): each rank reads its own block. */
shardlp_error shardlp_session_create_shards(const char *dir, const shardlp_settings *settings,
                                            shardlp_session **out);
shardlp_error shardlp_session_solve(shardlp_session *session, int warm, shardlp_info *info,
                                    double *x, double *y, double *rc, double *ax);
shardlp_error shardlp_session_set_objective(shardlp_session *session, const double *c);
shardlp_error shardlp_session_set_col_bounds(shardlp_session *session, const double *lv,
                                             const double *uv);
shardlp_error shardlp_session_set_row_bounds(shardlp_session *session, const double *lc,
                                             const double *uc);
/* The model's sizes (either pointer may be NULL); the same on every rank. */
void shardlp_session_size(const shardlp_session *session, int64_t *m, int64_t *n);
void shardlp_session_destroy(shardlp_session **session);

/* MPI: start/stop the communication layer. Optional without a launcher. Under
 * mpirun, shardlp_init starts MPI (argc/argv may be NULL); shardlp_finalize ends it. */
shardlp_error shardlp_init(int *argc, char ***argv);
/* Solve on a user communicator instead: `mpi_comm` points to an MPI_Comm (this header
 * does not include mpi.h); MPI must already be initialised by the program, which also
 * finalises it. Every later solve of this process runs on (a duplicate of) that
 * communicator; shardlp_finalize frees the duplicate and leaves MPI running. */
shardlp_error shardlp_init_comm(const void *mpi_comm);
void shardlp_finalize(void);
/* This process's rank and the number of ranks (0 and 1 without MPI). */
int shardlp_rank(void);
int shardlp_ranks(void);

/* Message of the last failure on this rank ("" if none). */
const char *shardlp_last_error(void);
/* "optimal", "primal_infeasible", ... and HiGHS's wording ("Optimal", ...). */
const char *shardlp_status_name(shardlp_status status);
const char *shardlp_status_highs_name(shardlp_status status);
/* Library version, e.g. "0.1.0". */
const char *shardlp_version(void);
/* SHARDLP_API_VERSION of the header the library was built from. */
int shardlp_api_version(void);
/* Frees a buffer the library allocated for the caller (shardlp_solve_shards's): the
 * library's own free, whatever C runtime the caller uses. NULL is ignored. */
void shardlp_free(void *buffer);

#ifdef __cplusplus
}
#endif

#endif
