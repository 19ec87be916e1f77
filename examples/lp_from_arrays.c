/* shardlp C API example (docs/c-api.md).
 *
 *   maximize   3 x0 + 2 x1 + 1
 *   subject to x0 +   x1 <= 4
 *              x0 + 3 x1 <= 6
 *              x0 - x1 in [-1, 2]       (a ranged row)
 *              0 <= x0 <= 3, x1 >= 0
 * Optimum: x = (3, 1), objective 3*3 + 2*1 + 1 = 12.
 *
 * With a file argument it also solves that MPS model and prints its objective.
 * Build: cc lp_from_arrays.c -I include -L build -lshardlp   (see docs/c-api.md)
 * Exit status 0 when both solves end optimal with the expected objective. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "shardlp.h"

static int check(shardlp_error rc, const char *what)
{
    if (rc != SHARDLP_OK)
        fprintf(stderr, "%s failed: %s\n", what, shardlp_last_error());
    return rc != SHARDLP_OK;
}

int main(int argc, char **argv)
{
    if (check(shardlp_init(&argc, &argv), "shardlp_init"))
        return 1;
    /* A in CSC: column 0 = (1, 1, 1), column 1 = (1, 3, -1). */
    const int64_t col_start[] = {0, 3, 6};
    const int64_t row_index[] = {0, 1, 2, 0, 1, 2};
    const double value[] = {1, 1, 1, 1, 3, -1};
    const shardlp_matrix A = {SHARDLP_CSC, 6, col_start, row_index, NULL, value};
    const double c[] = {3, 2};
    const double lc[] = {-INFINITY, -INFINITY, -1};
    const double uc[] = {4, 6, 2};
    const double lv[] = {0, 0};
    const double uv[] = {3, INFINITY};

    shardlp_problem *lp = NULL;
    if (check(shardlp_problem_create(3, 2, SHARDLP_MAXIMIZE, c, 1.0, &A, lc, uc, lv, uv, &lp),
              "shardlp_problem_create"))
        return 1;
    shardlp_settings *set = NULL;
    shardlp_info info;
    double x[2], y[3], rc[2];
    int failed = check(shardlp_settings_create(&set), "shardlp_settings_create") ||
                 check(shardlp_set_option(set, "tol", "1e-8"), "shardlp_set_option") ||
                 check(shardlp_solve(lp, set, &info, x, y, rc, NULL), "shardlp_solve");
    if (!failed && shardlp_rank() == 0) {
        printf("status %s, objective %.10g, x = (%.6g, %.6g), y = (%.6g, %.6g, %.6g), "
               "%lld iterations, %.3f s\n",
               shardlp_status_name(info.status), info.objective, x[0], x[1], y[0], y[1], y[2],
               (long long)info.iterations, info.total_seconds);
        failed = info.status != SHARDLP_OPTIMAL || fabs(info.objective - 12.0) > 1e-6;
    }
    shardlp_problem_destroy(&lp);

    if (!failed && argc > 1) { /* an MPS file, e.g. examples/data/afiro.mps */
        if (check(shardlp_problem_read(argv[1], &lp), "shardlp_problem_read")) {
            failed = 1;
        } else {
            failed = check(shardlp_set_option(set, "tol", "1e-6"), "shardlp_set_option") ||
                     check(shardlp_solve(lp, set, &info, NULL, NULL, NULL, NULL), "shardlp_solve");
            if (!failed && shardlp_rank() == 0)
                printf("%s: status %s, objective %.10g\n", argv[1],
                       shardlp_status_name(info.status), info.objective);
            failed = failed || info.status != SHARDLP_OPTIMAL;
            shardlp_problem_destroy(&lp);
        }
    }
    shardlp_settings_destroy(&set);
    shardlp_finalize();
    return failed;
}
