#include "run/run_output.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/log.h"
#include "core/timer.h"
#include "io/json_out.h"
#include "io/out_file.h"
#include "shard/shard.h"
#include "io/solution_text.h"

enum { TAG_SLICE = 301 };

void slp_run_info_free(slp_run_info_t *info)
{
    free(info->model_name);
    slp_names_free(info->row_names, info->m);
    slp_names_free(info->col_names, info->n);
    info->model_name = NULL;
    info->row_names = info->col_names = NULL;
}

/* Stream one section of the text solution through rank 0, one slice at a time:
 * column sections come from the ranks (0, c), row sections from the ranks (r, 0).
 * Rank 0 keeps receiving after a write error so that no sender blocks forever. */
/* Names of one block for the text solution (rank 0): from the kept MPS names, from
 * the shard directory's name files, or NULL (generated names). */
static slp_err block_names(const slp_run_info_t *info, int is_row, int block,
                           const int64_t *off, slp_shard_names_t *loaded,
                           const char *const **out)
{
    *out = NULL;
    char **all = is_row ? info->row_names : info->col_names;
    if (all) {
        *out = (const char *const *)all + off[block];
        return SLP_OK;
    }
    if (!info->shard_manifest)
        return SLP_OK;
    SLP_CALL(slp_shard_read_names(info->shard_dir, info->shard_manifest, is_row, block, loaded));
    *out = loaded->name;
    return SLP_OK;
}

static slp_err stream_section(slp_grid_t *grid, slp_solution_writer_t *w, slp_sol_section kind,
                              const slp_local_problem_t *lp, const double *mine,
                              const slp_run_info_t *info, double **buffer, slp_err write_rc)
{
    int columns = kind == SLP_SOL_PRIMAL_COLUMNS || kind == SLP_SOL_DUAL_COLUMNS ||
                  kind == SLP_SOL_RAY_COLUMNS;
    int ray = kind == SLP_SOL_RAY_COLUMNS || kind == SLP_SOL_RAY_ROWS;
    int blocks = columns ? grid->C : grid->R;
    const int64_t *off = columns ? lp->col_off : lp->row_off;
    int i_own = columns ? (grid->r == 0) : (grid->c == 0);
    int my_block = columns ? grid->c : grid->r;
    if (grid->rank != 0) {
        if (i_own)
            return slp_comm_send(grid->world, mine, (off[my_block + 1] - off[my_block]) *
                                 (int64_t)sizeof(double), 0, TAG_SLICE + kind);
        return SLP_OK;
    }
    if (write_rc == SLP_OK)
        write_rc = ray ? slp_solution_writer_ray(w, kind, columns ? lp->n : lp->m)
                       : slp_solution_writer_section(w, kind, columns ? lp->n : lp->m);
    for (int b = 0; b < blocks; b++) {
        int64_t len = off[b + 1] - off[b];
        int owner = columns ? b : b * grid->C;
        const double *slice = mine;
        if (owner != 0) {
            SLP_CALL(slp_comm_recv(grid->world, *buffer, len * (int64_t)sizeof(double), owner,
                                   TAG_SLICE + kind));
            slice = *buffer;
        }
        slp_shard_names_t loaded = {0};
        const char *const *names = NULL;
        if (write_rc == SLP_OK)
            write_rc = block_names(info, !columns, b, off, &loaded, &names);
        if (write_rc == SLP_OK)
            write_rc = slp_solution_writer_values(w, len, names, slice);
        slp_shard_names_free(&loaded);
    }
    return write_rc;
}

/* The certificate section, when the result carries one (every rank knows which:
 * the status is global). */
static slp_err stream_certificate(slp_grid_t *grid, slp_solution_writer_t *w,
                                  const slp_local_problem_t *lp, const slp_result_t *res,
                                  const slp_run_info_t *info, double **buffer, slp_err write_rc)
{
    if (res->status == SLP_STATUS_PRIMAL_INFEASIBLE && res->ray_y)
        return stream_section(grid, w, SLP_SOL_RAY_ROWS, lp, res->ray_y, info, buffer, write_rc);
    if (res->status == SLP_STATUS_DUAL_INFEASIBLE && res->ray_x)
        return stream_section(grid, w, SLP_SOL_RAY_COLUMNS, lp, res->ray_x, info, buffer, write_rc);
    return write_rc;
}

/* The text solution (HiGHS raw style), written by rank 0 from streamed slices. */
static slp_err write_text_solution(slp_grid_t *grid, const slp_local_problem_t *lp,
                                   const slp_result_t *res, const slp_run_info_t *info,
                                   const char *path)
{
    slp_solution_writer_t *w = NULL;
    double *buffer = NULL;
    slp_err rc = SLP_OK;
    if (grid->rank == 0) {
        int64_t longest = 1;
        for (int b = 0; b < grid->C; b++)
            if (lp->col_off[b + 1] - lp->col_off[b] > longest)
                longest = lp->col_off[b + 1] - lp->col_off[b];
        for (int b = 0; b < grid->R; b++)
            if (lp->row_off[b + 1] - lp->row_off[b] > longest)
                longest = lp->row_off[b + 1] - lp->row_off[b];
        rc = slp_alloc(&buffer, (size_t)longest, sizeof(double));
        if (rc == SLP_OK)
            rc = slp_solution_writer_open(path, &w);
        int feasible = res->status == SLP_STATUS_OPTIMAL;
        if (rc == SLP_OK)
            rc = slp_solution_writer_header(w, slp_status_highs_name(res->status),
                                            feasible ? "Feasible" : "Infeasible", res->objective);
    }
    /* Agree before streaming: if rank 0 cannot write, nobody sends. */
    rc = slp_comm_agree(grid->world, rc);
    if (rc == SLP_OK) {
        slp_err write_rc = SLP_OK;
        write_rc = stream_section(grid, w, SLP_SOL_PRIMAL_COLUMNS, lp, res->x, info, &buffer, write_rc);
        write_rc = stream_section(grid, w, SLP_SOL_PRIMAL_ROWS, lp, res->ax, info, &buffer, write_rc);
        if (grid->rank == 0 && write_rc == SLP_OK)
            write_rc = slp_solution_writer_dual_header(
                w, res->status == SLP_STATUS_OPTIMAL ? "Feasible" : "Infeasible");
        write_rc = stream_section(grid, w, SLP_SOL_DUAL_COLUMNS, lp, res->rc, info, &buffer, write_rc);
        write_rc = stream_section(grid, w, SLP_SOL_DUAL_ROWS, lp, res->y, info, &buffer, write_rc);
        write_rc = stream_certificate(grid, w, lp, res, info, &buffer, write_rc);
        if (grid->rank == 0 && write_rc == SLP_OK)
            write_rc = slp_solution_writer_close(&w);
        rc = write_rc;
    }
    if (w)
        slp_solution_writer_abort(&w);
    free(buffer);
    return rc;
}

int64_t slp_peak_rss_bytes(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return -1;
    return (int64_t)ru.ru_maxrss * 1024; /* Linux reports kilobytes */
}

/* Every rank's value, in rank order, on every rank (P values: O(P) memory). */
static slp_err gather_per_rank(slp_grid_t *grid, int64_t mine, int64_t **out)
{
    SLP_CALL(slp_alloc(out, (size_t)grid->size, sizeof(int64_t)));
    memset(*out, 0, (size_t)grid->size * sizeof(int64_t));
    (*out)[grid->rank] = mine;
    return slp_comm_sum_i64(grid->world, *out, grid->size);
}

static void log_final_block(const slp_result_t *res, const slp_run_info_t *info, double total)
{
    slp_log("\nSolve finished\n");
    slp_log("Status              : %s\n", slp_status_name(res->status));
    slp_log("Iterations          : %lld (%lld restarts)\n", (long long)res->iterations,
            (long long)res->restarts);
    slp_log("Primal objective    : %.15e\n", res->objective);
    slp_log("Dual objective      : %.15e\n", res->dual_objective);
    slp_log("Relative residuals  : primal %.3e, dual %.3e, gap %.3e\n", res->rel_primal_residual,
            res->rel_dual_residual, res->rel_gap);
    if (res->polish_iterations > 0)
        slp_log("Polishing           : %lld iterations, %.3f s (included in solve)\n",
                (long long)res->polish_iterations, res->polish_seconds);
    if (res->fixing_rounds > 0)
        slp_log("Column fixing       : %lld iterations on reduced LPs (in the count), %lld "
                "rounds, %lld columns held in the last\n", (long long)res->reduced_iterations,
                (long long)res->fixing_rounds, (long long)res->fixed_columns);
    if (res->boost_rises > 0)
        slp_log("Step boost          : %lld step-size rises, %lld rollbacks\n",
                (long long)res->boost_rises, (long long)res->boost_rollbacks);
    slp_log("Time                : read %.3f s, scaling %.3f s, step size %.3f s, solve %.3f s, "
            "total %.3f s\n",
            info->read_seconds, res->scaling_seconds, res->power_seconds, res->solve_seconds, total);
    slp_log("Model status        : %s\n", slp_status_highs_name(res->status));
    slp_log("Objective value     : %.15e\n", res->objective);
}

/* Peak memory per unit of the model (docs/memory.md): all ranks' peaks together per
 * nonzero and per row plus column, the largest rank's peak, and the largest rank's
 * modelled peak of a solve from shards (slp_shard_solver_bytes). */
static void write_memory(slp_json_t *j, const slp_run_info_t *info, const int64_t *rss,
                         const int64_t *modelled, int ranks)
{
    double total = 0.0, largest = 0.0, model = 0.0;
    for (int k = 0; k < ranks; k++) {
        total += (double)rss[k];
        largest = fmax(largest, (double)rss[k]);
        model = fmax(model, (double)modelled[k]);
    }
    slp_json_open_object(j, "memory");
    slp_json_number(j, "peak_bytes_all_ranks", total);
    slp_json_number(j, "peak_bytes_largest_rank", largest);
    slp_json_number(j, "bytes_per_nonzero", info->nnz > 0 ? total / (double)info->nnz : 0.0);
    slp_json_number(j, "bytes_per_row_and_column",
                    info->m + info->n > 0 ? total / (double)(info->m + info->n) : 0.0);
    slp_json_number(j, "modelled_peak_bytes_largest_rank", model);
    slp_json_close_object(j);
}

/* The matrix as the backend holds it (docs/memory.md, "Compact values"). */
static void write_matrix(slp_json_t *j, const slp_result_t *res)
{
    slp_json_open_object(j, "matrix");
    slp_json_int(j, "bytes_all_ranks", res->matrix_bytes);
    slp_json_int(j, "nonzeros", res->matrix_nnz);
    slp_json_number(j, "bytes_per_nonzero",
                    res->matrix_nnz > 0 ? (double)res->matrix_bytes / (double)res->matrix_nnz : 0.0);
    slp_json_close_object(j);
}

static slp_err write_json(const char *path, const slp_result_t *res, const slp_run_info_t *info,
                          const int64_t *rss, const int64_t *read_rss, const int64_t *nnz,
                          const int64_t *modelled, int ranks, double total)
{
    slp_out_file_t out;
    SLP_CALL(slp_out_open(&out, path, "JSON summary", 0));
    FILE *f = out.f;
    slp_json_t j;
    slp_json_begin(&j, f);
    slp_json_string(&j, "status", slp_status_name(res->status));
    slp_json_number(&j, "objective", res->objective);
    slp_json_number(&j, "dual_objective", res->dual_objective);
    slp_json_int(&j, "iterations", res->iterations);
    slp_json_int(&j, "restarts", res->restarts);
    slp_json_number(&j, "solve_seconds", res->solve_seconds);
    slp_json_number(&j, "total_seconds", total);
    slp_json_number(&j, "read_seconds", info->read_seconds);
    slp_json_number(&j, "scaling_seconds", res->scaling_seconds);
    slp_json_number(&j, "power_iteration_seconds", res->power_seconds);
    slp_json_int(&j, "polish_iterations", res->polish_iterations);
    slp_json_int(&j, "reduced_iterations", res->reduced_iterations);
    slp_json_int(&j, "fixing_rounds", res->fixing_rounds);
    slp_json_int(&j, "fixed_columns", res->fixed_columns);
    slp_json_int(&j, "boost_rises", res->boost_rises);
    slp_json_int(&j, "boost_rollbacks", res->boost_rollbacks);
    slp_json_number(&j, "polish_seconds", res->polish_seconds);
    slp_json_number(&j, "rel_primal_residual", res->rel_primal_residual);
    slp_json_number(&j, "rel_dual_residual", res->rel_dual_residual);
    slp_json_number(&j, "rel_gap", res->rel_gap);
    slp_json_number(&j, "abs_primal_residual", res->abs_primal_residual);
    slp_json_number(&j, "abs_dual_residual", res->abs_dual_residual);
    slp_json_number(&j, "abs_gap", res->abs_gap);
    /* certificate quality at the last check (docs/algorithm.md section 6) */
    slp_json_open_object(&j, "certificates");
    slp_json_number(&j, "dual_ray_objective", res->dual_ray_obj);
    slp_json_number(&j, "dual_ray_infeasibility", res->dual_ray_infeas);
    slp_json_number(&j, "primal_ray_objective", res->primal_ray_obj);
    slp_json_number(&j, "primal_ray_infeasibility", res->primal_ray_infeas);
    slp_json_close_object(&j);
    slp_json_string(&j, "model", info->model_path);
    slp_json_int(&j, "rows", info->m);
    slp_json_int(&j, "cols", info->n);
    slp_json_int(&j, "nonzeros", info->nnz);
    int64_t grid[2] = {info->R, info->C};
    slp_json_int_array(&j, "grid", grid, 2);
    slp_json_int(&j, "ranks", ranks);
    slp_json_string(&j, "backend", info->backend);
    slp_json_open_object(&j, "comm");
    slp_json_string(&j, "mode", info->comm_mode);
    slp_json_number(&j, "dense_hops_per_iter", res->dense_hops_per_iter);
    slp_json_number(&j, "support_hops_per_iter", res->support_hops_per_iter);
    double iters = res->iterations > 0 ? (double)res->iterations : 1.0;
    /* the plan's traffic, counted (whole grid) and as the model prices the same syncs */
    slp_json_number(&j, "sum_scalars_per_iter", res->sum_scalars / iters);
    slp_json_number(&j, "sync_scalars_per_iter", res->sync_scalars / iters);
    slp_json_number(&j, "sync_modelled_per_iter", res->sync_modelled / iters);
    slp_json_number(&j, "sum_modelled_per_iter", res->sum_modelled / iters);
    slp_json_int(&j, "sync_calls", res->syncs);
    slp_json_number(&j, "messages_per_iter", res->messages / iters);
    /* measured on rank 0: time in the products' sums vs the rest of the solve loop */
    slp_json_number(&j, "comm_seconds_per_iter", res->comm_seconds / iters);
    slp_json_number(&j, "compute_seconds_per_iter", (res->solve_seconds - res->comm_seconds) / iters);
    slp_json_close_object(&j);
    const slp_presolve_stats_t *ps = &info->presolve;
    slp_json_open_object(&j, "presolve");
    slp_json_int(&j, "rows_removed", ps->total.rows);
    slp_json_int(&j, "cols_removed", ps->total.cols);
    slp_json_int(&j, "nnz_removed", ps->total.nnz);
    slp_json_int(&j, "rounds", ps->rounds);
    slp_json_open_object(&j, "by_kind");
    for (int k = 0; k < SLP_PRESOLVE_NKINDS; k++) {
        slp_json_open_object(&j, slp_presolve_kind_name(k));
        slp_json_int(&j, "rows", ps->kind[k].rows);
        slp_json_int(&j, "cols", ps->kind[k].cols);
        slp_json_int(&j, "nnz", ps->kind[k].nnz);
        slp_json_close_object(&j);
    }
    slp_json_close_object(&j);
    slp_json_close_object(&j);
    slp_json_int_array(&j, "peak_rss_bytes", rss, ranks);
    slp_json_int_array(&j, "read_peak_rss_bytes", read_rss, ranks);
    slp_json_int_array(&j, "nnz_per_rank", nnz, ranks);
    write_memory(&j, info, rss, modelled, ranks);
    write_matrix(&j, res);
    slp_json_end(&j);
    return slp_out_commit(&out);
}

slp_err slp_write_outputs(slp_grid_t *grid, const slp_local_problem_t *lp,
                          const slp_result_t *res, const slp_run_info_t *info,
                          const char *sol_path, const char *out_dir, const char *json_path)
{
    /* One output that cannot be written does not cost the others: each is attempted,
     * the first failure is returned (its message kept) after all of them. */
    slp_err first = SLP_OK, rc = SLP_OK;
    if (sol_path)
        first = slp_comm_agree(grid->world, write_text_solution(grid, lp, res, info, sol_path));
    if (out_dir) {
        slp_shard_solution_values_t v = {slp_status_name(res->status), res->objective,
                                          res->dual_objective, res->iterations, res->x, res->rc,
                                          res->y, res->ax, res->ray_x, res->ray_y};
        rc = slp_shard_write_solution(out_dir, grid, lp, &v);
        first = first != SLP_OK ? first : rc;
    }

    int64_t *rss = NULL, *read_rss = NULL, *nnz = NULL, *modelled = NULL;
    rc = gather_per_rank(grid, slp_peak_rss_bytes(), &rss);
    if (rc == SLP_OK)
        rc = gather_per_rank(grid, info->read_peak_rss, &read_rss);
    if (rc == SLP_OK)
        rc = gather_per_rank(grid, info->local_nnz, &nnz);
    if (rc == SLP_OK)
        rc = gather_per_rank(grid, slp_shard_solver_bytes(lp->m_loc, lp->n_loc, info->local_nnz,
                                                          info->column_fixing,
                                                          info->block_copies),
                             &modelled);
    double total = slp_wall_seconds() - info->t_start;
    if (rc == SLP_OK && grid->rank == 0) {
        log_final_block(res, info, total);
        if (json_path)
            rc = write_json(json_path, res, info, rss, read_rss, nnz, modelled, grid->size, total);
    }
    free(rss);
    free(read_rss);
    free(nnz);
    free(modelled);
    return first != SLP_OK ? first : rc;
}
