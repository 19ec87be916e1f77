/* A Farkas certificate from one row (docs/presolve.md, "Certificates"): when
 * presolve finds row i's least activity over the column bounds above uc_i, y = -e_i
 * proves infeasibility on the original problem if those bounds are the original
 * ones: z = -A^T y = a_i, and the ray objective -uc_i + sum_j (a_ij > 0 ? a_ij lv_j :
 * a_ij uv_j) is that least activity minus uc_i > 0. The greatest activity below lc_i
 * gives y = +e_i the same way. Presolve's bounds may have been tightened by earlier
 * reductions, so the ray is evaluated on the original block and kept only when it
 * proves the claim there. Collective; nothing is gathered. */
#include "verdict/row_certificate.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "grid/comm.h"

#define SLP_CERT_SIGNIFICANCE (64.0 * DBL_EPSILON) /* objective vs the sum of its terms */

/* The bound term of a multiplier v on [l, u]; an infinite bound it needs counts in
 * *breach. *mag accumulates |term|. */
static double bound_term(double v, double l, double u, double *breach, double *mag)
{
    double bound = v > 0.0 ? l : v < 0.0 ? u : 0.0;
    if (v == 0.0)
        return 0.0;
    if (!isfinite(bound)) {
        *breach = fmax(*breach, fabs(v));
        return 0.0;
    }
    *mag += fabs(v * bound);
    return v * bound;
}

slp_err slp_row_certificate(slp_grid_t *grid, const slp_local_problem_t *orig, int64_t row,
                            int side, double **ray_y, int *proves)
{
    *proves = 0;
    *ray_y = NULL;
    double y = side > 0 ? -1.0 : 1.0;
    int64_t i = row - orig->row_lo;
    int mine = i >= 0 && i < orig->m_loc;
    double sums[2] = {0.0, 0.0}, breach[1] = {0.0}; /* objective, magnitude */
    if (mine) {
        const slp_csr_t *a = &orig->A;
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            int32_t j = a->col_idx[k];
            sums[0] += bound_term(-a->val[k] * y, orig->lv[j], orig->uv[j], breach, &sums[1]);
        }
        if (grid->c == 0) /* the row's own term, once per grid row */
            sums[0] += bound_term(y, orig->lc[i], orig->uc[i], breach, &sums[1]);
    }
    SLP_CALL(slp_comm_sum(grid->world, sums, 2));
    SLP_CALL(slp_comm_max(grid->world, breach, 1));
    if (!(breach[0] == 0.0 && sums[0] > 0.0 && sums[0] > SLP_CERT_SIGNIFICANCE * sums[1]))
        return SLP_OK;
    double *ray = slp_calloc((size_t)orig->m_loc + 1, sizeof(double));
    slp_err rc = slp_comm_agree(grid->world, ray ? SLP_OK : SLP_ERR_NOMEM);
    if (rc != SLP_OK) {
        free(ray);
        return rc;
    }
    if (mine)
        ray[i] = y;
    *ray_y = ray;
    *proves = 1;
    return SLP_OK;
}
