/* The presolve record packed while the solve runs (docs/memory.md): the per-line
 * arrays (stage, value, objective and ray of each column; stage, right-hand side and
 * dual of each row) hold something only for removed lines, so between presolve and
 * recovery just those are kept, as (index, data) pairs. */
#include <stdlib.h>
#include <string.h>

#include "presolve/presolve_internal.h"

static void free_lines(slp_presolve_t *p)
{
    void *arrays[] = {p->lc, p->uc, p->col_stage, p->col_val, p->col_obj, p->col_ray,
                      p->row_stage, p->row_rhs, p->row_dual};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        free(arrays[k]);
    p->lc = p->uc = p->col_val = p->col_obj = p->row_rhs = p->row_dual = NULL;
    p->col_stage = p->row_stage = NULL;
    p->col_ray = NULL;
}

slp_err ps_record_pack(slp_presolve_t *p)
{
    if (p->packed)
        return SLP_OK;
    int64_t nc = 0, nr = 0;
    for (int64_t j = 0; j < p->n_loc; j++)
        nc += p->col_stage[j] >= 0 || p->col_ray[j] != 0;
    for (int64_t i = 0; i < p->m_loc; i++)
        nr += p->row_stage[i] >= 0;
    SLP_CALL(slp_alloc(&p->packed_cols, (size_t)nc + 1, sizeof *p->packed_cols));
    SLP_CALL(slp_alloc(&p->packed_rows, (size_t)nr + 1, sizeof *p->packed_rows));
    nc = nr = 0;
    for (int64_t j = 0; j < p->n_loc; j++)
        if (p->col_stage[j] >= 0 || p->col_ray[j] != 0)
            p->packed_cols[nc++] = (packed_col_t){(int32_t)j, p->col_stage[j], p->col_val[j],
                                                  p->col_obj[j], p->col_ray[j]};
    for (int64_t i = 0; i < p->m_loc; i++)
        if (p->row_stage[i] >= 0)
            p->packed_rows[nr++] =
                (packed_row_t){(int32_t)i, p->row_stage[i], p->row_rhs[i], p->row_dual[i]};
    p->n_packed_cols = nc;
    p->n_packed_rows = nr;
    free_lines(p);
    p->packed = 1;
    return SLP_OK;
}

slp_err ps_record_unpack(slp_presolve_t *p)
{
    if (!p->packed)
        return SLP_OK;
    size_t n = (size_t)p->n_loc + 1, m = (size_t)p->m_loc + 1;
    SLP_CALL(slp_alloc(&p->col_stage, n, sizeof *p->col_stage));
    SLP_CALL(slp_alloc(&p->col_val, n, sizeof *p->col_val));
    SLP_CALL(slp_alloc(&p->col_obj, n, sizeof *p->col_obj));
    SLP_CALL(slp_alloc(&p->row_stage, m, sizeof *p->row_stage));
    SLP_CALL(slp_alloc(&p->row_rhs, m, sizeof *p->row_rhs));
    SLP_CALL(slp_alloc(&p->row_dual, m, sizeof *p->row_dual));
    p->col_ray = slp_calloc(n, 1);
    if (!p->col_ray)
        return SLP_ERR_NOMEM;
    for (int64_t j = 0; j < p->n_loc; j++) {
        p->col_stage[j] = -1;
        p->col_val[j] = p->col_obj[j] = 0.0;
    }
    for (int64_t i = 0; i < p->m_loc; i++) {
        p->row_stage[i] = -1;
        p->row_rhs[i] = p->row_dual[i] = 0.0;
    }
    for (int64_t k = 0; k < p->n_packed_cols; k++) {
        const packed_col_t *c = &p->packed_cols[k];
        p->col_stage[c->col] = c->stage;
        p->col_val[c->col] = c->val;
        p->col_obj[c->col] = c->obj;
        p->col_ray[c->col] = c->ray;
    }
    for (int64_t k = 0; k < p->n_packed_rows; k++) {
        const packed_row_t *r = &p->packed_rows[k];
        p->row_stage[r->row] = r->stage;
        p->row_rhs[r->row] = r->rhs;
        p->row_dual[r->row] = r->dual;
    }
    free(p->packed_cols);
    free(p->packed_rows);
    p->packed_cols = NULL;
    p->packed_rows = NULL;
    p->packed = 0;
    return SLP_OK;
}
