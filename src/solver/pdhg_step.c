/* One r2HPDHG iteration and the evaluation of the check scalars (docs/algorithm.md
 * sections 4-6), over the backend and the exchange (plan/exchange.h). */
#include <math.h>
#include <string.h>

#include "core/timer.h"
#include "grid/reduce.h"
#include "solver/solver_internal.h"

/* One r2HPDHG iteration; k = iterations already done in this epoch. The reflected
 * point xbar overwrites g = A^T y in col_work (solver_internal.h). */
slp_err slp_pdhg_iterate(slp_pdhg_t *s, int64_t k, int major)
{
    slp_backend_t *be = s->be;
    double w = (double)(k + 1) / (double)(k + 2);
    double tau = s->eta / s->omega, sigma = s->eta * s->omega;
    double *g = s->col_work, *xbar = s->col_work;

    if (s->fp32_iterations)
        be->spmv_t_iterate(be, s->a, s->y, g); /* g = A^T y */
    else
        be->spmv_t(be, s->a, s->y, g);
    double t0 = slp_wall_seconds();
    SLP_CALL(slp_exchange_sum_cols(s->ex, g));
    s->comm_seconds += slp_wall_seconds() - t0;
    slp_primal_args pa = {s->n, tau, w, major, g, s->c, s->lv, s->uv, s->x0,
                          s->x, xbar, s->xhat, s->slack, s->dx};
    be->primal_step(be, &pa);

    if (s->fp32_iterations)
        be->spmv_iterate(be, s->a, xbar, s->h); /* h = A xbar */
    else
        be->spmv(be, s->a, xbar, s->h);
    double t1 = slp_wall_seconds();
    SLP_CALL(slp_exchange_sum_rows(s->ex, s->h));
    s->comm_seconds += slp_wall_seconds() - t1;
    slp_dual_args da = {s->m, sigma, w, major, s->h, s->lc, s->uc, s->y0, s->y, s->yhat, s->dy};
    be->dual_step(be, &da);
    return SLP_OK;
}

double slp_pdhg_norm(const slp_pdhg_t *s, double l2, double linf)
{
    return s->set->norm == SLP_NORM_LINF ? linf : l2;
}

static int col_is_max(int e) { return (SLP_COL_MAX_MASK >> e) & 1u; }
static int row_is_max(int e) { return (SLP_ROW_MAX_MASK >> e) & 1u; }

/* Reduce a check's partials: sums over the grid (each slice counted once) and
 * maxima, in one MPI_Allreduce each. */
static slp_err reduce_check(slp_pdhg_t *s, double col[SLP_COL_COUNT], double row[SLP_ROW_COUNT])
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

/* Certificate quality measures from the raw ray sums (docs/algorithm.md section 6). */
static void ray_measures(const slp_pdhg_t *s, const double *col, const double *row, slp_check_scalars_t *chk)
{
    double tb = s->theta_b, tc = s->theta_c;
    double dxmax = col[SLP_COL_RAY_DMAX];
    chk->primal_ray_obj = dxmax > 0.0 ? col[SLP_COL_RAY_CD] / dxmax / (tb * tc) : 0.0;
    chk->primal_ray_infeas = dxmax > 0.0 ? row[SLP_ROW_RAY_VIOL] / dxmax / tb : 0.0;
    double obj = (row[SLP_ROW_RAY_OBJ] + col[SLP_COL_RAY_QOBJ]) / (tb * tc);
    double viol = col[SLP_COL_RAY_QVIOL] / tc;
    double scale = fmax(row[SLP_ROW_RAY_DMAX], viol);
    chk->primal_ray_size = dxmax > 0.0 ? col[SLP_COL_RAY_CDABS] / dxmax / (tb * tc) : 0.0;
    chk->dual_ray_size =
        scale > 0.0 ? (row[SLP_ROW_RAY_ABS] + col[SLP_COL_RAY_QABS]) / (tb * tc) / scale : 0.0;
    chk->dual_ray_obj = scale > 0.0 ? obj / scale : 0.0;
    chk->dual_ray_infeas = scale > 0.0 ? viol / scale : 0.0;
}

/* Synchronise the products just formed in col_work (n) and, when rows, in ax (m): they
 * are plan sums, stale on non-participants. */
static slp_err sync_products(slp_pdhg_t *s, int rows)
{
    double *r[] = {s->ax}, *c[] = {s->col_work};
    if (rows)
        SLP_CALL(slp_exchange_sync_rows(s->ex, r, 1));
    return slp_exchange_sync_cols(s->ex, c, 1);
}

/* Synchronisation point: every replica holds every coordinate of the state table's
 * SLP_VEC_SYNC vectors and of the point's products (A^T yhat in col_work, A xhat in
 * ax) again, so the reductions of a check (and restarts and output after them) see
 * current values. */
static slp_err sync_replicas(slp_pdhg_t *s)
{
    double **addr[SLP_STATE_MAX_VECS], *vecs[SLP_STATE_MAX_VECS + 1];
    int64_t len[SLP_STATE_MAX_VECS];
    int rows = slp_state_vectors(s, SLP_VEC_SYNC, SLP_ROWS, addr, len);
    for (int k = 0; k < rows; k++)
        vecs[k] = *addr[k];
    vecs[rows] = s->ax;
    SLP_CALL(slp_exchange_sync_rows(s->ex, vecs, rows + 1));
    int cols = slp_state_vectors(s, SLP_VEC_SYNC, SLP_COLS, addr, len);
    for (int k = 0; k < cols; k++)
        vecs[k] = *addr[k];
    vecs[cols] = s->col_work;
    return slp_exchange_sync_cols(s->ex, vecs, cols + 1);
}

slp_err slp_pdhg_point_products(slp_pdhg_t *s)
{
    slp_backend_t *be = s->be;
    be->spmv_t(be, s->a, s->yhat, s->col_work);
    SLP_CALL(slp_exchange_sum_cols(s->ex, s->col_work));
    be->spmv(be, s->a, s->xhat, s->ax);
    SLP_CALL(slp_exchange_sum_rows(s->ex, s->ax));
    return sync_replicas(s);
}

/* One part's local partials over both slices, added into col and row. */
static void add_part(slp_pdhg_t *s, slp_check_part part, double col[SLP_COL_COUNT],
                     double row[SLP_ROW_COUNT])
{
    slp_backend_t *be = s->be;
    double c[SLP_COL_COUNT], r[SLP_ROW_COUNT];
    slp_col_check_args ca = {s->n, part, s->col_work, s->xhat, s->x0, s->dx, s->c,
                             s->slack, s->dcol, s->lv, s->uv, s->dx};
    be->col_check(be, &ca, c);
    for (int e = 0; e < SLP_COL_COUNT; e++)
        col[e] += c[e]; /* each slot comes from one part; the others give 0 */
    slp_row_check_args ra = {s->m, part, s->ax, s->yhat, s->y0, s->dy, s->lc, s->uc, s->drow,
                             s->dy};
    be->row_check(be, &ra, r);
    for (int e = 0; e < SLP_ROW_COUNT; e++)
        row[e] += r[e];
}

/* A ray candidate projected in place (dx, dy), its products (A^T d_y in col_work, A d_x
 * in ax, synchronised), and its partials. The candidate is the last step
 * (xhat - x, yhat - y: dx, dy as they are), as in cuPDLPx, or the epoch's displacement
 * (xhat - x0, yhat - y0), which follows a diverging iterate more steadily. */
static slp_err ray_part(slp_pdhg_t *s, slp_ray_source ray, double col[SLP_COL_COUNT],
                        double row[SLP_ROW_COUNT])
{
    slp_backend_t *be = s->be;
    if (ray == SLP_RAY_OF_EPOCH) {
        be->vec_axpby(be, s->dx, 1.0, s->xhat, -1.0, s->x0, s->n);
        be->vec_axpby(be, s->dy, 1.0, s->yhat, -1.0, s->y0, s->m);
    }
    be->ray_project(be, SLP_RAY_PRIMAL, s->dx, s->lv, s->uv, s->dx, s->n);
    be->ray_project(be, SLP_RAY_DUAL, s->dy, s->lc, s->uc, s->dy, s->m);
    be->spmv_t(be, s->a, s->dy, s->col_work);
    SLP_CALL(slp_exchange_sum_cols(s->ex, s->col_work));
    be->spmv(be, s->a, s->dx, s->ax);
    SLP_CALL(slp_exchange_sum_rows(s->ex, s->ax));
    /* the rays are projections of synchronised vectors (whole already) */
    SLP_CALL(sync_products(s, 1));
    add_part(s, SLP_CHECK_RAY, col, row);
    return SLP_OK;
}

/* The FPE's part: A^T dy in col_work (dy synchronised), and its partials. */
static slp_err step_part(slp_pdhg_t *s, double col[SLP_COL_COUNT], double row[SLP_ROW_COUNT])
{
    slp_backend_t *be = s->be;
    be->spmv_t(be, s->a, s->dy, s->col_work);
    SLP_CALL(slp_exchange_sum_cols(s->ex, s->col_work));
    SLP_CALL(sync_products(s, 0));
    add_part(s, SLP_CHECK_STEP, col, row);
    return SLP_OK;
}

/* The check's partials, reduced: the point's residuals and objectives, the FPE's
 * terms, and at most one ray. Each part's product replaces the last one in col_work (and
 * ax); dx and dy become the ray. */
static slp_err check_partials(slp_pdhg_t *s, slp_ray_source ray, double col[SLP_COL_COUNT],
                              double row[SLP_ROW_COUNT])
{
    memset(col, 0, SLP_COL_COUNT * sizeof *col);
    memset(row, 0, SLP_ROW_COUNT * sizeof *row);
    SLP_CALL(slp_pdhg_point_products(s));
    add_part(s, SLP_CHECK_POINT, col, row);
    SLP_CALL(step_part(s, col, row));
    if (ray != SLP_RAY_NONE)
        SLP_CALL(ray_part(s, ray, col, row));
    return reduce_check(s, col, row);
}

/* FPE in the PDHG metric scaled by eta (docs/algorithm.md section 5), and the same in
 * the metric of eta0, from a check's reduced partials. */
static void fpe_from_partials(const slp_pdhg_t *s, const double *col, const double *row,
                              double *fpe, double *fpe_eta0)
{
    double fpe2 = s->omega * col[SLP_COL_DX2] + row[SLP_ROW_DY2] / s->omega +
                  2.0 * s->eta * col[SLP_COL_DXQ];
    *fpe = sqrt(fmax(fpe2, 0.0));
    double fpe2_eta0 = fpe2 + 2.0 * (s->eta0 - s->eta) * col[SLP_COL_DXQ];
    *fpe_eta0 = sqrt(fmax(fpe2_eta0, 0.0));
}

/* The FPE of the last step alone (the epoch's first iteration, which only needs
 * r(z0)): one product instead of a check's three or five. */
static slp_err measure_fpe(slp_pdhg_t *s, double *fpe, double *fpe_eta0)
{
    double col[SLP_COL_COUNT] = {0}, row[SLP_ROW_COUNT] = {0};
    double *cols[] = {s->dx}, *rows[] = {s->dy};
    SLP_CALL(slp_exchange_sync_cols(s->ex, cols, 1));
    SLP_CALL(slp_exchange_sync_rows(s->ex, rows, 1));
    SLP_CALL(step_part(s, col, row));
    SLP_CALL(reduce_check(s, col, row));
    fpe_from_partials(s, col, row, fpe, fpe_eta0);
    return SLP_OK;
}

slp_err slp_pdhg_measure(slp_pdhg_t *s, slp_check_scalars_t *chk, int combined,
                         slp_ray_source ray)
{
    double col[SLP_COL_COUNT], row[SLP_ROW_COUNT];
    SLP_CALL(check_partials(s, ray, col, row));
    fpe_from_partials(s, col, row, &chk->fpe, &chk->fpe_eta0);
    double tb = s->theta_b, tc = s->theta_c;
    chk->rp = slp_pdhg_norm(s, sqrt(row[SLP_ROW_RP2]), row[SLP_ROW_RPMAX]) / tb;
    chk->rd = slp_pdhg_norm(s, sqrt(col[SLP_COL_RD2]), col[SLP_COL_RDMAX]) / tc;
    chk->pobj = col[SLP_COL_CX] / (tb * tc) + s->obj_const;
    /* cuPDLPx evaluates the bound part of the dual objective as slack . xhat, exact
     * when the slack comes from the same primal step as xhat. A combined point
     * (polishing: x from one phase, y and slack from another) uses the bound form. */
    double bound_part = combined ? col[SLP_COL_SLACKOBJ] : col[SLP_COL_SLACKX];
    chk->dobj = (bound_part + row[SLP_ROW_DUALOBJ]) / (tb * tc) + s->obj_const;
    chk->gap = fabs(chk->pobj - chk->dobj);
    chk->rel_p = chk->rp / (1.0 + slp_pdhg_norm(s, s->norms.b_l2, s->norms.b_linf));
    chk->rel_d = chk->rd / (1.0 + slp_pdhg_norm(s, s->norms.c_l2, s->norms.c_linf));
    chk->rel_gap = chk->gap / (1.0 + fabs(chk->pobj) + fabs(chk->dobj));
    chk->dist_x = sqrt(col[SLP_COL_DIST2]);
    chk->dist_y = sqrt(row[SLP_ROW_DIST2]);
    ray_measures(s, col, row, chk);
    return SLP_OK;
}

/* The ray of check number `check` (from 0): one every check when checks are 64 or
 * more iterations apart, else one every ceil(64 / interval) checks (a ray costs two
 * products); the two kinds take turns, since each certifies LPs the other misses or
 * finds late (docs/algorithm.md section 6). */
static slp_ray_source ray_of_check(int interval, int64_t check)
{
    int64_t stride = interval >= 64 || interval < 1 ? 1 : (64 + interval - 1) / interval;
    if (check % stride != stride - 1)
        return SLP_RAY_NONE;
    return (check / stride) % 2 ? SLP_RAY_OF_EPOCH : SLP_RAY_OF_STEP;
}

slp_err slp_pdhg_window(slp_pdhg_t *s, slp_loop_t *loop, int iters, slp_check_scalars_t *chk)
{
    const int freq = iters;
    for (int it = 1; it <= freq; it++) {
        int first_of_epoch = loop->epoch == 0;
        int last_of_window = it == freq;
        SLP_CALL(slp_pdhg_iterate(s, loop->epoch, first_of_epoch || last_of_window));
        loop->epoch++;
        loop->total++;
        if (first_of_epoch && !last_of_window) /* r(z0) of the new epoch */
            SLP_CALL(measure_fpe(s, &loop->fpe0, &loop->fpe0_eta0));
    }
    /* A device fault (sticky backend error) ends the run here, on every rank. */
    SLP_CALL(slp_comm_agree(s->grid->world, s->be->status(s->be)));
    int interval = slp_check_interval(s->set, loop->total - freq);
    SLP_CALL(slp_pdhg_measure(s, chk, 0, ray_of_check(interval, loop->checks)));
    loop->checks++;
    return SLP_OK;
}
