/* Solver unit tests on hand-solved LPs, 1x1 grid (no MPI): optimal objective,
 * primal and dual values against the solutions worked out by hand. */
#include <math.h>
#include <stdlib.h>

#include "backend/backend.h"
#include "check.h"
#include "dense_model.h"
#include "core/model.h"
#include "grid/distribute.h"
#include "grid/grid.h"
#include "solver/solver.h"

static void solve_model(const slp_model_t *model, double tol, slp_result_t *res)
{
    slp_grid_t *grid = NULL;
    slp_backend_t *be = NULL;
    slp_local_problem_t lp;
    int64_t row_off[2] = {0, model->m}, col_off[2] = {0, model->n};
    slp_settings_t set;
    slp_settings_default(&set);
    set.tol = tol;
    CHECK(slp_grid_create(1, 1, &grid) == SLP_OK, "grid: %s", slp_error_message());
    CHECK(slp_backend_cpu_create(1, &be) == SLP_OK, "backend");
    CHECK(slp_extract_block(model, 1, 1, row_off, col_off, 0, 0, &lp) == SLP_OK, "extract");
    CHECK(slp_solve(grid, &lp, &set, NULL, be, res) == SLP_OK, "solve: %s", slp_error_message());
    slp_local_problem_free(&lp);
    be->destroy(be);
    slp_grid_destroy(&grid);
}

/* min -x1 - x2  s.t. x1 + 2 x2 <= 4, 3 x1 + x2 <= 6, x >= 0.
 * Optimum (1.6, 1.2), objective -2.8; duals y = (-0.4, -0.2), reduced costs 0. */
static void test_two_inequalities(void)
{
    double a[] = {1, 2, 3, 1}, c[] = {-1, -1}, lc[] = {-INFINITY, -INFINITY}, uc[] = {4, 6};
    double lv[] = {0, 0}, uv[] = {INFINITY, INFINITY};
    slp_model_t *model = dense_model(2, 2, a, c, lv, uv, lc, uc, 1);
    slp_result_t res;
    solve_model(model, 1e-8, &res);
    CHECK(res.status == SLP_STATUS_OPTIMAL, "status %s", slp_status_name(res.status));
    CHECK_CLOSE(res.objective, -2.8, 1e-6);
    CHECK_CLOSE(res.x[0], 1.6, 1e-6);
    CHECK_CLOSE(res.x[1], 1.2, 1e-6);
    CHECK_CLOSE(res.y[0], -0.4, 1e-6);
    CHECK_CLOSE(res.y[1], -0.2, 1e-6);
    CHECK_CLOSE(res.rc[0], 0.0, 1e-6);
    CHECK_CLOSE(res.ax[0], 4.0, 1e-6);
    /* 1e-8: checks every 64 iterations up to 10,000 (docs/algorithm.md section 3) */
    CHECK(res.iterations % 64 == 0 && res.iterations >= 128, "iterations %lld",
          (long long)res.iterations);
    slp_result_free(&res);
    slp_model_destroy(&model);
}

/* max 3x + 2y  s.t. x + y = 4, 1 <= x - y <= 2, 0 <= x <= 10, y free.
 * Optimum x = 3, y = 1, objective 11. Duals (max sense, as reported): from
 * c = A^T y on the basis: 3 = y1 + y2, 2 = y1 - y2 -> y1 = 2.5, y2 = 0.5. */
static void test_max_equality_range(void)
{
    double a[] = {1, 1, 1, -1}, c[] = {3, 2}, lc[] = {4, 1}, uc[] = {4, 2};
    double lv[] = {0, -INFINITY}, uv[] = {10, INFINITY};
    slp_model_t *model = dense_model(2, 2, a, c, lv, uv, lc, uc, -1);
    slp_result_t res;
    solve_model(model, 1e-8, &res);
    CHECK(res.status == SLP_STATUS_OPTIMAL, "status %s", slp_status_name(res.status));
    CHECK_CLOSE(res.objective, 11.0, 1e-6);
    CHECK_CLOSE(res.dual_objective, 11.0, 1e-6);
    CHECK_CLOSE(res.x[0], 3.0, 1e-6);
    CHECK_CLOSE(res.x[1], 1.0, 1e-6);
    CHECK_CLOSE(res.y[0], 2.5, 1e-6);
    CHECK_CLOSE(res.y[1], 0.5, 1e-6);
    slp_result_free(&res);
    slp_model_destroy(&model);
}

/* An iteration limit below what the tolerance needs ends with iteration_limit exactly at
 * the limit (the last window is cut short: 8 checks of 64, then one after 38 more, not at
 * 576). A tolerance of 1e-300 cannot
 * be met in floating point on this LP (the gap of x = (1.6, 1.2), which has no exact
 * binary form, is never below 1e-300), so "optimal" would be a wrong answer. */
static void test_iteration_limit(void)
{
    double a[] = {1, 2, 3, 1}, c[] = {-1, -1}, lc[] = {-INFINITY, -INFINITY}, uc[] = {4, 6};
    double lv[] = {0, 0}, uv[] = {INFINITY, INFINITY};
    slp_model_t *model = dense_model(2, 2, a, c, lv, uv, lc, uc, 1);
    slp_grid_t *grid = NULL;
    slp_backend_t *be = NULL;
    slp_local_problem_t lp;
    int64_t row_off[2] = {0, 2}, col_off[2] = {0, 2};
    slp_settings_t set;
    slp_settings_default(&set);
    set.tol = 1e-300;
    set.iter_limit = 550;
    slp_result_t res;
    slp_grid_create(1, 1, &grid);
    slp_backend_cpu_create(1, &be);
    slp_extract_block(model, 1, 1, row_off, col_off, 0, 0, &lp);
    CHECK(slp_solve(grid, &lp, &set, NULL, be, &res) == SLP_OK, "solve");
    CHECK(res.status == SLP_STATUS_ITERATION_LIMIT, "status %s", slp_status_name(res.status));
    CHECK(res.iterations == 550, "iterations %lld, want 550", (long long)res.iterations);
    CHECK_CLOSE(res.objective, -2.8, 1e-2); /* the last iterate is close to the optimum */
    slp_result_free(&res);
    slp_local_problem_free(&lp);
    be->destroy(be);
    slp_grid_destroy(&grid);
    slp_model_destroy(&model);
}

/* No rows (UBSan once saw NULL row vectors passed to memcpy when cutting such a model):
 * min x1 - x2, x1 in [1, 3], x2 in [0, 2]: optimum x = (1, 2), objective -1. */
static void test_no_rows(void)
{
    double c[] = {1, -1}, lv[] = {1, 0}, uv[] = {3, 2};
    slp_model_t *model = dense_model(0, 2, NULL, c, lv, uv, NULL, NULL, 1);
    CHECK(model != NULL, "model");
    slp_result_t res;
    solve_model(model, 1e-8, &res);
    CHECK(res.status == SLP_STATUS_OPTIMAL, "status %s", slp_status_name(res.status));
    CHECK_CLOSE(res.objective, -1.0, 1e-6);
    CHECK_CLOSE(res.x[0], 1.0, 1e-6);
    CHECK_CLOSE(res.x[1], 2.0, 1e-6);
    slp_result_free(&res);
    slp_model_destroy(&model);
}

int main(void)
{
    test_no_rows();
    test_two_inequalities();
    test_max_equality_range();
    test_iteration_limit();
    return check_summary();
}
