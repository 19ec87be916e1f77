/* Solve a model through the C API with options given as NAME=VALUE arguments:
 *
 *   example_solve_options MODEL [NAME=VALUE ...]
 *
 * MODEL is an MPS file (read on rank 0, distributed by the library) or a shard
 * directory (every rank reads its own block: shardlp_solve_shards). Prints, on rank 0,
 * one line "status ITERATIONS OBJECTIVE" (objective with 17 digits); the test suite
 * compares it with the command line and Python. Run it under mpirun for a grid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "shardlp.h"

static int fail(const char *what)
{
    fprintf(stderr, "rank %d: %s: %s\n", shardlp_rank(), what, shardlp_last_error());
    return 1;
}

static int solve(const char *path, const shardlp_settings *set, shardlp_info *info)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        double *x = NULL;
        int64_t lo = 0, n = 0;
        shardlp_error e = shardlp_solve_shards(path, set, info, &lo, &n, &x, NULL, NULL, NULL,
                                               NULL, NULL);
        free(x);
        return e != SHARDLP_OK ? fail("shardlp_solve_shards") : 0;
    }
    shardlp_problem *lp = NULL;
    shardlp_error e = SHARDLP_OK;
    if (shardlp_rank() == 0) /* the other ranks pass NULL */
        e = shardlp_problem_read(path, &lp);
    if (e != SHARDLP_OK) /* stops this rank; a real program would tell the others */
        return fail("shardlp_problem_read");
    e = shardlp_solve(lp, set, info, NULL, NULL, NULL, NULL);
    shardlp_problem_destroy(&lp);
    return e != SHARDLP_OK ? fail("shardlp_solve") : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s MODEL [NAME=VALUE ...]\n", argv[0]);
        return 2;
    }
    if (shardlp_init(&argc, &argv) != SHARDLP_OK)
        return fail("shardlp_init");
    shardlp_settings *set = NULL;
    int failed = shardlp_settings_create(&set) != SHARDLP_OK && fail("shardlp_settings_create");
    for (int k = 2; k < argc && !failed; k++) {
        char name[256];
        const char *eq = strchr(argv[k], '=');
        size_t len = eq ? (size_t)(eq - argv[k]) : strlen(argv[k]);
        snprintf(name, sizeof name, "%.*s", (int)len, argv[k]);
        failed = shardlp_set_option(set, name, eq ? eq + 1 : "true") != SHARDLP_OK &&
                 fail("shardlp_set_option");
    }
    shardlp_info info = {0};
    if (!failed)
        failed = solve(argv[1], set, &info);
    if (!failed && shardlp_rank() == 0)
        printf("%s %lld %.17g\n", shardlp_status_name(info.status), (long long)info.iterations,
               info.objective);
    shardlp_settings_destroy(&set);
    shardlp_finalize();
    return failed;
}
