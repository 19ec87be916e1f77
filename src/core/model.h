/* The whole LP as read from a file, held by one process (MPS path, checker,
 * converter for small inputs). The distributed solver never holds this on any
 * rank except rank 0 while it splits an MPS model into blocks.
 *
 *   minimize sense * (c^T x) + obj_const
 *   subject to  lc <= A x <= uc,   lv <= x <= uv
 *
 * Values are exactly as in the file: for a maximisation problem `sense` is -1
 * and c / obj_const are NOT negated here (the solver negates internally).
 * Infinite bounds are +-INFINITY. */
#ifndef SLP_MODEL_H
#define SLP_MODEL_H

#include <stdint.h>

#include "error.h"
#include "names.h" /* slp_names_free for the name arrays */

typedef struct slp_model {
    char *name;          /* NAME from the file ("" if none) */
    char *obj_name;      /* name of the objective row ("" if none) */
    int64_t m;           /* constraint rows (objective and dropped N rows excluded) */
    int64_t n;           /* structural columns */
    int64_t nnz;         /* stored matrix entries */
    int sense;           /* +1 minimize, -1 maximize */
    double obj_const;    /* objective constant (MPS: minus the RHS of the objective row) */
    double *c;           /* [n] objective coefficients */
    double *lv, *uv;     /* [n] variable bounds */
    double *lc, *uc;     /* [m] row bounds */
    /* Matrix in compressed sparse column form; row indices sorted within a column,
     * no duplicates, no explicit zeros unless the file stored them. */
    int64_t *col_ptr;    /* [n+1] */
    int64_t *row_idx;    /* [nnz] */
    double *val;         /* [nnz] */
    char **row_names;    /* [m] (may be NULL: then names are generated as R<i>) */
    char **col_names;    /* [n] (may be NULL: then C<j>) */
    unsigned char *is_int; /* [n] 1 where the file marked the column integer (relaxed), or NULL */
} slp_model_t;

/* Allocate an empty model with room for the given sizes (arrays zeroed, bounds
 * set to the MPS defaults lv = 0, uv = +inf, lc = -inf, uc = +inf). */
slp_err slp_model_create(int64_t m, int64_t n, int64_t nnz, slp_model_t **out);
void slp_model_destroy(slp_model_t **model);

/* Name of row i / column j, generated ("R12", "C7") when the model has none. buf is
 * used only for generated names and must hold at least 32 bytes. */
const char *slp_model_row_name(const slp_model_t *model, int64_t i, char *buf);
const char *slp_model_col_name(const slp_model_t *model, int64_t j, char *buf);

/* Basic consistency: finite c and matrix values, no NaN bounds, lv <= uv, lc <= uc,
 * no lower bound of +inf or upper bound of -inf. `source` names the file in the message. */
slp_err slp_model_validate(const slp_model_t *model, const char *source);

/* What slp_model_validate refuses in bounds [lo, up] (of a column or a row). */
typedef enum {
    SLP_BOUNDS_OK = 0,
    SLP_BOUNDS_NAN,        /* a NaN */
    SLP_BOUNDS_WRONG_SIDE, /* lo = +inf or up = -inf */
    SLP_BOUNDS_CROSSED     /* lo > up */
} slp_bounds_fault;
slp_bounds_fault slp_bounds_fault_of(double lo, double up);

/* Columns the file marked integer (MARKER INTORG, BV/LI/UI bounds). */
int64_t slp_model_integer_columns(const slp_model_t *model);

/* The integer-model rule (docs/cli.md, "Integer models"): a model with integer
 * columns is refused with one line naming `source` unless `relax` asks for the LP
 * relaxation; with relax, one log line says the relaxation is solved. */
slp_err slp_integer_rule(int64_t integer_columns, const char *source, int relax);

#endif
