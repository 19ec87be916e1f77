/* Sessions through the C API (docs/session.md).
 *   1. One session, 20 updates of costs, variable bounds and row bounds of a small LP
 *      whose optimum is solved by hand (two independent rows sum x_j = b_r over their
 *      own columns, 0 <= x_j <= u_j: fill the cheapest columns first); each warm solve
 *      meets it, and so does a cold solve of the same update.
 *   2. Two sessions on afiro, interleaved with different updates and log files, give
 *      bitwise the results of fresh sessions given the same LPs (and, for afiro as read,
 *      of shardlp_solve), and each log file holds its own session's lines only. One of
 *      them runs without presolve, so that its later solves reuse the step size.
 *   3. Refused updates (NaN cost, lower > upper, +inf lower) leave the problem as it was.
 * Also run on a 2 x 2 grid by tests/mpi/session_grid.sh (rank 0 holds the data). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "shardlp.h"

enum { ROWS = 2, PER_ROW = 4, COLS = ROWS * PER_ROW, UPDATES = 20 };

typedef struct {
    double c[COLS], u[COLS], b[ROWS];
} family_lp;

/* Variant k of the hand-solved family: costs of both signs, bounds 1..4, b in 3..5. */
static void variant(int k, family_lp *lp)
{
    for (int j = 0; j < COLS; j++) {
        lp->c[j] = -1.0 + 0.5 * ((j * 7 + k * 3) % 11);
        lp->u[j] = 1.0 + (j + k) % PER_ROW;
    }
    for (int r = 0; r < ROWS; r++)
        lp->b[r] = 3.0 + (r + k) % 3;
}

/* The optimum by hand: each row's b goes to its columns in increasing cost. */
static double hand_optimum(const family_lp *lp)
{
    double total = 0.0;
    for (int r = 0; r < ROWS; r++) {
        int used[PER_ROW] = {0};
        double left = lp->b[r];
        for (int step = 0; step < PER_ROW; step++) {
            int best = -1;
            for (int k = 0; k < PER_ROW; k++)
                if (!used[k] && (best < 0 || lp->c[r * PER_ROW + k] < lp->c[r * PER_ROW + best]))
                    best = k;
            used[best] = 1;
            double take = fmin(left, lp->u[r * PER_ROW + best]);
            total += take * lp->c[r * PER_ROW + best];
            left -= take;
        }
    }
    return total;
}

static shardlp_problem *family_problem(const family_lp *lp)
{
    int64_t ptr[COLS + 1], row[COLS];
    double val[COLS], lv[COLS] = {0};
    for (int j = 0; j < COLS; j++) {
        ptr[j] = j;
        row[j] = j / PER_ROW;
        val[j] = 1.0;
    }
    ptr[COLS] = COLS;
    shardlp_matrix A = {SHARDLP_CSC, COLS, ptr, row, NULL, val};
    shardlp_problem *p = NULL;
    CHECK(shardlp_problem_create(ROWS, COLS, SHARDLP_MINIMIZE, lp->c, 0.0, &A, lp->b, lp->b, lv,
                                 lp->u, &p) == SHARDLP_OK,
          "create: %s", shardlp_last_error());
    return p;
}

static shardlp_settings *settings_with(const char *tol, const char *log_file)
{
    shardlp_settings *s = NULL;
    CHECK(shardlp_settings_create(&s) == SHARDLP_OK, "settings");
    shardlp_set_option(s, "tol", tol);
    shardlp_set_option(s, "threads", "1");
    if (log_file) {
        shardlp_set_option(s, "verbosity", "1");
        shardlp_set_option(s, "log_to_console", "false");
        shardlp_set_option(s, "log_file", log_file);
    }
    return s;
}

/* Rank 0 passes whole vectors; the others NULL (the calls are collective). */
static const double *root_only(const double *v) { return shardlp_rank() == 0 ? v : NULL; }

static void updates_meet_hand_optimum(void)
{
    family_lp lp;
    variant(0, &lp);
    shardlp_problem *p = shardlp_rank() == 0 ? family_problem(&lp) : NULL;
    shardlp_settings *set = settings_with("1e-8", NULL);
    shardlp_session *session = NULL;
    CHECK(shardlp_session_create(p, set, &session) == SHARDLP_OK, "session: %s",
          shardlp_last_error());
    int64_t warm_iterations = 0, cold_iterations = 0;
    for (int k = 0; k < UPDATES && session; k++) {
        variant(k, &lp);
        double zeros[COLS] = {0};
        CHECK(shardlp_session_set_objective(session, root_only(lp.c)) == SHARDLP_OK, "c");
        CHECK(shardlp_session_set_col_bounds(session, root_only(zeros), root_only(lp.u)) ==
                  SHARDLP_OK, "bounds: %s", shardlp_last_error());
        CHECK(shardlp_session_set_row_bounds(session, root_only(lp.b), root_only(lp.b)) ==
                  SHARDLP_OK, "rows: %s", shardlp_last_error());
        shardlp_info warm, cold;
        double x[COLS];
        CHECK(shardlp_session_solve(session, 1, &warm, x, NULL, NULL, NULL) == SHARDLP_OK,
              "solve %d: %s", k, shardlp_last_error());
        CHECK(warm.status == SHARDLP_OPTIMAL && warm.warm_started == (k > 0),
              "update %d: status %d, warm %d", k, (int)warm.status, warm.warm_started);
        CHECK_CLOSE(warm.objective, hand_optimum(&lp), 1e-6);
        CHECK(shardlp_session_solve(session, 0, &cold, NULL, NULL, NULL, NULL) == SHARDLP_OK,
              "cold solve %d", k);
        CHECK(cold.status == SHARDLP_OPTIMAL && !cold.warm_started, "cold %d", k);
        CHECK_CLOSE(cold.objective, hand_optimum(&lp), 1e-6);
        if (shardlp_rank() == 0)
            for (int j = 0; j < COLS; j++)
                CHECK(x[j] >= -1e-7 && x[j] <= lp.u[j] + 1e-7, "x[%d] = %g in [0, %g]", j, x[j],
                      lp.u[j]);
        if (k > 0) { /* the first solve has nothing to start from */
            warm_iterations += warm.iterations;
            cold_iterations += cold.iterations;
        }
    }
    if (shardlp_rank() == 0)
        printf("updates: %d warm solves %lld iterations, cold %lld\n", UPDATES - 1,
               (long long)warm_iterations, (long long)cold_iterations);
    shardlp_session_destroy(&session);
    CHECK(session == NULL, "destroy clears");
    shardlp_settings_destroy(&set);
    shardlp_problem_destroy(&p);
}

/* afiro's costs (examples/data/afiro.mps: X02, X14, X23, X36, X39) times `scale`, its
 * bounds the default [0, inf) but column 0's upper bound u0. */
enum { AFIRO_N = 32, AFIRO_M = 27 };
static void afiro_change(double scale, double u0, double *c, double *lv, double *uv)
{
    static const int costly[] = {1, 12, 16, 28, 31};
    static const double cost[] = {-0.4, -0.32, -0.6, -0.48, 10.0};
    for (int j = 0; j < AFIRO_N; j++) {
        c[j] = 0.0;
        lv[j] = 0.0;
        uv[j] = INFINITY;
    }
    for (int k = 0; k < 5; k++)
        c[costly[k]] = scale * cost[k];
    uv[0] = u0;
}

/* The reference for a changed afiro: a fresh session (a fresh set-up, as a separate
 * process makes) given the change before its first solve. */
static shardlp_info one_shot(const char *path, const double *c, const double *lv, const double *uv,
                             const char *presolve)
{
    shardlp_info info;
    memset(&info, 0, sizeof info);
    shardlp_problem *p = NULL;
    shardlp_settings *set = settings_with("1e-6", NULL);
    shardlp_set_option(set, "presolve", presolve);
    if (shardlp_rank() == 0)
        CHECK(shardlp_problem_read(path, &p) == SHARDLP_OK, "read");
    shardlp_session *s = NULL;
    /* a fresh session with the changed data set before its first solve */
    CHECK(shardlp_session_create(p, set, &s) == SHARDLP_OK, "reference session");
    if (s) {
        shardlp_session_set_objective(s, root_only(c));
        shardlp_session_set_col_bounds(s, root_only(lv), root_only(uv));
        CHECK(shardlp_session_solve(s, 1, &info, NULL, NULL, NULL, NULL) == SHARDLP_OK, "ref");
    }
    shardlp_session_destroy(&s);
    shardlp_settings_destroy(&set);
    shardlp_problem_destroy(&p);
    return info;
}

static int count_lines(const char *path, const char *text)
{
    FILE *f = fopen(path, "r");
    char line[4096];
    int n = 0;
    while (f && fgets(line, sizeof line, f))
        n += strstr(line, text) != NULL;
    if (f)
        fclose(f);
    return n;
}

static void two_sessions_interleaved(const char *path)
{
    shardlp_problem *afiro = NULL;
    if (shardlp_rank() == 0)
        CHECK(shardlp_problem_read(path, &afiro) == SHARDLP_OK, "read: %s", shardlp_last_error());
    double cA[AFIRO_N], cB[AFIRO_N], lv[AFIRO_N], uvA[AFIRO_N], uvB[AFIRO_N];
    char logA[] = "/tmp/slp_session_aXXXXXX", logB[] = "/tmp/slp_session_bXXXXXX";
    int fa = mkstemp(logA), fb = mkstemp(logB);
    CHECK(fa >= 0 && fb >= 0, "temporary log files");
    shardlp_settings *setA = settings_with("1e-6", logA), *setB = settings_with("1e-6", logB);
    /* B without presolve: its solves after the first take the step size kept from the first
     * (docs/session.md), which must change no bit against a fresh session's estimate */
    shardlp_set_option(setB, "presolve", "off");
    shardlp_session *A = NULL, *B = NULL;
    CHECK(shardlp_session_create(afiro, setA, &A) == SHARDLP_OK, "A: %s", shardlp_last_error());
    CHECK(shardlp_session_create(afiro, setB, &B) == SHARDLP_OK, "B: %s", shardlp_last_error());
    for (int round = 0; round < 3 && A && B; round++) {
        afiro_change(1.0 + 0.25 * round, round == 0 ? INFINITY : 90.0 - 10.0 * round, cA, lv,
                     uvA);
        afiro_change(1.0 - 0.2 * round, 60.0 + 15.0 * round, cB, lv, uvB);
        shardlp_info a, b;
        CHECK(shardlp_session_set_objective(A, root_only(cA)) == SHARDLP_OK, "A c");
        CHECK(shardlp_session_set_col_bounds(A, root_only(lv), root_only(uvA)) == SHARDLP_OK,
              "A bounds");
        CHECK(shardlp_session_set_objective(B, root_only(cB)) == SHARDLP_OK, "B c");
        CHECK(shardlp_session_solve(A, 0, &a, NULL, NULL, NULL, NULL) == SHARDLP_OK, "A solve");
        CHECK(shardlp_session_set_col_bounds(B, root_only(lv), root_only(uvB)) == SHARDLP_OK,
              "B bounds");
        CHECK(shardlp_session_solve(B, 0, &b, NULL, NULL, NULL, NULL) == SHARDLP_OK, "B solve");
        shardlp_info ra = one_shot(path, cA, lv, uvA, "on"), rb = one_shot(path, cB, lv, uvB, "off");
        CHECK(a.status == SHARDLP_OPTIMAL && a.objective == ra.objective &&
                  a.iterations == ra.iterations,
              "A round %d: %.17g in %lld, one-shot %.17g in %lld", round, a.objective,
              (long long)a.iterations, ra.objective, (long long)ra.iterations);
        CHECK(b.status == SHARDLP_OPTIMAL && b.objective == rb.objective &&
                  b.iterations == rb.iterations,
              "B round %d: %.17g in %lld, one-shot %.17g in %lld", round, b.objective,
              (long long)b.iterations, rb.objective, (long long)rb.iterations);
        if (round == 0) { /* afiro as read: the one-shot solve and the published optimum */
            shardlp_settings *set = settings_with("1e-6", NULL);
            shardlp_info once;
            CHECK(shardlp_solve(afiro, set, &once, NULL, NULL, NULL, NULL) == SHARDLP_OK, "once");
            CHECK(a.objective == once.objective && a.iterations == once.iterations,
                  "session %.17g in %lld, shardlp_solve %.17g in %lld", a.objective,
                  (long long)a.iterations, once.objective, (long long)once.iterations);
            CHECK_CLOSE(a.objective, -464.7531428571, 1e-5);
            if (shardlp_rank() == 0) /* tests/mpi/session_grid.sh compares a separate process */
                printf("afiro in a session: objective %.17g iterations %lld\n", a.objective,
                       (long long)a.iterations);
            shardlp_settings_destroy(&set);
        }
    }
    shardlp_session_destroy(&A);
    shardlp_session_destroy(&B);
    if (shardlp_rank() == 0) {
        /* each log holds its own session's three solves and no other's */
        CHECK(count_lines(logA, "Session: solve") == 2 && count_lines(logB, "Session: solve") == 2,
              "logs: A %d, B %d session lines", count_lines(logA, "Session: solve"),
              count_lines(logB, "Session: solve"));
    }
    if (fa >= 0)
        close(fa), remove(logA);
    if (fb >= 0)
        close(fb), remove(logB);
    shardlp_settings_destroy(&setA);
    shardlp_settings_destroy(&setB);
    shardlp_problem_destroy(&afiro);
}

static void refused_updates_change_nothing(void)
{
    family_lp lp;
    variant(3, &lp);
    shardlp_problem *p = shardlp_rank() == 0 ? family_problem(&lp) : NULL;
    shardlp_settings *set = settings_with("1e-8", NULL);
    shardlp_session *s = NULL;
    CHECK(shardlp_session_create(p, set, &s) == SHARDLP_OK, "session");
    if (!s)
        return;
    double c[COLS], lo[COLS] = {0}, hi[COLS];
    memcpy(c, lp.c, sizeof c);
    memcpy(hi, lp.u, sizeof hi);
    c[5] = NAN;
    CHECK(shardlp_session_set_objective(s, root_only(c)) == SHARDLP_ERR_INPUT &&
              strstr(shardlp_last_error(), "column 5"),
          "NaN cost: %s", shardlp_last_error());
    lo[2] = hi[2] + 1.0;
    CHECK(shardlp_session_set_col_bounds(s, root_only(lo), NULL) == SHARDLP_ERR_INPUT &&
              strstr(shardlp_last_error(), "column 2"),
          "lower > upper: %s", shardlp_last_error());
    double row_lo[ROWS] = {INFINITY, 1.0};
    CHECK(shardlp_session_set_row_bounds(s, root_only(row_lo), NULL) == SHARDLP_ERR_INPUT &&
              strstr(shardlp_last_error(), "row 0"),
          "+inf lower: %s", shardlp_last_error());
    CHECK(shardlp_session_solve(NULL, 1, NULL, NULL, NULL, NULL, NULL) == SHARDLP_ERR_INPUT,
          "NULL session");
    shardlp_info info;
    CHECK(shardlp_session_solve(s, 1, &info, NULL, NULL, NULL, NULL) == SHARDLP_OK, "solve");
    CHECK(info.status == SHARDLP_OPTIMAL, "status %d", (int)info.status);
    CHECK_CLOSE(info.objective, hand_optimum(&lp), 1e-6);
    shardlp_session_destroy(&s);
    shardlp_session_destroy(&s); /* NULL is accepted */
    shardlp_settings_destroy(&set);
    shardlp_problem_destroy(&p);
}

int main(int argc, char **argv)
{
    const char *root = argc > 2 ? argv[2] : ".";
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/data/afiro.mps", root);
    CHECK(shardlp_init(&argc, &argv) == SHARDLP_OK, "init");
    updates_meet_hand_optimum();
    two_sessions_interleaved(path);
    refused_updates_change_nothing();
    int rank = shardlp_rank();
    shardlp_finalize();
    if (rank != 0) /* one summary line per job */
        return check_failed > 0;
    return check_summary();
}
