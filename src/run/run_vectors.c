#include "run/run_vectors.h"

#include <stdlib.h>
#include <string.h>

enum { TAG_X0 = 71, TAG_Y0 = 72, TAG_X = 81, TAG_RC = 82, TAG_Y = 83, TAG_AX = 84 };

slp_err slp_run_scatter_start(slp_grid_t *g, const slp_local_problem_t *lp, const double *x0,
                              const double *y0, double **x0s, double **y0s)
{
    *x0s = *y0s = NULL;
    int64_t have[2] = {g->rank == 0 && x0, g->rank == 0 && y0};
    SLP_CALL(slp_comm_bcast(g->world, have, sizeof have, 0));
    if (have[0])
        SLP_CALL(slp_alloc(x0s, (size_t)(lp->n_loc > 0 ? lp->n_loc : 1), sizeof **x0s));
    if (have[1])
        SLP_CALL(slp_alloc(y0s, (size_t)(lp->m_loc > 0 ? lp->m_loc : 1), sizeof **y0s));
    if (g->rank != 0) {
        if (have[0])
            SLP_CALL(slp_comm_recv(g->world, *x0s, lp->n_loc * (int64_t)sizeof **x0s, 0, TAG_X0));
        if (have[1])
            SLP_CALL(slp_comm_recv(g->world, *y0s, lp->m_loc * (int64_t)sizeof **y0s, 0, TAG_Y0));
        return SLP_OK;
    }
    for (int k = 0; k < g->size; k++) {
        int r = k / g->C, c = k % g->C;
        int64_t nl = lp->col_off[c + 1] - lp->col_off[c];
        int64_t ml = lp->row_off[r + 1] - lp->row_off[r];
        const double *xs = have[0] ? x0 + lp->col_off[c] : NULL;
        const double *ys = have[1] ? y0 + lp->row_off[r] : NULL;
        if (k == 0) {
            if (xs)
                memcpy(*x0s, xs, (size_t)nl * sizeof *xs);
            if (ys)
                memcpy(*y0s, ys, (size_t)ml * sizeof *ys);
            continue;
        }
        if (xs)
            SLP_CALL(slp_comm_send(g->world, xs, nl * (int64_t)sizeof *xs, k, TAG_X0));
        if (ys)
            SLP_CALL(slp_comm_send(g->world, ys, ml * (int64_t)sizeof *ys, k, TAG_Y0));
    }
    return SLP_OK;
}

/* Rank 0: block `b` of one vector, of length len at offset lo, from rank `from`. */
static slp_err receive_block(slp_grid_t *g, double *whole, const double *mine, int64_t lo,
                             int64_t len, int from, int tag)
{
    if (from == 0) {
        if (whole)
            memcpy(whole + lo, mine, (size_t)len * sizeof(double));
        return SLP_OK;
    }
    double *tmp = NULL;
    if (!whole) /* the caller does not want it: receive and drop */
        SLP_CALL(slp_alloc(&tmp, (size_t)(len > 0 ? len : 1), sizeof *tmp));
    slp_err rc = slp_comm_recv(g->world, whole ? whole + lo : tmp, len * (int64_t)sizeof(double),
                               from, tag);
    free(tmp);
    return rc;
}

slp_err slp_run_gather(slp_grid_t *g, const slp_local_problem_t *lp, const slp_result_t *res,
                       const slp_run_vectors_t *out)
{
    double *whole_n[2] = {out->x, out->rc}, *whole_m[2] = {out->y, out->ax};
    const double *mine_n[2] = {res->x, res->rc}, *mine_m[2] = {res->y, res->ax};
    int tag_n[2] = {TAG_X, TAG_RC}, tag_m[2] = {TAG_Y, TAG_AX};
    if (g->rank != 0) {
        for (int v = 0; v < 2; v++) {
            if (g->r == 0)
                SLP_CALL(slp_comm_send(g->world, mine_n[v], lp->n_loc * (int64_t)sizeof(double),
                                       0, tag_n[v]));
            if (g->c == 0)
                SLP_CALL(slp_comm_send(g->world, mine_m[v], lp->m_loc * (int64_t)sizeof(double),
                                       0, tag_m[v]));
        }
        return SLP_OK;
    }
    for (int v = 0; v < 2; v++) {
        for (int c = 0; c < g->C; c++)
            SLP_CALL(receive_block(g, whole_n[v], mine_n[v], lp->col_off[c],
                                   lp->col_off[c + 1] - lp->col_off[c], c, tag_n[v]));
        for (int r = 0; r < g->R; r++)
            SLP_CALL(receive_block(g, whole_m[v], mine_m[v], lp->row_off[r],
                                   lp->row_off[r + 1] - lp->row_off[r], r * g->C, tag_m[v]));
    }
    return SLP_OK;
}
