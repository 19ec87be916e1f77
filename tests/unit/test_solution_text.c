/* Unit tests of the text solution writer and reader (src/io/solution_text.c).
 * Expected file text follows HiGHS's raw solution style (HighsSolution.cpp
 * writeModelSolution: "Model status", status, blank, "# Primal solution values",
 * ...); see docs/solution-format.md. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "check/check.h"
#include "core/error.h"
#include "core/model.h"
#include "io/solution_text.h"

static char dir[256];

static const char *tmp(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

static int entries_in_dir(void)
{
    DIR *d = opendir(dir);
    int count = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            count++;
    if (d)
        closedir(d);
    return count;
}

static void remove_all(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            remove(tmp(e->d_name));
    if (d)
        closedir(d);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 16);
    size_t len = fread(buf, 1, (1 << 16) - 1, f);
    buf[len] = '\0';
    fclose(f);
    return buf;
}

static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* LP2 of test_check.c: max 3a + 2b, c1: a + b <= 4, c2: a + 3b <= 6, 0 <= a <= 3, b >= 0. */
static slp_model_t *lp2(int with_names)
{
    slp_model_t *model = NULL;
    if (slp_model_create(2, 2, 4, &model) != SLP_OK)
        return NULL;
    const int64_t cp[] = {0, 2, 4}, ri[] = {0, 1, 0, 1};
    const double va[] = {1, 1, 1, 3};
    memcpy(model->col_ptr, cp, sizeof cp);
    memcpy(model->row_idx, ri, sizeof ri);
    memcpy(model->val, va, sizeof va);
    model->c[0] = 3;
    model->c[1] = 2;
    model->uv[0] = 3;
    model->uc[0] = 4;
    model->uc[1] = 6;
    model->sense = -1;
    if (with_names) {
        model->row_names = calloc(2, sizeof(char *));
        model->col_names = calloc(2, sizeof(char *));
        model->row_names[0] = slp_strdup("c1");
        model->row_names[1] = slp_strdup("c2");
        model->col_names[0] = slp_strdup("a");
        model->col_names[1] = slp_strdup("b");
    }
    return model;
}

static const char *const LP2_TEXT =
    "Model status\n"
    "Optimal\n"
    "\n"
    "# Primal solution values\n"
    "Feasible\n"
    "Objective 11\n"
    "# Columns 2\n"
    "a 3\n"
    "b 1\n"
    "# Rows 2\n"
    "c1 4\n"
    "c2 6\n"
    "\n"
    "# Dual solution values\n"
    "Feasible\n"
    "# Columns 2\n"
    "a 1\n"
    "b 0\n"
    "# Rows 2\n"
    "c1 2\n"
    "c2 0\n"
    "\n"
    "# Basis\n"
    "HiGHS v1\n"
    "None\n";

static slp_err write_lp2(const char *path, const char *const *cols, const char *const *rows)
{
    slp_solution_writer_t *w = NULL;
    const double x[] = {3, 1}, act[] = {4, 6}, z[] = {1, 0}, y[] = {2, 0};
    SLP_CALL(slp_solution_writer_open(path, &w));
    slp_err rc = slp_solution_writer_header(w, "Optimal", "Feasible", 11);
    if (!rc) rc = slp_solution_writer_section(w, SLP_SOL_PRIMAL_COLUMNS, 2);
    /* streamed in two slices of one value each */
    if (!rc) rc = slp_solution_writer_values(w, 1, cols, x);
    if (!rc) rc = slp_solution_writer_values(w, 1, cols ? cols + 1 : NULL, x + 1);
    if (!rc) rc = slp_solution_writer_section(w, SLP_SOL_PRIMAL_ROWS, 2);
    if (!rc) rc = slp_solution_writer_values(w, 2, rows, act);
    if (!rc) rc = slp_solution_writer_dual_header(w, "Feasible");
    if (!rc) rc = slp_solution_writer_section(w, SLP_SOL_DUAL_COLUMNS, 2);
    if (!rc) rc = slp_solution_writer_values(w, 2, cols, z);
    if (!rc) rc = slp_solution_writer_section(w, SLP_SOL_DUAL_ROWS, 2);
    if (!rc) rc = slp_solution_writer_values(w, 2, rows, y);
    if (rc) {
        slp_solution_writer_abort(&w);
        return rc;
    }
    return slp_solution_writer_close(&w);
}

static void test_write_exact_text(void)
{
    const char *cols[] = {"a", "b"}, *rows[] = {"c1", "c2"};
    CHECK(write_lp2(tmp("lp2.sol"), cols, rows) == SLP_OK, "write: %s", slp_error_message());
    char *text = slurp(tmp("lp2.sol"));
    CHECK(text && !strcmp(text, LP2_TEXT), "file text differs from HiGHS raw style:\n%s",
          text ? text : "(none)");
    free(text);
    CHECK(entries_in_dir() == 1, "no temporary file left behind (%d entries)", entries_in_dir());

    /* generated names when NULL: C<k> / R<k>, as HiGHS does for unnamed models */
    CHECK(write_lp2(tmp("gen.sol"), NULL, NULL) == SLP_OK, "write");
    text = slurp(tmp("gen.sol"));
    CHECK(text && strstr(text, "# Columns 2\nC0 3\nC1 1\n# Rows 2\nR0 4\nR1 6\n"),
          "generated names: %s", text ? text : "(none)");
    free(text);

    /* read back against an unnamed model (generated names on both sides) */
    slp_model_t *model = lp2(0);
    slp_solution_t *sol = NULL;
    CHECK(slp_solution_text_read_model(tmp("gen.sol"), model, &sol) == SLP_OK, "read: %s",
          slp_error_message());
    if (sol)
        CHECK(sol->x[0] == 3 && sol->y[0] == 2 && sol->z[0] == 1, "values by generated name");
    slp_solution_destroy(&sol);
    slp_model_destroy(&model);
    remove_all();
}

static void test_round_trip_and_check(void)
{
    slp_model_t *model = lp2(1);
    const char *cols[] = {"a", "b"}, *rows[] = {"c1", "c2"};
    CHECK(write_lp2(tmp("lp2.sol"), cols, rows) == SLP_OK, "write");
    slp_solution_t *sol = NULL;
    slp_error_clear();
    CHECK(slp_solution_text_read_model(tmp("lp2.sol"), model, &sol) == SLP_OK, "read: %s",
          slp_error_message());
    if (sol) {
        CHECK(!strcmp(sol->model_status, "Optimal"), "model status '%s'", sol->model_status);
        CHECK(!strcmp(sol->primal_status, "Feasible") && !strcmp(sol->dual_status, "Feasible"),
              "part statuses");
        CHECK(sol->has_objective && sol->objective == 11, "objective");
        CHECK(sol->x[0] == 3 && sol->x[1] == 1, "x");
        CHECK(sol->row_activity[0] == 4 && sol->row_activity[1] == 6, "row activity");
        CHECK(sol->z[0] == 1 && sol->z[1] == 0, "z");
        CHECK(sol->y[0] == 2 && sol->y[1] == 0, "y");
        for (int k = 0; k < SLP_SOL_SECTION_COUNT; k++)
            CHECK(sol->missing[k] == 0 && sol->first_missing[k] == -1, "nothing missing");
        slp_check_result_t r;
        CHECK(slp_check_model(model, sol->x, sol->y, sol->z, sol->objective, &r) == SLP_OK,
              "check");
        CHECK(slp_check_passed(&r, 1e-6), "round-tripped LP2 optimum passes (max %.3g)", r.max);
    }
    slp_solution_destroy(&sol);
    slp_model_destroy(&model);
    remove_all();
}

static void test_exact_values(void)
{
    /* Awkward doubles and non-finite values survive the round trip bit for bit. */
    const double vals[] = {0.1, 1.0 / 3.0, -2.5e-300, 1.7976931348623157e308, -0.0, 4.9e-324,
                           NAN, INFINITY, -INFINITY};
    const int64_t n = (int64_t)(sizeof vals / sizeof vals[0]);
    slp_model_t *model = NULL;
    slp_model_create(0, n, 0, &model);
    slp_solution_writer_t *w = NULL;
    slp_err rc = slp_solution_writer_open(tmp("v.sol"), &w);
    if (!rc) rc = slp_solution_writer_header(w, "Optimal", "Feasible", 1.0 / 7.0);
    if (!rc) rc = slp_solution_writer_section(w, SLP_SOL_PRIMAL_COLUMNS, n);
    if (!rc) rc = slp_solution_writer_values(w, n, NULL, vals);
    if (!rc) rc = slp_solution_writer_section(w, SLP_SOL_PRIMAL_ROWS, 0);
    if (!rc) rc = slp_solution_writer_dual_header(w, NULL);
    if (!rc) rc = slp_solution_writer_close(&w);
    else slp_solution_writer_abort(&w);
    CHECK(rc == SLP_OK, "write: %s", slp_error_message());
    char *text = slurp(tmp("v.sol"));
    CHECK(text && strstr(text, "C6 nan\nC7 inf\nC8 -inf\n"), "non-finite spelling:\n%s",
          text ? text : "");
    CHECK(text && strstr(text, "# Dual solution values\nNone\n\n# Basis"), "dual None");
    free(text);

    slp_solution_t *sol = NULL;
    CHECK(slp_solution_text_read_model(tmp("v.sol"), model, &sol) == SLP_OK, "read: %s",
          slp_error_message());
    if (sol) {
        for (int64_t j = 0; j < n; j++) {
            if (isnan(vals[j]))
                CHECK(isnan(sol->x[j]), "NaN read back as NaN");
            else
                CHECK(sol->x[j] == vals[j] && signbit(sol->x[j]) == signbit(vals[j]),
                      "x[%lld] = %.17g, wrote %.17g", (long long)j, sol->x[j], vals[j]);
        }
        CHECK(sol->objective == 1.0 / 7.0, "objective exact");
        CHECK(!strcmp(sol->dual_status, "None"), "dual status None");
        CHECK(sol->missing[SLP_SOL_DUAL_COLUMNS] == n && sol->first_missing[SLP_SOL_DUAL_COLUMNS] == 0,
              "'None' dual part: every reduced cost missing");
        CHECK(isnan(sol->z[0]), "missing reduced cost is NaN");
        CHECK(sol->missing[SLP_SOL_PRIMAL_COLUMNS] == 0, "no column missing");
    }
    slp_solution_destroy(&sol);
    slp_model_destroy(&model);
    remove_all();
}

static void test_writer_errors_leave_no_file(void)
{
    slp_solution_writer_t *w = NULL;
    /* abort mid-way */
    CHECK(slp_solution_writer_open(tmp("a.sol"), &w) == SLP_OK, "open");
    slp_solution_writer_header(w, "Optimal", "Feasible", 0);
    slp_solution_writer_section(w, SLP_SOL_PRIMAL_COLUMNS, 3);
    slp_solution_writer_value(w, "x", 1);
    CHECK(access(tmp("a.sol"), F_OK) != 0, "final name does not exist while writing");
    CHECK(entries_in_dir() == 1, "one temporary file while writing");
    slp_solution_writer_abort(&w);
    CHECK(w == NULL && entries_in_dir() == 0, "abort removes the temporary file");

    /* fewer values than declared: close fails, nothing left */
    slp_error_clear();
    CHECK(slp_solution_writer_open(tmp("b.sol"), &w) == SLP_OK, "open");
    slp_solution_writer_header(w, "Optimal", "Feasible", 0);
    slp_solution_writer_section(w, SLP_SOL_PRIMAL_COLUMNS, 2);
    slp_solution_writer_value(w, "x", 1);
    CHECK(slp_solution_writer_section(w, SLP_SOL_PRIMAL_ROWS, 0) != SLP_OK,
          "new section with the previous one incomplete is an error");
    CHECK(strstr(slp_error_message(), "declared 2 entries, 1 written") != NULL, "message: %s",
          slp_error_message());
    CHECK(slp_solution_writer_close(&w) != SLP_OK, "close of a failed writer fails");
    CHECK(w == NULL && entries_in_dir() == 0, "failed close leaves nothing");

    /* closing before the dual part */
    CHECK(slp_solution_writer_open(tmp("c.sol"), &w) == SLP_OK, "open");
    slp_solution_writer_header(w, "Optimal", NULL, 0);
    CHECK(slp_solution_writer_close(&w) != SLP_OK, "incomplete file: close fails");
    CHECK(entries_in_dir() == 0, "nothing left");

    /* out of order, too many values, bad names */
    CHECK(slp_solution_writer_open(tmp("d.sol"), &w) == SLP_OK, "open");
    CHECK(slp_solution_writer_section(w, SLP_SOL_PRIMAL_COLUMNS, 1) != SLP_OK,
          "section before header");
    slp_solution_writer_abort(&w);
    CHECK(slp_solution_writer_open(tmp("d.sol"), &w) == SLP_OK, "open");
    slp_solution_writer_header(w, "Optimal", "Feasible", 0);
    CHECK(slp_solution_writer_section(w, SLP_SOL_PRIMAL_ROWS, 1) != SLP_OK, "rows before columns");
    slp_solution_writer_abort(&w);
    CHECK(slp_solution_writer_open(tmp("d.sol"), &w) == SLP_OK, "open");
    slp_solution_writer_header(w, "Optimal", "Feasible", 0);
    slp_solution_writer_section(w, SLP_SOL_PRIMAL_COLUMNS, 1);
    CHECK(slp_solution_writer_value(w, "", 1) != SLP_OK, "empty name");
    slp_solution_writer_abort(&w);
    /* Fixed-format MPS names may hold spaces (netlib forplan: "DEDO3 11"): written
     * percent-encoded so each line stays "NAME VALUE", and read back by the same
     * mapping; the encoding is injective ("a b" and "a_b" differ, '%' itself is
     * encoded) and no name starts with '#'. Expected texts written by hand. */
    char buf[64], buf2[64];
    CHECK(!strcmp(slp_solution_name("DEDO3 11", buf, sizeof buf), "DEDO3%2011"), "space mapped");
    CHECK(!strcmp(slp_solution_name("plain", buf, sizeof buf), "plain"), "plain name kept");
    CHECK(!strcmp(slp_solution_name("#x", buf, sizeof buf), "%23x"), "leading # encoded");
    CHECK(!strcmp(slp_solution_name("a#b", buf, sizeof buf), "a#b"), "inner # kept");
    CHECK(!strcmp(slp_solution_name("50%", buf, sizeof buf), "50%25"), "percent encoded");
    CHECK(strcmp(slp_solution_name("a b", buf, sizeof buf), slp_solution_name("a_b", buf2, sizeof buf2)),
          "'a b' and 'a_b' stay apart");
    CHECK(slp_solution_name("a b c d", buf, 8) == NULL, "too small a buffer is reported");
    CHECK(slp_solution_writer_open(tmp("d.sol"), &w) == SLP_OK, "open");
    slp_solution_writer_header(w, "Optimal", "Feasible", 0);
    slp_solution_writer_section(w, SLP_SOL_PRIMAL_COLUMNS, 1);
    slp_solution_writer_value(w, "x", 1);
    CHECK(slp_solution_writer_value(w, "y", 1) != SLP_OK, "more values than declared");
    slp_solution_writer_abort(&w);
    CHECK(entries_in_dir() == 0, "aborts leave nothing");
    slp_solution_writer_abort(&w); /* NULL is fine */

    /* unwritable directory */
    slp_error_clear();
    CHECK(slp_solution_writer_open("/nonexistent-dir/x.sol", &w) == SLP_ERR_IO && w == NULL,
          "open in a missing directory fails");
    CHECK(strstr(slp_error_message(), "/nonexistent-dir/x.sol") != NULL, "message names the file: %s",
          slp_error_message());
}

/* Replace the first occurrence of `from` in LP2_TEXT with `to`, write it, read it. */
static slp_err read_edited(const char *from, const char *to, slp_solution_t **sol)
{
    char text[4096];
    const char *at = strstr(LP2_TEXT, from);
    if (!at) {
        CHECK(0, "test bug: '%s' not in LP2_TEXT", from);
        return SLP_ERR_INTERNAL;
    }
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - LP2_TEXT), LP2_TEXT, to, at + strlen(from));
    spit(tmp("e.sol"), text);
    slp_model_t *model = lp2(1);
    slp_error_clear();
    slp_err rc = slp_solution_text_read_model(tmp("e.sol"), model, sol);
    slp_model_destroy(&model);
    return rc;
}

static void expect_read_error(const char *from, const char *to, const char *msg_part)
{
    slp_solution_t *sol = NULL;
    slp_err rc = read_edited(from, to, &sol);
    CHECK(rc != SLP_OK && sol == NULL, "edit '%s' -> '%s' should be a read error", from, to);
    CHECK(strstr(slp_error_message(), msg_part) != NULL, "message '%s' should contain '%s'",
          slp_error_message(), msg_part);
    slp_solution_destroy(&sol);
}

static void test_reader_errors(void)
{
    expect_read_error("a 3\n", "zz 3\n", "e.sol:8: unknown column 'zz'");
    expect_read_error("c2 0\n", "c9 0\n", "e.sol:21: unknown row 'c9'");
    expect_read_error("b 1\n", "a 1\n", "e.sol:9: second column value for column 'a'");
    expect_read_error("a 3\n", "a 3x\n", "e.sol:8: bad number '3x' for column 'a'");
    expect_read_error("a 3\n", "a 3 4\n", "e.sol:8: expected '<column name> <value>'");
    expect_read_error("a 3\n", "a\n", "e.sol:8: expected");
    expect_read_error("# Columns 2\na 3", "# Columns 3\na 3", "e.sol:7: solution has 3 columns, the model has 2");
    expect_read_error("# Rows 2\nc1 4", "# Rows x\nc1 4", "e.sol:10: bad count 'x'");
    expect_read_error("Objective 11", "Objective eleven", "e.sol:6: bad objective value 'eleven'");
    expect_read_error("Feasible\nObjective", "# Columns 2\nObjective", "expected a solution status");
    expect_read_error("Optimal\n", "Optimal\nstray words\n", "e.sol:3: unexpected line 'stray words'");
    expect_read_error("# Dual solution values", "# Duals", "unexpected line '# Duals'");
    slp_solution_t *sol = NULL;
    slp_error_clear();
    slp_model_t *model = lp2(1);
    CHECK(slp_solution_text_read_model(tmp("missing.sol"), model, &sol) == SLP_ERR_IO,
          "missing file is an I/O error");
    CHECK(strstr(slp_error_message(), "missing.sol: cannot open") != NULL, "message: %s",
          slp_error_message());
    slp_model_destroy(&model);
    remove_all();
}

static void test_reader_missing_and_nan(void)
{
    slp_solution_t *sol = NULL;
    slp_model_t *model = lp2(1);
    slp_check_result_t r;

    /* a deleted column line: not a read error; NaN, counted, and the check fails */
    CHECK(read_edited("# Columns 2\na 3\nb 1\n", "# Columns 2\na 3\n", &sol) == SLP_OK, "read: %s",
          slp_error_message());
    if (sol) {
        CHECK(sol->missing[SLP_SOL_PRIMAL_COLUMNS] == 1 && sol->first_missing[SLP_SOL_PRIMAL_COLUMNS] == 1,
              "one missing column value, b");
        CHECK(isnan(sol->x[1]) && sol->x[0] == 3, "missing value is NaN");
        slp_check_model(model, sol->x, sol->y, sol->z, sol->objective, &r);
        CHECK(!slp_check_passed(&r, 1e-6) && isnan(r.value[SLP_CHECK_BOUND_NORM]),
              "missing x fails on a non-finite criterion");
    }
    slp_solution_destroy(&sol);

    /* a deleted row dual */
    CHECK(read_edited("c1 2\n", "", &sol) == SLP_OK, "read");
    if (sol) {
        CHECK(sol->missing[SLP_SOL_DUAL_ROWS] == 1 && sol->first_missing[SLP_SOL_DUAL_ROWS] == 0,
              "missing row dual c1");
        slp_check_model(model, sol->x, sol->y, sol->z, sol->objective, &r);
        CHECK(!slp_check_passed(&r, 1e-6) && isnan(r.value[SLP_CHECK_ROW_DUAL_SIGN]),
              "missing y fails");
    }
    slp_solution_destroy(&sol);

    /* NaN and -nan are values, not parse errors */
    CHECK(read_edited("b 0\n", "b -nan\n", &sol) == SLP_OK, "read: %s", slp_error_message());
    if (sol) {
        CHECK(isnan(sol->z[1]) && sol->missing[SLP_SOL_DUAL_COLUMNS] == 0, "-nan is a value");
        slp_check_model(model, sol->x, sol->y, sol->z, sol->objective, &r);
        CHECK(!slp_check_passed(&r, 1e-6) && !r.all_finite, "NaN z fails as non-finite");
    }
    slp_solution_destroy(&sol);

    /* CRLF line endings, extra blank lines and spaces are accepted */
    char text[4096];
    size_t k = 0;
    for (const char *p = LP2_TEXT; *p && k + 4 < sizeof text; p++) {
        if (*p == '\n') {
            text[k++] = ' ';
            text[k++] = '\r';
        }
        text[k++] = *p;
    }
    text[k] = '\0';
    spit(tmp("crlf.sol"), text);
    CHECK(slp_solution_text_read_model(tmp("crlf.sol"), model, &sol) == SLP_OK, "CRLF read: %s",
          slp_error_message());
    if (sol)
        CHECK(sol->x[0] == 3 && sol->y[0] == 2 && sol->objective == 11 &&
                  !strcmp(sol->model_status, "Optimal"),
              "CRLF values");
    slp_solution_destroy(&sol);

    /* a primal part of "None" (e.g. infeasible, HiGHS style): all primal entries missing */
    CHECK(read_edited("Feasible\nObjective 11\n# Columns 2\na 3\nb 1\n# Rows 2\nc1 4\nc2 6\n",
                      "None\n", &sol) == SLP_OK,
          "read: %s", slp_error_message());
    if (sol) {
        CHECK(!sol->has_objective && isnan(sol->objective), "no objective");
        CHECK(sol->missing[SLP_SOL_PRIMAL_COLUMNS] == 2 && sol->missing[SLP_SOL_PRIMAL_ROWS] == 2,
              "all primal entries missing");
        CHECK(sol->y[0] == 2, "duals still read");
    }
    slp_solution_destroy(&sol);

    /* statuses other than Optimal are kept verbatim */
    CHECK(read_edited("Optimal", "Time limit reached", &sol) == SLP_OK, "read");
    if (sol)
        CHECK(!strcmp(sol->model_status, "Time limit reached"), "status '%s'", sol->model_status);
    slp_solution_destroy(&sol);

    /* anything after "# Basis" is ignored */
    CHECK(read_edited("HiGHS v1\nNone\n", "HiGHS_basis_file v2\n# Columns 2\nb b\n", &sol) == SLP_OK,
          "basis part ignored: %s", slp_error_message());
    slp_solution_destroy(&sol);
    slp_model_destroy(&model);
    remove_all();
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    snprintf(dir, sizeof dir, "%s/slp_soltext_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_write_exact_text();
    test_round_trip_and_check();
    test_exact_values();
    test_writer_errors_leave_no_file();
    test_reader_errors();
    test_reader_missing_and_nan();
    remove_all();
    rmdir(dir);
    return check_summary();
}
