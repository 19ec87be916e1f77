/* heat-source: locating heat sources in a cube from a few temperature measurements, the
 * discretised Poisson inverse problem of the large-scale PDLP benchmark
 * (docs/generators.md, "heat-source").
 *
 * Grid: N interior points per axis, spacing h = 1/N, boundary planes 0 and N + 1.
 *   columns [u (i,j,k), 0..N+1 each: (N+2)^3][q (i,j,k), 1..N each: N^3]
 *   rows    [Poisson (i,j,k), 1..N each: N^3]
 *   (sum of the 6 neighbours' u - 6 u) / h^2 + q = 0,   minimise sum q.
 * Boundary u are fixed at 0, u at a measurement point lies within a relative 1e-6 of the
 * true temperature, q is fixed at 0 except at the K possible source locations. */
#include "gen_family.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen_rng.h"

enum { ST_HS_SOURCE = 50, ST_HS_RATE, ST_HS_CANDIDATE, ST_HS_MEASUREMENT };

#define HS_MEASUREMENT_ERROR 1e-6 /* the benchmark's maximum relative measurement error */
#define HS_MAX_GRID 4096          /* (N+2)^3 columns: far beyond any size that can be built */

/* Parameters: p[0] = N, p[1] = K candidates (sources included), p[2] = L sources,
 * p[3] = M measurements. */

/* Interior coordinate 1..N of entity `id`'s axis `axis`: a uniform point of [0, 1]
 * rounded to the grid, as the benchmark places sources, candidates and measurements. */
static int64_t located_coordinate(const slp_gen_t *g, int stream, int64_t id, int axis)
{
    double u = slp_gen_u01(g->seed, (uint64_t)stream, (uint64_t)(3 * id + axis));
    return (int64_t)llround((double)(g->p[0] - 1) * u) + 1;
}

static int64_t located_point(const slp_gen_t *g, int stream, int64_t id)
{
    int64_t N = g->p[0];
    int64_t i = located_coordinate(g, stream, id, 0), j = located_coordinate(g, stream, id, 1),
            k = located_coordinate(g, stream, id, 2);
    return ((i - 1) * N + (j - 1)) * N + (k - 1);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Sort and drop repeats; returns the new count. */
static int64_t sort_unique(int64_t *v, int64_t n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_i64);
    int64_t out = 0;
    for (int64_t k = 0; k < n; k++)
        if (out == 0 || v[out - 1] != v[k])
            v[out++] = v[k];
    return out;
}

/* Position of `point` in the sorted v[0..n), or -1. */
static int64_t find_point(const int64_t *v, int64_t n, int64_t point)
{
    const int64_t *hit = bsearch(&point, v, (size_t)n, sizeof *v, cmp_i64);
    return hit ? hit - v : -1;
}

slp_err slp_genf_heat_setup(slp_gen_t *g)
{
    int64_t N = g->p[0], K = g->p[1], L = g->p[2], M = g->p[3];
    if (N < 3 || N > HS_MAX_GRID)
        return slp_error(SLP_ERR_INPUT, "gen heat-source: --grid-size must be in 3..%d",
                         HS_MAX_GRID);
    if (L >= K)
        return slp_error(SLP_ERR_INPUT, "gen heat-source: --sources (%lld) must be below "
                         "--candidates (%lld): the candidates include the true sources",
                         (long long)L, (long long)K);
    if (M <= L)
        return slp_error(SLP_ERR_INPUT, "gen heat-source: --measurements (%lld) must exceed "
                         "--sources (%lld)", (long long)M, (long long)L);
    if (K > SLP_GEN_HEAT_MAX_POINTS || M > SLP_GEN_HEAT_MAX_POINTS)
        return slp_error(SLP_ERR_INPUT, "gen heat-source: at most %d candidates and %d "
                         "measurements", SLP_GEN_HEAT_MAX_POINTS, SLP_GEN_HEAT_MAX_POINTS);
    int ovf = 0;
    int64_t N2 = slp_gen_mul(N + 2, N + 2, &ovf), N3 = slp_gen_mul(slp_gen_mul(N, N, &ovf), N, &ovf);
    g->n = slp_gen_add(slp_gen_mul(N2, N + 2, &ovf), N3, &ovf);
    g->m = N3;
    g->nnz = slp_gen_mul(8, N3, &ovf);
    g->max_col_nnz = 7;
    if (ovf)
        return slp_genf_overflow(g);

    slp_gen_heat_t *h = &g->heat;
    /* Candidates: the L true sources (ids 0..L-1), then K - L other locations. */
    for (int64_t s = 0; s < K; s++)
        h->cand[s] = s < L ? located_point(g, ST_HS_SOURCE, s)
                           : located_point(g, ST_HS_CANDIDATE, s - L);
    h->ncand = sort_unique(h->cand, K);
    memset(h->cand_sources, 0, sizeof h->cand_sources);
    for (int64_t s = 0; s < L; s++)
        h->cand_sources[find_point(h->cand, h->ncand, located_point(g, ST_HS_SOURCE, s))]++;
    for (int64_t k = 0; k < M; k++)
        h->meas[k] = located_point(g, ST_HS_MEASUREMENT, k);
    h->nmeas = sort_unique(h->meas, M);
    return SLP_OK;
}

/* ---- The true temperature ---------------------------------------------------------
 * u solves (the 7-point Laplacian) u = -q on the grid with u = 0 on the boundary. In the
 * sine basis phi_a(i) = sqrt(2/(N+1)) sin(pi a i/(N+1)) of x and y (eigenvalues -mu_a,
 * mu_a = 4 sin^2(pi a / (2(N+1)))), mode (a, b) leaves the tridiagonal z-problem
 * (mu_a + mu_b - T_z) v = h^2 q_ab, whose Green's function has a closed form
 * (gen_heat_green_1d). So u at one point from one source costs N^2 terms, not a solve. */

/* Green's function of tridiag(-1, 2 + sigma, -1) of order n1 - 1 (Dirichlet ends 0 and
 * n1), 2 cosh(theta) = 2 + sigma:
 *   g(p, s) = sinh(theta min(p,s)) sinh(theta (n1 - max(p,s))) / (sinh(theta) sinh(theta n1)),
 * written with negative exponents only (no overflow for large theta n1). */
static double green_1d(double theta, int64_t n1, int64_t p, int64_t s)
{
    double d = (double)(p > s ? p - s : s - p), ps = (double)(p + s), two_n1 = 2.0 * (double)n1;
    double num = exp(-theta * d) + exp(-theta * (two_n1 - d)) - exp(-theta * ps) -
                 exp(-theta * (two_n1 - ps));
    return num / (2.0 * sinh(theta) * -expm1(-theta * two_n1));
}

/* Temperature at interior (i, j, k) due to a unit input at interior (si, sj, sk). */
static double unit_response(int64_t N, int64_t i, int64_t j, int64_t k, int64_t si, int64_t sj,
                            int64_t sk)
{
    double xa[HS_MAX_GRID + 1], yb[HS_MAX_GRID + 1], mu[HS_MAX_GRID + 1];
    double n1 = (double)(N + 1);
    for (int64_t a = 1; a <= N; a++) {
        xa[a] = 2.0 / n1 * sin(SLP_PI * (double)(a * i) / n1) * sin(SLP_PI * (double)(a * si) / n1);
        yb[a] = 2.0 / n1 * sin(SLP_PI * (double)(a * j) / n1) * sin(SLP_PI * (double)(a * sj) / n1);
        double s = sin(SLP_PI * (double)a / (2.0 * n1));
        mu[a] = 4.0 * s * s;
    }
    double sum = 0.0;
    for (int64_t a = 1; a <= N; a++) {
        double row = 0.0;
        for (int64_t b = 1; b <= N; b++)
            row += yb[b] * green_1d(acosh(1.0 + 0.5 * (mu[a] + mu[b])), N + 1, k, sk);
        sum += xa[a] * row;
    }
    return sum / ((double)N * (double)N); /* h^2 */
}

/* Heat input of true source s: N^3 times a rate uniform in [0, 1). */
static double source_input(const slp_gen_t *g, int64_t s)
{
    double N = (double)g->p[0];
    return N * N * N * slp_gen_u01(g->seed, ST_HS_RATE, (uint64_t)s);
}

double slp_genf_heat_temperature(const slp_gen_t *g, int64_t i, int64_t j, int64_t k)
{
    int64_t N = g->p[0];
    if (i < 1 || j < 1 || k < 1 || i > N || j > N || k > N)
        return 0.0;
    double u = 0.0;
    for (int64_t s = 0; s < g->p[2]; s++)
        u += source_input(g, s) *
             unit_response(N, i, j, k, located_coordinate(g, ST_HS_SOURCE, s, 0),
                           located_coordinate(g, ST_HS_SOURCE, s, 1),
                           located_coordinate(g, ST_HS_SOURCE, s, 2));
    return u;
}

double slp_genf_heat_source(const slp_gen_t *g, int64_t point)
{
    double q = 0.0;
    for (int64_t s = 0; s < g->p[2]; s++)
        if (located_point(g, ST_HS_SOURCE, s) == point)
            q += source_input(g, s);
    return q;
}

/* ---- Columns ------------------------------------------------------------------------ */

int64_t slp_genf_heat_col_nnz(const slp_gen_t *g, int64_t j)
{
    int64_t rows[7];
    return slp_genf_heat_column(g, j, rows, NULL);
}

int64_t slp_genf_heat_column(const slp_gen_t *g, int64_t j, int64_t *rows, double *vals)
{
    int64_t N = g->p[0], W = N + 2, NU = W * W * W;
    if (j >= NU) { /* q at interior point j - NU: its own Poisson row */
        rows[0] = j - NU;
        if (vals)
            vals[0] = 1.0;
        return 1;
    }
    int64_t i = j / (W * W), jj = j / W % W, k = j % W;
    /* The Poisson rows holding u(i,j,k): its interior neighbours and itself, in
     * increasing row order (i varies slowest). */
    static const int8_t offs[7][3] = {{-1, 0, 0}, {0, -1, 0}, {0, 0, -1}, {0, 0, 0},
                                      {0, 0, 1},  {0, 1, 0},  {1, 0, 0}};
    double h2inv = (double)N * (double)N;
    int64_t n = 0;
    for (int e = 0; e < 7; e++) {
        int64_t a = i + offs[e][0], b = jj + offs[e][1], c = k + offs[e][2];
        if (a < 1 || b < 1 || c < 1 || a > N || b > N || c > N)
            continue;
        rows[n] = ((a - 1) * N + (b - 1)) * N + (c - 1);
        if (vals)
            vals[n] = e == 3 ? -6.0 * h2inv : h2inv;
        n++;
    }
    return n;
}

double slp_genf_heat_col_cost(const slp_gen_t *g, int64_t j)
{
    int64_t W = g->p[0] + 2;
    return j >= W * W * W ? 1.0 : 0.0; /* minimise the total heat input */
}

void slp_genf_heat_col_data(const slp_gen_t *g, int64_t j, double *obj, double *lv, double *uv)
{
    int64_t N = g->p[0], W = N + 2, NU = W * W * W;
    const slp_gen_heat_t *h = &g->heat;
    if (j >= NU) { /* q: 0 except at the possible source locations */
        int64_t at = find_point(h->cand, h->ncand, j - NU);
        double N3 = (double)N * (double)N * (double)N;
        *obj = slp_genf_heat_col_cost(g, j);
        *lv = 0.0;
        /* The benchmark's bound N^3 holds one source (rates are below 1); a point that
         * drew several true sources gets room for all of them, so u_true stays feasible. */
        *uv = at < 0 ? 0.0 : N3 * (h->cand_sources[at] > 1 ? h->cand_sources[at] : 1);
        return;
    }
    int64_t i = j / (W * W), jj = j / W % W, k = j % W;
    *obj = slp_genf_heat_col_cost(g, j);
    if (i == 0 || jj == 0 || k == 0 || i == W - 1 || jj == W - 1 || k == W - 1) {
        *lv = *uv = 0.0; /* boundary */
        return;
    }
    if (find_point(h->meas, h->nmeas, ((i - 1) * N + (jj - 1)) * N + (k - 1)) < 0) {
        *lv = -INFINITY;
        *uv = INFINITY;
        return;
    }
    double u = slp_genf_heat_temperature(g, i, jj, k);
    *lv = u / (1.0 + HS_MEASUREMENT_ERROR);
    *uv = u * (1.0 + HS_MEASUREMENT_ERROR);
}
