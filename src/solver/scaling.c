#include "solver/scaling.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid/reduce.h"

#define SLP_MATRIX_ZERO_TOL 1e-9
#define SLP_SCALE_FLOOR 1e-12
#define SLP_SCALE_PAR_MIN 20000 /* entries below which a sweep runs on one thread */

slp_err slp_preprocess(slp_local_problem_t *lp, int64_t *dropped)
{
    if (lp->sense < 0) {
        for (int64_t j = 0; j < lp->n_loc; j++)
            lp->obj[j] = -lp->obj[j];
        lp->obj_const = -lp->obj_const;
    }
    /* Compact the CSR in place, dropping tiny entries. */
    slp_csr_t *a = &lp->A;
    int64_t out = 0;
    for (int64_t i = 0; i < a->rows; i++) {
        int64_t start = a->row_ptr[i];
        a->row_ptr[i] = out;
        for (int64_t k = start; k < a->row_ptr[i + 1]; k++) {
            if (fabs(a->val[k]) > SLP_MATRIX_ZERO_TOL) {
                a->col_idx[out] = a->col_idx[k];
                a->val[out] = a->val[k];
                out++;
            }
        }
    }
    *dropped = a->nnz - out;
    a->row_ptr[a->rows] = out;
    a->nnz = out;
    return SLP_OK;
}

slp_err slp_compute_norms(slp_grid_t *grid, const slp_local_problem_t *lp, slp_norms_t *out)
{
    double col[1] = {0}, row[2] = {0}, mx[3] = {0};
    for (int64_t j = 0; j < lp->n_loc; j++) {
        col[0] += lp->obj[j] * lp->obj[j];
        mx[0] = fmax(mx[0], fabs(lp->obj[j]));
    }
    for (int64_t i = 0; i < lp->m_loc; i++) {
        /* bounds beyond 1e20 are infinite, as slp_preprocess makes them */
        double l = lp->lc[i] <= -SLP_INFINITE_BOUND ? -INFINITY : lp->lc[i];
        double u = lp->uc[i] >= SLP_INFINITE_BOUND ? INFINITY : lp->uc[i];
        double bc = 0.0;
        if (isfinite(l) && l != u) {
            row[0] += l * l;
            mx[1] = fmax(mx[1], fabs(l));
        }
        if (isfinite(u)) {
            row[0] += u * u;
            mx[1] = fmax(mx[1], fabs(u));
        }
        if (isfinite(l))
            bc = fabs(l);
        if (isfinite(u))
            bc = fmax(bc, fabs(u));
        row[1] += bc * bc;
        mx[2] = fmax(mx[2], bc);
    }
    SLP_CALL(slp_reduce_sums(grid, col, 1, row, 2));
    SLP_CALL(slp_reduce_max(grid, mx, 3));
    out->c_l2 = sqrt(col[0]);
    out->c_linf = mx[0];
    out->b_l2 = sqrt(row[0]);
    out->b_linf = mx[1];
    out->bc_l2 = sqrt(row[1]);
    out->bc_linf = mx[2];
    return SLP_OK;
}

/* ------------------------------------------------------------ diagonal scaling
 *
 * The passes never touch the matrix: they keep the cumulative factors R (rows) and
 * S (columns) as reciprocals inv_r, inv_s and read each scaled entry as
 * |a~_ij| = |a_ij| (inv_r_i inv_s_j), always in this order, so that every grid shape
 * sees the same value. A sweep streams the lines of one copy of the block, the one
 * whose lines are the longer side (A_rc^T when the block has more columns than rows):
 * the statistics of those lines are per line, and when no other rank shares the line
 * (a column with R = 1, a row with C = 1) its factor is folded in at once, with no
 * array of statistics; the other side's are scattered into one private array per
 * part of the lines (the backend's part count), short and cache-resident, combined in
 * part order, whichever threads ran the parts. Maxima and minima do not depend on the
 * order, so the geometric-mean and Ruiz factors are identical for every grid shape and
 * part count; the Pock-Chambolle sums depend on the part count alone. The factors are applied to both copies and to the
 * vectors once, at the end, and the reciprocals become the factors in place. */

typedef struct {
    slp_grid_t *grid;
    const slp_csr_t *lines;   /* the streamed copy: A_rc, or A_rc^T when it has more lines */
    int lines_are_cols;       /* lines = A_rc^T: its lines are the columns */
    int local_lines;          /* no other rank shares a line: its factor folds in the sweep */
    int64_t m, n;
    double *inv_r, *inv_s;    /* reciprocals of the cumulative factors */
    double *line_stat;        /* [2 lines] statistics of the lines (unless local_lines) */
    double *cross_stat;       /* [2 cross] statistics of the other side */
    double *priv;             /* [parts x 2 cross]: the scattered statistics of each part */
    int parts;                /* parts of a sweep (slp_scale's argument) */
} scaler_t;

enum { STAT_MAX, STAT_MINMAX, STAT_SUM };

/* Initial value of a statistic: -min starts at -inf (so that an empty line stays
 * recognisable after the max reduction), maxima and sums at 0. */
static void stat_init(double *v, int kind, int64_t len)
{
    for (int64_t k = 0; k < len; k++)
        v[k] = 0.0;
    if (kind == STAT_MINMAX)
        for (int64_t k = 0; k < len; k++)
            v[len + k] = -INFINITY;
}

/* Add the value v (a term already raised to its power for STAT_SUM) to slot k. */
static inline void stat_add(double *v, int kind, int64_t len, int64_t k, double a)
{
    if (kind == STAT_SUM) {
        v[k] += a;
        return;
    }
    v[k] = a > v[k] ? a : v[k];
    if (kind == STAT_MINMAX)
        v[len + k] = -a > v[len + k] ? -a : v[len + k];
}

static inline double stat_term(double v, double power)
{
    return power == 1.0 ? v : pow(v, power);
}

/* The factor from a line's statistics: sqrt of the max, the sum, or max * min for
 * STAT_MINMAX (neg_min = -min); an argument below the floor (an empty line's among
 * them) gives 1. */
static inline double factor_of(int kind, double stat, double neg_min)
{
    double arg = stat;
    if (kind == STAT_MINMAX)
        arg = stat > 0.0 ? stat * -neg_min : 0.0;
    return arg >= SLP_SCALE_FLOOR ? sqrt(arg) : 1.0;
}

/* Line k of a sweep (below); kind, want_line, want_cross and cols are constants at
 * every call, so the compiler specialises the loop for each. */
static inline __attribute__((always_inline)) void
sweep_line(const slp_csr_t *L, double *inv_line, const double *inv_cross, int cols, int kind,
           int want_line, double line_power, int want_cross, double cross_power, int fold,
           double *line_out, double *mine, int64_t k)
{
    const int64_t nl = L->rows, nc = L->cols;
    double own = inv_line[k];
    double mx = 0.0, mn = INFINITY, sum = 0.0;
    for (int64_t e = L->row_ptr[k]; e < L->row_ptr[k + 1]; e++) {
        int32_t j = L->col_idx[e];
        double v = fabs(L->val[e]) * (cols ? inv_cross[j] * own : own * inv_cross[j]);
        if (want_line) {
            mx = v > mx ? v : mx;
            mn = v < mn ? v : mn;
            if (kind == STAT_SUM)
                sum += stat_term(v, line_power);
        }
        if (want_cross)
            stat_add(mine, kind, nc, j, kind == STAT_SUM ? stat_term(v, cross_power) : v);
    }
    if (!want_line)
        return;
    double stat = kind == STAT_SUM ? sum : mx;
    if (fold) { /* the line's own factor; no later line reads it */
        inv_line[k] /= factor_of(kind, stat, -mn);
        return;
    }
    line_out[k] = stat;
    if (kind == STAT_MINMAX)
        line_out[nl + k] = -mn;
}

/* Lines [lo, hi) of part p of `parts`: OpenMP's static split of the lines. */
static void part_lines(int64_t len, int parts, int p, int64_t *lo, int64_t *hi)
{
    int64_t q = len / parts, r = len % parts;
    *lo = p * q + (p < r ? p : r);
    *hi = *lo + q + (p < r ? 1 : 0);
}

/* The parts a pass over the streamed lines is cut into: s->parts when the copy is large
 * enough to share between threads, else 1. */
static int sweep_parts(const scaler_t *s)
{
    return s->lines->nnz >= SLP_SCALE_PAR_MIN ? s->parts : 1;
}

/* priv's `parts` consecutive parts of `width` added into part 0 in part order: the
 * sums depend on the part count, not on the threads that computed the parts. */
static void add_parts(double *priv, int parts, int64_t width)
{
    for (int p = 1; p < parts; p++)
        for (int64_t j = 0; j < width; j++)
            priv[j] += priv[(size_t)p * (size_t)width + (size_t)j];
}

#define SWEEP_CASE(KIND, LINE, CROSS, COLS)                                                   \
    for (int64_t k = lo; k < hi; k++)                                                        \
    sweep_line(L, inv_line, inv_cross, COLS, KIND, LINE, line_power, CROSS, cross_power, fold, \
               line_out, mine, k)

/* One sweep over the streamed lines: statistics of kind `kind` of the lines (when
 * want_line; terms |a~|^line_power for sums), folded in at once when the lines are
 * local, and of the cross side (when want_cross; |a~|^cross_power) into cross_stat.
 * The lines are cut into s->parts parts, each with its own cross statistics, added in
 * part order: the sums depend on the part count, not on the threads that run them. */
static void sweep(scaler_t *s, int kind, int want_line, double line_power, int want_cross,
                  double cross_power)
{
    const slp_csr_t *L = s->lines;
    int cols = s->lines_are_cols, fold = s->local_lines;
    double *inv_line = cols ? s->inv_s : s->inv_r;
    const double *inv_cross = cols ? s->inv_r : s->inv_s;
    double *line_out = s->line_stat;
    const int64_t width = kind == STAT_MINMAX ? 2 * L->cols : L->cols;
    int parts = sweep_parts(s);
    int which = (kind * 2 + want_line) * 2 + want_cross;
#pragma omp parallel for schedule(dynamic, 1) if (parts > 1)
    for (int p = 0; p < parts; p++) {
        int64_t lo, hi;
        part_lines(L->rows, parts, p, &lo, &hi);
        double *mine = s->priv + (size_t)p * (size_t)width;
        if (want_cross)
            stat_init(mine, kind, L->cols);
        if (cols) {
            switch (which) {
            case (STAT_MINMAX * 2 + 1) * 2 + 0: SWEEP_CASE(STAT_MINMAX, 1, 0, 1); break;
            case (STAT_MINMAX * 2 + 0) * 2 + 1: SWEEP_CASE(STAT_MINMAX, 0, 1, 1); break;
            case (STAT_MAX * 2 + 1) * 2 + 1: SWEEP_CASE(STAT_MAX, 1, 1, 1); break;
            default: SWEEP_CASE(STAT_SUM, 1, 1, 1); break;
            }
        } else {
            switch (which) {
            case (STAT_MINMAX * 2 + 1) * 2 + 0: SWEEP_CASE(STAT_MINMAX, 1, 0, 0); break;
            case (STAT_MINMAX * 2 + 0) * 2 + 1: SWEEP_CASE(STAT_MINMAX, 0, 1, 0); break;
            case (STAT_MAX * 2 + 1) * 2 + 1: SWEEP_CASE(STAT_MAX, 1, 1, 0); break;
            default: SWEEP_CASE(STAT_SUM, 1, 1, 0); break;
            }
        }
    }
    if (!want_cross)
        return;
    if (kind == STAT_SUM) {
        add_parts(s->priv, parts, width);
    } else { /* maxima */
        for (int t = 1; t < parts; t++) {
            const double *other = s->priv + (size_t)t * (size_t)width;
            for (int64_t k = 0; k < width; k++)
                s->priv[k] = other[k] > s->priv[k] ? other[k] : s->priv[k];
        }
    }
    memcpy(s->cross_stat, s->priv, (size_t)width * sizeof(double));
}

/* Sum a side's per-line values over the ranks that share its lines (rows over the grid
 * row, columns over the grid column). */
static slp_err sum_side(scaler_t *s, int columns, double *v, int64_t len)
{
    return columns ? slp_sum_over_col(s->grid, v, len) : slp_sum_over_row(s->grid, v, len);
}

/* Reduce one side's statistics over the grid (rows over row_comm, columns over
 * col_comm) and fold its factors into the reciprocals. */
static slp_err finish_side(scaler_t *s, int columns, int kind, double *stat)
{
    int64_t len = columns ? s->n : s->m;
    double *inv = columns ? s->inv_s : s->inv_r;
    int64_t count = kind == STAT_MINMAX ? 2 * len : len;
    if (kind == STAT_SUM)
        SLP_CALL(sum_side(s, columns, stat, count));
    else
        SLP_CALL(columns ? slp_max_over_col(s->grid, stat, count)
                         : slp_max_over_row(s->grid, stat, count));
#pragma omp parallel for if (len >= SLP_SCALE_PAR_MIN) schedule(static)
    for (int64_t k = 0; k < len; k++)
        inv[k] /= factor_of(kind, stat[k], kind == STAT_MINMAX ? stat[len + k] : 0.0);
    return SLP_OK;
}

/* The lines' factors after a sweep: folded already when the lines are local. */
static slp_err finish_lines(scaler_t *s, int kind)
{
    return s->local_lines ? SLP_OK : finish_side(s, s->lines_are_cols, kind, s->line_stat);
}

/* Factors of one side (rows or columns) from the current scaled matrix. */
static slp_err scale_side(scaler_t *s, int columns, int kind)
{
    if (columns == s->lines_are_cols) {
        sweep(s, kind, 1, 1.0, 0, 1.0);
        return finish_lines(s, kind);
    }
    sweep(s, kind, 0, 1.0, 1, 1.0);
    return finish_side(s, columns, kind, s->cross_stat);
}

/* Factors of both sides from the same matrix (Ruiz, Pock-Chambolle with terms
 * |a~|^row_power for the rows and |a~|^col_power for the columns). A line's factor
 * folded in the sweep does not change the cross statistics: its entries were read
 * before. */
static slp_err scale_both(scaler_t *s, int kind, double row_power, double col_power)
{
    int cols = s->lines_are_cols;
    sweep(s, kind, 1, cols ? col_power : row_power, 1, cols ? row_power : col_power);
    SLP_CALL(finish_lines(s, kind));
    return finish_side(s, !cols, kind, s->cross_stat);
}

/* Scale every entry of a copy by (inv_r_i inv_s_j), the same product for A_rc and its
 * transpose so that the two copies stay equal. */
static void scale_entries(slp_csr_t *copy, const double *inv_r, const double *inv_s, int transposed)
{
    const int64_t *ptr = copy->row_ptr;
    const int32_t *idx = copy->col_idx;
    double *val = copy->val;
#pragma omp parallel for if (copy->nnz >= SLP_SCALE_PAR_MIN) schedule(dynamic, 512)
    for (int64_t k = 0; k < copy->rows; k++)
        for (int64_t e = ptr[k]; e < ptr[k + 1]; e++)
            val[e] *= transposed ? inv_r[idx[e]] * inv_s[k] : inv_r[k] * inv_s[idx[e]];
}

/* The cumulative factors into both copies and the problem vectors; the reciprocals
 * become the factors (sc takes them). */
static void apply_factors(scaler_t *s, slp_local_problem_t *lp, slp_csr_t *at, slp_scaling_t *sc)
{
    scale_entries(&lp->A, s->inv_r, s->inv_s, 0);
    scale_entries(at, s->inv_r, s->inv_s, 1);
    for (int64_t j = 0; j < s->n; j++) {
        lp->obj[j] *= s->inv_s[j];
        s->inv_s[j] = 1.0 / s->inv_s[j];
        lp->lv[j] *= s->inv_s[j];
        lp->uv[j] *= s->inv_s[j];
    }
    for (int64_t i = 0; i < s->m; i++) {
        lp->lc[i] *= s->inv_r[i];
        lp->uc[i] *= s->inv_r[i];
        s->inv_r[i] = 1.0 / s->inv_r[i];
    }
    sc->dcol = s->inv_s;
    sc->drow = s->inv_r;
    s->inv_s = s->inv_r = NULL;
}

/* HPR-LP style: theta_b = 1/(1 + ||b~||), theta_c = 1/(1 + ||c~||) on the scaled data. */
static slp_err bound_objective_rescaling(slp_grid_t *grid, slp_local_problem_t *lp,
                                         slp_scaling_t *sc)
{
    double col[1] = {0}, row[1] = {0};
    for (int64_t j = 0; j < lp->n_loc; j++)
        col[0] += lp->obj[j] * lp->obj[j];
    for (int64_t i = 0; i < lp->m_loc; i++) {
        double l = lp->lc[i], u = lp->uc[i];
        if (isfinite(l) && l != u)
            row[0] += l * l;
        if (isfinite(u))
            row[0] += u * u;
    }
    SLP_CALL(slp_reduce_sums(grid, col, 1, row, 1));
    sc->theta_b = 1.0 / (1.0 + sqrt(row[0]));
    sc->theta_c = 1.0 / (1.0 + sqrt(col[0]));
    for (int64_t j = 0; j < lp->n_loc; j++) {
        lp->obj[j] *= sc->theta_c;
        lp->lv[j] *= sc->theta_b;
        lp->uv[j] *= sc->theta_b;
    }
    for (int64_t i = 0; i < lp->m_loc; i++) {
        lp->lc[i] *= sc->theta_b;
        lp->uc[i] *= sc->theta_b;
    }
    return SLP_OK;
}

/* Curtis-Reid in log space (docs/algorithm.md section 2). With rho_i and gamma_j the logs
 * of the row and column factors, the row step sets rho_i to the mean over row i's
 * entries of log|a_ij| - gamma_j, i.e. (SL_i - G_i) / n_i, where SL_i (the row's sum of
 * log|a_ij|) and n_i (its entries) are computed once and G_i is the row's sum of
 * gamma_j; the column step likewise with the new rho. So the logarithms are taken
 * once, and a sweep is two passes of additions over the streamed copy: a gather for
 * the lines' side, a scatter (per part, added in part order) for the other. The
 * cross side's sums and counts live in cross_stat, its scattered sums in priv. */
typedef struct {
    double *line_log, *cross_log; /* rho or gamma of each side, in inv_r and inv_s: the
                                   * sweeps run first, on factors still 1 (see curtis_reid) */
    double *line_sl;              /* [lines] SL; [3 lines] when lines are shared: SL | count | G */
    double *line_cnt, *line_sum;  /* into line_sl when lines are shared, else NULL */
    double *cross_sl, *cross_cnt; /* cross_stat's halves */
} cr_t;

static slp_err cr_setup(scaler_t *s, cr_t *c)
{
    const slp_csr_t *L = s->lines;
    const int64_t nl = L->rows, nc = L->cols;
    int parts = sweep_parts(s);
    c->line_log = s->lines_are_cols ? s->inv_s : s->inv_r;
    c->cross_log = s->lines_are_cols ? s->inv_r : s->inv_s;
    c->cross_sl = s->cross_stat;
    c->cross_cnt = s->cross_stat + nc;
    c->line_cnt = s->local_lines ? NULL : c->line_sl + nl;
    c->line_sum = s->local_lines ? NULL : c->line_sl + 2 * nl;
    for (int64_t k = 0; k < nl; k++)
        c->line_log[k] = 0.0;
    for (int64_t k = 0; k < nc; k++)
        c->cross_log[k] = 0.0;
#pragma omp parallel for schedule(dynamic, 1) if (parts > 1)
    for (int p = 0; p < parts; p++) {
        int64_t lo, hi;
        part_lines(nl, parts, p, &lo, &hi);
        double *mine = s->priv + (size_t)p * 2 * (size_t)nc;
        memset(mine, 0, 2 * (size_t)nc * sizeof(double));
        for (int64_t k = lo; k < hi; k++) {
            double sum = 0.0;
            for (int64_t e = L->row_ptr[k]; e < L->row_ptr[k + 1]; e++) {
                double l = log(fabs(L->val[e]));
                sum += l;
                mine[L->col_idx[e]] += l;
                mine[nc + L->col_idx[e]] += 1.0;
            }
            c->line_sl[k] = sum;
            if (c->line_cnt)
                c->line_cnt[k] = (double)(L->row_ptr[k + 1] - L->row_ptr[k]);
        }
    }
    add_parts(s->priv, parts, 2 * nc);
    memcpy(s->cross_stat, s->priv, 2 * (size_t)nc * sizeof(double));
    SLP_CALL(sum_side(s, !s->lines_are_cols, s->cross_stat, 2 * nc));
    if (c->line_cnt)
        SLP_CALL(sum_side(s, s->lines_are_cols, c->line_sl, 2 * nl));
    return SLP_OK;
}

/* The new log of one line or column: (SL - sum) / count, 0 for an empty one; counts
 * a change in *changed. */
static inline double cr_step(double sl, double sum, double count, double old, int *changed)
{
    double v = count > 0.0 ? (sl - sum) / count : 0.0;
    *changed |= v != old;
    return v;
}

/* The step of the lines' side: a gather of the other side's logs per line. */
static slp_err cr_lines(scaler_t *s, cr_t *c, int *changed)
{
    const slp_csr_t *L = s->lines;
    const int64_t nl = L->rows;
    int moved = 0;
#pragma omp parallel for if (L->nnz >= SLP_SCALE_PAR_MIN) schedule(static) reduction(| : moved)
    for (int64_t k = 0; k < nl; k++) {
        double g = 0.0;
        for (int64_t e = L->row_ptr[k]; e < L->row_ptr[k + 1]; e++)
            g += c->cross_log[L->col_idx[e]];
        if (c->line_sum)
            c->line_sum[k] = g;
        else
            c->line_log[k] = cr_step(c->line_sl[k], g, (double)(L->row_ptr[k + 1] - L->row_ptr[k]),
                                     c->line_log[k], &moved);
    }
    if (c->line_sum) {
        SLP_CALL(sum_side(s, s->lines_are_cols, c->line_sum, nl));
        for (int64_t k = 0; k < nl; k++)
            c->line_log[k] = cr_step(c->line_sl[k], c->line_sum[k], c->line_cnt[k], c->line_log[k],
                                     &moved);
    }
    *changed |= moved;
    return SLP_OK;
}

/* The step of the other side: the lines' logs scattered per part, added in part order. */
static slp_err cr_cross(scaler_t *s, cr_t *c, int *changed)
{
    const slp_csr_t *L = s->lines;
    const int64_t nl = L->rows, nc = L->cols;
    int parts = sweep_parts(s);
#pragma omp parallel for schedule(dynamic, 1) if (parts > 1)
    for (int p = 0; p < parts; p++) {
        int64_t lo, hi;
        part_lines(nl, parts, p, &lo, &hi);
        double *mine = s->priv + (size_t)p * (size_t)nc;
        memset(mine, 0, (size_t)nc * sizeof(double));
        for (int64_t k = lo; k < hi; k++)
            for (int64_t e = L->row_ptr[k]; e < L->row_ptr[k + 1]; e++)
                mine[L->col_idx[e]] += c->line_log[k];
    }
    add_parts(s->priv, parts, nc);
    SLP_CALL(sum_side(s, !s->lines_are_cols, s->priv, nc));
    int moved = 0;
    for (int64_t j = 0; j < nc; j++)
        c->cross_log[j] = cr_step(c->cross_sl[j], s->priv[j], c->cross_cnt[j], c->cross_log[j], &moved);
    *changed |= moved;
    return SLP_OK;
}

/* `sweeps` Curtis-Reid sweeps (rows, then columns), stopping at a sweep that changes no
 * log on any rank (every later one would repeat it: on a matrix of +1 and -1 the first
 * sweep, every log-magnitude being 0); then the factors into the reciprocals. The logs
 * are kept in the reciprocals' own arrays (m + n doubles fewer during the scaling):
 * the sweeps are the first pass, so the reciprocals are all 1 until they end. */
static slp_err curtis_reid(scaler_t *s, int sweeps)
{
    cr_t c;
    const int64_t nl = s->lines->rows;
    slp_err rc = slp_alloc(&c.line_sl, (size_t)(s->local_lines ? nl : 3 * nl) + 1, sizeof(double));
    rc = slp_comm_agree(s->grid->world, rc); /* before cr_setup's collectives */
    if (rc == SLP_OK)
        rc = cr_setup(s, &c);
    for (int it = 0; rc == SLP_OK && it < sweeps; it++) {
        int changed = 0;
        rc = s->lines_are_cols ? cr_cross(s, &c, &changed) : cr_lines(s, &c, &changed);
        if (rc == SLP_OK)
            rc = s->lines_are_cols ? cr_lines(s, &c, &changed) : cr_cross(s, &c, &changed);
        double any[1] = {changed ? 1.0 : 0.0};
        if (rc == SLP_OK)
            rc = slp_reduce_max(s->grid, any, 1);
        if (rc == SLP_OK && any[0] == 0.0)
            break;
    }
    free(c.line_sl);
    if (rc != SLP_OK)
        return rc;
    for (int64_t i = 0; i < s->m; i++)
        s->inv_r[i] = exp(-s->inv_r[i]); /* the log into the reciprocal, as 1 * exp(-log) */
    for (int64_t j = 0; j < s->n; j++)
        s->inv_s[j] = exp(-s->inv_s[j]);
    return SLP_OK;
}

/* The passes in cuPDLPx's order (docs/algorithm.md section 2): Curtis-Reid sweeps when
 * asked (rows, then columns; HPR-LP's first stage), geometric-mean (rows, then the
 * columns of the row-scaled matrix), Ruiz, Pock-Chambolle. */
static slp_err run_passes(scaler_t *s, const slp_settings_t *settings)
{
    if (settings->curtis_reid_iters > 0)
        SLP_CALL(curtis_reid(s, settings->curtis_reid_iters));
    for (int it = 0; it < settings->geo_iters; it++) {
        SLP_CALL(scale_side(s, 0, STAT_MINMAX));
        SLP_CALL(scale_side(s, 1, STAT_MINMAX));
    }
    for (int it = 0; it < settings->ruiz_iters; it++)
        SLP_CALL(scale_both(s, STAT_MAX, 1.0, 1.0));
    if (settings->pock_chambolle)
        SLP_CALL(scale_both(s, STAT_SUM, settings->pc_alpha, 2.0 - settings->pc_alpha));
    return SLP_OK;
}

slp_err slp_scale(slp_grid_t *grid, slp_local_problem_t *lp, const slp_settings_t *settings,
                  int parts, slp_csr_t *at_out, slp_scaling_t *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->theta_b = sc->theta_c = 1.0;
    slp_csr_t at;
    memset(&at, 0, sizeof at);
    scaler_t s = {.grid = grid, .m = lp->m_loc, .n = lp->n_loc, .parts = parts > 1 ? parts : 1};
    /* The passes stream the copy with more lines; without at_out, A_rc (no transpose). */
    s.lines_are_cols = at_out && s.n > s.m;
    s.lines = s.lines_are_cols ? &at : &lp->A;
    s.local_lines = s.lines_are_cols ? grid->R == 1 : grid->C == 1;
    int64_t nlines = s.lines_are_cols ? s.n : s.m, ncross = s.lines_are_cols ? s.m : s.n;
    slp_err rc = at_out ? slp_csr_transpose(&lp->A, &at) : SLP_OK;
    double **arrays[] = {&s.inv_r, &s.inv_s, &s.cross_stat, &s.priv, &s.line_stat};
    size_t sizes[] = {(size_t)s.m, (size_t)s.n, 2 * (size_t)ncross,
                      2 * (size_t)ncross * (size_t)s.parts,
                      s.local_lines ? 0 : 2 * (size_t)nlines};
    for (int k = 0; rc == SLP_OK && k < 5; k++)
        rc = slp_alloc(arrays[k], sizes[k] + 1, sizeof(double));
    rc = slp_comm_agree(grid->world, rc); /* before the passes' collectives */
    if (rc == SLP_OK) {
        for (int64_t i = 0; i < s.m; i++)
            s.inv_r[i] = 1.0;
        for (int64_t j = 0; j < s.n; j++)
            s.inv_s[j] = 1.0;
        rc = run_passes(&s, settings);
    }
    if (rc == SLP_OK) {
        apply_factors(&s, lp, &at, sc);
        if (settings->bound_obj_rescaling)
            rc = bound_objective_rescaling(grid, lp, sc);
    }
    free(s.inv_r);
    free(s.inv_s);
    free(s.line_stat);
    free(s.cross_stat);
    free(s.priv);
    if (rc == SLP_OK && at_out)
        *at_out = at;
    else
        slp_csr_free(&at);
    if (rc != SLP_OK)
        slp_scaling_free(sc);
    return rc;
}

void slp_scaling_free(slp_scaling_t *sc)
{
    free(sc->drow);
    free(sc->dcol);
    sc->drow = sc->dcol = NULL;
}
