#include "model.h"
#include "log.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

slp_err slp_model_create(int64_t m, int64_t n, int64_t nnz, slp_model_t **out)
{
    *out = NULL;
    slp_model_t *model = slp_calloc(1, sizeof *model);
    if (!model)
        return SLP_ERR_NOMEM;
    model->m = m;
    model->n = n;
    model->nnz = nnz;
    model->sense = 1;
    model->name = slp_strdup("");
    model->obj_name = slp_strdup("");
    model->c = slp_calloc((size_t)n, sizeof(double));
    model->lv = slp_calloc((size_t)n, sizeof(double));
    model->uv = slp_calloc((size_t)n, sizeof(double));
    model->lc = slp_calloc((size_t)m, sizeof(double));
    model->uc = slp_calloc((size_t)m, sizeof(double));
    model->col_ptr = slp_calloc((size_t)n + 1, sizeof(int64_t));
    model->row_idx = slp_calloc((size_t)nnz, sizeof(int64_t));
    model->val = slp_calloc((size_t)nnz, sizeof(double));
    if (!model->name || !model->obj_name || !model->c || !model->lv || !model->uv || !model->lc ||
        !model->uc || !model->col_ptr || !model->row_idx || !model->val) {
        slp_model_destroy(&model);
        return SLP_ERR_NOMEM;
    }
    for (int64_t j = 0; j < n; j++)
        model->uv[j] = INFINITY;
    for (int64_t i = 0; i < m; i++) {
        model->lc[i] = -INFINITY;
        model->uc[i] = INFINITY;
    }
    *out = model;
    return SLP_OK;
}

void slp_model_destroy(slp_model_t **model)
{
    if (!model || !*model)
        return;
    slp_model_t *p = *model;
    free(p->name);
    free(p->obj_name);
    free(p->c);
    free(p->lv);
    free(p->uv);
    free(p->lc);
    free(p->uc);
    free(p->col_ptr);
    free(p->row_idx);
    free(p->val);
    slp_names_free(p->row_names, p->m);
    slp_names_free(p->col_names, p->n);
    free(p->is_int);
    free(p);
    *model = NULL;
}

const char *slp_model_row_name(const slp_model_t *model, int64_t i, char *buf)
{
    if (model->row_names && model->row_names[i])
        return model->row_names[i];
    snprintf(buf, 32, "R%lld", (long long)i);
    return buf;
}

const char *slp_model_col_name(const slp_model_t *model, int64_t j, char *buf)
{
    if (model->col_names && model->col_names[j])
        return model->col_names[j];
    snprintf(buf, 32, "C%lld", (long long)j);
    return buf;
}

slp_bounds_fault slp_bounds_fault_of(double lo, double up)
{
    if (isnan(lo) || isnan(up))
        return SLP_BOUNDS_NAN;
    if (lo == INFINITY || up == -INFINITY)
        return SLP_BOUNDS_WRONG_SIDE;
    return lo > up ? SLP_BOUNDS_CROSSED : SLP_BOUNDS_OK;
}

/* The error for bounds [lo, up] of `what` (column or row) `name`, or SLP_OK. */
static slp_err bounds_error(const char *source, const char *what, const char *name, double lo,
                            double up)
{
    switch (slp_bounds_fault_of(lo, up)) {
    case SLP_BOUNDS_NAN:
        return slp_error(SLP_ERR_INPUT, "%s: bound of %s %s is NaN", source, what, name);
    case SLP_BOUNDS_WRONG_SIDE:
        return slp_error(SLP_ERR_INPUT, "%s: %s %s has an infinite bound on the wrong side",
                         source, what, name);
    case SLP_BOUNDS_CROSSED:
        return slp_error(SLP_ERR_INPUT, "%s: %s %s has lower bound %.17g above upper bound %.17g",
                         source, what, name, lo, up);
    default:
        return SLP_OK;
    }
}

slp_err slp_model_validate(const slp_model_t *model, const char *source)
{
    char name[32];
    for (int64_t j = 0; j < model->n; j++) {
        const char *cn = slp_model_col_name(model, j, name);
        if (!isfinite(model->c[j]))
            return slp_error(SLP_ERR_INPUT, "%s: objective coefficient of column %s is not finite",
                             source, cn);
        SLP_CALL(bounds_error(source, "column", cn, model->lv[j], model->uv[j]));
    }
    for (int64_t i = 0; i < model->m; i++)
        SLP_CALL(bounds_error(source, "row", slp_model_row_name(model, i, name), model->lc[i],
                              model->uc[i]));
    for (int64_t k = 0; k < model->nnz; k++)
        if (!isfinite(model->val[k]))
            return slp_error(SLP_ERR_INPUT, "%s: matrix entry %lld is not finite", source,
                             (long long)k);
    if (!isfinite(model->obj_const))
        return slp_error(SLP_ERR_INPUT, "%s: objective constant is not finite", source);
    return SLP_OK;
}

int64_t slp_model_integer_columns(const slp_model_t *model)
{
    int64_t count = 0;
    for (int64_t j = 0; model->is_int && j < model->n; j++)
        count += model->is_int[j] != 0;
    return count;
}

slp_err slp_integer_rule(int64_t integer_columns, const char *source, int relax)
{
    if (integer_columns <= 0)
        return SLP_OK;
    if (!relax)
        return slp_error(SLP_ERR_INPUT,
                         "%s: the model has %lld integer column%s; shardlp solves linear programs; "
                         "set relax (--relax; HiGHS: solve_relaxation=true; Python: relax=True) "
                         "to solve the LP relaxation",
                         source, (long long)integer_columns, integer_columns == 1 ? "" : "s");
    slp_log("%s: solving the LP relaxation (%lld integer column%s relaxed to continuous)\n", source,
            (long long)integer_columns, integer_columns == 1 ? "" : "s");
    return SLP_OK;
}
