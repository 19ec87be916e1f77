#include "cli/solve_output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/log.h"
#include "core/timer.h"
#include "io/json_out.h"

/* Peak resident set size of this process in bytes. */
static int64_t peak_rss_bytes(void)
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

/* Modelled logical scalar-hops per iteration of the dense plan: each product's
 * partial vectors are reduced to one member and disseminated back (2 (C-1) m_r
 * hops per grid row for A x, 2 n_c per grid column for A^T y). */
static double dense_hops_per_iter(const slp_run_info_t *info)
{
    return 2.0 * (info->C - 1) * (double)info->m + 2.0 * (info->R - 1) * (double)info->n;
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
    slp_log("Time                : read %.3f s, scaling %.3f s, power %.3f s, solve %.3f s, "
            "total %.3f s\n",
            info->read_seconds, res->scaling_seconds, res->power_seconds, res->solve_seconds, total);
    slp_log("Model status        : %s\n", slp_status_highs_name(res->status));
    slp_log("Objective value     : %.15e\n", res->objective);
}

static slp_err write_json(const char *path, const slp_result_t *res, const slp_run_info_t *info,
                          const int64_t *rss, const int64_t *nnz, int ranks, double total)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return slp_error(SLP_ERR_IO, "%s: cannot write the JSON summary", path);
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
    slp_json_number(&j, "rel_primal_residual", res->rel_primal_residual);
    slp_json_number(&j, "rel_dual_residual", res->rel_dual_residual);
    slp_json_number(&j, "rel_gap", res->rel_gap);
    slp_json_number(&j, "abs_primal_residual", res->abs_primal_residual);
    slp_json_number(&j, "abs_dual_residual", res->abs_dual_residual);
    slp_json_number(&j, "abs_gap", res->abs_gap);
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
    slp_json_number(&j, "dense_hops_per_iter", dense_hops_per_iter(info));
    slp_json_null(&j, "support_hops_per_iter"); /* support-aware plan not built yet */
    slp_json_close_object(&j);
    slp_json_int_array(&j, "peak_rss_bytes", rss, ranks);
    slp_json_int_array(&j, "nnz_per_rank", nnz, ranks);
    slp_json_end(&j);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        remove(tmp);
        return slp_error(SLP_ERR_IO, "%s: cannot write the JSON summary", path);
    }
    return SLP_OK;
}

slp_err slp_write_outputs(slp_grid_t *grid, const slp_local_problem_t *lp,
                          const slp_result_t *res, const slp_run_info_t *info,
                          const char *sol_path, const char *out_dir, const char *json_path)
{
    (void)lp;
    slp_err rc = SLP_OK;
    if (sol_path)
        rc = slp_error(SLP_ERR_UNSUPPORTED, "--sol is not available yet");
    if (rc == SLP_OK && out_dir)
        rc = slp_error(SLP_ERR_UNSUPPORTED, "--out is not available yet");
    SLP_CALL(slp_comm_agree(grid->world, rc));

    int64_t *rss = NULL, *nnz = NULL;
    rc = gather_per_rank(grid, peak_rss_bytes(), &rss);
    if (rc == SLP_OK)
        rc = gather_per_rank(grid, info->local_nnz, &nnz);
    double total = slp_wall_seconds() - info->t_start;
    if (rc == SLP_OK && grid->rank == 0) {
        log_final_block(res, info, total);
        if (json_path)
            rc = write_json(json_path, res, info, rss, nnz, grid->size, total);
    }
    free(rss);
    free(nnz);
    return rc;
}
