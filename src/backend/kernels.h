/* Element-wise math of one PDHG iteration, per coordinate, shared by every
 * backend (the CPU loops call these; a CUDA kernel body can too). Keeping the
 * formulas here means the CPU tests exercise the same arithmetic.
 * Notation follows docs/algorithm.md section 4. */
#ifndef SLP_KERNELS_H
#define SLP_KERNELS_H

#include <math.h>

#ifdef __CUDACC__
#define SLP_INLINE __host__ __device__ static inline
#else
#define SLP_INLINE static inline
#endif

/* Projection onto [lo, hi] (infinite ends allowed). Plain comparisons rather than
 * fmin/fmax: they inline and vectorise, and a NaN input stays NaN so that a numerical
 * failure shows in the residuals instead of being clamped away. */
SLP_INLINE double slp_clamp(double v, double lo, double hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

SLP_INLINE double slp_pos(double v) { return v > 0.0 ? v : 0.0; }
SLP_INLINE double slp_neg(double v) { return v < 0.0 ? v : 0.0; }

/* Primal coordinate update.
 *   t = x - tau (c - g);  xhat = clamp(t, l, u);  xbar = 2 xhat - x
 *   x_next = w xbar + (1 - w) x0     (reflected Halpern, gamma = 1)
 * Returns xhat; writes xbar, x_next, and the Moreau dual slack (xhat - t)/tau. */
SLP_INLINE double slp_primal_coord(double x, double x0, double g, double c, double l, double u,
                                   double tau, double w, double *xbar, double *x_next,
                                   double *slack)
{
    double t = x - tau * (c - g);
    double xhat = slp_clamp(t, l, u);
    double reflected = 2.0 * xhat - x;
    *xbar = reflected;
    *x_next = w * reflected + (1.0 - w) * x0;
    *slack = (xhat - t) / tau;
    return xhat;
}

/* Dual coordinate update at the reflected primal point (h = (A xbar)_i).
 *   s = y/sigma - h;  p = clamp(s, -u, -l);  yhat = sigma (s - p)
 *   y_next = w (2 yhat - y) + (1 - w) y0
 * Returns yhat. */
SLP_INLINE double slp_dual_coord(double y, double y0, double h, double l, double u, double sigma,
                                 double w, double *y_next)
{
    double s = y / sigma - h;
    double p = slp_clamp(s, -u, -l);
    double yhat = sigma * (s - p);
    *y_next = w * (2.0 * yhat - y) + (1.0 - w) * y0;
    return yhat;
}

/* Row part of the dual objective: max(y,0) l + min(y,0) u, infinite bounds as 0. */
SLP_INLINE double slp_dual_row_term(double y, double l, double u)
{
    double lf = isfinite(l) ? l : 0.0;
    double uf = isfinite(u) ? u : 0.0;
    return slp_pos(y) * lf + slp_neg(y) * uf;
}

/* Primal residual of a row activity a: distance to [l, u]. */
SLP_INLINE double slp_row_violation(double a, double l, double u) { return a - slp_clamp(a, l, u); }

/* Component of a primal ray kept in the recession cone of [l, u]. */
SLP_INLINE double slp_primal_ray_coord(double d, double l, double u)
{
    if (isfinite(l))
        d = slp_pos(d);
    if (isfinite(u))
        d = slp_neg(d);
    return d;
}

/* Component of a dual ray with the sign a row with bounds [l, u] allows. */
SLP_INLINE double slp_dual_ray_coord(double d, double l, double u)
{
    if (l == -INFINITY)
        d = slp_neg(d);
    if (u == INFINITY)
        d = slp_pos(d);
    return d;
}

#endif
