/* Per-coordinate accumulation of the check partials (backend.h: SLP_COL_* and
 * SLP_ROW_*), written once for every backend: the CPU backend's loops and the CUDA
 * reductions both call these. Max slots (SLP_*_MAX_MASK) start at 0 and combine
 * with fmax; every other slot is a sum. */
#ifndef SLP_CHECK_COORD_H
#define SLP_CHECK_COORD_H

#include <math.h>
#include <stdint.h>

#include "backend/backend.h"
#include "backend/kernels.h"

/* Add column j's contribution to s[SLP_COL_COUNT] (the slots of a->part). */
SLP_INLINE void slp_col_check_coord(const slp_col_check_args *a, int64_t j, double *s)
{
    double lv = a->lv[j], uv = a->uv[j];
    if (a->part == SLP_CHECK_RAY) {
        double d = a->ray_x[j], qr = -a->prod[j];
        s[SLP_COL_RAY_DMAX] = fmax(s[SLP_COL_RAY_DMAX], fabs(d));
        s[SLP_COL_RAY_CD] += a->c[j] * d;
        s[SLP_COL_RAY_CDABS] += fabs(a->c[j] * d);
        double qterm = slp_dual_row_term(qr, lv, uv);
        s[SLP_COL_RAY_QOBJ] += qterm;
        s[SLP_COL_RAY_QABS] += fabs(qterm);
        double viol =
            (lv == -INFINITY ? fmax(0.0, qr) : 0.0) + (uv == INFINITY ? fmax(0.0, -qr) : 0.0);
        s[SLP_COL_RAY_QVIOL] = fmax(s[SLP_COL_RAY_QVIOL], viol * a->dcol[j]);
    } else if (a->part == SLP_CHECK_STEP) {
        s[SLP_COL_DX2] += a->dx[j] * a->dx[j];
        s[SLP_COL_DXQ] += a->dx[j] * a->prod[j];
    } else {
        double rd = (a->c[j] - a->prod[j] - a->slack[j]) * a->dcol[j];
        double dist = a->xhat[j] - a->x0[j];
        s[SLP_COL_RD2] += rd * rd;
        s[SLP_COL_RDMAX] = fmax(s[SLP_COL_RDMAX], fabs(rd));
        s[SLP_COL_CX] += a->c[j] * a->xhat[j];
        s[SLP_COL_SLACKX] += a->slack[j] * a->xhat[j];
        s[SLP_COL_SLACKOBJ] += slp_dual_row_term(a->slack[j], lv, uv);
        s[SLP_COL_DIST2] += dist * dist;
    }
}

/* Add row i's contribution to s[SLP_ROW_COUNT] (the slots of a->part). */
SLP_INLINE void slp_row_check_coord(const slp_row_check_args *a, int64_t i, double *s)
{
    double l = a->l[i], u = a->u[i];
    if (a->part == SLP_CHECK_RAY) {
        double d = a->ray_y[i], ad = a->prod[i];
        s[SLP_ROW_RAY_DMAX] = fmax(s[SLP_ROW_RAY_DMAX], fabs(d));
        double term = slp_dual_row_term(d, l, u);
        s[SLP_ROW_RAY_OBJ] += term;
        s[SLP_ROW_RAY_ABS] += fabs(term);
        double viol = (isfinite(l) ? fmax(0.0, -ad) : 0.0) + (isfinite(u) ? fmax(0.0, ad) : 0.0);
        s[SLP_ROW_RAY_VIOL] = fmax(s[SLP_ROW_RAY_VIOL], viol * a->drow[i]);
    } else if (a->part == SLP_CHECK_STEP) {
        s[SLP_ROW_DY2] += a->dy[i] * a->dy[i];
    } else {
        double rp = slp_row_violation(a->prod[i], l, u) * a->drow[i];
        double dist = a->yhat[i] - a->y0[i];
        s[SLP_ROW_RP2] += rp * rp;
        s[SLP_ROW_RPMAX] = fmax(s[SLP_ROW_RPMAX], fabs(rp));
        s[SLP_ROW_DUALOBJ] += slp_dual_row_term(a->yhat[i], l, u);
        s[SLP_ROW_DIST2] += dist * dist;
    }
}

#endif
