#include "check/check_shards.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check_grid.h"
#include "grid/comm.h"
#include "shard/shard.h"

/* Block-local int32 column indices as the int64 the checker's CSR products take. */
static slp_err widen_columns(const slp_csr_t *a, int64_t **out)
{
    SLP_CALL(slp_alloc(out, (size_t)a->nnz + 1, sizeof(int64_t)));
    for (int64_t k = 0; k < a->nnz; k++)
        (*out)[k] = a->col_idx[k];
    return SLP_OK;
}

static slp_err read_slice(const char *dir, const slp_shard_solution_manifest_t *sm, int kind,
                          int block, int64_t expected, double **v1, double **v2)
{
    int64_t len = 0;
    SLP_CALL(slp_shard_read_solution_slice(dir, sm, kind, block, &len, v1, v2));
    if (len != expected)
        return slp_error(SLP_ERR_INPUT, "%s: solution block %d holds %lld values, the model's "
                         "block has %lld", dir, block, (long long)len, (long long)expected);
    return SLP_OK;
}

/* Row block r: ax = sum over column blocks of A_rc x_c, then the row criteria. */
static slp_err check_row_block(const char *model_dir, const slp_shard_manifest_t *man,
                               const char *sol_dir, const slp_shard_solution_manifest_t *sm,
                               int r, slp_check_t *chk)
{
    int64_t m_r = man->row_off[r + 1] - man->row_off[r];
    long double *ax = calloc((size_t)m_r + 1, sizeof *ax);
    long double *ax_abs = calloc((size_t)m_r + 1, sizeof *ax_abs);
    double *y = NULL, *act = NULL;
    slp_local_problem_t blk = {0};
    slp_err rc = ax && ax_abs ? SLP_OK : slp_error(SLP_ERR_NOMEM, "out of memory");
    for (int c = 0; rc == SLP_OK && c < man->C; c++) {
        double *x = NULL, *z = NULL;
        int64_t *cols = NULL;
        rc = slp_shard_read_block(model_dir, man, r, c, &blk);
        if (rc == SLP_OK)
            rc = read_slice(sol_dir, sm, SLP_SHARD_SOL_X, c, blk.n_loc, &x, &z);
        if (rc == SLP_OK)
            rc = widen_columns(&blk.A, &cols);
        if (rc == SLP_OK)
            slp_check_csr_ax(blk.m_loc, blk.A.row_ptr, cols, blk.A.val, 0, x, ax, ax_abs);
        if (rc == SLP_OK && c == man->C - 1) {
            rc = read_slice(sol_dir, sm, SLP_SHARD_SOL_Y, r, m_r, &y, &act);
            if (rc == SLP_OK)
                slp_check_rows(chk, man->row_off[r], m_r, blk.lc, blk.uc, y, ax, ax_abs);
        }
        free(x);
        free(z);
        free(cols);
        slp_local_problem_free(&blk);
    }
    free(ax);
    free(ax_abs);
    free(y);
    free(act);
    return rc;
}

/* Column block c: aty = sum over row blocks of A_rc^T y_r (y projected on its sign set),
 * then the column criteria. */
static slp_err check_col_block(const char *model_dir, const slp_shard_manifest_t *man,
                               const char *sol_dir, const slp_shard_solution_manifest_t *sm,
                               int c, slp_check_t *chk)
{
    int64_t n_c = man->col_off[c + 1] - man->col_off[c];
    long double *aty = calloc((size_t)n_c + 1, sizeof *aty);
    long double *aty_abs = calloc((size_t)n_c + 1, sizeof *aty_abs);
    double *x = NULL, *z = NULL;
    slp_local_problem_t blk = {0};
    slp_err rc = aty && aty_abs ? SLP_OK : slp_error(SLP_ERR_NOMEM, "out of memory");
    for (int r = 0; rc == SLP_OK && r < man->R; r++) {
        double *y = NULL, *act = NULL, *yp = NULL;
        int64_t *cols = NULL;
        rc = slp_shard_read_block(model_dir, man, r, c, &blk);
        if (rc == SLP_OK)
            rc = read_slice(sol_dir, sm, SLP_SHARD_SOL_Y, r, blk.m_loc, &y, &act);
        if (rc == SLP_OK)
            rc = slp_alloc(&yp, (size_t)blk.m_loc + 1, sizeof(double));
        if (rc == SLP_OK)
            rc = widen_columns(&blk.A, &cols);
        if (rc == SLP_OK) {
            slp_check_project_row_duals(man->sense, blk.m_loc, blk.lc, blk.uc, y, yp);
            slp_check_csr_aty(blk.m_loc, blk.A.row_ptr, cols, blk.A.val, 0, yp, aty, aty_abs);
        }
        if (rc == SLP_OK && r == man->R - 1) {
            rc = read_slice(sol_dir, sm, SLP_SHARD_SOL_X, c, n_c, &x, &z);
            if (rc == SLP_OK)
                slp_check_cols(chk, man->col_off[c], n_c, blk.obj, blk.lv, blk.uv, x, z, aty,
                               aty_abs);
        }
        free(y);
        free(act);
        free(yp);
        free(cols);
        slp_local_problem_free(&blk);
    }
    free(aty);
    free(aty_abs);
    free(x);
    free(z);
    return rc;
}

static slp_err same_grid(const char *sol_dir, const slp_shard_manifest_t *man,
                         const slp_shard_solution_manifest_t *sm)
{
    if (sm->m != man->m || sm->n != man->n)
        return slp_error(SLP_ERR_INPUT, "%s: solution of a %lld x %lld model, the model is "
                         "%lld x %lld", sol_dir, (long long)sm->m, (long long)sm->n,
                         (long long)man->m, (long long)man->n);
    int same = sm->R == man->R && sm->C == man->C;
    for (int r = 0; same && r <= man->R; r++)
        same = sm->row_off[r] == man->row_off[r];
    for (int c = 0; same && c <= man->C; c++)
        same = sm->col_off[c] == man->col_off[c];
    if (!same)
        return slp_error(SLP_ERR_INPUT, "%s: the solution is cut for a %dx%d grid that is not "
                         "the model's %dx%d grid", sol_dir, sm->R, sm->C, man->R, man->C);
    return SLP_OK;
}

/* What the report says of the model and the solution. */
static void fill_info(const slp_shard_manifest_t *man, const slp_shard_solution_manifest_t *sm,
                      slp_check_shard_info_t *info)
{
    memset(info, 0, sizeof *info);
    info->m = man->m;
    info->n = man->n;
    info->nnz = man->nnz;
    info->sense = man->sense;
    snprintf(info->status, sizeof info->status, "%s", sm->status);
    info->reported_objective = sm->objective;
}

slp_err slp_check_shards(const char *model_dir, const char *sol_dir, slp_check_result_t *result,
                         slp_check_shard_info_t *info)
{
    slp_shard_manifest_t man = {0};
    slp_shard_solution_manifest_t sm = {0};
    slp_err rc = slp_shard_read_manifest(model_dir, &man);
    if (rc == SLP_OK)
        rc = slp_shard_read_solution_manifest(sol_dir, &sm);
    if (rc == SLP_OK)
        rc = same_grid(sol_dir, &man, &sm);
    if (rc == SLP_OK) {
        fill_info(&man, &sm, info);
        slp_check_t chk;
        /* A non-finite reported objective is unusable: make the gap fail. */
        slp_check_init(&chk, man.sense, man.obj_const, isnan(sm.objective) ? INFINITY : sm.objective);
        for (int r = 0; rc == SLP_OK && r < man.R; r++)
            rc = check_row_block(model_dir, &man, sol_dir, &sm, r, &chk);
        for (int c = 0; rc == SLP_OK && c < man.C; c++)
            rc = check_col_block(model_dir, &man, sol_dir, &sm, c, &chk);
        if (rc == SLP_OK)
            slp_check_finish(&chk, result);
    }
    slp_shard_solution_manifest_free(&sm);
    slp_shard_manifest_free(&man);
    return rc;
}

/* The certificate's ray slices, when the sharded solution has them, into s->ray_x /
 * s->ray_y (the text solution's "# Primal ray" / "# Dual ray" sections). */
static slp_err load_rays(const char *sol_dir, const slp_shard_solution_manifest_t *sm,
                         slp_solution_t *s)
{
    int has[2] = {sm->has_ray_x, sm->has_ray_y};
    for (int dual = 0; dual < 2; dual++) {
        if (!has[dual])
            continue;
        int parts = dual ? sm->R : sm->C;
        const int64_t *off = dual ? sm->row_off : sm->col_off;
        double **ray = dual ? &s->ray_y : &s->ray_x;
        SLP_CALL(slp_alloc(ray, (size_t)(dual ? s->m : s->n) + 1, sizeof(double)));
        for (int b = 0; b < parts; b++) {
            double *v = NULL;
            int64_t len = 0;
            SLP_CALL(slp_shard_read_solution_slice(sol_dir, sm, dual ? SLP_SHARD_SOL_RAY_Y
                                                                   : SLP_SHARD_SOL_RAY_X,
                                                   b, &len, &v, NULL));
            memcpy(*ray + off[b], v, (size_t)len * sizeof(double));
            free(v);
        }
        s->has_ray[dual] = 1;
    }
    return SLP_OK;
}

slp_err slp_check_load_sharded_solution(const char *sol_dir, int64_t m, int64_t n,
                                        slp_solution_t **out)
{
    *out = NULL;
    slp_shard_solution_manifest_t sm = {0};
    SLP_CALL(slp_shard_read_solution_manifest(sol_dir, &sm));
    slp_err rc = SLP_OK;
    if (sm.m != m || sm.n != n)
        rc = slp_error(SLP_ERR_INPUT, "%s: solution of a %lld x %lld model, the model is %lld x %lld",
                       sol_dir, (long long)sm.m, (long long)sm.n, (long long)m, (long long)n);
    slp_solution_t *s = rc == SLP_OK ? slp_calloc(1, sizeof *s) : NULL;
    if (rc == SLP_OK && !s)
        rc = SLP_ERR_NOMEM;
    if (rc == SLP_OK) {
        s->model_status = slp_strdup(sm.status);
        s->primal_status = slp_strdup("");
        s->dual_status = slp_strdup("");
        s->has_objective = 1;
        s->objective = sm.objective;
        s->m = m;
        s->n = n;
        s->x = slp_calloc((size_t)n + 1, sizeof(double));
        s->z = slp_calloc((size_t)n + 1, sizeof(double));
        s->y = slp_calloc((size_t)m + 1, sizeof(double));
        s->row_activity = slp_calloc((size_t)m + 1, sizeof(double));
        for (int k = 0; k < SLP_SOL_SECTION_COUNT; k++)
            s->first_missing[k] = -1;
        if (!s->model_status || !s->primal_status || !s->dual_status || !s->x || !s->z || !s->y ||
            !s->row_activity)
            rc = SLP_ERR_NOMEM;
    }
    for (int c = 0; rc == SLP_OK && c < sm.C; c++) {
        double *v1 = NULL, *v2 = NULL;
        int64_t len = 0;
        rc = slp_shard_read_solution_slice(sol_dir, &sm, SLP_SHARD_SOL_X, c, &len, &v1, &v2);
        if (rc == SLP_OK) {
            memcpy(s->x + sm.col_off[c], v1, (size_t)len * sizeof(double));
            memcpy(s->z + sm.col_off[c], v2, (size_t)len * sizeof(double));
        }
        free(v1);
        free(v2);
    }
    for (int r = 0; rc == SLP_OK && r < sm.R; r++) {
        double *v1 = NULL, *v2 = NULL;
        int64_t len = 0;
        rc = slp_shard_read_solution_slice(sol_dir, &sm, SLP_SHARD_SOL_Y, r, &len, &v1, &v2);
        if (rc == SLP_OK) {
            memcpy(s->y + sm.row_off[r], v1, (size_t)len * sizeof(double));
            memcpy(s->row_activity + sm.row_off[r], v2, (size_t)len * sizeof(double));
        }
        free(v1);
        free(v2);
    }
    if (rc == SLP_OK)
        rc = load_rays(sol_dir, &sm, s);
    slp_shard_solution_manifest_free(&sm);
    if (rc != SLP_OK)
        slp_solution_destroy(&s);
    *out = s;
    return rc;
}

/* This rank's slices of the sharded solution: x and reduced costs of its column block,
 * y of its row block (the lengths checked against its block). */
static slp_err read_own_slices(const char *sol_dir, const slp_shard_solution_manifest_t *sm,
                               const slp_local_problem_t *lp, double **x, double **z,
                               double **y)
{
    double *act = NULL;
    SLP_CALL(read_slice(sol_dir, sm, SLP_SHARD_SOL_X, lp->c, lp->n_loc, x, z));
    slp_err rc = read_slice(sol_dir, sm, SLP_SHARD_SOL_Y, lp->r, lp->m_loc, y, &act);
    free(act);
    return rc;
}

slp_err slp_check_shards_grid(const char *model_dir, const char *sol_dir,
                              slp_check_result_t *result, slp_check_shard_info_t *info)
{
    slp_shard_manifest_t man = {0};
    slp_shard_solution_manifest_t sm = {0};
    slp_grid_t *grid = NULL;
    slp_local_problem_t lp = {0};
    double *x = NULL, *z = NULL, *y = NULL;
    slp_err rc = slp_shard_read_manifest_all(model_dir, &man); /* agreed; world = R x C */
    if (rc == SLP_OK)
        rc = slp_comm_agree(slp_comm_world(), slp_grid_create(man.R, man.C, &grid));
    if (rc == SLP_OK) {
        rc = slp_shard_read_solution_manifest(sol_dir, &sm);
        if (rc == SLP_OK)
            rc = same_grid(sol_dir, &man, &sm);
        rc = slp_comm_agree(grid->world, rc);
    }
    if (rc == SLP_OK)
        rc = slp_shard_read_local_from(model_dir, &man, grid, &lp); /* agreed */
    if (rc == SLP_OK)
        rc = slp_comm_agree(grid->world, read_own_slices(sol_dir, &sm, &lp, &x, &z, &y));
    if (rc == SLP_OK)
        rc = slp_check_grid(grid, &lp, x, y, z, isnan(sm.objective) ? INFINITY : sm.objective,
                            result);
    if (rc == SLP_OK)
        fill_info(&man, &sm, info);
    free(x);
    free(z);
    free(y);
    slp_local_problem_free(&lp);
    slp_grid_destroy(&grid);
    slp_shard_solution_manifest_free(&sm);
    slp_shard_manifest_free(&man);
    return rc;
}
