/* Four of the generator families (heat-source and production-inventory have files of
 * their own) and the dispatch over all of them: sizes, closed-form nonzero counts, and the raw
 * (unscaled) entries of any column and bounds of any row. docs/generators.md states
 * each model, its size formulas and why it is feasible with a finite optimum. */
#include "gen_family.h"

#include <math.h>

#include "gen_rng.h"

/* Random streams (one per kind of entity datum). */
enum {
    ST_MCF_FAC_X = 1, ST_MCF_FAC_Y, ST_MCF_WH_X, ST_MCF_WH_Y, ST_MCF_ST_X, ST_MCF_ST_Y,
    ST_MCF_DEM, ST_MCF_SUP, ST_MCF_CAP, ST_MCF_CAPCOST,
    ST_DM_TREATED = 20, ST_DM_CONTROL,
    ST_QAP_FLOW = 30, ST_QAP_PX, ST_QAP_PY,
    ST_TR_DEM = 40, ST_TR_SUP, ST_TR_SRC_Y, ST_TR_SNK_Y
};

#define DM_MAX_COVARIATES 64
#define DM_TOLERANCE 0.05   /* moment rows: |sum of differences| <= 0.05 N */
#define DM_SLACK_COST 1.0

static int64_t mul(int64_t a, int64_t b, int *ovf)
{
    return slp_gen_mul(a, b, ovf);
}

static int64_t add(int64_t a, int64_t b, int *ovf)
{
    return slp_gen_add(a, b, ovf);
}

slp_err slp_genf_overflow(const slp_gen_t *g)
{
    return slp_error(SLP_ERR_INPUT, "gen %s: the LP's size does not fit in 64-bit counts",
                     slp_gen_kind_name(g->kind));
}

/* ---- Monotone windows (transport, design-match) ---------------------------------- */

/* First of the `width` consecutive partners of unit i. Non-decreasing in i. */
static int64_t window_start(const slp_gen_t *g, int64_t i)
{
    if (g->kind == SLP_GEN_TRANSPORT) {
        int64_t S = g->p[0], T = g->p[1], K = g->p[2];
        return S == 1 ? 0 : i * (T - K) / (S - 1);
    }
    int64_t N = g->p[0], M = g->p[1], t = g->p[3];
    int64_t home = i * M / N;
    int64_t w = home - t / 2;
    if (w > M - t)
        w = M - t;
    return w < 0 ? 0 : w;
}

/* Number of units i in [0, units) with window_start(i) <= v. */
static int64_t units_upto(const slp_gen_t *g, int64_t units, int64_t v)
{
    int64_t lo = 0, hi = units; /* answer in [lo, hi] */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (window_start(g, mid) <= v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Number of units whose window [w, w + width) holds partner j. */
static int64_t coverage(const slp_gen_t *g, int64_t units, int64_t width, int64_t j)
{
    return units_upto(g, units, j) - units_upto(g, units, j - width);
}

/* ---- Setup ----------------------------------------------------------------------- */

slp_err slp_genf_setup(slp_gen_t *g)
{
    const int64_t *p = g->p;
    int np = slp_gen_param_count(g->kind);
    for (int k = 0; k < np; k++)
        if (p[k] < 1)
            return slp_error(SLP_ERR_INPUT, "gen %s: %s must be a positive integer",
                             slp_gen_kind_name(g->kind), slp_gen_param_option(g->kind, k));
    int ovf = 0;
    switch (g->kind) {
    case SLP_GEN_MCF: {
        int64_t K = p[0], F = p[1], W = p[2], S = p[3];
        int64_t KFW = mul(mul(K, F, &ovf), W, &ovf), KWS = mul(mul(K, W, &ovf), S, &ovf);
        g->n = add(add(KFW, KWS, &ovf), W, &ovf);
        g->m = add(add(mul(K, F, &ovf), W, &ovf), add(mul(K, W, &ovf), mul(K, S, &ovf), &ovf),
                   &ovf);
        g->nnz = add(add(mul(3, KFW, &ovf), mul(2, KWS, &ovf), &ovf), W, &ovf);
        g->max_col_nnz = 3;
        break;
    }
    case SLP_GEN_DESIGN_MATCH: {
        int64_t N = p[0], M = p[1], d = p[2], t = p[3];
        if (M < N)
            return slp_error(SLP_ERR_INPUT,
                             "gen design-match: --controls (%lld) must be at least --treated "
                             "(%lld), so that every treated unit has its own control",
                             (long long)M, (long long)N);
        if (t > M)
            return slp_error(SLP_ERR_INPUT, "gen design-match: --neighbors (%lld) exceeds "
                             "--controls (%lld)", (long long)t, (long long)M);
        if (d > DM_MAX_COVARIATES)
            return slp_error(SLP_ERR_INPUT, "gen design-match: --covariates must be at most %d",
                             DM_MAX_COVARIATES);
        if (N > ((int64_t)1 << 62) / M)
            return slp_error(SLP_ERR_INPUT, "gen design-match: treated * controls must be "
                             "below 2^62");
        int64_t D = d + d * (d + 1) / 2, e = 2 * t / 5;
        g->dm_moments = D;
        g->dm_excl = e;
        int64_t Nt = mul(N, t, &ovf);
        g->n = add(Nt, 2 * D, &ovf);
        g->m = add(add(N, M, &ovf), add(D, mul(N, e, &ovf), &ovf), &ovf);
        g->nnz = add(add(mul(Nt, 2 + D, &ovf), mul(N, e, &ovf), &ovf), 2 * D, &ovf);
        g->max_col_nnz = 3 + D;
        break;
    }
    case SLP_GEN_QAP: {
        int64_t M = p[0], L = M - 1;
        if (M < 2)
            return slp_error(SLP_ERR_INPUT, "gen qap: --size must be at least 2");
        int64_t M2 = mul(M, M, &ovf), M2L2 = mul(M2, mul(L, L, &ovf), &ovf);
        g->n = add(M2, M2L2, &ovf);
        g->m = add(add(2 * M, mul(2, mul(M2, L, &ovf), &ovf), &ovf), M2L2 / 2, &ovf);
        g->nnz = add(mul(2, mul(M2, M, &ovf), &ovf), mul(3, M2L2, &ovf), &ovf);
        g->max_col_nnz = 2 * M;
        break;
    }
    case SLP_GEN_TRANSPORT: {
        int64_t S = p[0], T = p[1], K = p[2];
        if (K > T)
            return slp_error(SLP_ERR_INPUT, "gen transport: --neighbors (%lld) exceeds --sinks "
                             "(%lld)", (long long)K, (long long)T);
        if (T > K * S || (S == 1 && T != K))
            return slp_error(SLP_ERR_INPUT, "gen transport: %lld sources with %lld neighbours "
                             "each cannot reach %lld sinks (need sinks <= sources * neighbors)",
                             (long long)S, (long long)K, (long long)T);
        if (S > ((int64_t)1 << 62) / T)
            return slp_error(SLP_ERR_INPUT, "gen transport: sources * sinks must be below 2^62");
        int64_t SK = mul(S, K, &ovf);
        g->n = SK;
        g->m = add(S, T, &ovf);
        g->nnz = mul(2, SK, &ovf);
        g->max_col_nnz = 2;
        break;
    }
    case SLP_GEN_HEAT_SOURCE:
        return slp_genf_heat_setup(g);
    case SLP_GEN_PRODUCTION_INVENTORY:
        return slp_genf_inventory_setup(g);
    default:
        return slp_error(SLP_ERR_INPUT, "unknown generator kind %d", g->kind);
    }
    return ovf ? slp_genf_overflow(g) : SLP_OK;
}

/* ==================================================================================
 * mcf: rows [supply (k,f): K*F][capacity w: W][conservation (k,w): K*W][demand (k,s): K*S]
 *      cols [x (k,f,w): K*F*W][y (k,w,s): K*W*S][z w: W]
 * ================================================================================== */

static double mcf_dist(uint64_t seed, int ax, int ay, int64_t a, int bx, int by, int64_t b)
{
    double dx = slp_gen_u01(seed, (uint64_t)ax, (uint64_t)a) - slp_gen_u01(seed, (uint64_t)bx, (uint64_t)b);
    double dy = slp_gen_u01(seed, (uint64_t)ay, (uint64_t)a) - slp_gen_u01(seed, (uint64_t)by, (uint64_t)b);
    return sqrt(dx * dx + dy * dy);
}

static int64_t mcf_row_nnz(const slp_gen_t *g, int64_t i)
{
    int64_t K = g->p[0], F = g->p[1], W = g->p[2], S = g->p[3];
    if (i < K * F)
        return W;
    if (i < K * F + W)
        return K * F + 1;
    if (i < K * F + W + K * W)
        return F + S;
    return W;
}

static int64_t mcf_col_nnz(const slp_gen_t *g, int64_t j)
{
    int64_t K = g->p[0], F = g->p[1], W = g->p[2], S = g->p[3];
    if (j < K * F * W)
        return 3;
    return j < K * F * W + K * W * S ? 2 : 1;
}

static int64_t mcf_column(const slp_gen_t *g, int64_t j, int64_t *rows, double *vals)
{
    int64_t K = g->p[0], F = g->p[1], W = g->p[2], S = g->p[3];
    int64_t KF = K * F, NX = K * F * W, NY = K * W * S;
    int64_t cons = KF + W, dem = KF + W + K * W;
    if (j < NX) {
        int64_t k = j / (F * W), f = j / W % F, w = j % W;
        rows[0] = k * F + f;
        rows[1] = KF + w;
        rows[2] = cons + k * W + w;
        if (vals)
            vals[0] = vals[1] = vals[2] = 1.0;
        return 3;
    }
    if (j < NX + NY) {
        int64_t jj = j - NX, k = jj / (W * S), w = jj / S % W, s = jj % S;
        rows[0] = cons + k * W + w;
        rows[1] = dem + k * S + s;
        if (vals) {
            vals[0] = -1.0;
            vals[1] = 1.0;
        }
        return 2;
    }
    rows[0] = KF + (j - NX - NY);
    if (vals)
        vals[0] = -1.0;
    return 1;
}

static void mcf_col_data(const slp_gen_t *g, int64_t j, double *obj, double *lv, double *uv)
{
    int64_t K = g->p[0], F = g->p[1], W = g->p[2], S = g->p[3];
    int64_t NX = K * F * W, NY = K * W * S;
    uint64_t seed = g->seed;
    *lv = 0.0;
    *uv = INFINITY;
    if (j < NX) {
        int64_t k = j / (F * W), f = j / W % F, w = j % W;
        *obj = 0.1 + mcf_dist(seed, ST_MCF_FAC_X, ST_MCF_FAC_Y, k * F + f, ST_MCF_WH_X, ST_MCF_WH_Y, w);
    } else if (j < NX + NY) {
        int64_t jj = j - NX, w = jj / S % W, s = jj % S;
        *obj = 0.1 + mcf_dist(seed, ST_MCF_WH_X, ST_MCF_WH_Y, w, ST_MCF_ST_X, ST_MCF_ST_Y, s);
    } else {
        int64_t w = j - NX - NY;
        *obj = 0.5 + slp_gen_u01(seed, ST_MCF_CAPCOST, (uint64_t)w);
        /* sum_w U_w >= 10 K S >= total demand */
        *uv = 10.0 * (double)K * (double)S / (double)W * (1.0 + 0.5 * slp_gen_u01(seed, ST_MCF_CAP, (uint64_t)w));
    }
}

static void mcf_row_bounds(const slp_gen_t *g, int64_t i, double *lc, double *uc)
{
    int64_t K = g->p[0], F = g->p[1], W = g->p[2], S = g->p[3];
    int64_t KF = K * F;
    if (i < KF) { /* supply: sum_f sup[k,f] >= 10 S >= sum_s dem[k,s] */
        *lc = -INFINITY;
        *uc = 10.0 * (double)S / (double)F * (1.0 + 0.5 * slp_gen_u01(g->seed, ST_MCF_SUP, (uint64_t)i));
    } else if (i < KF + W) { /* capacity: flow through w - z_w <= 0 */
        *lc = -INFINITY;
        *uc = 0.0;
    } else if (i < KF + W + K * W) { /* conservation */
        *lc = *uc = 0.0;
    } else { /* demand in [1, 10) */
        *lc = 1.0 + 9.0 * slp_gen_u01(g->seed, ST_MCF_DEM, (uint64_t)(i - KF - W - K * W));
        *uc = INFINITY;
    }
}

/* ==================================================================================
 * design-match: rows [assign i: N][control j: M][moment p: D][caliper (i,k): N*e]
 *               cols [x (i,q): N*t][slack s+_p, s-_p: 2D]
 * ================================================================================== */

/* Window of treated unit i and the caliper exclusions: the e candidates farthest (in
 * score rank) from the home control floor(i M / N) are dropped, ties to the larger
 * index; `a` of them on the left end of the window, `b` on the right. */
static void dm_window(const slp_gen_t *g, int64_t i, int64_t *w, int64_t *a, int64_t *b)
{
    int64_t N = g->p[0], M = g->p[1], t = g->p[3];
    int64_t home = i * M / N;
    *w = window_start(g, i);
    int64_t lo = *w, hi = *w + t - 1;
    *a = *b = 0;
    for (int64_t k = 0; k < g->dm_excl; k++) {
        if (hi - home >= home - lo) {
            hi--;
            (*b)++;
        } else {
            lo++;
            (*a)++;
        }
    }
}

static int64_t dm_row_nnz(const slp_gen_t *g, int64_t i)
{
    int64_t N = g->p[0], M = g->p[1], t = g->p[3];
    if (i < N)
        return t;
    if (i < N + M)
        return coverage(g, N, t, i - N);
    if (i < N + M + g->dm_moments)
        return N * t + 2;
    return 1;
}

static int64_t dm_col_nnz(const slp_gen_t *g, int64_t j)
{
    int64_t N = g->p[0], t = g->p[3];
    if (j >= N * t)
        return 1;
    int64_t w, a, b, q = j % t;
    dm_window(g, j / t, &w, &a, &b);
    return 2 + g->dm_moments + (q < a || q >= t - b);
}

static void dm_covariates(const slp_gen_t *g, int treated, int64_t unit, double *x)
{
    int64_t d = g->p[2];
    for (int64_t p = 0; p < d; p++) {
        double u = slp_gen_u01(g->seed, treated ? ST_DM_TREATED : ST_DM_CONTROL, (uint64_t)(unit * d + p));
        x[p] = treated ? 0.15 + 0.85 * u : u; /* treated units are shifted: balance binds */
    }
}

static int64_t dm_column(const slp_gen_t *g, int64_t j, int64_t *rows, double *vals)
{
    int64_t N = g->p[0], M = g->p[1], d = g->p[2], t = g->p[3], D = g->dm_moments;
    if (j >= N * t) { /* slack of moment row p: +1 (s+) or -1 (s-) */
        int64_t p = (j - N * t) / 2;
        rows[0] = N + M + p;
        if (vals)
            vals[0] = (j - N * t) % 2 ? -1.0 : 1.0;
        return 1;
    }
    int64_t i = j / t, q = j % t, w, a, b;
    dm_window(g, i, &w, &a, &b);
    int64_t ctl = w + q, n = 0;
    rows[n++] = i;
    rows[n++] = N + ctl;
    for (int64_t p = 0; p < D; p++)
        rows[n++] = N + M + p;
    int excluded = q < a || q >= t - b;
    if (excluded)
        rows[n++] = N + M + D + i * g->dm_excl + (q < a ? q : a + (q - (t - b)));
    if (vals) {
        double xt[DM_MAX_COVARIATES], xc[DM_MAX_COVARIATES];
        dm_covariates(g, 1, i, xt);
        dm_covariates(g, 0, ctl, xc);
        int64_t k = 0;
        vals[k++] = 1.0;
        vals[k++] = 1.0;
        for (int64_t p = 0; p < d; p++)
            vals[k++] = xc[p] - xt[p];
        for (int64_t p = 0; p < d; p++)
            for (int64_t r = p; r < d; r++)
                vals[k++] = xc[p] * xc[r] - xt[p] * xt[r];
        if (excluded)
            vals[k++] = 1.0;
    }
    return n;
}

static void dm_col_data(const slp_gen_t *g, int64_t j, double *obj, double *lv, double *uv)
{
    int64_t N = g->p[0], d = g->p[2], t = g->p[3];
    *lv = 0.0;
    *uv = INFINITY;
    if (j >= N * t) {
        *obj = DM_SLACK_COST;
        return;
    }
    int64_t i = j / t, q = j % t, w, a, b;
    dm_window(g, i, &w, &a, &b);
    double xt[DM_MAX_COVARIATES], xc[DM_MAX_COVARIATES], s = 0.0;
    dm_covariates(g, 1, i, xt);
    dm_covariates(g, 0, w + q, xc);
    for (int64_t p = 0; p < d; p++)
        s += (xc[p] - xt[p]) * (xc[p] - xt[p]);
    *obj = sqrt(s);
}

static void dm_row_bounds(const slp_gen_t *g, int64_t i, double *lc, double *uc)
{
    int64_t N = g->p[0], M = g->p[1];
    if (i < N) {
        *lc = *uc = 1.0;
    } else if (i < N + M) {
        *lc = -INFINITY;
        *uc = 1.0;
    } else if (i < N + M + g->dm_moments) {
        *uc = DM_TOLERANCE * (double)N;
        *lc = -*uc;
    } else {
        *lc = *uc = 0.0;
    }
}

/* ==================================================================================
 * qap (Adams-Johnson): rows [row-assign i: M][col-assign j: M][A (k,l,j!=l): M^2 L]
 *                           [B (k,l,i!=k): M^2 L][symmetry: M^2 L^2 / 2]
 *                      cols [x (k,l): M^2][y (i,j,k!=i,l!=j): M^2 L^2]
 * ================================================================================== */

static int64_t qap_pair(int64_t M, int64_t a, int64_t b) /* a < b */
{
    return a * (2 * M - a - 1) / 2 + (b - a - 1);
}

static int64_t qap_row_nnz(const slp_gen_t *g, int64_t i)
{
    int64_t M = g->p[0];
    return i < 2 * M + 2 * M * M * (M - 1) ? M : 2;
}

static int64_t qap_col_nnz(const slp_gen_t *g, int64_t j)
{
    int64_t M = g->p[0];
    return j < M * M ? 2 * M : 3;
}

static void qap_decode_y(int64_t M, int64_t j, int64_t *i, int64_t *jx, int64_t *k, int64_t *l)
{
    int64_t L = M - 1, jj = j - M * M;
    int64_t ll = jj % L, kk = jj / L % L, ij = jj / (L * L);
    *i = ij / M;
    *jx = ij % M;
    *k = kk + (kk >= *i);
    *l = ll + (ll >= *jx);
}

static int64_t qap_column(const slp_gen_t *g, int64_t j, int64_t *rows, double *vals)
{
    int64_t M = g->p[0], L = M - 1;
    int64_t baseA = 2 * M, baseB = baseA + M * M * L, baseS = baseB + M * M * L;
    if (j < M * M) {
        int64_t k = j / M, l = j % M, n = 0;
        rows[n++] = k;
        rows[n++] = M + l;
        for (int64_t q = 0; q < L; q++)
            rows[n++] = baseA + (k * M + l) * L + q;
        for (int64_t q = 0; q < L; q++)
            rows[n++] = baseB + (k * M + l) * L + q;
        if (vals) {
            vals[0] = vals[1] = 1.0;
            for (int64_t q = 2; q < n; q++)
                vals[q] = -1.0;
        }
        return n;
    }
    int64_t i, jx, k, l;
    qap_decode_y(M, j, &i, &jx, &k, &l);
    rows[0] = baseA + (k * M + l) * L + (jx - (jx > l));
    rows[1] = baseB + (k * M + l) * L + (i - (i > k));
    if (i < k)
        rows[2] = baseS + qap_pair(M, i, k) * M * L + jx * L + (l - (l > jx));
    else
        rows[2] = baseS + qap_pair(M, k, i) * M * L + l * L + (jx - (jx > l));
    if (vals) {
        vals[0] = vals[1] = 1.0;
        vals[2] = i < k ? 1.0 : -1.0;
    }
    return 3;
}

static double qap_flow(const slp_gen_t *g, int64_t a, int64_t b)
{
    int64_t M = g->p[0], lo = a < b ? a : b, hi = a < b ? b : a;
    return floor(10.0 * slp_gen_u01(g->seed, ST_QAP_FLOW, (uint64_t)(lo * M + hi)));
}

static double qap_distance(const slp_gen_t *g, int64_t a, int64_t b)
{
    double dx = slp_gen_u01(g->seed, ST_QAP_PX, (uint64_t)a) - slp_gen_u01(g->seed, ST_QAP_PX, (uint64_t)b);
    double dy = slp_gen_u01(g->seed, ST_QAP_PY, (uint64_t)a) - slp_gen_u01(g->seed, ST_QAP_PY, (uint64_t)b);
    return round(10.0 * sqrt(dx * dx + dy * dy));
}

static void qap_col_data(const slp_gen_t *g, int64_t j, double *obj, double *lv, double *uv)
{
    int64_t M = g->p[0];
    *lv = 0.0;
    *uv = INFINITY;
    if (j < M * M) {
        *obj = 0.0;
        return;
    }
    int64_t i, jx, k, l;
    qap_decode_y(M, j, &i, &jx, &k, &l);
    *obj = qap_flow(g, i, k) * qap_distance(g, jx, l);
}

static void qap_row_bounds(const slp_gen_t *g, int64_t i, double *lc, double *uc)
{
    *lc = *uc = i < 2 * g->p[0] ? 1.0 : 0.0;
}

/* ==================================================================================
 * transport: rows [source i: S][sink j: T]; cols [arc (i,q): S*K] to sink w(i) + q
 * ================================================================================== */

static int64_t tr_row_nnz(const slp_gen_t *g, int64_t i)
{
    int64_t S = g->p[0], K = g->p[2];
    return i < S ? K : coverage(g, S, K, i - S);
}

static int64_t tr_column(const slp_gen_t *g, int64_t j, int64_t *rows, double *vals)
{
    int64_t S = g->p[0], K = g->p[2], i = j / K;
    rows[0] = i;
    rows[1] = S + window_start(g, i) + j % K;
    if (vals)
        vals[0] = vals[1] = 1.0;
    return 2;
}

static double tr_demand(const slp_gen_t *g, int64_t sink)
{
    return 1.0 + 9.0 * slp_gen_u01(g->seed, ST_TR_DEM, (uint64_t)sink);
}

static void tr_col_data(const slp_gen_t *g, int64_t j, double *obj, double *lv, double *uv)
{
    int64_t T = g->p[1], K = g->p[2], i = j / K, w = window_start(g, i), sink = w + j % K;
    double dx = ((double)w + 0.5 * (double)K - ((double)sink + 0.5)) / (double)T;
    double dy = slp_gen_u01(g->seed, ST_TR_SRC_Y, (uint64_t)i) - slp_gen_u01(g->seed, ST_TR_SNK_Y, (uint64_t)sink);
    *obj = sqrt(dx * dx + dy * dy);
    *lv = 0.0;
    *uv = INFINITY;
}

static void tr_row_bounds(const slp_gen_t *g, int64_t i, double *lc, double *uc)
{
    int64_t S = g->p[0], K = g->p[2];
    if (i >= S) {
        *lc = *uc = tr_demand(g, i - S);
        return;
    }
    /* Sinks whose first covering source ("home") is i: [w(i-1) + K, w(i) + K). The
     * supply covers 1.2 times their demand, so shipping each sink's demand from its
     * home source is feasible. */
    int64_t lo = i == 0 ? 0 : window_start(g, i - 1) + K, hi = window_start(g, i) + K;
    double sum = 0.0;
    for (int64_t s = lo; s < hi; s++)
        sum += tr_demand(g, s);
    *lc = -INFINITY;
    *uc = 1.2 * sum + slp_gen_u01(g->seed, ST_TR_SUP, (uint64_t)i);
}

/* ---- Dispatch -------------------------------------------------------------------- */

int64_t slp_genf_row_nnz(const slp_gen_t *g, int64_t i)
{
    switch (g->kind) {
    case SLP_GEN_MCF: return mcf_row_nnz(g, i);
    case SLP_GEN_DESIGN_MATCH: return dm_row_nnz(g, i);
    case SLP_GEN_QAP: return qap_row_nnz(g, i);
    case SLP_GEN_HEAT_SOURCE: return 8;
    case SLP_GEN_PRODUCTION_INVENTORY: return slp_genf_inventory_row_nnz(g, i);
    default: return tr_row_nnz(g, i);
    }
}

int64_t slp_genf_col_nnz(const slp_gen_t *g, int64_t j)
{
    switch (g->kind) {
    case SLP_GEN_MCF: return mcf_col_nnz(g, j);
    case SLP_GEN_DESIGN_MATCH: return dm_col_nnz(g, j);
    case SLP_GEN_QAP: return qap_col_nnz(g, j);
    case SLP_GEN_HEAT_SOURCE: return slp_genf_heat_col_nnz(g, j);
    case SLP_GEN_PRODUCTION_INVENTORY: return slp_genf_inventory_col_nnz(g, j);
    default: return 2;
    }
}

int64_t slp_genf_column(const slp_gen_t *g, int64_t j, int64_t *rows, double *vals)
{
    switch (g->kind) {
    case SLP_GEN_MCF: return mcf_column(g, j, rows, vals);
    case SLP_GEN_DESIGN_MATCH: return dm_column(g, j, rows, vals);
    case SLP_GEN_QAP: return qap_column(g, j, rows, vals);
    case SLP_GEN_HEAT_SOURCE: return slp_genf_heat_column(g, j, rows, vals);
    case SLP_GEN_PRODUCTION_INVENTORY: return slp_genf_inventory_column(g, j, rows, vals);
    default: return tr_column(g, j, rows, vals);
    }
}

void slp_genf_col_data(const slp_gen_t *g, int64_t j, double *obj, double *lv, double *uv)
{
    switch (g->kind) {
    case SLP_GEN_MCF: mcf_col_data(g, j, obj, lv, uv); break;
    case SLP_GEN_DESIGN_MATCH: dm_col_data(g, j, obj, lv, uv); break;
    case SLP_GEN_QAP: qap_col_data(g, j, obj, lv, uv); break;
    case SLP_GEN_HEAT_SOURCE: slp_genf_heat_col_data(g, j, obj, lv, uv); break;
    case SLP_GEN_PRODUCTION_INVENTORY: slp_genf_inventory_col_data(g, j, obj, lv, uv); break;
    default: tr_col_data(g, j, obj, lv, uv); break;
    }
}

double slp_genf_col_cost(const slp_gen_t *g, int64_t j)
{
    if (g->kind == SLP_GEN_HEAT_SOURCE)
        return slp_genf_heat_col_cost(g, j);
    double obj, lv, uv; /* the other families' bounds cost no more than their objective */
    slp_genf_col_data(g, j, &obj, &lv, &uv);
    return obj;
}

void slp_genf_row_bounds(const slp_gen_t *g, int64_t i, double *lc, double *uc)
{
    switch (g->kind) {
    case SLP_GEN_MCF: mcf_row_bounds(g, i, lc, uc); break;
    case SLP_GEN_DESIGN_MATCH: dm_row_bounds(g, i, lc, uc); break;
    case SLP_GEN_QAP: qap_row_bounds(g, i, lc, uc); break;
    case SLP_GEN_HEAT_SOURCE: *lc = *uc = 0.0; break; /* Poisson rows */
    case SLP_GEN_PRODUCTION_INVENTORY: slp_genf_inventory_row_bounds(g, i, lc, uc); break;
    default: tr_row_bounds(g, i, lc, uc); break;
    }
}
