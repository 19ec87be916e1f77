/* Presolve's recovery (docs/presolve.md, "Recovery"): the stages undone in reverse order
 * through the reduction table's undo functions, then the row activities and objectives in
 * the original space. */
#include "presolve/presolve_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "core/timer.h"
#include "grid/reduce.h"

/* Undo stage s (the span of the record that carries stage s) with the undo of the
 * table row that records its kind (presolve_table.c). Min form: y and z are sense *
 * (user-sense values). */
static slp_err undo_stage(const ps_undo_t *u, int s, ps_span_t span)
{
    for (int k = 0; k < ps_reduction_count; k++)
        if (ps_reductions[k].stage == u->p->stage_kind[s])
            return ps_reductions[k].undo ? ps_reductions[k].undo(u, s, span) : SLP_OK;
    return slp_error(SLP_ERR_INTERNAL, "presolve: no undo for stage kind %d",
                     u->p->stage_kind[s]);
}

/* Projection of a min-form dual value onto the sign set of bounds [l, u]. */
static double project_dual(double v, double l, double u)
{
    int lf = isfinite(l), uf = isfinite(u);
    if (lf && uf)
        return v;
    if (lf)
        return fmax(v, 0.0);
    if (uf)
        return fmin(v, 0.0);
    return 0.0;
}

static double bound_term(double v, double l, double u)
{
    return (v > 0.0 ? v * l : 0.0) + (v < 0.0 ? v * u : 0.0);
}

slp_err slp_presolve_undo(slp_grid_t *grid, slp_presolve_t *p, slp_result_t *result)
{
    if (p->dropped)
        return slp_error(SLP_ERR_INTERNAL, "presolve: the record was dropped before an undo");
    int64_t n = p->n_loc, m = p->m_loc;
    double sg = (double)p->sense;
    double *x = result->x, *z = result->rc, *y = result->y;
    double *cb = NULL, *rb = NULL;
    slp_err rc = ps_record_unpack(p);
    if (rc == SLP_OK)
        rc = slp_alloc(&cb, (size_t)n + 1, sizeof(double));
    if (rc == SLP_OK)
        rc = slp_alloc(&rb, 2 * (size_t)m + 1, sizeof(double));
    rc = slp_comm_agree(grid->world, rc);
    if (rc != SLP_OK) {
        free(cb);
        free(rb);
        return rc;
    }
    for (int64_t j = 0; j < n; j++) {
        z[j] *= sg;
        if (p->col_stage[j] >= 0) {
            x[j] = p->col_val[j];
            z[j] = 0.0;
        }
    }
    for (int64_t i = 0; i < m; i++) {
        y[i] *= sg;
        if (p->row_stage[i] >= 0)
            y[i] = 0.0;
    }
    ps_undo_t undo = {grid, p, x, z, y, cb, rb};
    /* Stages in reverse; entries are stored in stage order. */
    ps_span_t span = {p->n_runs, p->n_runs, p->n_ent};
    for (int s = p->nstages - 1; s >= 0 && rc == SLP_OK; s--) {
        span.run_hi = span.run_lo;
        while (span.run_lo > 0 && p->runs[span.run_lo - 1].stage == s)
            span.ent_lo -= p->runs[--span.run_lo].len;
        rc = undo_stage(&undo, s, span);
    }
    free(cb);
    free(rb);
    return slp_comm_agree(grid->world, rc);
}

slp_err slp_presolve_finish(slp_grid_t *grid, const slp_presolve_t *p,
                            const slp_local_problem_t *orig, slp_result_t *result)
{
    int64_t n = p->n_loc, m = p->m_loc;
    double sg = (double)p->sense;
    const double *x = result->x;
    double *z = result->rc, *y = result->y, *ax = result->ax;
    /* Row activities: the original block at the final x. */
    const slp_csr_t *a = &orig->A;
    for (int64_t i = 0; i < m; i++) {
        double sum = 0.0;
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            sum += a->val[k] * x[a->col_idx[k]];
        ax[i] = sum;
    }
    slp_err rc = slp_sum_over_row(grid, ax, m);
    if (rc == SLP_OK) {
        /* Objectives in the original space: primal c^T x + c0 (file sense), dual
         * with the checker's formula in min form. */
        double colv[2] = {0.0, 0.0}, rowv[1] = {0.0};
        const double *c = orig->obj, *lv = orig->lv, *uv = orig->uv;
        for (int64_t j = 0; j < n; j++) {
            colv[0] += c[j] * x[j];
            colv[1] += bound_term(project_dual(z[j], lv[j], uv[j]), lv[j], uv[j]);
        }
        for (int64_t i = 0; i < m; i++)
            rowv[0] += bound_term(project_dual(y[i], orig->lc[i], orig->uc[i]), orig->lc[i],
                                  orig->uc[i]);
        rc = ps_batch_sums(grid, colv, 2, rowv, 1, NULL, 0);
        result->objective = colv[0] + p->obj_const;
        result->dual_objective = sg * (sg * p->obj_const + colv[1] + rowv[0]);
    }
    for (int64_t j = 0; j < n; j++)
        z[j] *= sg;
    for (int64_t i = 0; i < m; i++)
        y[i] *= sg;
    return slp_comm_agree(grid->world, rc);
}

slp_err slp_presolve_recover(slp_grid_t *grid, slp_presolve_t *p,
                             const slp_local_problem_t *orig, slp_result_t *result)
{
    SLP_CALL(slp_presolve_undo(grid, p, result));
    return slp_presolve_finish(grid, p, orig, result);
}

int64_t slp_presolve_unbounded_columns(const slp_presolve_t *pre) { return pre->unbounded_cols; }

void slp_presolve_shift_unbounded(slp_presolve_t *pre, double t)
{
    if (!pre->packed) {
        for (int64_t j = 0; j < pre->n_loc; j++)
            pre->col_val[j] += t * (double)pre->col_ray[j];
        return;
    }
    for (int64_t k = 0; k < pre->n_packed_cols; k++)
        pre->packed_cols[k].val += t * (double)pre->packed_cols[k].ray;
}

slp_err slp_presolve_reduce_start(const slp_presolve_t *p, const double *y0, double **y_out)
{
    *y_out = NULL;
    if (!y0)
        return SLP_OK;
    SLP_CALL(slp_alloc(y_out, (size_t)p->m_loc + 1, sizeof(double)));
    memcpy(*y_out, y0, (size_t)p->m_loc * sizeof(double));
    for (int64_t k = 0; k < p->n_packed_rows; k++)
        (*y_out)[p->packed_rows[k].row] = 0.0;
    return SLP_OK;
}
