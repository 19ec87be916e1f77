/* The option table and the run options (src/run/option_table.c, run_options.c) and
 * the C API settings object on top of them: every row sets and reads back, names in
 * all spellings reach the same field, values out of range are refused with the
 * option's name and leave the value unchanged, copies own their strings (ASan build),
 * options files apply the table with FILE:LINE errors, output files replace
 * atomically (io/out_file.c). Expected values come from the documented defaults
 * (docs/cli.md) and hand-chosen inputs, not from the code under test. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "io/out_file.h"
#include "run/option_table.h"
#include "run/run_options.h"
#include "shardlp.h"

static void test_defaults(void)
{
    slp_run_options_t o;
    slp_run_options_default(&o);
    /* docs/cli.md and docs/algorithm.md: tol 1e-4, the automatic check interval, no time
     * limit, l2, presolve on */
    CHECK(o.solver.tol == 1e-4, "tol %g", o.solver.tol);
    CHECK(o.solver.eval_freq == 0 && o.solver.pid_hold_first == SLP_HOLD_AUTO, "eval_freq %d",
          o.solver.eval_freq);
    CHECK(isinf(o.solver.time_limit) && o.solver.time_limit > 0, "time limit %g",
          o.solver.time_limit);
    CHECK(o.output_flag == 1 && o.write_solution == 1 && o.solution_style == 0, "HiGHS switches");
    CHECK(o.solver.norm == SLP_NORM_L2 && o.solver.presolve == 1 && o.solver.polish == 0, "flags");
    CHECK(o.verbosity == 1 && o.checkpoint_every == 300.0, "run defaults");
    slp_run_options_free(&o);
}

static void test_spellings(void)
{
    slp_run_options_t o;
    slp_run_options_default(&o);
    const char *names[] = {"time-limit", "time_limit", "--time-limit", "--time_limit"};
    for (int k = 0; k < 4; k++) {
        char value[16];
        snprintf(value, sizeof value, "%d", 10 + k);
        CHECK(slp_option_set(&o, names[k], value) == SLP_OK, "%s", names[k]);
        CHECK(o.solver.time_limit == 10.0 + k, "%s -> %g", names[k], o.solver.time_limit);
    }
    CHECK(slp_option_set(&o, "primal_feasibility_tolerance", "1e-7") == SLP_OK, "HiGHS tol");
    CHECK(o.solver.tol == 1e-7, "HiGHS alias reached tol: %g", o.solver.tol);
    CHECK(slp_option_set(&o, "solve_relaxation", "true") == SLP_OK && o.relax == 1, "relax");
    CHECK(slp_option_set(&o, "eps_abs", "1e-8") == SLP_OK && o.solver.detailed == 1 &&
              o.solver.eps_abs == 1e-8, "eps_abs implies the detailed form");
    CHECK(slp_option_set(&o, "norm", "linf") == SLP_OK && o.solver.norm == SLP_NORM_LINF, "norm");
    CHECK(slp_option_set(&o, "comm", "support") == SLP_OK && o.solver.comm_support == 1, "comm");
    CHECK(slp_option_set(&o, "grid", "3x5") == SLP_OK && o.grid[0] == 3 && o.grid[1] == 5, "grid");
    CHECK(slp_option_set(&o, "presolve", "choose") == SLP_OK && o.solver.presolve == 1,
          "choose keeps the default");
    CHECK(slp_option_set(&o, "quiet", NULL) == SLP_OK && o.verbosity == 0, "flag");
    CHECK(slp_option_set(&o, "iter-limit", "9223372036854775807") == SLP_OK &&
              o.solver.iter_limit == INT64_MAX, "INT64_MAX iteration limit");
    slp_run_options_free(&o);
}

/* Each refusal names the option and leaves nothing set. */
static void test_refusals(void)
{
    slp_run_options_t o;
    slp_run_options_default(&o);
    struct { const char *name, *value, *text; } bad[] = {
        {"tol", "2", "option tol: 2 is out of range"},
        {"tol", "abc", "option tol: 'abc' is not a number"},
        {"norm", "l3", "option norm: 'l3' is not one of l2/linf"},
        {"threads", "-1", "option threads: -1 is out of range [0, 4096]"},
        {"checkpoint-every", "0", "option checkpoint-every: 0 is out of range"},
        {"grid", "2by2", "option grid: '2by2' is not RxC"},
        {"polish", "maybe", "option polish: 'maybe' is not true or false"},
        {"no-such", "1", "unknown option 'no-such'"},
        {"sol", "", "option sol: empty path"},
        {"time-limit", NULL, "option time-limit needs a value"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        slp_error_clear();
        CHECK(slp_option_set(&o, bad[k].name, bad[k].value) == SLP_ERR_INPUT, "%s accepted",
              bad[k].name);
        CHECK(strstr(slp_error_message(), bad[k].text) != NULL, "message '%s' lacks '%s'",
              slp_error_message(), bad[k].text);
    }
    slp_error_clear();
    slp_run_options_free(&o);
}

/* An options file as highspy's writeOptions writes it: inf, empty values, HiGHS's
 * other options (silent at their defaults, listed once otherwise), unknown names. */
static void test_highs_options_file(const char *tmpdir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/highs.opt", tmpdir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (!f)
        return;
    fputs("# written by highspy\npresolve = off\nsolver = choose\nparallel = choose\n"
          "time_limit = inf\nrun_crossover = on\nmip_rel_gap = 0.01\n"
          "primal_feasibility_tolerance = 1e-07\nlog_file = \nsolution_file = \n"
          "output_flag = false\nwrite_solution_to_file = false\nread_solution_file =\n"
          "objective_bound = inf\n", f);
    fclose(f);
    slp_run_options_t o;
    slp_run_options_default(&o);
    CHECK(slp_option_set(&o, "solution_file", "/tmp/x.sol") == SLP_OK && o.sol_path, "sol");
    CHECK(slp_option_set(&o, "time_limit", "5") == SLP_OK, "time limit");
    CHECK(slp_options_file_read(path, &o) == SLP_OK, "file: %s", slp_error_message());
    CHECK(o.solver.presolve == 0, "presolve = off");
    CHECK(isinf(o.solver.time_limit), "time_limit = inf: %g", o.solver.time_limit);
    /* a tolerance at HiGHS's default sets nothing (an options file's defaults never
     * override); the HiGHS-style run's tolerance is that default all the same */
    CHECK(!o.tol_given && slp_run_tolerance(&o) == 1e-7, "tolerance %g", slp_run_tolerance(&o));
    CHECK(o.sol_path == NULL, "an empty solution_file unsets the path");
    CHECK(o.output_flag == 0 && o.write_solution == 0, "output_flag, write_solution_to_file");
    CHECK(!strcmp(o.highs_ignored, "mip_rel_gap=0.01"), "ignored list '%s'", o.highs_ignored);
    CHECK(slp_option_set(&o, "simplex_strategy", "4") == SLP_OK, "another HiGHS option");
    CHECK(strstr(o.highs_ignored, "simplex_strategy=4") != NULL, "ignored list '%s'",
          o.highs_ignored);
    CHECK(slp_option_set(&o, "time_limit", "-inf") == SLP_ERR_INPUT, "-inf refused");
    slp_error_clear();
    slp_run_options_free(&o);
}

static void test_every_row_round_trips(void)
{
    int count = 0;
    const slp_option_t *t = slp_option_table(&count);
    CHECK(count > 20, "only %d options", count);
    slp_run_options_t o;
    slp_run_options_default(&o);
    for (int k = 0; k < count; k++) {
        char text[256];
        if (t[k].type == SLP_OPT_FLAG || t[k].type == SLP_OPT_FILE)
            continue;
        CHECK(slp_option_get(&o, t[k].name, text, sizeof text) == SLP_OK, "get %s", t[k].name);
        if (t[k].type == SLP_OPT_PATH)
            snprintf(text, sizeof text, "/tmp/%s.out", t[k].name);
        else if (!text[0] || !strcmp(text, "0x0"))
            continue;
        CHECK(slp_option_set(&o, t[k].name, text) == SLP_OK, "set %s = %s: %s", t[k].name, text,
              slp_error_message());
        char back[256];
        slp_option_get(&o, t[k].name, back, sizeof back);
        CHECK(!strcmp(text, back), "%s: set %s, read %s", t[k].name, text, back);
    }
    slp_run_options_t copy;
    CHECK(slp_run_options_copy(&o, &copy) == SLP_OK, "copy");
    CHECK(copy.sol_path && copy.sol_path != o.sol_path && !strcmp(copy.sol_path, o.sol_path),
          "the copy owns its strings");
    slp_run_options_free(&o);
    slp_run_options_free(&copy);
}

static void test_options_file(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/highs.opt", dir);
    FILE *f = fopen(path, "w");
    fprintf(f, "# a HiGHS options file\npresolve = off\ntime_limit = 12.5\n"
               "solution_file = x.sol\nmip_rel_gap = 0\n\nnorm = bogus\n");
    fclose(f);
    slp_run_options_t o;
    slp_run_options_default(&o);
    slp_error_clear();
    slp_err rc = slp_options_file_read(path, &o);
    CHECK(rc == SLP_ERR_INPUT, "a bad value in an options file is an error");
    CHECK(strstr(slp_error_message(), "highs.opt:7: option norm") != NULL, "message: %s",
          slp_error_message());
    CHECK(o.solver.presolve == 0 && o.solver.time_limit == 12.5 && o.sol_path &&
              !strcmp(o.sol_path, "x.sol"), "lines before the error applied");
    slp_error_clear();
    slp_run_options_free(&o);
}

static void test_api_settings(void)
{
    shardlp_settings *s = NULL;
    CHECK(shardlp_settings_create(&s) == SHARDLP_OK, "create");
    char buf[64];
    CHECK(shardlp_get_option(s, "verbosity", buf, sizeof buf) == SHARDLP_OK && !strcmp(buf, "0"),
          "the library is quiet by default (%s)", buf);
    CHECK(shardlp_set_option(s, "presolve", "off") == SHARDLP_OK, "set");
    CHECK(shardlp_set_option(s, "tol", "7") == SHARDLP_ERR_INPUT, "out of range");
    CHECK(shardlp_get_option(s, "tol", buf, sizeof buf) == SHARDLP_OK && !strcmp(buf, "0.0001"),
          "a refused value leaves the option unchanged (%s)", buf);
    CHECK(shardlp_set_option(s, "model_file", "x.mps") == SHARDLP_ERR_INPUT,
          "model_file is for the command line");
    CHECK(shardlp_option_count() > 20 && shardlp_option_name(0) &&
              !shardlp_option_name(shardlp_option_count()), "listing");
    shardlp_settings_destroy(&s);
    CHECK(s == NULL, "destroy clears the pointer");
    slp_error_clear();
}

static void test_out_file(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    FILE *f = fopen(path, "w");
    fputs("old\n", f);
    fclose(f);
    slp_out_file_t out;
    CHECK(slp_out_open(&out, path, "test file", 0) == SLP_OK, "open");
    fputs("new\n", out.f);
    char line[16] = {0};
    f = fopen(path, "r");
    CHECK(f && fgets(line, sizeof line, f) && !strcmp(line, "old\n"), "old until commit");
    if (f)
        fclose(f);
    CHECK(slp_out_commit(&out) == SLP_OK, "commit");
    f = fopen(path, "r");
    CHECK(f && fgets(line, sizeof line, f) && !strcmp(line, "new\n"), "new after commit");
    if (f)
        fclose(f);
    CHECK(slp_out_open(&out, path, "test file", 0) == SLP_OK, "open again");
    fputs("aborted\n", out.f);
    slp_out_abort(&out);
    f = fopen(path, "r");
    CHECK(f && fgets(line, sizeof line, f) && !strcmp(line, "new\n"), "abort keeps the old file");
    if (f)
        fclose(f);
    snprintf(path, sizeof path, "%s/no/such/dir/x", dir);
    CHECK(slp_out_check(path, "test file", 0) == SLP_ERR_IO, "missing directory refused");
    slp_error_clear();
}

int main(void)
{
    char dir[] = "/tmp/slp_options_XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    test_defaults();
    test_spellings();
    test_refusals();
    test_highs_options_file(dir);
    test_every_row_round_trips();
    test_options_file(dir);
    test_api_settings();
    test_out_file(dir);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return check_summary();
}
