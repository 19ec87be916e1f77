/* The C API's callbacks (docs/c-api.md, "Callbacks"): the log callback receives the
 * console log instead of stdout, and a progress callback that returns nonzero at its
 * third call stops the solve there with SHARDLP_INTERRUPTED after 3 checks. Reference:
 * afiro's published optimum for the run without a stop. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "shardlp.h"

typedef struct {
    int calls;
    int stop_at;
    int64_t last_iteration;
    int monotone;
} progress_state;

static int on_progress(const shardlp_progress *p, void *user)
{
    progress_state *s = user;
    s->monotone &= p->iteration > s->last_iteration && p->seconds >= 0.0;
    s->last_iteration = p->iteration;
    s->calls++;
    return s->stop_at > 0 && s->calls >= s->stop_at;
}

typedef struct {
    int lines;
    int saw_table;
} log_state;

static void on_log(const char *text, void *user)
{
    log_state *s = user;
    s->lines++;
    s->saw_table |= strstr(text, "primal_obj") != NULL;
}

int main(int argc, char **argv)
{
    const char *root = argc > 2 ? argv[2] : ".";
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/data/afiro.mps", root);
    shardlp_problem *problem = NULL;
    shardlp_settings *settings = NULL;
    CHECK(shardlp_problem_read(path, &problem) == SHARDLP_OK, "read: %s", shardlp_last_error());
    CHECK(shardlp_settings_create(&settings) == SHARDLP_OK, "settings");
    if (!problem || !settings)
        return check_summary();
    shardlp_set_option(settings, "tol", "1e-8");
    shardlp_set_option(settings, "verbosity", "1");

    log_state log = {0};
    progress_state all = {0, 0, 0, 1};
    CHECK(shardlp_set_log_callback(settings, on_log, &log) == SHARDLP_OK, "log callback");
    CHECK(shardlp_set_progress_callback(settings, on_progress, &all) == SHARDLP_OK, "progress");
    shardlp_info info;
    /* an info no solve filled never reads as a result (API version 3) */
    memset(&info, 0, sizeof info);
    CHECK(info.status == SHARDLP_NOT_SOLVED && !strcmp(shardlp_status_name(info.status),
                                                       "not_solved"), "zero status");
    CHECK(!strcmp(shardlp_status_name(SHARDLP_OPTIMAL), "optimal") &&
              !strcmp(shardlp_status_name(SHARDLP_INFEASIBLE_OR_UNBOUNDED),
                      "infeasible_or_unbounded"), "status names");
    CHECK(shardlp_solve(problem, settings, &info, NULL, NULL, NULL, NULL) == SHARDLP_OK,
          "solve: %s", shardlp_last_error());
    CHECK(info.status == SHARDLP_OPTIMAL, "status %d", (int)info.status);
    CHECK_CLOSE(info.objective, -464.7531428571, 1e-6);
    CHECK(log.saw_table && log.lines > 5, "log callback: %d lines, table %d", log.lines,
          log.saw_table);
    /* 1e-8: a check every 64 iterations up to 10,000 (docs/algorithm.md section 3) */
    CHECK(all.calls == info.iterations / 64 && all.monotone, "progress: %d calls for %lld "
          "iterations", all.calls, (long long)info.iterations);

    progress_state stop = {0, 3, 0, 1};
    shardlp_set_log_callback(settings, NULL, NULL);
    shardlp_set_option(settings, "verbosity", "0");
    shardlp_set_option(settings, "tol", "1e-12");
    CHECK(shardlp_set_progress_callback(settings, on_progress, &stop) == SHARDLP_OK, "progress");
    CHECK(shardlp_solve(problem, settings, &info, NULL, NULL, NULL, NULL) == SHARDLP_OK,
          "solve: %s", shardlp_last_error());
    CHECK(info.status == SHARDLP_INTERRUPTED && stop.calls == 3 && info.iterations == 192,
          "stopped: status %d after %d calls, %lld iterations", (int)info.status, stop.calls,
          (long long)info.iterations);
    CHECK(shardlp_set_progress_callback(NULL, on_progress, NULL) == SHARDLP_ERR_INPUT,
          "NULL settings refused");
    shardlp_settings_destroy(&settings);
    shardlp_problem_destroy(&problem);
    shardlp_finalize();
    return check_summary();
}
