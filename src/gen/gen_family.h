/* Internal: the families' raw (unscaled) data, dispatched by g->kind.
 * See gen.h for the public, rescaled versions and docs/generators.md for the models. */
#ifndef SLP_GEN_FAMILY_H
#define SLP_GEN_FAMILY_H

#include "gen.h"

#define SLP_PI 3.14159265358979323846

/* Overflow-checked size arithmetic: *ovf is set on overflow (the result is then 0). */
static inline int64_t slp_gen_mul(int64_t a, int64_t b, int *ovf)
{
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) {
        *ovf = 1;
        return 0;
    }
    return r;
}

static inline int64_t slp_gen_add(int64_t a, int64_t b, int *ovf)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) {
        *ovf = 1;
        return 0;
    }
    return r;
}

/* The one-line error for sizes beyond 64-bit counts. */
slp_err slp_genf_overflow(const slp_gen_t *g);

/* Validate params and fill g->m, n, nnz, max_col_nnz (and family-derived fields). */
slp_err slp_genf_setup(slp_gen_t *g);
int64_t slp_genf_row_nnz(const slp_gen_t *g, int64_t i);
int64_t slp_genf_col_nnz(const slp_gen_t *g, int64_t j);
/* Raw column j (rows ascending; vals may be NULL). */
int64_t slp_genf_column(const slp_gen_t *g, int64_t j, int64_t *rows, double *vals);
void slp_genf_col_data(const slp_gen_t *g, int64_t j, double *obj, double *lv, double *uv);
/* The objective coefficient of column j alone (for --scale benchmark's column factor,
 * computed per column pass: heat-source's bounds would cost a temperature each time). */
double slp_genf_col_cost(const slp_gen_t *g, int64_t j);
void slp_genf_row_bounds(const slp_gen_t *g, int64_t i, double *lc, double *uc);

/* heat-source (gen_heat.c). */
slp_err slp_genf_heat_setup(slp_gen_t *g);
int64_t slp_genf_heat_col_nnz(const slp_gen_t *g, int64_t j);
int64_t slp_genf_heat_column(const slp_gen_t *g, int64_t j, int64_t *rows, double *vals);
void slp_genf_heat_col_data(const slp_gen_t *g, int64_t j, double *obj, double *lv, double *uv);
double slp_genf_heat_col_cost(const slp_gen_t *g, int64_t j);
/* The true temperature at grid point (i, j, k) (0..N+1 each; 0 on the boundary) and the
 * true heat input at interior point `point`: the feasible point of docs/generators.md. */
double slp_genf_heat_temperature(const slp_gen_t *g, int64_t i, int64_t j, int64_t k);
double slp_genf_heat_source(const slp_gen_t *g, int64_t point);

/* production-inventory (gen_inventory.c). */
slp_err slp_genf_inventory_setup(slp_gen_t *g);
int64_t slp_genf_inventory_row_nnz(const slp_gen_t *g, int64_t i);
int64_t slp_genf_inventory_col_nnz(const slp_gen_t *g, int64_t j);
int64_t slp_genf_inventory_column(const slp_gen_t *g, int64_t j, int64_t *rows, double *vals);
void slp_genf_inventory_col_data(const slp_gen_t *g, int64_t j, double *obj, double *lv,
                                 double *uv);
void slp_genf_inventory_row_bounds(const slp_gen_t *g, int64_t i, double *lc, double *uc);

#endif
