/* Streaming MPS parser (free and fixed format, plain or gzip).
 *
 * The parser reads the file once, line by line, and keeps only O(m + n) state:
 * row and column names (with hash indexes), row types, right-hand sides and
 * ranges, objective coefficients, column bounds and flags. Matrix entries are
 * NOT stored: each one is handed to the caller's on_entry callback as soon as
 * it is read. slp_mps_read builds an in-memory model on top of this; a
 * bounded-memory converter can instead stream the entries to disk (and may
 * call slp_mps_parse twice: a counting pass and a distributing pass).
 *
 * Index conventions
 *   - Constraint rows are numbered 0..m-1 in the order the ROWS section
 *     declares them, skipping N rows. The first N row (or the one named by
 *     OBJNAME) is the objective; the other N rows are dropped together with
 *     all their COLUMNS/RHS entries (RANGES on them: warning).
 *   - Columns are numbered 0..n-1 in order of first appearance in COLUMNS.
 *
 * What the parser resolves itself (see docs/mps.md for the reasons):
 *   - duplicates: a repeated (column, row) entry within one contiguous run of a
 *     column's lines, a repeated objective coefficient, RHS, RANGE, or a second
 *     bound on the same side of a column: the FIRST value wins, the later ones
 *     are ignored with a warning (HiGHS behaviour). A column whose lines are
 *     split into several runs is merged (warning); duplicates across runs are
 *     NOT detected here: on_entry may then see the same (col, row) twice, and
 *     the consumer must keep the first (slp_mps_read does).
 *   - names that are not declared (rows in COLUMNS/RHS/RANGES, columns in
 *     BOUNDS): warning, entry ignored.
 *   - RHS on the objective row: obj_const = -value. RANGES -> row bounds.
 *     Bounds -> lv/uv, including "negative UP with no explicit lower bound sets
 *     the lower bound to -inf" (warning). |value| >= 1e20 is infinite.
 *   - integer markers and BV/LI/UI: the column is flagged in is_int and relaxed;
 *     one warning per file.
 *   - only the first RHS / RANGES / BOUNDS set is used (warning for others).
 *
 * Errors (SLP_ERR_INPUT, message "PATH:LINE: ...") for: unknown sections,
 * quadratic/conic/SOS/indicator sections, SC/SI and unknown bound types,
 * malformed lines, non-numeric values, NaN/Inf text, infinite matrix or
 * objective coefficients, bounds infinite on the wrong side, a row declared
 * twice, data before any section, missing ENDATA. I/O problems: SLP_ERR_IO.
 *
 * Every pointer passed to a callback is borrowed and valid only during the
 * call. A callback returning non-SLP_OK stops the parse with that code.
 */
#ifndef SLP_MPS_PARSE_H
#define SLP_MPS_PARSE_H

#include <stdint.h>

#include "core/error.h"
#include "io/text_at.h"

/* Row "index" of the objective row in on_row. */
#define SLP_MPS_OBJ_ROW ((int64_t)-1)

typedef struct slp_mps_callbacks {
    void *user; /* passed back to every callback */
    /* A row declared in ROWS: row = 0..m-1 for E/L/G, SLP_MPS_OBJ_ROW for the
     * objective. Dropped N rows are not reported. May be NULL. */
    slp_err (*on_row)(void *user, int64_t row, const char *name, char type);
    /* A new column (first appearance in COLUMNS), col = 0..n-1, in order.
     * is_int: inside an integer MARKER block. May be NULL. */
    slp_err (*on_column)(void *user, int64_t col, const char *name, int is_int);
    /* A constraint-matrix entry (objective entries go to result.c instead).
     * Explicit zeros are passed on. Entries of a column arrive together unless
     * the file splits the column; rows within a column arrive in file order
     * (not necessarily sorted). May be NULL (e.g. a pass that only wants the
     * vectors). */
    slp_err (*on_entry)(void *user, int64_t col, int64_t row, double value);
    int quiet; /* 1: no warnings (e.g. the second pass of a two-pass reader) */
} slp_mps_callbacks_t;

/* Everything but the matrix, filled when slp_mps_parse returns SLP_OK. All
 * arrays are malloc'd and owned by the result: a caller may take one over by
 * copying the pointer and setting the field to NULL before
 * slp_mps_result_free. */
typedef struct slp_mps_result {
    char *name;          /* NAME ("" if none) */
    char *obj_name;      /* objective row name ("" if the file has no N row) */
    int sense;           /* +1 minimise, -1 maximise (OBJSENSE) */
    double obj_const;    /* minus the RHS of the objective row */
    int64_t m, n;        /* constraint rows, columns */
    int64_t nnz;         /* entries passed to on_entry */
    /* the names, each array packed in one block (slp_names_pack): a caller that takes
     * one over frees it with slp_names_free */
    char **row_names;    /* [m] */
    char **col_names;    /* [n] */
    double *lc, *uc;     /* [m] row bounds (from type, RHS and RANGES) */
    double *c;           /* [n] objective coefficients, as in the file (not negated) */
    double *lv, *uv;     /* [n] column bounds */
    unsigned char *is_int; /* [n] 1: integer in the file (relaxed here) */
    int64_t n_int;       /* number of columns flagged integer */
} slp_mps_result_t;

/* Parse `path` (plain or gzip, detected from the content). On failure the
 * result is left empty (all NULL) and the error message names path:line. */
slp_err slp_mps_parse(const char *path, const slp_mps_callbacks_t *cb, slp_mps_result_t *out);

/* Free what the result still owns; accepts a zeroed or partly taken result. */
void slp_mps_result_free(slp_mps_result_t *res);

/* Parse one MPS number: optional sign, digits, '.', exponent with e/E/d/D
 * (Fortran D exponents accepted). Returns 1 and *out on success; 0 when the
 * text is not a finite-looking number (NaN, Inf, letters, trailing garbage).
 * Overflow (1e999) gives +-HUGE_VAL, which callers treat as infinite. */
int slp_mps_parse_number(const char *text, size_t len, double *out);

/* The number at the start of p as strtod reads it, *end past it (p when there is none),
 * with slp_mps_parse_number's exact path for plain decimals (the LP reader's numbers). */
double slp_parse_number_prefix(const char *p, char **end);

/* Pieces of a parallel read (grid/read_parallel.c, docs/parallel-input.md). One parser
 * reads byte ranges of a file's text (io/text_at.h) in turn, keeping its state (section,
 * rows, this rank's columns) from range to range; it prints nothing, and counts what the
 * one-process reader would warn about, so that the caller can leave such a file to that
 * reader. */
typedef struct slp_mps_pieces slp_mps_pieces_t;

/* What the layout says a range holds; a range that holds something else is irregular
 * (slp_mps_pieces_irregular). */
typedef enum {
    SLP_PIECE_SECTIONS, /* section headers and their lines, before ENDATA */
    SLP_PIECE_DATA,     /* data lines of the current section only: no header line */
    SLP_PIECE_ENDATA    /* the ENDATA line */
} slp_mps_piece_kind;

/* A BOUNDS line as read, its column not looked up. type: 0..8 for UP LO FX FR MI PL BV
 * LI UI; set and col point into the line (valid during the callback). */
typedef struct slp_mps_bound {
    int type;
    const char *set;
    size_t set_len;
    const char *col;
    size_t col_len;
    int has_value;
    double value;
} slp_mps_bound_t;
typedef slp_err (*slp_mps_bound_fn)(void *user, int64_t line, const slp_mps_bound_t *b);

/* A parser of pieces of `src` (not owned; it outlives the parser), named `path` in
 * messages. */
slp_err slp_mps_pieces_open(const char *path, slp_text_at_t *src,
                            const slp_mps_callbacks_t *cb, slp_mps_pieces_t **out);
/* Parse bytes [begin, end) (whole lines) of the given kind, the first of them line
 * lines_before + 1. */
slp_err slp_mps_pieces_read(slp_mps_pieces_t *pc, int64_t begin, int64_t end,
                            int64_t lines_before, slp_mps_piece_kind kind);
/* From now on BOUNDS lines go to fn instead of being applied. */
void slp_mps_pieces_defer_bounds(slp_mps_pieces_t *pc, slp_mps_bound_fn fn, void *user);
/* Apply a deferred bound to column `col` of this parser, as read on `line`. */
slp_err slp_mps_pieces_apply_bound(slp_mps_pieces_t *pc, int64_t col, const slp_mps_bound_t *b,
                                   int64_t line);
/* The names of this parser's columns so far (numbered from 0 in order of appearance),
 * valid until slp_mps_pieces_close. */
char *const *slp_mps_pieces_columns(const slp_mps_pieces_t *pc, int64_t *n);
/* The names of the rows (every piece parser reads the ROWS section), valid until
 * slp_mps_pieces_close. */
char *const *slp_mps_pieces_rows(const slp_mps_pieces_t *pc, int64_t *m);
/* 1 while this parser's column names came in increasing order (slp_mps_name_order), each
 * after the one before: then no name is there twice, and slp_mps_pieces_find_in_order
 * finds a column by a binary search over them (its number, or -1; -1 also when the
 * names are not in order). */
int slp_mps_pieces_in_order(const slp_mps_pieces_t *pc);
int64_t slp_mps_pieces_find_in_order(const slp_mps_pieces_t *pc, const char *name, size_t len);
/* Read without an index of column names from now on (before the COLUMNS piece; BOUNDS
 * lines must be deferred): a name met again after other columns becomes a new column,
 * no warning, and the caller finds such pairs (the parallel read's name directory). */
void slp_mps_pieces_drop_column_index(slp_mps_pieces_t *pc);
/* Free the row and column names and their indexes once the caller has resolved the
 * names it needed (slp_mps_pieces_rows and slp_mps_pieces_columns give NULL after;
 * bounds applied after it name no column in their messages). */
void slp_mps_pieces_drop_names(slp_mps_pieces_t *pc);
/* Integer markers met so far: *first is the number of columns before the first MARKER
 * line (-1: no marker; those columns were read as if outside an integer block, the
 * state the pieces before this one leave), *open = 1 when an 'INTORG' is still open. */
void slp_mps_pieces_markers(const slp_mps_pieces_t *pc, int64_t *first, int *open);
/* Flag column `col` of this parser as integer (inside a block opened in an earlier piece). */
void slp_mps_pieces_set_integer(slp_mps_pieces_t *pc, int64_t col);
/* Warnings counted so far plus lines this parser cannot decide alone (0: none). */
int64_t slp_mps_pieces_irregular(const slp_mps_pieces_t *pc);
/* The rows and this parser's columns, as slp_mps_parse gives them (once, at the end),
 * except the names: row_names and col_names are NULL (slp_mps_pieces_columns has the
 * column names until slp_mps_pieces_close); and lv and uv are NULL when no bound came:
 * every column has [0, +inf) (no arrays of defaults made for a file of few bounds). */
slp_err slp_mps_pieces_result(slp_mps_pieces_t *pc, slp_mps_result_t *out);
void slp_mps_pieces_close(slp_mps_pieces_t **pc);

/* The order of column names in which the reader needs no name index (docs/mps.md,
 * "Reading speed"): shorter names first, then by bytes (C9 < C10 < C11, the order of
 * generated names). Returns <0, 0 or >0 as a comes before, equals or follows b. */
int slp_mps_name_order(const char *a, size_t alen, const char *b, size_t blen);

/* |value| >= SLP_MPS_INF means infinite (the MPS convention). */
#define SLP_MPS_INF 1e20

#endif
