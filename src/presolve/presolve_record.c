/* The presolve record, compact where it can be (docs/memory.md "Presolve"): removed
 * columns go into a list as presolve removes them (stage, value, objective), so no
 * column-length array of values exists until recovery; between presolve and recovery,
 * while the solve runs, the per-line arrays left (column stages and rays, row stages,
 * right-hand sides and duals, the original row bounds) are packed to the removed lines
 * too, and the removed entries keep their exact size. Recovery unpacks. */
#include <stdlib.h>
#include <string.h>

#include "presolve/presolve_internal.h"

void ps_remove_column(slp_presolve_t *p, int32_t j, int stage, double val, double obj)
{
    p->col_stage[j] = stage;
    if (ps_grow(p, &p->packed_cols, &p->cap_packed_cols, p->n_packed_cols + 1,
                sizeof *p->packed_cols, 256, "presolve's removed columns"))
        p->packed_cols[p->n_packed_cols++] = (packed_col_t){j, stage, val, obj, 0};
}

/* Cut a growing array to its count (the growth's slack back). */
static void *fit(void *array, int64_t count, size_t size)
{
    void *cut = count > 0 ? realloc(array, (size_t)count * size) : NULL;
    return cut ? cut : array;
}

slp_err ps_record_pack(slp_presolve_t *p)
{
    if (p->packed)
        return SLP_OK;
    int64_t nr = 0;
    for (int64_t i = 0; i < p->m_loc; i++)
        nr += p->row_stage[i] >= 0;
    SLP_CALL(slp_alloc(&p->packed_rows, (size_t)nr + 1, sizeof *p->packed_rows));
    nr = 0;
    for (int64_t i = 0; i < p->m_loc; i++)
        if (p->row_stage[i] >= 0)
            p->packed_rows[nr++] =
                (packed_row_t){(int32_t)i, p->row_stage[i], p->row_rhs[i], p->row_dual[i]};
    p->n_packed_rows = nr;
    for (int64_t k = 0; k < p->n_packed_cols; k++)
        p->packed_cols[k].ray = p->col_ray[p->packed_cols[k].col];
    p->packed_cols = fit(p->packed_cols, p->n_packed_cols, sizeof *p->packed_cols);
    p->cap_packed_cols = p->n_packed_cols;
    p->ent = fit(p->ent, p->n_ent, sizeof *p->ent);
    p->cap_ent = p->n_ent > 0 ? p->n_ent : p->cap_ent;
    void *lines[] = {p->lc, p->uc, p->col_stage, p->col_ray, p->row_stage, p->row_rhs,
                     p->row_dual};
    for (size_t k = 0; k < sizeof lines / sizeof lines[0]; k++)
        free(lines[k]);
    p->lc = p->uc = p->row_rhs = p->row_dual = NULL;
    p->col_stage = p->row_stage = NULL;
    p->col_ray = NULL;
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
    for (int64_t k = 0; k < p->n_packed_cols; k++) { /* in removal order */
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
    free(p->packed_rows);
    p->packed_rows = NULL;
    p->n_packed_rows = 0;
    p->packed = 0;
    return SLP_OK;
}
