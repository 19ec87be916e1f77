/* Text solution file in HiGHS's raw solution style (what `highs --solution_file`
 * writes and PuLP's HiGHS_CMD / Pyomo's HiGHS plugin read). docs/solution-format.md
 * describes the format and every reader decision.
 *
 * Writer: incremental, so the solver can stream slices through one rank and
 * never hold a whole vector. Writes to "<path>.tmp.XXXXXX" (created exclusively) and renames it to
 * <path> on a successful close; on any error (or abort) the temporary file is
 * removed and <path> is left untouched. Call order (enforced):
 *
 *   slp_solution_writer_open(path, &w);
 *   slp_solution_writer_header(w, "Optimal", "Feasible", objective);  (primal NULL -> "None")
 *     slp_solution_writer_section(w, SLP_SOL_PRIMAL_COLUMNS, n);  n x value(...)
 *     slp_solution_writer_section(w, SLP_SOL_PRIMAL_ROWS, m);     m x value(...)  (row activities)
 *   slp_solution_writer_dual_header(w, "Feasible");                   (NULL -> "None")
 *     slp_solution_writer_section(w, SLP_SOL_DUAL_COLUMNS, n);    n x value(...)  (reduced costs)
 *     slp_solution_writer_section(w, SLP_SOL_DUAL_ROWS, m);       m x value(...)  (row duals)
 *   slp_solution_writer_ray(w, SLP_SOL_RAY_ROWS, m);    optional certificate after the dual
 *     m x value(...)                                      part: "# Dual ray" + "# Rows m", or
 *                                                         SLP_SOL_RAY_COLUMNS: "# Primal ray"
 *   slp_solution_writer_close(&w);
 *
 * Values are in the user's sense (a maximisation reports its own objective,
 * and duals with z = c - A^T y for the user's c). A NULL name writes the
 * generated name "C<k>" / "R<k>" (k = position in the section). Not thread-safe;
 * one writer per file. */
#ifndef SLP_SOLUTION_TEXT_H
#define SLP_SOLUTION_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/model.h"
#include "core/name_index.h"

typedef enum {
    SLP_SOL_PRIMAL_COLUMNS = 0, /* column values x */
    SLP_SOL_PRIMAL_ROWS = 1,    /* row activities A x */
    SLP_SOL_DUAL_COLUMNS = 2,   /* reduced costs z */
    SLP_SOL_DUAL_ROWS = 3,      /* row duals y */
    SLP_SOL_RAY_COLUMNS = 4,    /* primal ray d (certificate of an unbounded LP) */
    SLP_SOL_RAY_ROWS = 5,       /* dual ray (Farkas certificate of an infeasible LP) */
    SLP_SOL_SECTION_COUNT = 6
} slp_sol_section;

/* ---- writer ------------------------------------------------------------ */

typedef struct slp_solution_writer slp_solution_writer_t;

slp_err slp_solution_writer_open(const char *path, slp_solution_writer_t **out);
/* model_status: HiGHS wording ("Optimal", "Infeasible", "Unbounded",
 * "Time limit reached", "Iteration limit reached", "Unknown").
 * primal_status: "Feasible" / "Infeasible", or NULL when no primal values follow. */
slp_err slp_solution_writer_header(slp_solution_writer_t *w, const char *model_status,
                                   const char *primal_status, double objective);
/* dual_status: "Feasible" / "Infeasible", or NULL when no dual values follow. */
slp_err slp_solution_writer_dual_header(slp_solution_writer_t *w, const char *dual_status);
slp_err slp_solution_writer_section(slp_solution_writer_t *w, slp_sol_section kind, int64_t count);
/* The certificate section (kind SLP_SOL_RAY_COLUMNS or SLP_SOL_RAY_ROWS), once, after the
 * dual part (docs/solution-format.md, "Certificates"). */
slp_err slp_solution_writer_ray(slp_solution_writer_t *w, slp_sol_section kind, int64_t count);
/* One "<name> <value>" line; name must be non-empty without whitespace, or NULL. */
slp_err slp_solution_writer_value(slp_solution_writer_t *w, const char *name, double value);
/* count lines at once; names may be NULL (all generated). */
slp_err slp_solution_writer_values(slp_solution_writer_t *w, int64_t count,
                                   const char *const *names, const double *values);
/* Finish (checks every declared entry was written), flush, rename into place,
 * free. On failure the temporary file is removed. Always frees *w. */
slp_err slp_solution_writer_close(slp_solution_writer_t **w);
/* Discard: remove the temporary file and free. Accepts NULL / *w == NULL. */
void slp_solution_writer_abort(slp_solution_writer_t **w);

/* ---- reader ------------------------------------------------------------ */

typedef struct slp_solution {
    char *model_status;     /* the line after "Model status" ("" if absent) */
    char *primal_status;    /* "Feasible", "Infeasible", "None" or "" if absent */
    char *dual_status;      /* same for the dual part */
    int has_objective;      /* an "Objective" line was present */
    double objective;       /* its value (user's sense), NaN if absent */
    int64_t m, n;
    double *x;              /* [n] column values      (NaN where missing) */
    double *row_activity;   /* [m] row activities     (NaN where missing) */
    double *z;              /* [n] reduced costs      (NaN where missing) */
    double *y;              /* [m] row duals          (NaN where missing) */
    double *ray_x;          /* [n] primal ray         (NaN where missing) */
    double *ray_y;          /* [m] dual ray           (NaN where missing) */
    int has_ray[2];         /* a "# Primal ray" / "# Dual ray" section was present */
    /* Per section (slp_sol_section): how many entries the file did not give
     * (a "None" part or an absent section counts all of them), and the index
     * of the first one (-1 if none). */
    int64_t missing[SLP_SOL_SECTION_COUNT];
    int64_t first_missing[SLP_SOL_SECTION_COUNT];
} slp_solution_t;

/* Read a text solution for a model with m rows and n columns whose names are
 * given by the two indices (name -> 0-based index). Errors ("FILE:LINE: problem"):
 * unreadable file, malformed line or number, unknown or duplicate name, a
 * "# Columns" / "# Rows" count different from the model's. Missing entries are
 * NOT an error: they are NaN and counted in `missing`. Values "nan", "inf",
 * "-inf" are read as such. */
slp_err slp_solution_text_read(const char *path, int64_t m, int64_t n,
                               slp_name_index_t *row_names,
                               slp_name_index_t *col_names, slp_solution_t **out);
/* Same, with the indices built from the model's names (generated R<i>/C<j> when absent). */
slp_err slp_solution_text_read_model(const char *path, const slp_model_t *model,
                                     slp_solution_t **out);
void slp_solution_destroy(slp_solution_t **sol);

/* Section label for messages: "column value", "row activity", "reduced cost", "row dual". */
const char *slp_sol_section_label(slp_sol_section kind);

/* A name as it appears in a solution file. Names without whitespace, '%' or a leading
 * '#' are written as they are (as HiGHS writes them); in the others each such
 * character becomes %XX (its hex code: "DEDO3 11" -> "DEDO3%2011", "#x" -> "%23x"), so
 * every line stays "NAME VALUE", no name looks like a section marker, and two names
 * never collide ("a b" and "a_b" stay apart). The writer and the reader's model index
 * both apply it. Returns name itself, buf, or NULL when buf is too small. */
const char *slp_solution_name(const char *name, char *buf, size_t size);

#endif
