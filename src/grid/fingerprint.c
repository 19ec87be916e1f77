/* Model fingerprint (grid/fingerprint.h): the XOR over every entry and vector value of
 * a mixed hash of (kind, global index or indices, value bits), each counted once (column
 * vectors on grid row 0, row vectors on grid column 0), and of the sizes, sense and
 * constant. XOR does not depend on the order, so any grid gives the same value. */
#include "grid/fingerprint.h"

#include <stdlib.h>
#include <string.h>

#include "grid/comm.h"

static uint64_t mix(uint64_t kind, uint64_t a, uint64_t b, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    uint64_t h = kind * 0x9e3779b97f4a7c15ULL;
    uint64_t parts[3] = {a, b, bits};
    for (int k = 0; k < 3; k++) {
        h = (h ^ parts[k]) * 0xff51afd7ed558ccdULL;
        h ^= h >> 33;
    }
    return h * 0xc4ceb9fe1a85ec53ULL ^ (h >> 29);
}

static uint64_t slice(uint64_t kind, const double *v, int64_t lo, int64_t len)
{
    uint64_t x = 0;
    for (int64_t k = 0; k < len; k++)
        x ^= mix(kind, (uint64_t)(lo + k), 0, v[k]);
    return x;
}

slp_err slp_model_fingerprint(slp_grid_t *grid, const slp_local_problem_t *lp, uint64_t *out)
{
    uint64_t x = 0;
    const slp_csr_t *a = &lp->A;
    for (int64_t i = 0; i < a->rows; i++)
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            x ^= mix(1, (uint64_t)(lp->row_lo + i), (uint64_t)(lp->col_lo + a->col_idx[k]),
                     a->val[k]);
    if (grid->r == 0)
        x ^= slice(2, lp->obj, lp->col_lo, lp->n_loc) ^ slice(3, lp->lv, lp->col_lo, lp->n_loc) ^
             slice(4, lp->uv, lp->col_lo, lp->n_loc);
    if (grid->c == 0)
        x ^= slice(5, lp->lc, lp->row_lo, lp->m_loc) ^ slice(6, lp->uc, lp->row_lo, lp->m_loc);
    if (grid->rank == 0)
        x ^= mix(7, (uint64_t)lp->m, (uint64_t)lp->n, (double)lp->nnz) ^
             mix(8, (uint64_t)(int64_t)lp->sense, 0, lp->obj_const);
    uint64_t *all = malloc(sizeof *all * (size_t)grid->size);
    slp_err rc = slp_comm_allgather(grid->world, all ? SLP_OK : SLP_ERR_NOMEM, &x, sizeof x, all);
    *out = 0;
    for (int k = 0; rc == SLP_OK && k < grid->size; k++)
        *out ^= all[k];
    free(all);
    return rc;
}
