/* production-inventory: the robust production planning problem of Ben-Tal et al. (2004)
 * with a linear decision rule, as the large-scale PDLP benchmark builds it
 * (docs/generators.md, "production-inventory"). E factories, T stages, demand in
 * [Dmin_t, Dmax_t] (uncertainty level theta); production y[t,s,e] is the coefficient of
 * the demand revealed at stage s (s = 1: the constant term) in factory e's production at
 * stage t. Each robust constraint is written with its dual: a split of the coefficient
 * into a positive and a negative part priced at the demand bounds.
 *
 * Indices t, s, l run 1..T and e 1..E, as in the model. No random data: the seed is
 * not used. Rows ascending in every column: the blocks are laid out in this order.
 *   rows    OBJ[s] | CEQ[t,s<=t,e] | CUB[t,e] | CLB[t,e] | FEQ[s,e] | FUB[e] |
 *           TEQ[s>=2,t>=s] | TUB[t] | TLB[t]
 *   columns y[t,s,e] | eps+-[s] | gamma+-[t,s<=t,e] | delta+-[s,e] | eta+-[t,s] */
#include "gen_family.h"

#include <math.h>

#define PI_VMIN 500.0   /* warehouse inventory bounds and the initial inventory */
#define PI_VMAX 2000.0
#define PI_V1 PI_VMIN

typedef struct layout {
    int64_t E, T;
    int64_t obj, ceq, cub, clb, feq, fub, teq, tub, tlb, rows;   /* row block starts */
    int64_t y, eps, gam, del, eta, cols;                         /* column block starts */
} layout_t;

static int64_t tri(int64_t t, int64_t s) /* position of (t, s <= t) in row-major order */
{
    return (t - 1) * t / 2 + (s - 1);
}

static int64_t teq_start(int64_t T, int64_t s) /* first TEQ row of stage s >= 2 */
{
    return (s - 2) * (T + 1) - ((s - 1) * s / 2 - 1);
}

static layout_t layout_of(const slp_gen_t *g, int *ovf)
{
    layout_t L;
    int64_t E = g->p[0], T = g->p[1];
    L.E = E;
    L.T = T;
    int64_t TE = slp_gen_mul(T, E, ovf), TT = slp_gen_mul(T, T, ovf);
    int64_t tri_e = slp_gen_mul(E, slp_gen_mul(T, T + 1, ovf) / 2, ovf);
    L.obj = 0;
    L.ceq = T;
    L.cub = slp_gen_add(L.ceq, tri_e, ovf);
    L.clb = slp_gen_add(L.cub, TE, ovf);
    L.feq = slp_gen_add(L.clb, TE, ovf);
    L.fub = slp_gen_add(L.feq, TE, ovf);
    L.teq = slp_gen_add(L.fub, E, ovf);
    L.tub = slp_gen_add(L.teq, T * (T - 1) / 2, ovf);
    L.tlb = slp_gen_add(L.tub, T, ovf);
    L.rows = slp_gen_add(L.tlb, T, ovf);
    L.y = 0;
    L.eps = slp_gen_mul(TT, E, ovf);
    L.gam = slp_gen_add(L.eps, 2 * T, ovf);
    L.del = slp_gen_add(L.gam, slp_gen_mul(2, tri_e, ovf), ovf);
    L.eta = slp_gen_add(L.del, slp_gen_mul(2, TE, ovf), ovf);
    L.cols = slp_gen_add(L.eta, slp_gen_mul(2, TT, ovf), ovf);
    return L;
}

static layout_t layout(const slp_gen_t *g)
{
    int ovf = 0;
    return layout_of(g, &ovf); /* checked in setup */
}

/* (t, s) of triangular position k. */
static void untri(int64_t k, int64_t *t, int64_t *s)
{
    int64_t r = (int64_t)((1.0 + sqrt(1.0 + 8.0 * (double)k)) / 2.0);
    while (r > 1 && tri(r, 1) > k)
        r--;
    while (tri(r + 1, 1) <= k)
        r++;
    *t = r;
    *s = k - tri(r, 1) + 1;
}

/* (s, t) of TEQ row k (relative to the block). */
static void unteq(int64_t T, int64_t k, int64_t *s, int64_t *t)
{
    int64_t lo = 2, hi = T; /* largest s with teq_start(s) <= k */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (teq_start(T, mid) <= k)
            lo = mid;
        else
            hi = mid - 1;
    }
    *s = lo;
    *t = lo + (k - teq_start(T, lo));
}

/* ---- Data ---------------------------------------------------------------------------- */

static double intensity(int64_t T, int64_t t)
{
    return 1.0 + 0.5 * sin(2.0 * SLP_PI * (double)(t - 1) / (double)T);
}

/* Demand bounds of the uncertainty vector's entry s = 1..T+1 (entry 1 is the constant 1,
 * entry s the demand of stage s - 1). */
static double demand_min(const slp_gen_t *g, int64_t s)
{
    int64_t T = g->p[1];
    return s == 1 ? 1.0 : 1000.0 * (1.0 - g->theta) * intensity(T, s - 1) / ((double)T / 24.0);
}

static double demand_max(const slp_gen_t *g, int64_t s)
{
    int64_t T = g->p[1];
    return s == 1 ? 1.0 : 1000.0 * (1.0 + g->theta) * intensity(T, s - 1) / ((double)T / 24.0);
}

static double production_cost(const slp_gen_t *g, int64_t t, int64_t e)
{
    int64_t E = g->p[0], T = g->p[1];
    return (1.0 + (double)(e - 1) / (double)(E > 1 ? E - 1 : 1)) * intensity(T, t);
}

static double stage_capacity(const slp_gen_t *g)
{
    return 567.0 / ((double)g->p[1] / 24.0 * (double)g->p[0] / 3.0);
}

static double year_capacity(const slp_gen_t *g)
{
    return 13600.0 / ((double)g->p[0] / 3.0);
}

/* ---- Setup and counts ---------------------------------------------------------------- */

slp_err slp_genf_inventory_setup(slp_gen_t *g)
{
    int ovf = 0;
    layout_t L = layout_of(g, &ovf);
    int64_t E = g->p[0], T = g->p[1];
    int64_t T1 = slp_gen_mul(T, T + 1, &ovf); /* T(T+1) */
    /* sum of row counts (docs/generators.md): the TEQ rows give the cubic term */
    int64_t cubic = slp_gen_mul(E, slp_gen_mul(T - 1, T1, &ovf) / 6, &ovf);
    int64_t nnz = slp_gen_add(2 * T, slp_gen_mul(11, slp_gen_mul(E, T1, &ovf), &ovf) / 2, &ovf);
    nnz = slp_gen_add(nnz, slp_gen_mul(4, slp_gen_mul(T, E, &ovf), &ovf), &ovf);
    nnz = slp_gen_add(nnz, cubic, &ovf);
    nnz = slp_gen_add(nnz, slp_gen_mul(3, slp_gen_mul(T, T - 1, &ovf), &ovf), &ovf);
    g->m = L.rows;
    g->n = L.cols;
    g->nnz = nnz;
    g->max_col_nnz = 3 + 2 * T;
    return ovf ? slp_genf_overflow(g) : SLP_OK;
}

int64_t slp_genf_inventory_row_nnz(const slp_gen_t *g, int64_t i)
{
    layout_t L = layout(g);
    int64_t E = L.E, T = L.T, t, s;
    if (i < L.ceq) /* OBJ[s]: eps+-, and y[t,s,e] for t >= s */
        return 2 + E * (T - i);
    if (i < L.cub)
        return 3;
    if (i < L.feq) /* CUB / CLB [t,e]: gamma+-[t,s,e] for s <= t */
        return 2 * (((i - L.cub) % (T * E)) / E + 1);
    if (i < L.fub) /* FEQ[s,e]: y[t,s,e] for t >= s, delta+- */
        return T - (i - L.feq) / E + 2;
    if (i < L.teq)
        return 2 * T;
    if (i < L.tub) {
        unteq(T, i - L.teq, &s, &t);
        return E * (t - s + 1) + 2;
    }
    t = (i - L.tub) % T + 1; /* TUB / TLB [t] */
    return E * t + 2 * (t - 1);
}

int64_t slp_genf_inventory_col_nnz(const slp_gen_t *g, int64_t j)
{
    layout_t L = layout(g);
    int64_t E = L.E, T = L.T;
    if (j < L.eps) {
        int64_t t = j / (T * E) + 1, s = j / E % T + 1;
        if (t < s)
            return 0;
        return 3 + (s >= 2 ? T - t + 1 : 2 * (T - t + 1));
    }
    if (j < L.gam)
        return 1;
    if (j < L.del)
        return 3;
    if (j < L.eta)
        return 2;
    int64_t k = (j - L.eta) / 2, t = k / T + 1, s = k % T + 1;
    return s >= 2 && t >= s ? 3 : 0;
}

/* ---- Columns ------------------------------------------------------------------------- */

static int64_t put(int64_t *rows, double *vals, int64_t n, int64_t row, double v)
{
    rows[n] = row;
    if (vals)
        vals[n] = v;
    return n + 1;
}

static int64_t y_column(const slp_gen_t *g, const layout_t *L, int64_t j, int64_t *rows,
                        double *vals)
{
    int64_t E = L->E, T = L->T, t = j / (T * E) + 1, s = j / E % T + 1, e = j % E + 1, n = 0;
    if (t < s)
        return 0; /* a coefficient no constraint uses: production before the demand is known */
    n = put(rows, vals, n, L->obj + s - 1, -production_cost(g, t, e));
    n = put(rows, vals, n, L->ceq + tri(t, s) * E + e - 1, 1.0);
    n = put(rows, vals, n, L->feq + (s - 1) * E + e - 1, 1.0);
    if (s >= 2) { /* inventory after stage t2 >= t: the demand coefficient of stage s */
        for (int64_t t2 = t; t2 <= T; t2++)
            n = put(rows, vals, n, L->teq + teq_start(T, s) + (t2 - s), 1.0);
        return n;
    }
    for (int64_t t2 = t; t2 <= T; t2++) /* the constant term: both inventory bounds */
        n = put(rows, vals, n, L->tub + t2 - 1, 1.0);
    for (int64_t t2 = t; t2 <= T; t2++)
        n = put(rows, vals, n, L->tlb + t2 - 1, -1.0);
    return n;
}

int64_t slp_genf_inventory_column(const slp_gen_t *g, int64_t j, int64_t *rows, double *vals)
{
    layout_t L = layout(g);
    int64_t E = L.E, T = L.T, n = 0;
    if (j < L.eps)
        return y_column(g, &L, j, rows, vals);
    /* The split columns come in (+, -) pairs: a part priced at the upper demand bound and
     * one at the lower; `sign` is +1 for the positive part. */
    if (j < L.gam) {
        int64_t s = (j - L.eps) / 2 + 1;
        return put(rows, vals, 0, L.obj + s - 1, (j - L.eps) % 2 ? -1.0 : 1.0);
    }
    if (j < L.del) {
        int64_t k = (j - L.gam) / 2, plus = (j - L.gam) % 2 == 0, t, s, e = k % E + 1;
        untri(k / E, &t, &s);
        double dmin = demand_min(g, s), dmax = demand_max(g, s);
        n = put(rows, vals, n, L.ceq + k, plus ? -1.0 : 1.0);
        n = put(rows, vals, n, L.cub + (t - 1) * E + e - 1, plus ? dmax : -dmin);
        return put(rows, vals, n, L.clb + (t - 1) * E + e - 1, plus ? -dmin : dmax);
    }
    if (j < L.eta) {
        int64_t k = (j - L.del) / 2, plus = (j - L.del) % 2 == 0, s = k / E + 1, e = k % E + 1;
        n = put(rows, vals, n, L.feq + k, plus ? -1.0 : 1.0);
        return put(rows, vals, n, L.fub + e - 1, plus ? demand_max(g, s) : -demand_min(g, s));
    }
    int64_t k = (j - L.eta) / 2, plus = (j - L.eta) % 2 == 0, t = k / T + 1, s = k % T + 1;
    if (s < 2 || t < s)
        return 0; /* declared by the benchmark, used by no constraint */
    double dmin = demand_min(g, s), dmax = demand_max(g, s);
    n = put(rows, vals, n, L.teq + teq_start(T, s) + (t - s), plus ? -1.0 : 1.0);
    n = put(rows, vals, n, L.tub + t - 1, plus ? dmax : -dmin);
    return put(rows, vals, n, L.tlb + t - 1, plus ? -dmin : dmax);
}

void slp_genf_inventory_col_data(const slp_gen_t *g, int64_t j, double *obj, double *lv,
                                 double *uv)
{
    layout_t L = layout(g);
    *obj = 0.0;
    *lv = 0.0;
    *uv = INFINITY;
    if (j < L.eps) { /* decision-rule coefficients are free */
        *lv = -INFINITY;
        return;
    }
    if (j < L.gam) { /* worst-case cost: eps+ at the upper demand bound, eps- at the lower */
        int64_t s = (j - L.eps) / 2 + 1;
        *obj = (j - L.eps) % 2 ? -demand_min(g, s) : demand_max(g, s);
    }
}

void slp_genf_inventory_row_bounds(const slp_gen_t *g, int64_t i, double *lc, double *uc)
{
    layout_t L = layout(g);
    *lc = -INFINITY;
    if (i < L.cub || (i >= L.feq && i < L.fub)) { /* OBJ, CEQ, FEQ */
        *lc = *uc = 0.0;
    } else if (i < L.clb) {
        *uc = stage_capacity(g);
    } else if (i < L.feq) {
        *uc = 0.0;
    } else if (i < L.teq) {
        *uc = year_capacity(g);
    } else if (i < L.tub) { /* the demand of stage s enters the inventory with -1 */
        *lc = *uc = 1.0;
    } else if (i < L.tlb) {
        int64_t t = i - L.tub + 1;
        *uc = PI_VMAX - PI_V1 + demand_min(g, t + 1);
    } else {
        int64_t t = i - L.tlb + 1;
        *uc = -PI_VMIN + PI_V1 - demand_max(g, t + 1);
    }
}
