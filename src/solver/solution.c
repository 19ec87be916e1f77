/* The solution slices in original units and the user's sense (docs/algorithm.md
 * section 1: x = x~ / (d_col theta_b), y = y~ / (d_row theta_c)): at the end of a solve,
 * where the state's vectors become the result, and at a check, where a copy is made
 * and the state goes on (docs/statuses.md, "Verified at the check"). */
#include <math.h>
#include <stdlib.h>

#include "solver/solver_internal.h"

/* The certificate of an infeasible or unbounded status, unscaled (d_x / dcol,
 * d_y / drow: the last check left the rays in dx, dy); the positive factors theta_b,
 * theta_c do not change a ray. */
static slp_err extract_ray(slp_pdhg_t *s, slp_result_t *res)
{
    slp_backend_t *be = s->be;
    int dual = res->status == SLP_STATUS_PRIMAL_INFEASIBLE;
    if (!dual && res->status != SLP_STATUS_DUAL_INFEASIBLE)
        return SLP_OK;
    int64_t len = dual ? s->m : s->n;
    double **out = dual ? &res->ray_y : &res->ray_x;
    double *factor = NULL;
    SLP_CALL(slp_vec_copy_down(be, dual ? s->dy : s->dx, len, out));
    slp_err rc = slp_vec_copy_down(be, dual ? s->drow : s->dcol, len, &factor);
    for (int64_t k = 0; rc == SLP_OK && k < len; k++)
        (*out)[k] /= factor[k];
    free(factor);
    return rc;
}

/* The point's vectors and the problem data that unscale them, on the host. */
enum { P_X, P_ATY, P_Y, P_AX, P_C, P_LV, P_UV, P_DCOL, P_DROW, P_COUNT };

static void point_sources(slp_pdhg_t *s, double **dev[P_COUNT], int64_t len[P_COUNT])
{
    double **d[P_COUNT] = {&s->xhat, &s->col_work, &s->yhat, &s->ax, &s->c,
                           &s->lv, &s->uv, &s->dcol, &s->drow};
    int64_t l[P_COUNT] = {s->n, s->n, s->m, s->m, s->n, s->n, s->n, s->n, s->m};
    for (int k = 0; k < P_COUNT; k++) {
        dev[k] = d[k];
        len[k] = l[k];
    }
}

/* x, reduced costs, y and A x in original units from the host copies in h (x holds
 * xhat, rc A^T yhat, y yhat, ax A xhat, scaled); an infinite bound admits only one
 * sign of reduced cost. */
static void unscale_point(const slp_pdhg_t *s, double sense, double *h[P_COUNT])
{
    double tb = s->theta_b, tc = s->theta_c;
    const double *c = h[P_C], *lv = h[P_LV], *uv = h[P_UV], *dcol = h[P_DCOL],
                 *drow = h[P_DROW];
    double *x = h[P_X], *rc = h[P_ATY], *y = h[P_Y], *ax = h[P_AX];
    for (int64_t j = 0; j < s->n; j++) {
        x[j] /= dcol[j] * tb;
        double red = (c[j] - rc[j]) * dcol[j] / tc;
        if (lv[j] == -INFINITY)
            red = fmin(red, 0.0);
        if (uv[j] == INFINITY)
            red = fmax(red, 0.0);
        rc[j] = sense * red;
    }
    for (int64_t i = 0; i < s->m; i++) {
        y[i] = sense * y[i] / (drow[i] * tc);
        ax[i] *= drow[i] / tb;
    }
}

/* The point's vectors, unscaled, become res's; the problem data's host copies are
 * freed (unless they were borrowed). */
static slp_err finish_point(const slp_pdhg_t *s, double sense, double *h[P_COUNT],
                            int borrowed, slp_err rc, slp_result_t *res)
{
    if (rc == SLP_OK)
        unscale_point(s, sense, h);
    res->x = h[P_X];
    res->rc = h[P_ATY];
    res->y = h[P_Y];
    res->ax = h[P_AX];
    for (int k = P_C; k < P_COUNT && !borrowed; k++)
        free(h[k]);
    return rc;
}

slp_err slp_pdhg_extract(slp_pdhg_t *s, double sense, slp_result_t *res)
{
    SLP_CALL(extract_ray(s, res));
    SLP_CALL(slp_pdhg_point_products(s)); /* A^T yhat in col_work, A xhat in ax */
    double **unread[] = {&s->x, &s->x0, &s->slack, &s->dx, &s->y, &s->y0, &s->dy, &s->h,
                         &s->lc, &s->uc}; /* freed first: their memory serves what follows */
    for (size_t k = 0; k < sizeof unread / sizeof unread[0]; k++) {
        s->be->vec_destroy(s->be, *unread[k]);
        *unread[k] = NULL;
    }
    double **dev[P_COUNT];
    int64_t len[P_COUNT];
    point_sources(s, dev, len);
    double *h[P_COUNT] = {0};
    slp_err rc = SLP_OK;
    for (int k = 0; rc == SLP_OK && k < P_COUNT; k++) /* no copy on host backends */
        rc = slp_vec_give(s->be, dev[k], len[k], &h[k]);
    return finish_point(s, sense, h, 0, rc, res);
}

slp_err slp_pdhg_current_point(slp_pdhg_t *s, double sense, slp_result_t *pt)
{
    SLP_CALL(slp_pdhg_point_products(s)); /* col_work and ax are scratch between checks */
    double **dev[P_COUNT];
    int64_t len[P_COUNT];
    point_sources(s, dev, len);
    /* host backends: the problem data is read where it is (no copy at the peak) */
    int borrowed = s->be->memory == SLP_MEM_HOST;
    double *h[P_COUNT] = {0};
    slp_err rc = SLP_OK;
    for (int k = 0; rc == SLP_OK && k < P_COUNT; k++) {
        if (k >= P_C && borrowed)
            h[k] = *dev[k];
        else
            rc = slp_vec_copy_down(s->be, *dev[k], len[k], &h[k]);
    }
    return finish_point(s, sense, h, borrowed, rc, pt);
}
