/* Internal: the four families' raw (unscaled) data, dispatched by g->kind.
 * See gen.h for the public, rescaled versions and docs/generators.md for the models. */
#ifndef SLP_GEN_FAMILY_H
#define SLP_GEN_FAMILY_H

#include "gen.h"

/* Validate params and fill g->m, n, nnz, max_col_nnz (and family-derived fields). */
slp_err slp_genf_setup(slp_gen_t *g);
int64_t slp_genf_row_nnz(const slp_gen_t *g, int64_t i);
int64_t slp_genf_col_nnz(const slp_gen_t *g, int64_t j);
/* Raw column j (rows ascending; vals may be NULL). */
int64_t slp_genf_column(const slp_gen_t *g, int64_t j, int64_t *rows, double *vals);
void slp_genf_col_data(const slp_gen_t *g, int64_t j, double *obj, double *lv, double *uv);
void slp_genf_row_bounds(const slp_gen_t *g, int64_t i, double *lc, double *uc);

#endif
