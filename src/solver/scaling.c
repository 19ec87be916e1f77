#include "solver/scaling.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid/reduce.h"

#define SLP_MATRIX_ZERO_TOL 1e-9
#define SLP_SCALE_FLOOR 1e-12

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

/* Turn reduced statistics into factors: sqrt, with tiny arguments giving 1. */
static void factors_from(double *v, int64_t len)
{
    for (int64_t k = 0; k < len; k++)
        v[k] = v[k] < SLP_SCALE_FLOOR ? 1.0 : sqrt(v[k]);
}

/* Divide A by r_i s_j and fold the factors into the problem data and the
 * cumulative factors. */
static void apply_factors(slp_local_problem_t *lp, slp_scaling_t *sc, const double *r,
                          const double *s)
{
    slp_csr_t *a = &lp->A;
    for (int64_t i = 0; i < a->rows; i++)
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            a->val[k] /= r[i] * s[a->col_idx[k]];
    for (int64_t j = 0; j < lp->n_loc; j++) {
        lp->obj[j] /= s[j];
        lp->lv[j] *= s[j];
        lp->uv[j] *= s[j];
        sc->dcol[j] *= s[j];
    }
    for (int64_t i = 0; i < lp->m_loc; i++) {
        lp->lc[i] /= r[i];
        lp->uc[i] /= r[i];
        sc->drow[i] *= r[i];
    }
}

/* One Ruiz (use_max) or Pock-Chambolle (sums of |a|^alpha, |a|^(2-alpha)) pass. */
static slp_err scaling_pass(slp_grid_t *grid, slp_local_problem_t *lp, slp_scaling_t *sc,
                            int use_max, double alpha, double *r, double *s)
{
    slp_csr_t *a = &lp->A;
    memset(r, 0, (size_t)lp->m_loc * sizeof(double));
    memset(s, 0, (size_t)lp->n_loc * sizeof(double));
    for (int64_t i = 0; i < a->rows; i++) {
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            double v = fabs(a->val[k]);
            int32_t j = a->col_idx[k];
            if (use_max) {
                r[i] = fmax(r[i], v);
                s[j] = fmax(s[j], v);
            } else {
                r[i] += alpha == 1.0 ? v : pow(v, alpha);
                s[j] += alpha == 1.0 ? v : pow(v, 2.0 - alpha);
            }
        }
    }
    if (use_max) {
        SLP_CALL(slp_max_over_row(grid, r, lp->m_loc));
        SLP_CALL(slp_max_over_col(grid, s, lp->n_loc));
    } else {
        SLP_CALL(slp_sum_over_row(grid, r, lp->m_loc));
        SLP_CALL(slp_sum_over_col(grid, s, lp->n_loc));
    }
    factors_from(r, lp->m_loc);
    factors_from(s, lp->n_loc);
    apply_factors(lp, sc, r, s);
    return SLP_OK;
}

/* Factors sqrt(min |a| * max |a|) over the nonzeros of each row (side 0) or column
 * (side 1) into f; 1 for an empty line. The minimum is reduced as the maximum of
 * 1/|a|, so both statistics use the max reduction. */
static slp_err geometric_factors(slp_grid_t *grid, const slp_csr_t *a, int side, double *f,
                                 int64_t len)
{
    double *inv = NULL;
    SLP_CALL(slp_alloc(&inv, (size_t)len + 1, sizeof(double)));
    memset(f, 0, (size_t)len * sizeof(double));
    memset(inv, 0, (size_t)len * sizeof(double));
    for (int64_t i = 0; i < a->rows; i++) {
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            double v = fabs(a->val[k]);
            int64_t at = side == 0 ? i : a->col_idx[k];
            f[at] = fmax(f[at], v);
            inv[at] = fmax(inv[at], 1.0 / v);
        }
    }
    slp_err rc = side == 0 ? slp_max_over_row(grid, f, len) : slp_max_over_col(grid, f, len);
    if (rc == SLP_OK)
        rc = side == 0 ? slp_max_over_row(grid, inv, len) : slp_max_over_col(grid, inv, len);
    for (int64_t k = 0; k < len; k++)
        f[k] = inv[k] > 0 ? f[k] / inv[k] : 0.0; /* max |a| / (1 / min |a|) */
    free(inv);
    factors_from(f, len);
    return rc;
}

/* One geometric-mean pass (Gurobi's ScaleFlag, as cuPDLPx uses it): the rows, then
 * the columns of the row-scaled matrix. */
static slp_err geometric_pass(slp_grid_t *grid, slp_local_problem_t *lp, slp_scaling_t *sc,
                              double *r, double *s)
{
    for (int64_t j = 0; j < lp->n_loc; j++)
        s[j] = 1.0;
    SLP_CALL(geometric_factors(grid, &lp->A, 0, r, lp->m_loc));
    apply_factors(lp, sc, r, s);
    for (int64_t i = 0; i < lp->m_loc; i++)
        r[i] = 1.0;
    SLP_CALL(geometric_factors(grid, &lp->A, 1, s, lp->n_loc));
    apply_factors(lp, sc, r, s);
    return SLP_OK;
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

slp_err slp_scale(slp_grid_t *grid, slp_local_problem_t *lp, const slp_settings_t *settings,
                  slp_scaling_t *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->theta_b = sc->theta_c = 1.0;
    double *r = NULL, *s = NULL;
    slp_err rc = slp_alloc(&sc->drow, (size_t)lp->m_loc + 1, sizeof(double));
    if (rc == SLP_OK)
        rc = slp_alloc(&sc->dcol, (size_t)lp->n_loc + 1, sizeof(double));
    if (rc == SLP_OK)
        rc = slp_alloc(&r, (size_t)lp->m_loc + 1, sizeof(double));
    if (rc == SLP_OK)
        rc = slp_alloc(&s, (size_t)lp->n_loc + 1, sizeof(double));
    if (rc == SLP_OK) {
        for (int64_t i = 0; i < lp->m_loc; i++)
            sc->drow[i] = 1.0;
        for (int64_t j = 0; j < lp->n_loc; j++)
            sc->dcol[j] = 1.0;
        for (int it = 0; rc == SLP_OK && it < settings->geo_iters; it++)
            rc = geometric_pass(grid, lp, sc, r, s);
        for (int it = 0; rc == SLP_OK && it < settings->ruiz_iters; it++)
            rc = scaling_pass(grid, lp, sc, 1, 0.0, r, s);
        if (rc == SLP_OK && settings->pock_chambolle)
            rc = scaling_pass(grid, lp, sc, 0, settings->pc_alpha, r, s);
        if (rc == SLP_OK && settings->bound_obj_rescaling)
            rc = bound_objective_rescaling(grid, lp, sc);
    }
    free(r);
    free(s);
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
