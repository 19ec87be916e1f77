/* One solve of the r2HPDHG method (docs/algorithm.md sections 3-6), distributed over the
 * grid: this file sets the solver up and runs its main loop; the rest of the method is
 * in the files beside it.
 *
 *   solver.c      setup (preprocess, norms, scaling, device copies, sigma_max), the main
 *                 loop and its checks (status, time limit, the caller's acceptance,
 *                 progress, polishing and checkpoint calls), the result
 *   pdhg_step.c   one reflected-Halpern PDHG step and the measures at a check
 *   termination.c the termination and infeasibility tests in both forms
 *   restart.c     restart criteria and the PID primal weight
 *   step_boost.c, polish.c, checkpoint.c  the main loop's add-ons
 *   state.c       the per-rank state vectors; solution.c  the solution in original units
 *   scaling.c, sigma_max.c  scaling and the step-size estimate
 */
#include "solver/solver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/timer.h"
#include "plan/comm_plan.h"
#include "solver/checkpoint.h"
#include "solver/sigma_max.h"
#include "core/interrupt.h"
#include "grid/reduce.h"
#include "io/checked_file.h"
#include "solver/scaling.h"
#include "solver/solver_internal.h"

const char *slp_status_name(slp_status status)
{
    switch (status) {
    case SLP_STATUS_OPTIMAL: return "optimal";
    case SLP_STATUS_PRIMAL_INFEASIBLE: return "primal_infeasible";
    case SLP_STATUS_DUAL_INFEASIBLE: return "dual_infeasible";
    case SLP_STATUS_TIME_LIMIT: return "time_limit";
    case SLP_STATUS_ITERATION_LIMIT: return "iteration_limit";
    case SLP_STATUS_NUMERICAL_ERROR: return "numerical_error";
    case SLP_STATUS_INTERRUPTED: return "interrupted";
    case SLP_STATUS_INFEASIBLE_OR_UNBOUNDED: return "infeasible_or_unbounded";
    }
    return "unknown";
}

const char *slp_status_highs_name(slp_status status)
{
    switch (status) {
    case SLP_STATUS_OPTIMAL: return "Optimal";
    case SLP_STATUS_PRIMAL_INFEASIBLE: return "Infeasible";
    case SLP_STATUS_DUAL_INFEASIBLE: return "Unbounded";
    case SLP_STATUS_TIME_LIMIT: return "Time limit reached";
    case SLP_STATUS_ITERATION_LIMIT: return "Iteration limit reached";
    case SLP_STATUS_NUMERICAL_ERROR: return "Unknown";
    case SLP_STATUS_INTERRUPTED: return "Interrupted by user";
    case SLP_STATUS_INFEASIBLE_OR_UNBOUNDED: return "Primal infeasible or unbounded";
    }
    return "Unknown";
}

/* ---------------------------------------------------------------- setup */

/* crc32 of a CSR block: row pointers, column indices, values. */
static uint32_t block_crc(const slp_csr_t *a)
{
    uint32_t crc = slp_crc32(0, a->row_ptr, (size_t)(a->rows + 1) * sizeof *a->row_ptr);
    crc = slp_crc32(crc, a->col_idx, (size_t)a->nnz * sizeof *a->col_idx);
    return slp_crc32(crc, a->val, (size_t)a->nnz * sizeof *a->val);
}

/* Upload factor * v[k] * scale[k] as the start and anchor of one space; *squares: the
 * sum of the squares of this rank's slice of it. */
static slp_err warm_start_space(slp_pdhg_t *s, const double *v, const double *scale,
                                double factor, int64_t len, double *iterate, double *anchor,
                                double *squares)
{
    double *host = NULL;
    SLP_CALL(slp_alloc(&host, (size_t)len + 1, sizeof(double)));
    *squares = 0.0;
    for (int64_t k = 0; k < len; k++) {
        host[k] = factor * v[k] * scale[k];
        *squares += host[k] * host[k];
    }
    slp_err rc = s->be->vec_upload(s->be, iterate, host, len);
    if (rc == SLP_OK)
        rc = s->be->vec_upload(s->be, anchor, host, len);
    free(host);
    return rc;
}

/* Warm start (inputs x0, y0: this rank's slices, original space, user's sense):
 * x~0 = x0 s_j theta_b and y~0 = y0 r_i theta_c (docs/algorithm.md section 1), with the
 * duals negated for a maximisation (the solver works in minimisation form). */
static slp_err warm_start(slp_pdhg_t *s, const slp_scaling_t *sc, double sense)
{
    double xx[1] = {0.0}, yy[1] = {0.0};
    if (s->in->x0)
        SLP_CALL(warm_start_space(s, s->in->x0, sc->dcol, sc->theta_b, s->n, s->x, s->x0, xx));
    if (s->in->y0)
        SLP_CALL(warm_start_space(s, s->in->y0, sc->drow, sense * sc->theta_c, s->m, s->y,
                                  s->y0, yy));
    if (!s->in->x0 || !s->in->y0)
        return SLP_OK;
    /* The primal weight balances the two spaces' distances; a start that knows both
     * gives it as ||y~0|| / ||x~0|| instead of 1, within a factor SLP_WARM_WEIGHT_LIMIT
     * of 1 (docs/algorithm.md section 3). Every rank of a grid row holds another column
     * slice; of a grid column, another row slice. */
    SLP_CALL(slp_sum_over_row(s->grid, xx, 1));
    SLP_CALL(slp_sum_over_col(s->grid, yy, 1));
    double w = fmin(fmax(sqrt(yy[0] / xx[0]), 1.0 / SLP_WARM_WEIGHT_LIMIT), SLP_WARM_WEIGHT_LIMIT);
    s->warm_omega = xx[0] > 0.0 && yy[0] > 0.0 && isfinite(w) ? w : 0.0;
    return SLP_OK;
}

/* The state vectors: the problem's slices and the scaling factors are taken over from lp
 * and sc (not copied: their arrays are left NULL), the rest created zero (with the warm
 * start, which reads sc, in x, x0, y, y0). */
static slp_err create_vectors(slp_pdhg_t *s, slp_local_problem_t *lp, slp_scaling_t *sc,
                              double sense)
{
    SLP_CALL(slp_state_create(s, SLP_VEC_ALL, SLP_VEC_PROBLEM | SLP_VEC_SCALING));
    SLP_CALL(warm_start(s, sc, sense));
    double **host[] = {&lp->obj, &lp->lv, &lp->uv, &sc->dcol, &lp->lc, &lp->uc, &sc->drow};
    double **dev[] = {&s->c, &s->lv, &s->uv, &s->dcol, &s->lc, &s->uc, &s->drow};
    int64_t len[] = {s->n, s->n, s->n, s->n, s->m, s->m, s->m};
    for (int k = 0; k < 7; k++)
        SLP_CALL(slp_vec_take(s->be, host[k], len[k], dev[k]));
    return SLP_OK;
}

static void destroy_solver(slp_pdhg_t *s)
{
    slp_backend_t *be = s->be;
    slp_state_destroy(s, SLP_VEC_ALL);
    if (s->a)
        be->block_destroy(be, s->a);
    slp_exchange_destroy(&s->ex);
    slp_plan_destroy(&s->plan);
}















/* ---------------------------------------------------------------- log */

static void log_header(void)
{
    slp_log("%9s %9s %15s %15s %9s %9s %9s %9s %9s %9s\n", "iter", "time", "primal_obj",
            "dual_obj", "abs_pres", "abs_dres", "rel_pres", "rel_dres", "rel_gap", "p_weight");
}

static void log_row(int64_t iter, double seconds, const slp_check_scalars_t *chk, double sense, double omega,
                    int restarted)
{
    slp_log("%8lld%c %8.2fs %15.8e %15.8e %9.2e %9.2e %9.2e %9.2e %9.2e %9.2e\n",
            (long long)iter, restarted ? '*' : ' ', seconds, sense * chk->pobj, sense * chk->dobj,
            chk->rp, chk->rd, chk->rel_p, chk->rel_d, chk->rel_gap, omega);
}

/* Print every check for the first ten, then at a thinning cadence. */
static int log_due(int64_t check_index, int every)
{
    if (every || check_index <= 10)
        return 1;
    int64_t stride = 5;
    while (check_index > 20 * stride)
        stride *= 2;
    return check_index % stride == 0;
}

/* ---------------------------------------------------------------- solve */

/* Modelled hops per iteration of both plans, whichever one runs (a support plan is
 * built just for its model when the dense plan is used on more than one rank). */
static slp_err model_hops(slp_pdhg_t *s, const slp_local_problem_t *lp, slp_result_t *res)
{
    double dense = 0.0, used = 0.0;
    slp_plan_set_sync_interval(s->plan, s->set->eval_freq_late);
    SLP_CALL(slp_plan_hops(s->plan, s->grid, lp, &dense, &used));
    res->dense_hops_per_iter = dense;
    res->support_hops_per_iter = used;
    if (s->set->comm_support || s->grid->size == 1)
        return SLP_OK;
    slp_comm_plan_t *support = NULL;
    SLP_CALL(slp_plan_create(s->grid, lp, "support", &support));
    slp_plan_set_sync_interval(support, s->set->eval_freq_late);
    slp_err rc = slp_plan_hops(support, s->grid, lp, &dense, &res->support_hops_per_iter);
    slp_plan_destroy(&support);
    return rc;
}

/* Device memory a rank needs (docs/gpu.md section 4): the state vectors (twice the
 * phase vectors with polishing), A_rc and its transpose in CSR with 32- or 64-bit
 * indices, the products' scratch vectors, and 10% + 64 MiB for the cuSPARSE
 * buffers and the runtime. Refused up front when more than the free memory. */
static slp_err check_device_memory(slp_pdhg_t *s, const slp_local_problem_t *lp)
{
    int64_t free_bytes = s->be->memory_free(s->be);
    if (free_bytes < 0)
        return SLP_OK; /* host memory: the run layer's checks cover it */
    double **addr[SLP_STATE_MAX_VECS];
    int64_t len[SLP_STATE_MAX_VECS];
    double vectors = 0.0;
    int count = slp_state_vectors(s, SLP_VEC_ALL, SLP_ANY_SPACE, addr, len);
    for (int k = 0; k < count; k++)
        vectors += 8.0 * (double)len[k];
    if (s->set->polish) {
        count = slp_state_vectors(s, SLP_VEC_PHASE, SLP_ANY_SPACE, addr, len);
        for (int k = 0; k < count; k++)
            vectors += 2.0 * 8.0 * (double)len[k];
    }
    const slp_csr_t *a = &lp->A;
    int wide = a->nnz > INT32_MAX || a->rows > INT32_MAX || a->cols > INT32_MAX;
    double idx = wide ? 8.0 : 4.0;
    double values = s->set->precision == SLP_PRECISION_FP32_MATRIX ? 12.0 : 8.0;
    double matrix = 2.0 * (double)a->nnz * (values + idx) + idx * (double)(a->rows + a->cols + 2) +
                    8.0 * (double)(a->rows + a->cols);
    double need = 1.1 * (vectors + matrix) + 64.0 * 1024 * 1024;
    if (need <= (double)free_bytes)
        return SLP_OK;
    return slp_error(SLP_ERR_NOMEM,
                     "rank %d: the solve needs about %.3g GB of device memory (vectors %.3g GB, "
                     "matrix block %.3g GB, %lld nonzeros) but %.3g GB are free; use more ranks",
                     s->grid->rank, need / 1e9, vectors / 1e9, matrix / 1e9, (long long)a->nnz,
                     (double)free_bytes / 1e9);
}

/* The matrix's bytes over the grid, for the log and the run summary (docs/memory.md). */
static slp_err report_matrix(slp_pdhg_t *s, int64_t local_nnz, slp_result_t *res)
{
    slp_block_report_t report = {0};
    s->be->block_report(s->be, s->a, &report);
    double sums[2] = {(double)report.bytes, (double)local_nnz};
    SLP_CALL(slp_comm_sum(s->grid->world, sums, 2));
    res->matrix_bytes = (int64_t)sums[0];
    res->matrix_nnz = (int64_t)sums[1];
    if (sums[1] > 0)
        slp_log("Matrix: %.2f bytes per nonzero (%s%s)\n", sums[0] / sums[1],
                s->grid->size > 1 ? "rank 0: " : "", report.forms);
    return SLP_OK;
}

static slp_err setup(slp_pdhg_t *s, slp_local_problem_t *lp, double t_entry, slp_result_t *res)
{
    double t0 = slp_wall_seconds();
    int64_t dropped = 0;
    SLP_CALL(slp_preprocess(lp, &dropped));
    s->row_lo = lp->row_lo;
    /* Every rank holds a distinct block, so the world sum counts each entry once. */
    double drop_sum[1] = {(double)dropped};
    SLP_CALL(slp_comm_sum(s->grid->world, drop_sum, 1));
    res->dropped_entries = (int64_t)drop_sum[0];
    if (s->in->norms)
        s->norms = *s->in->norms;
    else
        SLP_CALL(slp_compute_norms(s->grid, lp, &s->norms));
    SLP_CALL(slp_comm_agree(s->grid->world, check_device_memory(s, lp)));
    slp_scaling_t sc;
    slp_csr_t at; /* A_rc^T, built and scaled with A_rc, handed to the backend below */
    memset(&at, 0, sizeof at);
    /* --block-copies rows: no transpose at any point (docs/memory.md "The matrix") */
    slp_csr_t *at_wanted = s->set->block_copies == SLP_COPIES_ROWS ? NULL : &at;
    double t_scale = slp_wall_seconds();
    SLP_CALL(slp_scale(s->grid, lp, s->set, s->be->parts, at_wanted, &sc));
    double t_vectors = slp_wall_seconds();
    s->theta_b = sc.theta_b;
    s->theta_c = sc.theta_c;
    s->obj_const = lp->obj_const;
    /* In this order for the memory peak: the plan reads lp->A; the backend then takes
     * the block (one copy or both, backend.h); the state vectors come last and take
     * over lp's slices and the factors (docs/memory.md). */
    slp_err rc = slp_plan_create(s->grid, lp, s->set->comm_support ? "support" : "dense", &s->plan);
    if (rc == SLP_OK)
        rc = slp_exchange_create(s->grid, s->be, s->plan, (slp_comm_lib)s->set->comm_lib, s->m,
                                 s->n, &s->ex);
    if (rc == SLP_OK)
        rc = model_hops(s, lp, res);
    if (rc == SLP_OK && slp_checkpoint_active()) /* the matrix goes into the checkpoint fingerprint */
        s->matrix_crc = block_crc(&lp->A);
    int64_t local_nnz = lp->A.nnz;
    slp_block_options_t block = {(slp_block_copies)s->set->block_copies,
                                 (slp_block_values)s->set->block_values,
                                 s->set->precision == SLP_PRECISION_FP32_MATRIX};
    if (rc == SLP_OK) /* lp->A and at are handed over */
        rc = s->be->block_create(s->be, &lp->A, at_wanted, &block, &s->a);
    slp_csr_free(&at);
    if (rc == SLP_OK)
        rc = report_matrix(s, local_nnz, res);
    s->fp32_iterations = block.fp32_iterations;
    if (rc == SLP_OK)
        rc = create_vectors(s, lp, &sc, lp->sense < 0 ? -1.0 : 1.0);
    slp_scaling_free(&sc);
    SLP_CALL(slp_comm_agree(s->grid->world, rc)); /* a failure on one rank ends every rank */
    res->scaling_seconds = slp_wall_seconds() - t0;
    slp_log_verbose("setup: preprocessing %.3f s, scaling %.3f s, vectors, plan and matrix "
                    "%.3f s\n", t_scale - t0, t_vectors - t_scale, t0 + res->scaling_seconds -
                    t_vectors);

    double t1 = slp_wall_seconds();
    double sigma_max = 0.0;
    int power_iters = 0;
    slp_step_memo_t *memo = s->in->step_memo;
    if (memo && memo->sigma_max > 0.0) {
        sigma_max = memo->sigma_max;
        slp_log_verbose("step size: sigma_max %.6e kept from an earlier solve of this matrix\n",
                        sigma_max);
    } else {
        /* work vectors: h, dy (m) and col_work (n) are free before the first iteration */
        SLP_CALL(slp_sigma_max_estimate(s->grid, s->be, s->ex, s->a, NULL, s->m, s->n,
                                        lp->row_lo, s->h, s->dy, s->col_work,
                                        t_entry + s->set->time_limit, &sigma_max,
                                        &power_iters));
    }
    s->eta = sigma_max > 0.0 ? 0.998 / sigma_max : 1.0;
    s->eta0 = s->eta;
    s->omega = 1.0;
    if (!s->set->bound_obj_rescaling)
        s->omega = (1.0 + s->norms.c_l2) / (1.0 + s->norms.b_l2);
    if (s->warm_omega > 0.0)
        s->omega = s->warm_omega;
    s->omega0 = s->omega;
    res->power_seconds = slp_wall_seconds() - t1;
    /* A power step is two products, about the cost of an iteration: the first
     * estimate of the time per iteration for the time limit (agreed). */
    double per_step[1] = {power_iters > 0 ? res->power_seconds / power_iters : 0.0};
    SLP_CALL(slp_reduce_max(s->grid, per_step, 1));
    if (memo && memo->sigma_max > 0.0)
        per_step[0] = memo->seconds_per_step;
    else if (memo && sigma_max > 0.0)
        *memo = (slp_step_memo_t){sigma_max, per_step[0]};
    s->seconds_per_iter = per_step[0];
    slp_log_verbose("step size: sigma_max %.6e after %d Lanczos steps, eta %.6e\n", sigma_max,
                    power_iters, s->eta);
    return SLP_OK;
}

/* Status after a check of the main loop, or -1 to go on. Order: optimal (unless the
 * caller rejected this check's point), primal infeasible, dual infeasible, iteration
 * limit, time limit. */
static int check_status(const slp_pdhg_t *s, const slp_check_scalars_t *chk, int64_t total,
                        double elapsed, int rejected)
{
    if (!slp_pdhg_all_finite(chk))
        return SLP_STATUS_NUMERICAL_ERROR;
    if (!rejected && slp_pdhg_is_optimal(s, chk))
        return SLP_STATUS_OPTIMAL;
    if (slp_pdhg_primal_infeasible(s, chk))
        return SLP_STATUS_PRIMAL_INFEASIBLE;
    if (slp_pdhg_dual_infeasible(s, chk))
        return SLP_STATUS_DUAL_INFEASIBLE;
    if (total >= s->set->iter_limit)
        return SLP_STATUS_ITERATION_LIMIT;
    if (elapsed >= s->set->time_limit)
        return SLP_STATUS_TIME_LIMIT;
    return -1;
}

static void fill_result(const slp_pdhg_t *s, const slp_loop_t *loop, const slp_check_scalars_t *chk,
                        double sense, slp_result_t *res)
{
    res->iterations = loop->total;
    res->restarts = loop->restarts;
    res->objective = sense * chk->pobj;
    res->dual_objective = sense * chk->dobj;
    res->abs_primal_residual = chk->rp;
    res->abs_dual_residual = chk->rd;
    res->abs_gap = chk->gap;
    res->rel_primal_residual = chk->rel_p;
    res->rel_dual_residual = chk->rel_d;
    res->rel_gap = chk->rel_gap;
    res->primal_weight = s->omega;
    res->step_size = s->eta;
    res->comm_seconds = s->comm_seconds;
    res->primal_ray_obj = chk->primal_ray_obj;
    res->primal_ray_infeas = chk->primal_ray_infeas;
    res->dual_ray_obj = chk->dual_ray_obj;
    res->dual_ray_infeas = chk->dual_ray_infeas;
}

/* One CSV row per check (--log-csv): full precision for plots. */
static void trace_row(FILE *trace, int64_t iter, double seconds, const slp_check_scalars_t *chk,
                      double sense, double omega, int64_t restarts)
{
    if (!trace)
        return;
    if (iter <= 0) {
        fprintf(trace, "iteration,seconds,primal_objective,dual_objective,abs_primal_residual,"
                       "abs_dual_residual,rel_primal_residual,rel_dual_residual,rel_gap,"
                       "primal_weight,restarts\n");
        return;
    }
    fprintf(trace, "%lld,%.9g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%lld\n",
            (long long)iter, seconds, sense * chk->pobj, sense * chk->dobj, chk->rp, chk->rd,
            chk->rel_p, chk->rel_d, chk->rel_gap, omega, (long long)restarts);
}

/* Iterations of the next window: the check interval after `total` iterations, fewer
 * when the iteration limit or the time limit would fall inside it (the latter from the
 * agreed time per iteration, so every rank agrees). */
static int window_length(const slp_pdhg_t *s, int64_t total, double elapsed)
{
    int freq = slp_check_interval(s->set, total);
    int64_t iters_left = s->set->iter_limit - total;
    if (iters_left > 0 && iters_left < freq)
        freq = (int)iters_left;
    double left = s->set->time_limit - elapsed;
    if (!isfinite(left) || !(s->seconds_per_iter > 0.0) || left >= freq * s->seconds_per_iter)
        return freq;
    return left <= s->seconds_per_iter ? 1 : (int)(left / s->seconds_per_iter);
}

/* Whether the caller's question is due although the test itself failed: the test at
 * the caller's looser level (inputs->accept_scale) holds. */
static int loosely_optimal(const slp_pdhg_t *s, const slp_check_scalars_t *chk)
{
    return s->in->accept && s->in->accept_scale > 1.0 &&
           slp_pdhg_is_optimal_scaled(s, chk, s->in->accept_scale);
}

/* A caller's answer (inputs->accept or offer) on the current point. */
static slp_err ask(slp_pdhg_t *s, const slp_loop_t *loop, const slp_check_scalars_t *chk,
                   double sense, slp_accept_fn question, void *user, int *answer)
{
    slp_result_t point = {0};
    fill_result(s, loop, chk, sense, &point);
    point.status = SLP_STATUS_OPTIMAL;
    slp_err rc = slp_comm_agree(s->grid->world, slp_pdhg_current_point(s, sense, &point));
    if (rc == SLP_OK)
        rc = question(&point, user, answer);
    slp_result_free(&point);
    return rc;
}

/* The caller's verdict on a point that meets the termination test (inputs->accept):
 * 1 when there is no caller's test or it accepts. */
static slp_err accepted(slp_pdhg_t *s, const slp_loop_t *loop, const slp_check_scalars_t *chk,
                        double sense, int *accept)
{
    *accept = 1;
    if (!s->in->accept)
        return SLP_OK;
    return ask(s, loop, chk, sense, s->in->accept, s->in->accept_user, accept);
}

/* The caller's offer to stop early (inputs->offer), at a check whose relative
 * residuals and gap are all below the offer's level: 1 when it takes it. A decline
 * moves the level down tenfold. */
static slp_err offer_taken(slp_pdhg_t *s, const slp_loop_t *loop, const slp_check_scalars_t *chk,
                           double sense, int *take)
{
    *take = 0;
    double worst = fmax(fmax(chk->rel_p, chk->rel_d), chk->rel_gap);
    if (!s->in->offer || !(worst < s->offer_level))
        return SLP_OK;
    SLP_CALL(ask(s, loop, chk, sense, s->in->offer, s->in->offer_user, take));
    if (!*take)
        s->offer_level = fmin(s->offer_level, worst) / 10.0;
    return SLP_OK;
}

/* The caller's progress callback after a check: 1 when it asks to stop. */
static int report_progress(const slp_pdhg_t *s, slp_loop_t *loop,
                           const slp_check_scalars_t *chk, double sense, double seconds)
{
    if (!s->in->progress)
        return 0;
    slp_progress_t p = {s->in->iteration_base + loop->total, seconds, sense * chk->pobj,
                        sense * chk->dobj, chk->rp, chk->rd, chk->rel_p, chk->rel_d,
                        chk->rel_gap, s->omega, loop->restarts > loop->restarts_reported};
    loop->restarts_reported = loop->restarts;
    return s->in->progress(&p, s->in->progress_user) != 0;
}

/* What the loop's steps after a window share. */
typedef struct {
    slp_pdhg_t *s;
    slp_loop_t loop;
    slp_check_scalars_t chk;
    double sense;
    double start;           /* the time limit's clock starts here (the solver's entry) */
    slp_polish_t *polish;   /* --polish, else NULL */
    slp_boost_t *boost;     /* --step-boost, else NULL */
} loop_ctx_t;

/* The status after a check, -1 to go on: the termination test, the caller's verdict
 * on an optimal point (inputs->accept), an interrupt. */
static slp_err decide(loop_ctx_t *x, double elapsed, int interrupted, int *status)
{
    slp_pdhg_t *s = x->s;
    *status = check_status(s, &x->chk, x->loop.total, elapsed, 0);
    if (*status == SLP_STATUS_OPTIMAL || (*status < 0 && loosely_optimal(s, &x->chk))) {
        int accept = 1;
        SLP_CALL(accepted(s, &x->loop, &x->chk, x->sense, &accept));
        if (accept)
            *status = SLP_STATUS_OPTIMAL;
        else if (*status == SLP_STATUS_OPTIMAL)
            *status = check_status(s, &x->chk, x->loop.total, elapsed, 1);
    }
    if (*status < 0) {
        int take = 0;
        SLP_CALL(offer_taken(s, &x->loop, &x->chk, x->sense, &take));
        if (take || interrupted)
            *status = SLP_STATUS_INTERRUPTED;
    }
    return SLP_OK;
}

/* --precision fp32-matrix: the iterations go over to the FP64 values when the residuals
 * are small enough that the FP32 values' rounding would put a floor under them, or when
 * they stop falling (solver_internal.h). */
static void fp32_handover(slp_pdhg_t *s, const slp_check_scalars_t *chk, int64_t total)
{
    if (!s->fp32_iterations)
        return;
    double worst = fmax(fmax(chk->rel_p, chk->rel_d), chk->rel_gap);
    if (worst < 0.5 * s->fp32_best || !(s->fp32_best > 0)) {
        s->fp32_best = worst;
        s->fp32_best_iter = total;
    }
    const char *why = worst < SLP_FP32_HANDOVER ? "residuals below 1e-5"
                      : total - s->fp32_best_iter >= SLP_FP32_STALL
                          ? "the residuals stopped falling"
                          : NULL;
    if (!why)
        return;
    s->fp32_iterations = 0;
    slp_log_verbose("precision: the iterations read the FP64 matrix from iteration %lld (%s)\n",
                    (long long)total, why);
}

/* What a check does when the solve goes on: the step-size boost (which may roll the
 * epoch back), the restart decision and the primal weight, polishing (which may find
 * the optimum), a checkpoint when one is due. */
static slp_err after_check(loop_ctx_t *x, double elapsed, int checkpoint_due, int polish_allowed,
                           int *status)
{
    slp_pdhg_t *s = x->s;
    int rolled_back = 0;
    fp32_handover(s, &x->chk, x->loop.total);
    SLP_CALL(slp_boost_after_check(x->boost, s, &x->loop, &x->chk, &rolled_back));
    int64_t restarts = x->loop.restarts;
    if (!rolled_back)
        slp_pdhg_after_check(s, &x->loop, &x->chk);
    if (!rolled_back && x->loop.restarts > restarts)
        SLP_CALL(slp_boost_at_restart(x->boost, s, &x->loop, &x->chk));
    if (polish_allowed && x->polish && slp_polish_due(x->polish, s, x->loop.total, &x->chk)) {
        int optimal = 0;
        SLP_CALL(slp_polish_run(x->polish, s, x->loop.total, x->start, s->set->time_limit,
                                &x->chk, &optimal));
        if (optimal)
            *status = SLP_STATUS_OPTIMAL;
    }
    if (*status < 0 && checkpoint_due)
        SLP_CALL(slp_checkpoint_save(s, &x->loop, elapsed));
    return SLP_OK;
}

/* The monitors: called after every check, in this order, with `final` set on the last
 * (PETSc's KSPMonitorSet). They read the loop's state and write nothing back. */
static void monitor_trace(loop_ctx_t *x, int final)
{
    (void)final;
    trace_row(x->s->in->trace, x->s->in->iteration_base + x->loop.total,
              slp_wall_seconds() - x->start, &x->chk, x->sense, x->s->omega, x->loop.restarts);
}

static void monitor_log(loop_ctx_t *x, int final)
{
    if (!final && !log_due(x->loop.checks, x->s->set->log_every_check))
        return;
    log_row(x->s->in->iteration_base + x->loop.total, slp_wall_seconds() - x->start, &x->chk,
            x->sense, x->s->omega, x->loop.restarted_since_log);
    x->loop.restarted_since_log = 0;
}

static void (*const MONITORS[])(loop_ctx_t *, int) = {monitor_trace, monitor_log};

/* A run that the time limit or a signal ends leaves a checkpoint when --checkpoint is set
 * (batch jobs: Slurm's SIGTERM before a requeue, the wall-clock limit; docs/reliability.md):
 * the point is copied out first, then the check's own steps run as they would have had
 * the solve gone on (the restart decision; no polishing) and save the state, so that
 * --resume continues from there (after a signal exactly as an uninterrupted run; after
 * a time limit from a window cut short). */
static int wants_last_checkpoint(int status)
{
    return slp_checkpoint_enabled() &&
           (status == SLP_STATUS_TIME_LIMIT || status == SLP_STATUS_INTERRUPTED);
}

static slp_err end_with_checkpoint(loop_ctx_t *x, double elapsed)
{
    int go_on = -1; /* as if the solve went on: after_check saves the state */
    return after_check(x, elapsed, 1, 0, &go_on);
}

/* The add-ons' results into the solve's; they are freed. */
static void finish_add_ons(loop_ctx_t *x, slp_result_t *res)
{
    if (x->polish) {
        res->polish_iterations = slp_polish_iterations(x->polish);
        res->polish_seconds = slp_polish_seconds(x->polish);
    }
    slp_polish_destroy(&x->polish);
    res->boost_rises = slp_boost_rises(x->boost);
    res->boost_rollbacks = slp_boost_rollbacks(x->boost);
    if (x->boost)
        slp_log_verbose("step boost: %lld rises, %lld rollbacks, final eta %.6e (initial %.6e)\n",
                        (long long)res->boost_rises, (long long)res->boost_rollbacks, x->s->eta,
                        x->s->eta0);
    slp_boost_destroy(x->s, &x->boost);
}

static slp_err record_traffic(const slp_pdhg_t *s, slp_result_t *res)
{
    slp_plan_traffic_t traffic;
    SLP_CALL(slp_plan_traffic(s->plan, s->grid, &traffic));
    res->sum_scalars = traffic.sum_scalars;
    res->sync_scalars = traffic.sync_scalars;
    res->sync_modelled = traffic.sync_modelled;
    res->sum_modelled = traffic.sum_modelled;
    res->messages = traffic.messages;
    res->syncs = traffic.syncs;
    return SLP_OK;
}

/* One window of iterations and its check; the thread governor (docs/threads.md) hears
 * how long it took. */
static slp_err run_window(loop_ctx_t *x, int window)
{
    int64_t first = x->loop.total;
    double t0 = slp_wall_seconds();
    SLP_CALL(slp_pdhg_window(x->s, &x->loop, window, &x->chk));
    if (x->s->be->window_done)
        x->s->be->window_done(x->s->be, x->loop.total - first, slp_wall_seconds() - t0);
    return SLP_OK;
}

/* The iterations, checks and verdicts of one solve. The time limit's clock starts at
 * t_entry (the solver's entry: setup counts). */
static slp_err main_loop(slp_pdhg_t *s, double sense, double t_entry, slp_result_t *res)
{
    const slp_settings_t *set = s->set;
    double loop_start = slp_wall_seconds();
    loop_ctx_t x = {.s = s, .sense = sense, .start = t_entry};
    slp_loop_init(&x.loop, s->omega, 1);
    if (set->polish)
        SLP_CALL(slp_polish_create(s, &x.polish));
    slp_err rc = slp_comm_agree(s->grid->world, slp_boost_create(s, &x.boost));
    int status = -1;
    /* --resume: the saved state replaces the fresh one. The time limit counts this run
     * only: a requeued batch job has a wall clock of its own (docs/reliability.md). */
    if (rc == SLP_OK)
        rc = slp_checkpoint_resume(s, &x.loop);
    if (rc == SLP_OK) {
        log_header();
        if (s->in->iteration_base == 0) /* the header */
            trace_row(s->in->trace, 0, 0.0, &x.chk, sense, s->omega, 0);
    }
    double agreed[1] = {slp_wall_seconds() - x.start};
    if (rc == SLP_OK)
        rc = slp_reduce_max(s->grid, agreed, 1);
    double loop_elapsed0 = agreed[0];
    int64_t loop_total0 = x.loop.total;
    int window = window_length(s, x.loop.total, agreed[0]);
    double elapsed = agreed[0];
    while (rc == SLP_OK && status < 0) {
        rc = run_window(&x, window);
        if (rc != SLP_OK)
            break;
        /* One collective per check: agreed clock, signals and the callback's stop
         * request, checkpoint decision. */
        int stop = report_progress(s, &x.loop, &x.chk, sense, slp_wall_seconds() - x.start);
        int interrupted = 0, checkpoint_due = 0;
        rc = slp_checkpoint_agree(s, slp_wall_seconds() - x.start, stop, &elapsed, &interrupted,
                                  &checkpoint_due);
        if (rc != SLP_OK)
            break;
        /* measured (a window has at least one iteration): replaces the power-step estimate */
        s->seconds_per_iter = (elapsed - loop_elapsed0) / (double)(x.loop.total - loop_total0);
        window = window_length(s, x.loop.total, elapsed);
        rc = decide(&x, elapsed, interrupted, &status);
        if (rc == SLP_OK && status < 0)
            rc = after_check(&x, elapsed, checkpoint_due, 1, &status);
        if (rc != SLP_OK)
            break;
        for (size_t k = 0; k < sizeof MONITORS / sizeof MONITORS[0]; k++)
            MONITORS[k](&x, status >= 0);
    }
    res->status = (slp_status)status;
    if (rc == SLP_OK) {
        res->solve_seconds = slp_wall_seconds() - loop_start;
        fill_result(s, &x.loop, &x.chk, sense, res);
        rc = record_traffic(s, res);
    }
    if (rc == SLP_OK && wants_last_checkpoint(status)) /* a copy: the state goes on */
        rc = slp_pdhg_current_point(s, sense, res);
    else if (rc == SLP_OK)
        rc = slp_pdhg_extract(s, sense, res); /* the state's vectors go into res */
    if (rc == SLP_OK && wants_last_checkpoint(status))
        rc = end_with_checkpoint(&x, elapsed);
    finish_add_ons(&x, res);
    return rc;
}

slp_err slp_solve(slp_grid_t *grid, slp_local_problem_t *lp, const slp_settings_t *settings,
                  const slp_solve_inputs_t *inputs, slp_backend_t *be, slp_result_t *result)
{
    static const slp_solve_inputs_t none = {0};
    memset(result, 0, sizeof *result);
    slp_pdhg_t s = {0};
    slp_settings_t set = *settings;
    slp_settings_resolve(&set);
    s.be = be;
    s.grid = grid;
    s.set = &set;
    s.in = inputs ? inputs : &none;
    s.offer_level = s.in->offer_level;
    s.n = lp->n_loc;
    s.m = lp->m_loc;
    double sense = lp->sense < 0 ? -1.0 : 1.0;
    double t_entry = slp_wall_seconds();
    slp_err rc = setup(&s, lp, t_entry, result);
    if (rc == SLP_OK) {
        slp_interrupt_graceful(1); /* the loop stops at its next check */
        rc = main_loop(&s, sense, t_entry, result);
        slp_interrupt_graceful(0);
    }
    destroy_solver(&s);
    if (rc != SLP_OK)
        slp_result_free(result);
    return rc;
}

void slp_result_free(slp_result_t *result)
{
    free(result->x);
    free(result->rc);
    free(result->y);
    free(result->ax);
    free(result->ray_x);
    free(result->ray_y);
    result->x = result->rc = result->y = result->ax = NULL;
    result->ray_x = result->ray_y = NULL;
}

void slp_result_add_effort(slp_result_t *into, const slp_result_t *from)
{
    into->iterations += from->iterations;
    into->restarts += from->restarts;
    into->polish_iterations += from->polish_iterations;
    into->reduced_iterations += from->reduced_iterations;
    into->boost_rises += from->boost_rises;
    into->boost_rollbacks += from->boost_rollbacks;
    into->scaling_seconds += from->scaling_seconds;
    into->power_seconds += from->power_seconds;
    into->solve_seconds += from->solve_seconds;
    into->polish_seconds += from->polish_seconds;
}
