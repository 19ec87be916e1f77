/* Solving through the public C API: grid, distribution from rank 0, backend,
 * the distributed solve, and the results copied into the caller's buffers
 * (gathered on rank 0 slice by slice) or handed over as slices (shard path). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "backend/backend.h"
#include "core/log.h"
#include "core/timer.h"
#include "grid/distribute.h"
#include "grid/grid.h"
#include "shard/shard.h"
#include "grid/comm_mpi.h"
#include "solver/solver.h"

/* ---- contents ---------------------------------------------------------------
 * shardlp_init / finalize   the communication layer (MPI only under a launcher)
 * make_settings             public settings -> internal settings, validated
 * scatter_start             warm-start slices from rank 0 to every rank
 * gather_results            solution slices to rank 0, into the caller's buffers
 * run_solve                 backend + slp_solve + info, shared by both entry points
 * ------------------------------------------------------------------------------ */

static int comm_started = 0;

shardlp_error shardlp_init(int *argc, char ***argv)
{
    slp_error_clear();
    if (comm_started)
        return SHARDLP_OK;
    slp_err rc = slp_comm_init(argc, argv, 0);
    if (rc == SLP_OK)
        comm_started = 1;
    return slp_api_code(rc);
}

shardlp_error shardlp_init_comm(const void *mpi_comm)
{
    slp_error_clear();
    if (!mpi_comm)
        return slp_api_code(slp_error(SLP_ERR_INPUT, "shardlp_init_comm: NULL communicator"));
    slp_err rc = slp_comm_init_with(*(const MPI_Comm *)mpi_comm);
    if (rc == SLP_OK)
        comm_started = 1;
    return slp_api_code(rc);
}

void shardlp_finalize(void)
{
    if (comm_started)
        slp_comm_finalize();
    comm_started = 0;
}

int shardlp_rank(void) { return slp_comm_rank(slp_comm_world()); }
int shardlp_ranks(void) { return slp_comm_size(slp_comm_world()); }
const char *shardlp_last_error(void) { return slp_error_message(); }
const char *shardlp_status_name(shardlp_status status) { return slp_status_name((slp_status)status); }
const char *shardlp_status_highs_name(shardlp_status status)
{
    return slp_status_highs_name((slp_status)status);
}
const char *shardlp_version(void) { return SLP_VERSION; }

void shardlp_settings_default(shardlp_settings *s)
{
    slp_settings_t d;
    slp_settings_default(&d);
    memset(s, 0, sizeof *s);
    s->tol = d.tol;
    s->time_limit = d.time_limit;
    s->iter_limit = d.iter_limit;
    s->threads = 0;
    s->verbosity = 0;
    s->presolve = d.presolve;
    s->polish = d.polish;
    s->grid_rows = 0;
    s->grid_cols = 0;
}

static slp_err make_settings(const shardlp_settings *in, slp_settings_t *out)
{
    slp_settings_default(out);
    if (!in)
        return SLP_OK;
    if (!(in->tol > 0.0 && in->tol < 1.0))
        return slp_error(SLP_ERR_INPUT, "settings: tol = %g is not in (0, 1)", in->tol);
    if (!(in->time_limit >= 0.0)) /* NaN fails too */
        return slp_error(SLP_ERR_INPUT, "settings: time_limit = %g is negative or NaN",
                         in->time_limit);
    if (in->iter_limit < 1)
        return slp_error(SLP_ERR_INPUT, "settings: iter_limit = %lld is not positive",
                         (long long)in->iter_limit);
    if (in->threads < 0 || in->threads > 4096)
        return slp_error(SLP_ERR_INPUT, "settings: threads = %d is not in [0, 4096]", in->threads);
    if (in->grid_rows < 0 || in->grid_cols < 0)
        return slp_error(SLP_ERR_INPUT, "settings: negative grid shape");
    out->tol = in->tol;
    out->time_limit = in->time_limit;
    out->iter_limit = in->iter_limit;
    out->threads = in->threads;
    out->presolve = in->presolve ? 1 : 0;
    out->polish = in->polish ? 1 : 0;
    out->log_every_check = in->verbosity >= 2;
    return SLP_OK;
}

static slp_err make_grid(const shardlp_settings *s, int R, int C, slp_grid_t **grid)
{
    int P = slp_comm_size(slp_comm_world());
    if (R == 0 && s && s->grid_rows > 0 && s->grid_cols > 0) {
        R = s->grid_rows;
        C = s->grid_cols;
    }
    if (R == 0)
        slp_grid_default_shape(P, &R, &C);
    if ((long)R * C != P)
        return slp_error(SLP_ERR_MPI, "grid %dx%d needs %ld ranks but the job has %d", R, C,
                         (long)R * C, P);
    return slp_grid_create(R, C, grid);
}

/* Rank 0 sends rank (r, c) the slices [col_off[c], col_off[c+1]) of x0 and
 * [row_off[r], row_off[r+1]) of y0. *x0s / *y0s stay NULL when there is no start. */
static slp_err scatter_start(slp_grid_t *g, const slp_local_problem_t *lp,
                             const shardlp_problem *p, double **x0s, double **y0s)
{
    *x0s = *y0s = NULL;
    int64_t have[2] = {0, 0};
    if (g->rank == 0) {
        have[0] = p->x0 != NULL;
        have[1] = p->y0 != NULL;
    }
    SLP_CALL(slp_comm_bcast(g->world, have, sizeof have, 0));
    if (have[0])
        SLP_CALL(slp_alloc(x0s, (size_t)(lp->n_loc > 0 ? lp->n_loc : 1), sizeof **x0s));
    if (have[1])
        SLP_CALL(slp_alloc(y0s, (size_t)(lp->m_loc > 0 ? lp->m_loc : 1), sizeof **y0s));
    if (g->rank == 0) {
        for (int k = 0; k < g->size; k++) {
            int r = k / g->C, c = k % g->C;
            const double *xs = have[0] ? p->x0 + lp->col_off[c] : NULL;
            const double *ys = have[1] ? p->y0 + lp->row_off[r] : NULL;
            int64_t nl = lp->col_off[c + 1] - lp->col_off[c];
            int64_t ml = lp->row_off[r + 1] - lp->row_off[r];
            if (k == 0) {
                if (xs)
                    memcpy(*x0s, xs, (size_t)nl * sizeof *xs);
                if (ys)
                    memcpy(*y0s, ys, (size_t)ml * sizeof *ys);
                continue;
            }
            if (xs)
                SLP_CALL(slp_comm_send(g->world, xs, nl * (int64_t)sizeof *xs, k, 71));
            if (ys)
                SLP_CALL(slp_comm_send(g->world, ys, ml * (int64_t)sizeof *ys, k, 72));
        }
    } else {
        if (have[0])
            SLP_CALL(slp_comm_recv(g->world, *x0s, lp->n_loc * (int64_t)sizeof **x0s, 0, 71));
        if (have[1])
            SLP_CALL(slp_comm_recv(g->world, *y0s, lp->m_loc * (int64_t)sizeof **y0s, 0, 72));
    }
    return SLP_OK;
}

/* The rank at (0, c) sends x and rc of column block c; the rank at (r, 0) sends y
 * and ax of row block r. Rank 0 (at (0, 0)) writes them into the caller's buffers. */
static slp_err gather_results(slp_grid_t *g, const slp_local_problem_t *lp,
                              const slp_result_t *res, double *x, double *y, double *rc,
                              double *ax)
{
    double *outs_n[2] = {x, rc}, *outs_m[2] = {y, ax};
    const double *mine_n[2] = {res->x, res->rc}, *mine_m[2] = {res->y, res->ax};
    if (g->rank == 0) {
        for (int c = 0; c < g->C; c++) {
            int64_t lo = lp->col_off[c], len = lp->col_off[c + 1] - lo;
            for (int v = 0; v < 2; v++) {
                if (c == 0) {
                    if (outs_n[v])
                        memcpy(outs_n[v], mine_n[v], (size_t)len * sizeof(double));
                    continue;
                }
                double *dst = outs_n[v] ? outs_n[v] + lo : NULL;
                double *tmp = NULL;
                if (!dst) /* the caller does not want it: receive and drop */
                    SLP_CALL(slp_alloc(&tmp, (size_t)(len > 0 ? len : 1), sizeof *tmp));
                slp_err e = slp_comm_recv(g->world, dst ? dst : tmp, len * (int64_t)sizeof(double),
                                          c, 81 + v);
                free(tmp);
                SLP_CALL(e);
            }
        }
        for (int r = 0; r < g->R; r++) {
            int64_t lo = lp->row_off[r], len = lp->row_off[r + 1] - lo;
            for (int v = 0; v < 2; v++) {
                if (r == 0) {
                    if (outs_m[v])
                        memcpy(outs_m[v], mine_m[v], (size_t)len * sizeof(double));
                    continue;
                }
                double *dst = outs_m[v] ? outs_m[v] + lo : NULL;
                double *tmp = NULL;
                if (!dst)
                    SLP_CALL(slp_alloc(&tmp, (size_t)(len > 0 ? len : 1), sizeof *tmp));
                slp_err e = slp_comm_recv(g->world, dst ? dst : tmp, len * (int64_t)sizeof(double),
                                          r * g->C, 83 + v);
                free(tmp);
                SLP_CALL(e);
            }
        }
        return SLP_OK;
    }
    if (g->r == 0)
        for (int v = 0; v < 2; v++)
            SLP_CALL(slp_comm_send(g->world, mine_n[v], lp->n_loc * (int64_t)sizeof(double), 0,
                                   81 + v));
    if (g->c == 0)
        for (int v = 0; v < 2; v++)
            SLP_CALL(slp_comm_send(g->world, mine_m[v], lp->m_loc * (int64_t)sizeof(double), 0,
                                   83 + v));
    return SLP_OK;
}

static void fill_info(const slp_grid_t *g, const slp_local_problem_t *lp, const slp_result_t *r,
                      shardlp_info *info)
{
    info->status = (shardlp_status)r->status;
    info->objective = r->objective;
    info->dual_objective = r->dual_objective;
    info->rel_primal_residual = r->rel_primal_residual;
    info->rel_dual_residual = r->rel_dual_residual;
    info->rel_gap = r->rel_gap;
    info->abs_primal_residual = r->abs_primal_residual;
    info->abs_dual_residual = r->abs_dual_residual;
    info->abs_gap = r->abs_gap;
    info->iterations = r->iterations;
    info->restarts = r->restarts;
    info->m = lp->m;
    info->n = lp->n;
    info->nnz = lp->nnz;
    info->grid_rows = g->R;
    info->grid_cols = g->C;
    info->scaling_seconds = r->scaling_seconds;
    info->power_seconds = r->power_seconds;
    info->solve_seconds = r->solve_seconds;
}

/* Backend, solve and info. `set` may carry this rank's warm-start slices. */
static slp_err run_solve(slp_grid_t *g, slp_local_problem_t *lp, slp_settings_t *set,
                         slp_result_t *res, shardlp_info *info)
{
    slp_backend_t *be = NULL;
    int threads = set->threads;
    if (threads == 0 && g->size > 1)
        threads = 1; /* several ranks usually share a node */
    slp_err rc = slp_backend_cpu_create(threads, &be);
    rc = slp_comm_agree(g->world, rc);
    if (rc == SLP_OK)
        rc = slp_comm_agree(g->world, slp_solve(g, lp, set, be, res));
    if (rc == SLP_OK)
        fill_info(g, lp, res, info);
    if (be)
        be->destroy(be);
    return rc;
}

/* Quiet unless asked: the library must not print into a host program's output. */
static slp_log_level set_verbosity(const shardlp_settings *s)
{
    slp_log_level old = slp_log_get_level();
    int v = s ? s->verbosity : 0;
    slp_log_set_level(v <= 0 ? SLP_LOG_QUIET : v == 1 ? SLP_LOG_NORMAL : SLP_LOG_VERBOSE);
    slp_log_set_printing(slp_comm_rank(slp_comm_world()) == 0);
    return old;
}

shardlp_error shardlp_solve(shardlp_problem *problem, const shardlp_settings *settings,
                            shardlp_info *info, double *x, double *y, double *rc, double *ax)
{
    double t0 = slp_wall_seconds();
    slp_error_clear();
    shardlp_info local_info;
    if (!info)
        info = &local_info;
    memset(info, 0, sizeof *info);
    if (!comm_started && shardlp_init(NULL, NULL) != SHARDLP_OK)
        return slp_api_code(SLP_ERR_MPI);
    slp_comm_t *world = slp_comm_world();
    slp_settings_t set;
    slp_err err = make_settings(settings, &set);
    if (err == SLP_OK && slp_comm_rank(world) == 0 && !problem)
        err = slp_error(SLP_ERR_INPUT, "shardlp_solve: problem is NULL on rank 0");
    err = slp_comm_agree(world, err);
    if (err != SLP_OK)
        return slp_api_code(err);
    slp_log_level old_level = set_verbosity(settings);

    slp_grid_t *grid = NULL;
    slp_local_problem_t lp = {0};
    slp_result_t res = {0};
    double *x0s = NULL, *y0s = NULL;
    err = slp_comm_agree(world, make_grid(settings, 0, 0, &grid));
    if (err == SLP_OK)
        err = slp_distribute_model(grid, grid->rank == 0 ? problem->model : NULL, &lp);
    if (err == SLP_OK)
        err = slp_comm_agree(world, scatter_start(grid, &lp, problem, &x0s, &y0s));
#ifdef SLP_SETTINGS_HAS_WARM_START
    /* Solver hook (docs/c-api.md): this rank's slices, original space. */
    set.x0 = x0s;
    set.y0 = y0s;
    info->warm_started = x0s || y0s;
#endif
    info->setup_seconds = slp_wall_seconds() - t0;
    if (err == SLP_OK)
        err = run_solve(grid, &lp, &set, &res, info);
    if (err == SLP_OK)
        err = slp_comm_agree(world, gather_results(grid, &lp, &res, x, y, rc, ax));
    info->total_seconds = slp_wall_seconds() - t0;
    free(x0s);
    free(y0s);
    slp_result_free(&res);
    slp_local_problem_free(&lp);
    slp_grid_destroy(&grid);
    slp_log_set_level(old_level);
    return slp_api_code(err);
}

/* Hand a result slice to the caller (ownership moves) or free it. */
static void hand_over(double **slot, double **out)
{
    if (out) {
        *out = *slot;
        *slot = NULL;
    }
}

shardlp_error shardlp_solve_shards(const char *dir, const shardlp_settings *settings,
                                   shardlp_info *info, int64_t *col_lo, int64_t *n_loc,
                                   double **x, double **rc, int64_t *row_lo, int64_t *m_loc,
                                   double **y, double **ax)
{
    double t0 = slp_wall_seconds();
    slp_error_clear();
    shardlp_info local_info;
    if (!info)
        info = &local_info;
    memset(info, 0, sizeof *info);
    double **outs[4] = {x, rc, y, ax};
    for (int k = 0; k < 4; k++)
        if (outs[k])
            *outs[k] = NULL;
    if (!comm_started && shardlp_init(NULL, NULL) != SHARDLP_OK)
        return slp_api_code(SLP_ERR_MPI);
    slp_comm_t *world = slp_comm_world();
    slp_settings_t set;
    slp_err err = make_settings(settings, &set);
    if (err == SLP_OK && !dir)
        err = slp_error(SLP_ERR_INPUT, "shardlp_solve_shards: dir is NULL");
    err = slp_comm_agree(world, err);
    if (err != SLP_OK)
        return slp_api_code(err);
    slp_log_level old_level = set_verbosity(settings);

    slp_shard_manifest_t man;
    memset(&man, 0, sizeof man);
    slp_grid_t *grid = NULL;
    slp_local_problem_t lp = {0};
    slp_result_t res = {0};
    err = slp_shard_read_manifest_all(dir, &man);
    if (err == SLP_OK)
        err = slp_comm_agree(world, make_grid(NULL, man.R, man.C, &grid));
    if (err == SLP_OK)
        err = slp_comm_agree(world, slp_shard_read_local(dir, grid, &lp));
    info->setup_seconds = slp_wall_seconds() - t0;
    if (err == SLP_OK)
        err = run_solve(grid, &lp, &set, &res, info);
    if (err == SLP_OK) {
        if (col_lo)
            *col_lo = lp.col_lo;
        if (n_loc)
            *n_loc = lp.n_loc;
        if (row_lo)
            *row_lo = lp.row_lo;
        if (m_loc)
            *m_loc = lp.m_loc;
        hand_over(&res.x, x);
        hand_over(&res.rc, rc);
        hand_over(&res.y, y);
        hand_over(&res.ax, ax);
    }
    info->total_seconds = slp_wall_seconds() - t0;
    slp_result_free(&res);
    slp_local_problem_free(&lp);
    slp_grid_destroy(&grid);
    slp_shard_manifest_free(&man);
    slp_log_set_level(old_level);
    return slp_api_code(err);
}
