#include "check/check_grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* acc[i] += sum_k a_ik v[k] (and |.|) over this rank's CSR block, row-wise. */
static void block_rows(const slp_csr_t *a, const double *v, long double *acc, long double *mag)
{
    for (int64_t i = 0; i < a->rows; i++)
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            long double t = (long double)a->val[k] * v[a->col_idx[k]];
            acc[i] += t;
            mag[i] += fabsl(t);
        }
}

/* acc[j] += sum_i a_ij w[i] (and |.|): the transposed product. */
static void block_cols(const slp_csr_t *a, const double *w, long double *acc, long double *mag)
{
    for (int64_t i = 0; i < a->rows; i++)
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            long double t = (long double)a->val[k] * w[i];
            acc[a->col_idx[k]] += t;
            mag[a->col_idx[k]] += fabsl(t);
        }
}

/* Sum a long-double vector pair over a communicator (through doubles). */
static slp_err sum_pair(slp_comm_t *comm, long double *acc, long double *mag, int64_t len,
                        double *buf)
{
    for (int64_t k = 0; k < len; k++) {
        buf[k] = (double)acc[k];
        buf[len + k] = (double)mag[k];
    }
    SLP_CALL(slp_comm_sum(comm, buf, 2 * len));
    for (int64_t k = 0; k < len; k++) {
        acc[k] = buf[k];
        mag[k] = buf[len + k];
    }
    return SLP_OK;
}

static double finite_or_inf(long double v) { return isnan(v) ? INFINITY : (double)v; }

/* Combine the owners' accumulators over the world: sums, maxima and the global
 * index where each maximum is attained (lowest index among ties). */
static slp_err combine(slp_grid_t *grid, const slp_check_t *loc, slp_check_t *all)
{
    double sums[8] = {(double)loc->primal_obj, (double)loc->dual_obj, (double)loc->bound_viol2,
                      (double)loc->bound_scale2, (double)loc->row_viol2, (double)loc->row_scale2,
                      (double)loc->stat2, (double)loc->c2};
    SLP_CALL(slp_comm_sum(grid->world, sums, 8));
    enum { MAXIMA = 9 };
    const long double *lmax[MAXIMA] = {&loc->c_inf, &loc->bound_coord, &loc->row_coord,
                                       &loc->stat_coord, &loc->ysign, &loc->zsign,
                                       &loc->bound_viol_max, &loc->row_viol_max, &loc->stat_max};
    const int64_t lat[MAXIMA] = {-1, loc->bound_at, loc->row_at, loc->stat_at, loc->ysign_at,
                                 loc->zsign_at, -1, -1, -1};
    double mx[MAXIMA], at[MAXIMA];
    for (int e = 0; e < MAXIMA; e++)
        mx[e] = finite_or_inf(*lmax[e]);
    SLP_CALL(slp_comm_max(grid->world, mx, MAXIMA));
    for (int e = 0; e < MAXIMA; e++)
        at[e] = finite_or_inf(*lmax[e]) == mx[e] && lat[e] >= 0 ? (double)lat[e] : INFINITY;
    SLP_CALL(slp_comm_min(grid->world, at, MAXIMA));
    all->primal_obj = sums[0], all->dual_obj = sums[1];
    all->bound_viol2 = sums[2], all->bound_scale2 = sums[3];
    all->row_viol2 = sums[4], all->row_scale2 = sums[5];
    all->stat2 = sums[6], all->c2 = sums[7];
    long double *gmax[MAXIMA] = {&all->c_inf, &all->bound_coord, &all->row_coord,
                                 &all->stat_coord, &all->ysign, &all->zsign,
                                 &all->bound_viol_max, &all->row_viol_max, &all->stat_max};
    int64_t *gat[MAXIMA] = {NULL, &all->bound_at, &all->row_at, &all->stat_at, &all->ysign_at,
                            &all->zsign_at, NULL, NULL, NULL};
    for (int e = 0; e < MAXIMA; e++) {
        *gmax[e] = mx[e];
        if (gat[e])
            *gat[e] = isfinite(at[e]) ? (int64_t)at[e] : -1;
    }
    return SLP_OK;
}

slp_err slp_check_grid(slp_grid_t *grid, const slp_local_problem_t *lp, const double *x,
                       const double *y, const double *z, double reported_objective,
                       slp_check_result_t *out)
{
    int64_t m = lp->m_loc, n = lp->n_loc, len = m > n ? m : n;
    long double *acc = slp_calloc((size_t)len + 1, sizeof(long double));
    long double *mag = slp_calloc((size_t)len + 1, sizeof(long double));
    double *buf = slp_calloc(2 * (size_t)len + 2, sizeof(double));
    double *yproj = slp_calloc((size_t)m + 1, sizeof(double));
    slp_err rc = acc && mag && buf && yproj ? SLP_OK : SLP_ERR_NOMEM;
    rc = slp_comm_agree(grid->world, rc);
    slp_check_t loc, all;
    slp_check_init(&loc, lp->sense, lp->obj_const, reported_objective);
    slp_check_init(&all, lp->sense, lp->obj_const, reported_objective);
    if (rc == SLP_OK) { /* rows: A x over the grid row, owned by grid column 0 */
        block_rows(&lp->A, x, acc, mag);
        rc = sum_pair(grid->row_comm, acc, mag, m, buf);
    }
    if (rc == SLP_OK && grid->c == 0)
        slp_check_rows(&loc, lp->row_lo, m, lp->lc, lp->uc, y, acc, mag);
    if (rc == SLP_OK) { /* columns: A^T y_proj over the grid column, owned by grid row 0 */
        slp_check_project_row_duals(lp->sense, m, lp->lc, lp->uc, y, yproj);
        memset(acc, 0, ((size_t)len + 1) * sizeof(long double));
        memset(mag, 0, ((size_t)len + 1) * sizeof(long double));
        block_cols(&lp->A, yproj, acc, mag);
        rc = sum_pair(grid->col_comm, acc, mag, n, buf);
    }
    if (rc == SLP_OK && grid->r == 0)
        slp_check_cols(&loc, lp->col_lo, n, lp->obj, lp->lv, lp->uv, x, z, acc, mag);
    if (rc == SLP_OK)
        rc = combine(grid, &loc, &all);
    if (rc == SLP_OK)
        slp_check_finish(&all, out);
    free(acc);
    free(mag);
    free(buf);
    free(yproj);
    return slp_comm_agree(grid->world, rc);
}

slp_err slp_check_primal_ray_grid(slp_grid_t *grid, const slp_local_problem_t *lp,
                                  const double *ray_x, slp_ray_result_t *out)
{
    int64_t m = lp->m_loc, n = lp->n_loc;
    long double *ad = slp_calloc((size_t)m + 1, sizeof(long double));
    long double *mag = slp_calloc((size_t)m + 1, sizeof(long double));
    double *buf = slp_calloc(2 * (size_t)m + 2, sizeof(double));
    slp_err rc = slp_comm_agree(grid->world, ad && mag && buf ? SLP_OK : SLP_ERR_NOMEM);
    if (rc == SLP_OK) { /* A d over the grid row */
        block_rows(&lp->A, ray_x, ad, mag);
        rc = sum_pair(grid->row_comm, ad, mag, m, buf);
    }
    /* sums: the objective term; maxima: the worst breach, the largest entry (columns
     * counted by grid row 0, rows by grid column 0) */
    double sums[1] = {0.0}, mx[2] = {0.0, 0.0};
    for (int64_t j = 0; rc == SLP_OK && grid->r == 0 && j < n; j++) {
        sums[0] += (double)lp->sense * lp->obj[j] * ray_x[j];
        mx[0] = fmax(mx[0], (double)slp_ray_cone_breach(ray_x[j], lp->lv[j], lp->uv[j]));
        mx[1] = fmax(mx[1], fabs(ray_x[j]));
        if (!isfinite(ray_x[j])) /* proves nothing */
            mx[0] = INFINITY;
    }
    for (int64_t i = 0; rc == SLP_OK && grid->c == 0 && i < m; i++)
        mx[0] = fmax(mx[0], (double)slp_ray_cone_breach(ad[i], lp->lc[i], lp->uc[i]));
    if (rc == SLP_OK)
        rc = slp_comm_sum(grid->world, sums, 1);
    if (rc == SLP_OK)
        rc = slp_comm_max(grid->world, mx, 2);
    if (rc == SLP_OK) {
        out->worst = -1;
        out->worst_is_row = 0;
        slp_ray_finish(out, sums[0], mx[0], mx[1], 0);
    }
    free(ad);
    free(mag);
    free(buf);
    return slp_comm_agree(grid->world, rc);
}
