/* Generic generator layer: family names and parameters, the --scale benchmark
 * rescaling, balanced cuts from closed-form counts, block and whole-model assembly. */
#include "gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen_family.h"

static const char *const kind_names[SLP_GEN_KINDS] = {
    "mcf", "design-match", "qap", "transport", "heat-source", "production-inventory"};
static const char *const param_options[SLP_GEN_KINDS][4] = {
    {"--commodities", "--factories", "--warehouses", "--stores"},
    {"--treated", "--controls", "--covariates", "--neighbors"},
    {"--size", NULL, NULL, NULL},
    {"--sources", "--sinks", "--neighbors", NULL},
    {"--grid-size", "--candidates", "--sources", "--measurements"},
    {"--factories", "--stages", NULL, NULL},
};

slp_err slp_gen_kind_parse(const char *name, int *kind)
{
    for (int k = 0; k < SLP_GEN_KINDS; k++)
        if (!strcmp(name, kind_names[k])) {
            *kind = k;
            return SLP_OK;
        }
    return slp_error(SLP_ERR_INPUT, "gen: unknown family '%s' (mcf, design-match, qap, transport, "
                     "heat-source, production-inventory)", name);
}

const char *slp_gen_kind_name(int kind)
{
    return kind >= 0 && kind < SLP_GEN_KINDS ? kind_names[kind] : "?";
}

int slp_gen_param_count(int kind)
{
    static const int counts[SLP_GEN_KINDS] = {4, 4, 1, 3, 4, 2};
    return kind >= 0 && kind < SLP_GEN_KINDS ? counts[kind] : 0;
}

const char *slp_gen_param_option(int kind, int index)
{
    return index >= 0 && index < slp_gen_param_count(kind) ? param_options[kind][index] : NULL;
}

slp_err slp_gen_init(slp_gen_t *g, int kind, const int64_t *params, uint64_t seed, int scale)
{
    memset(g, 0, sizeof *g);
    g->kind = kind;
    for (int k = 0; k < slp_gen_param_count(kind); k++)
        g->p[k] = params[k];
    g->seed = seed;
    g->scale = scale;
    g->theta = 0.2; /* the benchmark's uncertainty level */
    return slp_genf_setup(g);
}

slp_err slp_gen_set_theta(slp_gen_t *g, double theta)
{
    if (g->kind != SLP_GEN_PRODUCTION_INVENTORY)
        return slp_error(SLP_ERR_INPUT, "gen %s: --theta is production-inventory's option",
                         slp_gen_kind_name(g->kind));
    if (!(theta >= 0.0 && theta < 1.0))
        return slp_error(SLP_ERR_INPUT, "gen production-inventory: --theta must be in [0, 1) "
                         "(demand varies in [1 - theta, 1 + theta] times its mean)");
    g->theta = theta;
    return SLP_OK;
}

slp_err slp_gen_sizes(int kind, const int64_t *params, int64_t *m, int64_t *n, int64_t *nnz)
{
    slp_gen_t g;
    SLP_CALL(slp_gen_init(&g, kind, params, 0, SLP_GEN_SCALE_NONE));
    *m = g.m;
    *n = g.n;
    *nnz = g.nnz;
    return SLP_OK;
}

int64_t slp_gen_row_nnz(const slp_gen_t *g, int64_t i)
{
    return slp_genf_row_nnz(g, i);
}

int64_t slp_gen_col_nnz(const slp_gen_t *g, int64_t j)
{
    return slp_genf_col_nnz(g, j);
}

/* ---- --scale benchmark ------------------------------------------------------------
 * Row i is divided by the largest finite nonzero magnitude of its bounds (its
 * right-hand side becomes 0 or +-1, a ranged row [-b, b] becomes [-1, 1]); column j is
 * substituted x_j = x'_j / |c_j| when c_j != 0 (its objective becomes +-1). The optimum
 * objective value is unchanged; x_j = x'_j / |c_j|, y_i = y'_i / row factor. */

static double row_divisor(const slp_gen_t *g, int64_t i)
{
    double lc, uc, b = 0.0;
    slp_genf_row_bounds(g, i, &lc, &uc);
    if (isfinite(lc) && fabs(lc) > b)
        b = fabs(lc);
    if (isfinite(uc) && fabs(uc) > b)
        b = fabs(uc);
    return b > 0.0 ? b : 1.0;
}

static double col_factor(const slp_gen_t *g, int64_t j)
{
    double obj = slp_genf_col_cost(g, j);
    return obj != 0.0 ? fabs(obj) : 1.0;
}

int64_t slp_gen_column(const slp_gen_t *g, int64_t j, int64_t *rows, double *vals)
{
    int64_t n = slp_genf_column(g, j, rows, vals);
    if (vals && g->scale == SLP_GEN_SCALE_BENCHMARK) {
        double gamma = col_factor(g, j);
        for (int64_t k = 0; k < n; k++)
            vals[k] = vals[k] / row_divisor(g, rows[k]) / gamma;
    }
    return n;
}

void slp_gen_col_data(const slp_gen_t *g, int64_t j, double *obj, double *lv, double *uv)
{
    slp_genf_col_data(g, j, obj, lv, uv);
    if (g->scale == SLP_GEN_SCALE_BENCHMARK && *obj != 0.0) {
        double gamma = fabs(*obj);
        *obj = *obj / gamma;
        *lv = *lv * gamma;
        *uv = *uv * gamma;
    }
}

void slp_gen_row_bounds(const slp_gen_t *g, int64_t i, double *lc, double *uc)
{
    slp_genf_row_bounds(g, i, lc, uc);
    if (g->scale == SLP_GEN_SCALE_BENCHMARK) {
        double b = row_divisor(g, i);
        *lc = *lc / b;
        *uc = *uc / b;
    }
}

/* ---- Cuts: slp_balanced_cuts on closed-form counts, streamed ---------------------- */

void slp_gen_cuts(const slp_gen_t *g, int is_row, int parts, int64_t *off)
{
    int64_t len = is_row ? g->m : g->n;
    int64_t total = len + g->nnz; /* sum of (count + 1) */
    off[0] = 0;
    int64_t acc = 0, k = 0;
    for (int p = 1; p < parts; p++) {
        int64_t target = (int64_t)((double)total * p / parts);
        int64_t max_k = len - (parts - p);
        while (k < len && acc < target && k < max_k) {
            acc += (is_row ? slp_genf_row_nnz(g, k) : slp_genf_col_nnz(g, k)) + 1;
            k++;
        }
        if (k < off[p - 1])
            k = off[p - 1];
        off[p] = k;
    }
    off[parts] = len;
}

/* ---- Blocks and whole models ------------------------------------------------------ */

/* First entry of a sorted column at row >= r0. */
static int64_t first_at_or_after(const int64_t *rows, int64_t n, int64_t r0)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (rows[mid] < r0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

slp_err slp_gen_block(const slp_gen_t *g, int64_t r0, int64_t r1, int64_t c0, int64_t c1,
                      slp_csr_t *out)
{
    memset(out, 0, sizeof *out);
    int64_t m_loc = r1 - r0, n_loc = c1 - c0;
    int64_t *rows = slp_malloc((size_t)g->max_col_nnz * sizeof(int64_t));
    double *vals = slp_malloc((size_t)g->max_col_nnz * sizeof(double));
    int64_t *next = slp_calloc((size_t)m_loc + 1, sizeof(int64_t));
    slp_err rc = rows && vals && next ? SLP_OK : SLP_ERR_NOMEM;
    /* Pass 1: the pattern, counted per local row. */
    for (int64_t j = c0; rc == SLP_OK && j < c1; j++) {
        int64_t n = slp_gen_column(g, j, rows, NULL);
        for (int64_t k = first_at_or_after(rows, n, r0); k < n && rows[k] < r1; k++)
            next[rows[k] - r0 + 1]++;
    }
    int64_t nnz = 0;
    for (int64_t i = 0; i < m_loc; i++) {
        nnz += next[i + 1];
        next[i + 1] = nnz;
    }
    if (rc == SLP_OK)
        rc = slp_csr_create(m_loc, n_loc, nnz, out);
    if (rc == SLP_OK) {
        memcpy(out->row_ptr, next, ((size_t)m_loc + 1) * sizeof(int64_t));
        /* Pass 2: values; columns in increasing order keep each row sorted. */
        for (int64_t j = c0; j < c1; j++) {
            int64_t n = slp_gen_column(g, j, rows, vals);
            for (int64_t k = first_at_or_after(rows, n, r0); k < n && rows[k] < r1; k++) {
                int64_t pos = next[rows[k] - r0]++;
                out->col_idx[pos] = (int32_t)(j - c0);
                out->val[pos] = vals[k];
            }
        }
    }
    free(rows);
    free(vals);
    free(next);
    return rc;
}

slp_err slp_gen_model(const slp_gen_t *g, slp_model_t **out)
{
    *out = NULL;
    slp_model_t *model = NULL;
    SLP_CALL(slp_model_create(g->m, g->n, g->nnz + g->max_col_nnz, &model));
    free(model->name);
    model->name = slp_strdup(slp_gen_kind_name(g->kind));
    if (!model->name) {
        slp_model_destroy(&model);
        return SLP_ERR_NOMEM;
    }
    model->sense = 1;
    int64_t k = 0;
    for (int64_t j = 0; j < g->n; j++) {
        model->col_ptr[j] = k;
        if (k > g->nnz) /* cannot happen: the counts are exact (checked below) */
            break;
        k += slp_gen_column(g, j, model->row_idx + k, model->val + k);
        slp_gen_col_data(g, j, &model->c[j], &model->lv[j], &model->uv[j]);
    }
    for (int64_t j2 = model->n; j2 > 0 && model->col_ptr[j2 - 1] > k; j2--)
        model->col_ptr[j2 - 1] = k;
    model->col_ptr[g->n] = k;
    model->nnz = k;
    if (k != g->nnz) {
        slp_model_destroy(&model);
        return slp_error(SLP_ERR_INTERNAL, "gen %s: generated %lld nonzeros, formula says %lld",
                         slp_gen_kind_name(g->kind), (long long)k, (long long)g->nnz);
    }
    for (int64_t i = 0; i < g->m; i++)
        slp_gen_row_bounds(g, i, &model->lc[i], &model->uc[i]);
    *out = model;
    return SLP_OK;
}
