#include "solver/power.h"

#include <math.h>
#include <stdlib.h>

#include "core/timer.h"
#include "grid/reduce.h"

#define SLP_POWER_MAX_ITERS 5000
#define SLP_POWER_TOL 1e-4

static uint64_t splitmix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double slp_normal_at(uint64_t seed, uint64_t index)
{
    uint64_t a = splitmix64(seed * 0x2545f4914f6cdd1dULL ^ (2 * index));
    uint64_t b = splitmix64(seed * 0x2545f4914f6cdd1dULL ^ (2 * index + 1));
    double u1 = ((double)(a >> 11) + 0.5) * 0x1.0p-53; /* (0, 1) */
    double u2 = (double)(b >> 11) * 0x1.0p-53;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586476925 * u2);
}

slp_err slp_power_iteration(slp_grid_t *grid, slp_backend_t *be, slp_exchange_t *ex,
                            const slp_block_t *a,
                            int64_t m_loc, int64_t n_loc, int64_t row_lo, double *work_m,
                            double *work_m2, double *work_n, double deadline, double *sigma_max,
                            int *iterations)
{
    *sigma_max = 0.0;
    *iterations = 0;
    double *start = slp_malloc((size_t)(m_loc > 0 ? m_loc : 1) * sizeof(double));
    if (!start)
        return SLP_ERR_NOMEM;
    for (int64_t i = 0; i < m_loc; i++)
        start[i] = slp_normal_at(1, (uint64_t)(row_lo + i));
    slp_err rc = be->vec_upload(be, work_m, start, m_loc);
    free(start);
    SLP_CALL(rc);

    double *xv = work_m, *v = work_m2;
    double none[1];
    double norm2[1] = {be->vec_dot(be, xv, xv, m_loc)};
    SLP_CALL(slp_reduce_sums(grid, none, 0, norm2, 1));
    for (int it = 1; it <= SLP_POWER_MAX_ITERS; it++) {
        double norm = sqrt(norm2[0]);
        if (!isfinite(norm) || norm <= 0.0)
            return SLP_OK; /* degenerate: caller uses eta = 1 */
        be->vec_axpby(be, v, 1.0 / norm, xv, 0.0, xv, m_loc); /* v = x / ||x|| */
        be->spmv_t(be, a, v, work_n);
        SLP_CALL(slp_exchange_sum_cols(ex, work_n));
        be->spmv(be, a, work_n, xv);
        SLP_CALL(slp_exchange_sum_rows(ex, xv));
        /* the dots below count grid column 0's copy: make every replica whole */
        SLP_CALL(slp_exchange_sync_rows(ex, &xv, 1));
        /* lambda = v.x and ||x - lambda v||^2 = ||x||^2 - lambda^2 since ||v|| = 1. */
        double sums[2] = {be->vec_dot(be, v, xv, m_loc), be->vec_dot(be, xv, xv, m_loc)};
        SLP_CALL(slp_reduce_sums(grid, none, 0, sums, 2));
        double lambda = sums[0];
        norm2[0] = sums[1];
        *iterations = it;
        if (!isfinite(lambda) || lambda <= 0.0)
            return SLP_OK;
        double residual = sqrt(fmax(0.0, sums[1] - lambda * lambda));
        *sigma_max = sqrt(lambda);
        if (residual < SLP_POWER_TOL * fmin(1.0, lambda))
            break;
        if (isfinite(deadline)) {
            double late[1] = {slp_wall_seconds() >= deadline ? 1.0 : 0.0};
            SLP_CALL(slp_reduce_max(grid, late, 1));
            if (late[0] > 0.0)
                break;
        }
    }
    return SLP_OK;
}
