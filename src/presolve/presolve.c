/* Presolve's driver (presolve.h): the record and working state of one run, the rounds
 * of the reduction table (presolve_table.c) until nothing changes, the reduced norms and
 * the summary. Every formula is in docs/presolve.md.
 *
 * Internally the objective is read in MIN form (c_min = sense * c) wherever a
 * decision depends on its sign; lp itself stays in the file's sense because
 * the solver negates a maximisation itself. */
#include "presolve/presolve_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "core/timer.h"
#include "grid/reduce.h"

const char *slp_presolve_kind_name(int kind)
{
    static const char *names[SLP_PRESOLVE_NKINDS] = {
        "paper", "fixed", "singleton", "empty_row", "empty_col",
        "redundant", "forcing", "dual_fix", "free_col", "slack_col", "doubleton",
        "parallel", "parallel_fix", "duplicate_row", "dominated"};
    return kind >= 0 && kind < SLP_PRESOLVE_NKINDS ? names[kind] : "?";
}

const slp_presolve_stats_t *slp_presolve_stats(const slp_presolve_t *pre)
{
    return &pre->stats;
}

const slp_norms_t *slp_presolve_norms(const slp_presolve_t *pre) { return &pre->norms; }

void slp_presolve_drop_record(slp_presolve_t *p)
{
    void *arrays[] = {p->packed_cols, p->packed_rows, p->lc, p->uc, p->col_stage, p->col_val,
                      p->col_obj, p->row_stage, p->row_rhs, p->row_dual, p->col_ray, p->runs,
                      p->ent_col, p->ent_val, p->par, p->slack};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        free(arrays[k]);
    p->packed_cols = NULL;
    p->packed_rows = NULL;
    p->lc = p->uc = p->col_val = p->col_obj = p->row_rhs = p->row_dual = p->ent_val = NULL;
    p->col_stage = p->row_stage = p->ent_col = NULL;
    p->col_ray = NULL;
    p->runs = NULL;
    p->par = NULL;
    p->slack = NULL;
    p->n_packed_cols = p->n_packed_rows = p->cap_packed_cols = 0;
    p->n_runs = p->cap_runs = p->n_ent = p->cap_ent = p->n_par = p->n_slack = 0;
    p->cap_par = p->cap_slack = 0;
    p->dropped = 1;
}

void slp_presolve_free(slp_presolve_t **pre)
{
    if (!pre || !*pre)
        return;
    slp_presolve_t *p = *pre;
    slp_presolve_drop_record(p);
    free(p->stage_kind);
    free(p);
    *pre = NULL;
}

static slp_err create(const slp_local_problem_t *lp, slp_presolve_t **out)
{
    slp_presolve_t *p = slp_calloc(1, sizeof *p);
    if (!p)
        return SLP_ERR_NOMEM;
    *out = p;
    int64_t n = lp->n_loc, m = lp->m_loc;
    p->sense = lp->sense < 0 ? -1 : 1;
    p->obj_const = lp->obj_const;
    p->m_loc = m;
    p->n_loc = n;
    p->row_lo = lp->row_lo;
    p->col_lo = lp->col_lo;
    p->stats.infeasible_row = -1;
    SLP_CALL(slp_alloc(&p->col_stage, (size_t)n + 1, sizeof(int32_t)));
    SLP_CALL(slp_alloc(&p->lc, (size_t)m + 1, sizeof(double)));
    SLP_CALL(slp_alloc(&p->uc, (size_t)m + 1, sizeof(double)));
    SLP_CALL(slp_alloc(&p->row_stage, (size_t)m + 1, sizeof(int32_t)));
    SLP_CALL(slp_alloc(&p->row_rhs, (size_t)m + 1, sizeof(double)));
    SLP_CALL(slp_alloc(&p->row_dual, (size_t)m + 1, sizeof(double)));
    p->col_ray = slp_calloc((size_t)n + 1, 1);
    if (!p->col_ray)
        return SLP_ERR_NOMEM;
    memcpy(p->lc, lp->lc, (size_t)m * sizeof(double));
    memcpy(p->uc, lp->uc, (size_t)m * sizeof(double));
    for (int64_t j = 0; j < n; j++)
        p->col_stage[j] = -1;
    for (int64_t i = 0; i < m; i++)
        p->row_stage[i] = -1;
    return SLP_OK;
}

static slp_err ctx_alloc(ps_ctx_t *x)
{
    int64_t n = x->lp->n_loc, m = x->lp->m_loc;
    SLP_CALL(slp_alloc(&x->rcnt, (size_t)m + 1, sizeof(int64_t)));
    SLP_CALL(slp_alloc(&x->ccnt, (size_t)n + 1, sizeof(int64_t)));
    SLP_CALL(slp_alloc(&x->rbuf, 2 * (size_t)m + 1, sizeof(double)));
    SLP_CALL(slp_alloc(&x->rowmag, (size_t)m + 1, sizeof(double)));
    SLP_CALL(slp_alloc(&x->widen, 2 * (size_t)m + 1, sizeof(double)));
    memset(x->widen, 0, (2 * (size_t)m + 1) * sizeof(double));
    SLP_CALL(slp_alloc(&x->cbuf, 2 * (size_t)n + 1, sizeof(double)));
    SLP_CALL(slp_alloc(&x->costmag, (size_t)n + 1, sizeof(float)));
    for (int64_t j = 0; j < n; j++)
        x->costmag[j] = ps_rounding_scale(fabs(x->lp->obj[j]));
    SLP_CALL(slp_alloc(&x->row_kill, (size_t)m + 1, 1));
    SLP_CALL(slp_alloc(&x->row_flags, (size_t)m + 1, 1));
    SLP_CALL(slp_alloc(&x->col_kill, (size_t)n + 1, 1));
    SLP_CALL(slp_alloc(&x->col_mark, (size_t)n + 1, 1));
    memset(x->rowmag, 0, ((size_t)m + 1) * sizeof(double));
    return SLP_OK;
}

static void ctx_free(ps_ctx_t *x)
{
    free(x->rcnt);
    free(x->ccnt);
    free(x->rbuf);
    free(x->rowmag);
    free(x->costmag);
    free(x->widen);
    free(x->cbuf);
    free(x->sbuf);
    free(x->row_kill);
    free(x->row_flags);
    free(x->col_kill);
    free(x->col_mark);
}

/* Bounds that are infeasible as given: lv > uv or lc > uc. */
static slp_err check_bounds(ps_ctx_t *x)
{
    const slp_local_problem_t *lp = x->lp;
    double colv[1] = {0.0}, rowv[1] = {0.0};
    for (int64_t j = 0; j < lp->n_loc; j++)
        colv[0] += lp->lv[j] > lp->uv[j] || lp->lv[j] == INFINITY || lp->uv[j] == -INFINITY;
    for (int64_t i = 0; i < lp->m_loc; i++)
        rowv[0] += lp->lc[i] > lp->uc[i] || lp->lc[i] == INFINITY || lp->uc[i] == -INFINITY;
    SLP_CALL(ps_batch_sums(x->grid, colv, 1, rowv, 1, NULL, 0));
    if (colv[0] + rowv[0] > 0.0) {
        x->status = SLP_STATUS_PRIMAL_INFEASIBLE;
        slp_log_verbose("presolve: %.0f column(s) and %.0f row(s) with lower > upper bound\n",
                        colv[0], rowv[0]);
    }
    return SLP_OK;
}

/* A pass's outcome, with the ranks' agreement on a failure it deferred (a record that
 * could not grow on some rank, presolve_internal.h). */
static slp_err settled(ps_ctx_t *x, slp_err rc)
{
    return rc != SLP_OK ? rc : slp_comm_agree(x->grid->world, x->p->deferred);
}

/* Rounds of the table's passes until one changes nothing (at most SLP_PS_MAX_ROUNDS) or
 * a pass decides a status. */
static slp_err run_rounds(ps_ctx_t *x)
{
    slp_presolve_t *p = x->p;
    SLP_CALL(check_bounds(x));
    for (int round = 1; round <= SLP_PS_MAX_ROUNDS && x->status < 0; round++) {
        int64_t changed = 0;
        p->stats.rounds = round;
        for (int k = 0; k < ps_reduction_count && x->status < 0; k++)
            if (ps_reductions[k].pass)
                SLP_CALL(settled(x, ps_reductions[k].pass(x, &changed)));
        if (changed == 0)
            break;
    }
    return SLP_OK;
}

/* The reduced problem's norms, a row widened by slack columns counted with its bounds
 * before the widening: a slack's range (a column bound of 1e5, say) says nothing about
 * the scale of the row, and counting it loosened the tolerances (grow22's ||b|| went from
 * 0 to 9e5). Collective. */
static slp_err reduced_norms(ps_ctx_t *x)
{
    slp_local_problem_t view = *x->lp;
    int64_t m = view.m_loc;
    double *bounds = NULL;
    SLP_CALL(ps_alloc_all(x, &bounds, 2 * (size_t)m + 1, sizeof(double)));
    for (int64_t i = 0; i < m; i++) {
        double wl = x->widen[i], wu = x->widen[m + i];
        bounds[i] = isfinite(wl) ? view.lc[i] - wl : view.lc[i];
        bounds[m + i] = isfinite(wu) ? view.uc[i] - wu : view.uc[i];
    }
    view.lc = bounds;
    view.uc = bounds + m;
    slp_err rc = slp_compute_norms(x->grid, &view, &x->p->norms);
    free(bounds);
    return rc;
}

/* The second log line: rows/columns/nonzeros of every kind that removed something. */
static void log_passes(const slp_presolve_stats_t *st)
{
    char line[512];
    int len = snprintf(line, sizeof line, "Presolve passes (rows/cols/nnz):");
    for (int k = 0; k < SLP_PRESOLVE_NKINDS && len < (int)sizeof line; k++) {
        const slp_presolve_count_t *c = &st->kind[k];
        if (c->rows + c->cols + c->nnz > 0)
            len += snprintf(line + len, sizeof line - (size_t)len, " %s %lld/%lld/%lld",
                            slp_presolve_kind_name(k), (long long)c->rows, (long long)c->cols,
                            (long long)c->nnz);
    }
    slp_log("%s%s\n", line, st->total.rows + st->total.cols + st->total.nnz > 0 ? "" : " none");
}

slp_err slp_presolve_run(slp_grid_t *grid, slp_local_problem_t *lp, slp_presolve_t **out,
                         int *status_out)
{
    double t0 = slp_wall_seconds();
    *out = NULL;
    *status_out = -1;
    slp_presolve_t *p = NULL;
    slp_err rc = create(lp, &p);
    ps_ctx_t x = {0};
    x.grid = grid;
    x.lp = lp;
    x.p = p;
    x.status = -1;
    if (rc == SLP_OK)
        rc = ctx_alloc(&x);
    rc = slp_comm_agree(grid->world, rc);
    double blk[1] = {(double)lp->A.nnz};
    if (rc == SLP_OK)
        rc = ps_batch_sums(grid, NULL, 0, NULL, 0, blk, 1);
    if (rc == SLP_OK) {
        p->stats.nnz_before = (int64_t)blk[0];
        rc = run_rounds(&x);
    }
    /* Test hook (tests/cli/statuses.sh): SLP_TEST_PRESOLVE_INFEASIBLE=1 makes presolve
     * call every LP infeasible, as a wrong tolerance would, so that the confirmation on
     * the original model can be seen to withdraw the verdict. */
    if (rc == SLP_OK && getenv("SLP_TEST_PRESOLVE_INFEASIBLE"))
        x.status = SLP_STATUS_PRIMAL_INFEASIBLE;
    rc = slp_comm_agree(grid->world, rc);
    if (rc == SLP_OK)
        rc = reduced_norms(&x);
    ctx_free(&x);
    /* the solve's memory: the block without the removed entries' room, and of the
     * record only the removed lines until recovery */
    slp_csr_shrink(&lp->A);
    if (rc == SLP_OK)
        rc = ps_record_pack(p);
    rc = slp_comm_agree(grid->world, rc);
    if (rc != SLP_OK) {
        slp_presolve_free(&p);
        return rc;
    }
    slp_presolve_stats_t *st = &p->stats;
    for (int k = 0; k < SLP_PRESOLVE_NKINDS; k++) {
        st->total.rows += st->kind[k].rows;
        st->total.cols += st->kind[k].cols;
        st->total.nnz += st->kind[k].nnz;
    }
    lp->nnz = st->nnz_before - st->total.nnz;
    st->seconds = slp_wall_seconds() - t0;
    slp_log("Presolve: removed %lld rows, %lld columns, %lld nonzeros (%.1f%%) in %d round%s, "
            "%.3f s\n",
            (long long)st->total.rows, (long long)st->total.cols, (long long)st->total.nnz,
            st->nnz_before > 0 ? 100.0 * (double)st->total.nnz / (double)st->nnz_before : 0.0,
            st->rounds, st->rounds == 1 ? "" : "s", st->seconds);
    log_passes(st);
    if (x.status >= 0)
        slp_log("Presolve: problem is primal infeasible\n");
    else if (p->unbounded_cols > 0)
        slp_log("Presolve: %lld empty column%s improve the objective without limit: unbounded if the "
                "rest is feasible\n", (long long)p->unbounded_cols, p->unbounded_cols == 1 ? "" : "s");
    *status_out = x.status;
    *out = p;
    return SLP_OK;
}

