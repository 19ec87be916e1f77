/* The r2HPDHG main loop (ALGORITHM.md sections 3-6), distributed over the grid.
 *
 * Table of contents:
 *   setup        preprocess, norms, scaling, device copies, power iteration
 *   iterate      one reflected-Halpern PDHG step (two products, two fused passes)
 *   measure      fixed-point error, residuals and objectives at a check
 *   terminate    the termination tests in both forms
 *   restart      restart criteria and the PID primal weight
 *   extract      unscale the solution slices
 */
#include "solver/solver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/timer.h"
#include "plan/comm_plan.h"
#include "solver/power.h"
#include "solver/reduce.h"
#include "solver/scaling.h"

/* Everything one rank holds during the solve. Vectors live in backend memory. */
typedef struct {
    slp_backend_t *be;            /* borrowed */
    slp_grid_t *grid;             /* borrowed */
    const slp_settings_t *set;    /* borrowed */
    int64_t n, m;                 /* local slice lengths */
    slp_block_t *a;               /* scaled A_rc and its transpose */
    slp_comm_plan_t *plan;        /* communication plan of the products (NULL: dense) */
    /* column slice (replicated down the grid column) */
    double *c, *lv, *uv, *dcol;
    double *x, *x0, *xbar, *xhat, *slack, *dx, *g, *aty;
    double *ray_x, *aty_ray;      /* primal ray and A^T of the dual ray */
    /* row slice (replicated along the grid row) */
    double *lc, *uc, *drow;
    double *y, *y0, *yhat, *dy, *h, *ax;
    double *ray_y, *ax_ray;       /* dual ray and A of the primal ray */
    /* host copies needed for extraction */
    double *host_lv, *host_uv;
    double theta_b, theta_c, obj_const;
    slp_norms_t norms;
    double eta, omega;
} solver_t;

/* Scalars of one check, identical on every rank. */
typedef struct {
    double fpe;
    double rp, rd, gap;          /* absolute residuals (termination norm), original space */
    double rel_p, rel_d, rel_gap;
    double pobj, dobj;           /* minimisation form */
    double dist_x, dist_y;       /* ||xhat - x0||, ||yhat - y0|| (scaled space) */
    /* infeasibility certificates from the last step (ALGORITHM.md section 6) */
    double primal_ray_obj;       /* c^T d_x of the normalised primal ray (< 0: improving) */
    double primal_ray_infeas;    /* its worst row violation */
    double dual_ray_obj;         /* dual objective of the normalised dual ray (> 0: Farkas) */
    double dual_ray_infeas;      /* its worst reduced-cost sign violation */
} check_t;

typedef struct {
    double omega_best, g_best, integral, e_prev;
} pid_t_;

const char *slp_status_name(slp_status status)
{
    switch (status) {
    case SLP_STATUS_OPTIMAL: return "optimal";
    case SLP_STATUS_PRIMAL_INFEASIBLE: return "primal_infeasible";
    case SLP_STATUS_DUAL_INFEASIBLE: return "dual_infeasible";
    case SLP_STATUS_TIME_LIMIT: return "time_limit";
    case SLP_STATUS_ITERATION_LIMIT: return "iteration_limit";
    case SLP_STATUS_NUMERICAL_ERROR: return "numerical_error";
    case SLP_STATUS_INTERRUPTED: return "interrupted";
    }
    return "unknown";
}

const char *slp_status_highs_name(slp_status status)
{
    switch (status) {
    case SLP_STATUS_OPTIMAL: return "Optimal";
    case SLP_STATUS_PRIMAL_INFEASIBLE: return "Infeasible";
    case SLP_STATUS_DUAL_INFEASIBLE: return "Unbounded";
    case SLP_STATUS_TIME_LIMIT: return "Time limit reached";
    case SLP_STATUS_ITERATION_LIMIT: return "Iteration limit reached";
    case SLP_STATUS_NUMERICAL_ERROR: return "Unknown";
    case SLP_STATUS_INTERRUPTED: return "Interrupted by user";
    }
    return "Unknown";
}

/* ---------------------------------------------------------------- setup */

static slp_err upload_new(solver_t *s, const double *host, int64_t len, double **out)
{
    SLP_CALL(s->be->vec_create(s->be, len, out));
    return s->be->vec_upload(s->be, *out, host, len);
}

static slp_err create_vectors(solver_t *s, const slp_local_problem_t *lp, const slp_scaling_t *sc)
{
    slp_backend_t *be = s->be;
    SLP_CALL(upload_new(s, lp->obj, s->n, &s->c));
    SLP_CALL(upload_new(s, lp->lv, s->n, &s->lv));
    SLP_CALL(upload_new(s, lp->uv, s->n, &s->uv));
    SLP_CALL(upload_new(s, sc->dcol, s->n, &s->dcol));
    SLP_CALL(upload_new(s, lp->lc, s->m, &s->lc));
    SLP_CALL(upload_new(s, lp->uc, s->m, &s->uc));
    SLP_CALL(upload_new(s, sc->drow, s->m, &s->drow));
    double **nvecs[] = {&s->x,  &s->x0, &s->xbar,  &s->xhat,   &s->slack,
                        &s->dx, &s->g,  &s->aty,   &s->ray_x,  &s->aty_ray};
    for (size_t k = 0; k < sizeof nvecs / sizeof *nvecs; k++)
        SLP_CALL(be->vec_create(be, s->n, nvecs[k]));
    double **mvecs[] = {&s->y, &s->y0, &s->yhat, &s->dy, &s->h, &s->ax, &s->ray_y, &s->ax_ray};
    for (size_t k = 0; k < sizeof mvecs / sizeof *mvecs; k++)
        SLP_CALL(be->vec_create(be, s->m, mvecs[k]));
    SLP_CALL(slp_alloc(&s->host_lv, (size_t)s->n + 1, sizeof(double)));
    SLP_CALL(slp_alloc(&s->host_uv, (size_t)s->n + 1, sizeof(double)));
    memcpy(s->host_lv, lp->lv, (size_t)s->n * sizeof(double));
    memcpy(s->host_uv, lp->uv, (size_t)s->n * sizeof(double));
    return SLP_OK;
}

static void destroy_solver(solver_t *s)
{
    slp_backend_t *be = s->be;
    double *vecs[] = {s->c,  s->lv,    s->uv, s->dcol, s->x,  s->x0,   s->xbar, s->xhat,
                      s->slack, s->dx, s->g,  s->aty,  s->lc, s->uc,   s->drow, s->y,
                      s->y0, s->yhat,  s->dy, s->h,    s->ax, s->ray_x, s->aty_ray,
                      s->ray_y, s->ax_ray};
    for (size_t k = 0; k < sizeof vecs / sizeof *vecs; k++)
        if (vecs[k])
            be->vec_destroy(be, vecs[k]);
    if (s->a)
        be->block_destroy(be, s->a);
    slp_plan_destroy(&s->plan);
    free(s->host_lv);
    free(s->host_uv);
}

/* ---------------------------------------------------------------- iterate */

/* One r2HPDHG iteration; k = iterations already done in this epoch. */
static slp_err iterate(solver_t *s, int64_t k, int major)
{
    slp_backend_t *be = s->be;
    double w = (double)(k + 1) / (double)(k + 2);
    double tau = s->eta / s->omega, sigma = s->eta * s->omega;

    be->spmv_t(be, s->a, s->y, s->g); /* g = A^T y */
    SLP_CALL(slp_plan_sum_cols(s->plan, s->grid, s->g, s->n));
    slp_primal_args pa = {s->n, tau, w, major, s->g, s->c, s->lv, s->uv, s->x0,
                          s->x, s->xbar, s->xhat, s->slack, s->dx};
    be->primal_step(be, &pa);

    be->spmv(be, s->a, s->xbar, s->h); /* h = A xbar */
    SLP_CALL(slp_plan_sum_rows(s->plan, s->grid, s->h, s->m));
    slp_dual_args da = {s->m, sigma, w, major, s->h, s->lc, s->uc, s->y0, s->y, s->yhat, s->dy};
    be->dual_step(be, &da);
    return SLP_OK;
}

/* ---------------------------------------------------------------- measure */

static double pick_norm(const solver_t *s, double l2, double linf)
{
    return s->set->norm == SLP_NORM_LINF ? linf : l2;
}

static int col_is_max(int e)
{
    return e == SLP_COL_RDMAX || e == SLP_COL_RAY_DMAX || e == SLP_COL_RAY_QVIOL;
}

static int row_is_max(int e)
{
    return e == SLP_ROW_RPMAX || e == SLP_ROW_RAY_DMAX || e == SLP_ROW_RAY_VIOL;
}

/* Reduce a check's partials: sums over the grid (each slice counted once) and
 * maxima, in one MPI_Allreduce each. */
static slp_err reduce_check(solver_t *s, double col[SLP_COL_COUNT], double row[SLP_ROW_COUNT])
{
    double mx[SLP_COL_COUNT + SLP_ROW_COUNT];
    for (int e = 0; e < SLP_COL_COUNT; e++) {
        mx[e] = col_is_max(e) ? col[e] : 0.0;
        col[e] = col_is_max(e) ? 0.0 : col[e];
    }
    for (int e = 0; e < SLP_ROW_COUNT; e++) {
        mx[SLP_COL_COUNT + e] = row_is_max(e) ? row[e] : 0.0;
        row[e] = row_is_max(e) ? 0.0 : row[e];
    }
    SLP_CALL(slp_reduce_sums(s->grid, col, SLP_COL_COUNT, row, SLP_ROW_COUNT));
    SLP_CALL(slp_reduce_max(s->grid, mx, SLP_COL_COUNT + SLP_ROW_COUNT));
    for (int e = 0; e < SLP_COL_COUNT; e++)
        if (col_is_max(e))
            col[e] = mx[e];
    for (int e = 0; e < SLP_ROW_COUNT; e++)
        if (row_is_max(e))
            row[e] = mx[SLP_COL_COUNT + e];
    return SLP_OK;
}

/* Certificate quality measures from the raw ray sums (ALGORITHM.md section 6). */
static void ray_measures(const solver_t *s, const double *col, const double *row, check_t *chk)
{
    double tb = s->theta_b, tc = s->theta_c;
    double dxmax = col[SLP_COL_RAY_DMAX];
    chk->primal_ray_obj = dxmax > 0.0 ? col[SLP_COL_RAY_CD] / dxmax / (tb * tc) : 0.0;
    chk->primal_ray_infeas = dxmax > 0.0 ? row[SLP_ROW_RAY_VIOL] / dxmax / tb : 0.0;
    double obj = (row[SLP_ROW_RAY_OBJ] + col[SLP_COL_RAY_QOBJ]) / (tb * tc);
    double viol = col[SLP_COL_RAY_QVIOL] / tc;
    double scale = fmax(row[SLP_ROW_RAY_DMAX], viol);
    chk->dual_ray_obj = scale > 0.0 ? obj / scale : 0.0;
    chk->dual_ray_infeas = scale > 0.0 ? viol / scale : 0.0;
}

/* Evaluate the check scalars at the stored PDHG iterate (xhat, yhat, slack, dx, dy)
 * and the rays of the last step. Four products: A^T yhat, A xhat, A d_x, A^T d_y. */
static slp_err measure(solver_t *s, check_t *chk)
{
    slp_backend_t *be = s->be;
    be->ray_project(be, SLP_RAY_PRIMAL, s->dx, s->lv, s->uv, s->ray_x, s->n);
    be->ray_project(be, SLP_RAY_DUAL, s->dy, s->lc, s->uc, s->ray_y, s->m);
    be->spmv_t(be, s->a, s->yhat, s->aty);
    SLP_CALL(slp_plan_sum_cols(s->plan, s->grid, s->aty, s->n));
    be->spmv(be, s->a, s->xhat, s->ax);
    SLP_CALL(slp_plan_sum_rows(s->plan, s->grid, s->ax, s->m));
    be->spmv_t(be, s->a, s->ray_y, s->aty_ray);
    SLP_CALL(slp_plan_sum_cols(s->plan, s->grid, s->aty_ray, s->n));
    be->spmv(be, s->a, s->ray_x, s->ax_ray);
    SLP_CALL(slp_plan_sum_rows(s->plan, s->grid, s->ax_ray, s->m));
    /* Synchronisation point: every replica holds every coordinate again, so the
     * reductions below (and restarts and output after them) see current values. */
    double *rows[] = {s->y, s->y0, s->yhat, s->dy, s->ax, s->ray_y, s->ax_ray};
    double *cols[] = {s->x, s->x0, s->xhat, s->dx, s->g, s->aty, s->slack, s->ray_x, s->aty_ray};
    SLP_CALL(slp_plan_sync_rows(s->plan, s->grid, rows, 7, s->m));
    SLP_CALL(slp_plan_sync_cols(s->plan, s->grid, cols, 9, s->n));

    double col[SLP_COL_COUNT], row[SLP_ROW_COUNT];
    slp_col_check_args ca = {s->n,     s->xhat, s->x0, s->dx,    s->aty,    s->g,
                             s->c,     s->slack, s->dcol, s->lv, s->uv,     s->ray_x,
                             s->aty_ray};
    slp_row_check_args ra = {s->m,  s->yhat, s->y0,    s->dy,    s->ax,
                             s->lc, s->uc,   s->drow,  s->ray_y, s->ax_ray};
    be->col_check(be, &ca, col);
    be->row_check(be, &ra, row);
    SLP_CALL(reduce_check(s, col, row));

    /* FPE in the PDHG metric scaled by eta (ALGORITHM.md section 5). */
    double fpe2 = s->omega * col[SLP_COL_DX2] + row[SLP_ROW_DY2] / s->omega +
                  2.0 * s->eta * col[SLP_COL_DXQ];
    chk->fpe = sqrt(fmax(fpe2, 0.0));
    double tb = s->theta_b, tc = s->theta_c;
    chk->rp = pick_norm(s, sqrt(row[SLP_ROW_RP2]), row[SLP_ROW_RPMAX]) / tb;
    chk->rd = pick_norm(s, sqrt(col[SLP_COL_RD2]), col[SLP_COL_RDMAX]) / tc;
    chk->pobj = col[SLP_COL_CX] / (tb * tc) + s->obj_const;
    chk->dobj = (col[SLP_COL_SLACKX] + row[SLP_ROW_DUALOBJ]) / (tb * tc) + s->obj_const;
    chk->gap = fabs(chk->pobj - chk->dobj);
    chk->rel_p = chk->rp / (1.0 + pick_norm(s, s->norms.b_l2, s->norms.b_linf));
    chk->rel_d = chk->rd / (1.0 + pick_norm(s, s->norms.c_l2, s->norms.c_linf));
    chk->rel_gap = chk->gap / (1.0 + fabs(chk->pobj) + fabs(chk->dobj));
    chk->dist_x = sqrt(col[SLP_COL_DIST2]);
    chk->dist_y = sqrt(row[SLP_ROW_DIST2]);
    ray_measures(s, col, row, chk);
    return SLP_OK;
}

/* ---------------------------------------------------------------- terminate */

static int is_optimal(const solver_t *s, const check_t *chk)
{
    const slp_settings_t *set = s->set;
    if (!set->detailed)
        return chk->rel_p < set->tol && chk->rel_d < set->tol && chk->rel_gap < set->tol;
    double bc = pick_norm(s, s->norms.bc_l2, s->norms.bc_linf);
    double cn = pick_norm(s, s->norms.c_l2, s->norms.c_linf);
    return chk->rp <= set->eps_abs + set->eps_rel * bc &&
           chk->rd <= set->eps_abs + set->eps_rel * cn &&
           chk->gap <= set->eps_abs + set->gap_rel * (fabs(chk->pobj) + fabs(chk->dobj));
}

static int primal_infeasible(const solver_t *s, const check_t *chk)
{
    return chk->dual_ray_obj > 0.0 && chk->dual_ray_infeas / chk->dual_ray_obj <= s->set->eps_infeas;
}

static int dual_infeasible(const solver_t *s, const check_t *chk)
{
    return chk->primal_ray_obj < 0.0 &&
           chk->primal_ray_infeas / -chk->primal_ray_obj <= s->set->eps_infeas;
}

static int all_finite(const check_t *chk)
{
    return isfinite(chk->fpe) && isfinite(chk->rp) && isfinite(chk->rd) && isfinite(chk->pobj) &&
           isfinite(chk->dobj);
}

/* ---------------------------------------------------------------- restart */

/* PID update of log(omega) at a restart (ALGORITHM.md section 3). */
static void update_primal_weight(solver_t *s, pid_t_ *pid, const check_t *chk)
{
    const slp_settings_t *set = s->set;
    double dp = chk->dist_x, dd = chk->dist_y;
    double ratio = chk->rel_d / chk->rel_p; /* +inf when rel_p = 0, NaN when both are */
    if (dp > 1e-16 && dp < 1e12 && dd > 1e-16 && dd < 1e12 && ratio > 1e-8 && ratio < 1e8) {
        double e = log(dd) - log(dp) - log(s->omega);
        pid->integral = set->pid_decay * pid->integral + e;
        s->omega *= exp(set->pid_kp * e + set->pid_ki * pid->integral +
                        set->pid_kd * (e - pid->e_prev));
        pid->e_prev = e;
    } else {
        s->omega = pid->omega_best;
        pid->integral = 0.0;
        pid->e_prev = 0.0;
    }
    double g = fabs(log10(ratio));
    if (g < pid->g_best) {
        pid->g_best = g;
        pid->omega_best = s->omega;
    }
}

static int should_restart(const solver_t *s, int64_t total, int64_t epoch, double fpe,
                          double fpe0, double fpe_last)
{
    const slp_settings_t *set = s->set;
    if (total == set->eval_freq)
        return 1;
    if (fpe <= set->restart_sufficient * fpe0)
        return 1;
    if (fpe <= set->restart_necessary * fpe0 && fpe > fpe_last)
        return 1;
    return (double)epoch >= set->restart_artificial * (double)total;
}

static void restart_at_pdhg_point(solver_t *s)
{
    slp_backend_t *be = s->be;
    be->vec_copy(be, s->x0, s->xhat, s->n);
    be->vec_copy(be, s->x, s->xhat, s->n);
    be->vec_copy(be, s->y0, s->yhat, s->m);
    be->vec_copy(be, s->y, s->yhat, s->m);
}

/* ---------------------------------------------------------------- log */

static void log_header(void)
{
    slp_log("%9s %9s %15s %15s %9s %9s %9s %9s %9s %9s\n", "iter", "time", "primal_obj",
            "dual_obj", "abs_pres", "abs_dres", "rel_pres", "rel_dres", "rel_gap", "p_weight");
}

static void log_row(int64_t iter, double seconds, const check_t *chk, double sense, double omega,
                    int restarted)
{
    slp_log("%8lld%c %8.2fs %15.8e %15.8e %9.2e %9.2e %9.2e %9.2e %9.2e %9.2e\n",
            (long long)iter, restarted ? '*' : ' ', seconds, sense * chk->pobj, sense * chk->dobj,
            chk->rp, chk->rd, chk->rel_p, chk->rel_d, chk->rel_gap, omega);
}

/* Print every check for the first ten, then at a thinning cadence. */
static int log_due(int64_t check_index, int every)
{
    if (every || check_index <= 10)
        return 1;
    int64_t stride = 5;
    while (check_index > 20 * stride)
        stride *= 2;
    return check_index % stride == 0;
}

/* ---------------------------------------------------------------- extract */

static slp_err extract(solver_t *s, double sense, slp_result_t *res)
{
    slp_backend_t *be = s->be;
    int64_t n = s->n, m = s->m;
    double *c = NULL, *dcol = NULL, *drow = NULL;
    SLP_CALL(slp_alloc(&res->x, (size_t)n + 1, sizeof(double)));
    SLP_CALL(slp_alloc(&res->rc, (size_t)n + 1, sizeof(double)));
    SLP_CALL(slp_alloc(&res->y, (size_t)m + 1, sizeof(double)));
    SLP_CALL(slp_alloc(&res->ax, (size_t)m + 1, sizeof(double)));
    slp_err rc = slp_alloc(&c, (size_t)n + 1, sizeof(double));
    if (rc == SLP_OK)
        rc = slp_alloc(&dcol, (size_t)n + 1, sizeof(double));
    if (rc == SLP_OK)
        rc = slp_alloc(&drow, (size_t)m + 1, sizeof(double));
    if (rc == SLP_OK) {
        be->vec_download(be, res->x, s->xhat, n);
        be->vec_download(be, res->rc, s->aty, n);
        be->vec_download(be, c, s->c, n);
        be->vec_download(be, dcol, s->dcol, n);
        be->vec_download(be, res->y, s->yhat, m);
        be->vec_download(be, res->ax, s->ax, m);
        be->vec_download(be, drow, s->drow, m);
        double tb = s->theta_b, tc = s->theta_c;
        for (int64_t j = 0; j < n; j++) {
            res->x[j] /= dcol[j] * tb;
            double red = (c[j] - res->rc[j]) * dcol[j] / tc;
            if (s->host_lv[j] == -INFINITY)
                red = fmin(red, 0.0);
            if (s->host_uv[j] == INFINITY)
                red = fmax(red, 0.0);
            res->rc[j] = sense * red;
        }
        for (int64_t i = 0; i < m; i++) {
            res->y[i] = sense * res->y[i] / (drow[i] * tc);
            res->ax[i] *= drow[i] / tb;
        }
    }
    free(c);
    free(dcol);
    free(drow);
    return rc;
}

/* ---------------------------------------------------------------- solve */

static slp_err setup(solver_t *s, slp_local_problem_t *lp, slp_result_t *res)
{
    double t0 = slp_wall_seconds();
    int64_t dropped = 0;
    SLP_CALL(slp_preprocess(lp, &dropped));
    /* Every rank holds a distinct block, so the world sum counts each entry once. */
    double drop_sum[1] = {(double)dropped};
    SLP_CALL(slp_comm_sum(s->grid->world, drop_sum, 1));
    res->dropped_entries = (int64_t)drop_sum[0];
    SLP_CALL(slp_compute_norms(s->grid, lp, &s->norms));
    slp_scaling_t sc;
    SLP_CALL(slp_scale(s->grid, lp, s->set, &sc));
    s->theta_b = sc.theta_b;
    s->theta_c = sc.theta_c;
    s->obj_const = lp->obj_const;
    slp_err rc = create_vectors(s, lp, &sc);
    slp_scaling_free(&sc);
    SLP_CALL(rc);
    SLP_CALL(slp_plan_create(s->grid, lp, s->set->comm_support ? "support" : "dense", &s->plan));
    SLP_CALL(slp_plan_hops(s->plan, s->grid, lp, &res->dense_hops_per_iter,
                           &res->plan_hops_per_iter));
    SLP_CALL(s->be->block_create(s->be, &lp->A, &s->a));
    slp_csr_free(&lp->A); /* the backend holds its own copy: keep one block in memory */
    res->scaling_seconds = slp_wall_seconds() - t0;

    double t1 = slp_wall_seconds();
    double sigma_max = 0.0;
    int power_iters = 0;
    /* work vectors: y/yhat (m) and g (n) are free before the first iteration */
    SLP_CALL(slp_power_iteration(s->grid, s->be, s->a, s->m, s->n, lp->row_lo, s->h, s->dy, s->g,
                                 &sigma_max, &power_iters));
    s->eta = sigma_max > 0.0 ? 0.998 / sigma_max : 1.0;
    s->omega = 1.0;
    if (!s->set->bound_obj_rescaling)
        s->omega = (1.0 + s->norms.c_l2) / (1.0 + s->norms.b_l2);
    res->power_seconds = slp_wall_seconds() - t1;
    slp_log_verbose("power iteration: sigma_max %.6e after %d steps, eta %.6e\n", sigma_max,
                    power_iters, s->eta);
    return SLP_OK;
}

static slp_err main_loop(solver_t *s, double sense, slp_result_t *res)
{
    const slp_settings_t *set = s->set;
    const int freq = set->eval_freq;
    double start = slp_wall_seconds();
    int64_t total = 0, epoch = 0, restarts = 0, checks = 0;
    double fpe0 = NAN, fpe_last = INFINITY;
    pid_t_ pid = {s->omega, INFINITY, 0.0, 0.0};
    int restarted_since_log = 0;
    check_t chk = {0};
    slp_status status = SLP_STATUS_ITERATION_LIMIT;
    log_header();
    for (;;) {
        for (int it = 1; it <= freq; it++) {
            int first_of_epoch = epoch == 0;
            int last_of_window = it == freq;
            SLP_CALL(iterate(s, epoch, first_of_epoch || last_of_window));
            epoch++;
            total++;
            if (first_of_epoch && !last_of_window) {
                check_t first;
                SLP_CALL(measure(s, &first));
                fpe0 = first.fpe; /* r(z0) of the new epoch */
            }
        }
        SLP_CALL(measure(s, &chk));
        checks++;
        double elapsed = slp_wall_seconds() - start;
        int done = 1;
        if (!all_finite(&chk))
            status = SLP_STATUS_NUMERICAL_ERROR;
        else if (is_optimal(s, &chk))
            status = SLP_STATUS_OPTIMAL;
        else if (primal_infeasible(s, &chk))
            status = SLP_STATUS_PRIMAL_INFEASIBLE;
        else if (dual_infeasible(s, &chk))
            status = SLP_STATUS_DUAL_INFEASIBLE;
        else if (total >= set->iter_limit)
            status = SLP_STATUS_ITERATION_LIMIT;
        else if (elapsed >= set->time_limit)
            status = SLP_STATUS_TIME_LIMIT;
        else
            done = 0;
        if (done) {
            log_row(total, elapsed, &chk, sense, s->omega, restarted_since_log);
            break;
        }
        int restart = should_restart(s, total, epoch, chk.fpe, fpe0, fpe_last);
        fpe_last = chk.fpe;
        if (restart) {
            update_primal_weight(s, &pid, &chk);
            restart_at_pdhg_point(s);
            epoch = 0;
            fpe_last = INFINITY;
            restarts++;
            restarted_since_log = 1;
        }
        if (log_due(checks, set->log_every_check)) {
            log_row(total, elapsed, &chk, sense, s->omega, restarted_since_log);
            restarted_since_log = 0;
        }
    }
    res->status = status;
    res->iterations = total;
    res->restarts = restarts;
    res->solve_seconds = slp_wall_seconds() - start;
    res->objective = sense * chk.pobj;
    res->dual_objective = sense * chk.dobj;
    res->abs_primal_residual = chk.rp;
    res->abs_dual_residual = chk.rd;
    res->abs_gap = chk.gap;
    res->rel_primal_residual = chk.rel_p;
    res->rel_dual_residual = chk.rel_d;
    res->rel_gap = chk.rel_gap;
    res->primal_weight = s->omega;
    res->primal_ray_obj = chk.primal_ray_obj;
    res->primal_ray_infeas = chk.primal_ray_infeas;
    res->dual_ray_obj = chk.dual_ray_obj;
    res->dual_ray_infeas = chk.dual_ray_infeas;
    res->step_size = s->eta;
    return SLP_OK;
}

slp_err slp_solve(slp_grid_t *grid, slp_local_problem_t *lp, const slp_settings_t *settings,
                  slp_backend_t *be, slp_result_t *result)
{
    memset(result, 0, sizeof *result);
    solver_t s = {0};
    s.be = be;
    s.grid = grid;
    s.set = settings;
    s.n = lp->n_loc;
    s.m = lp->m_loc;
    double sense = lp->sense < 0 ? -1.0 : 1.0;
    slp_err rc = setup(&s, lp, result);
    if (rc == SLP_OK)
        rc = main_loop(&s, sense, result);
    if (rc == SLP_OK)
        rc = extract(&s, sense, result);
    destroy_solver(&s);
    if (rc != SLP_OK)
        slp_result_free(result);
    return rc;
}

void slp_result_free(slp_result_t *result)
{
    free(result->x);
    free(result->rc);
    free(result->y);
    free(result->ax);
    result->x = result->rc = result->y = result->ax = NULL;
}
