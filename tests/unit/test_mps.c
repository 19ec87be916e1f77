/* MPS reader/writer tests. argv[1] = shared dir (lp/, mps-edge/), argv[2] = repo root.
 *
 * Expected values and where they come from:
 *   - sizes of every corpus file: ../shared/lp/INDEX.tsv (rows, cols, nonzeros)
 *   - afiro coefficients: read by hand from netlib/afiro.mps
 *   - e226 objective constant 7.113 (RHS -7.113 on the objective row; Clp/HiGHS
 *     convention, optimum -11.63892907 = -18.75192907 + 7.113): INDEX.tsv notes
 *   - mps-edge sizes: HiGHS 1.15.1 log in ../shared/mps-edge/Highs.log
 *   - tests/data/mps/semantics.mps: hand-derived from docs/mps.md's rules */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "mps_checks.h"
#include "core/error.h"
#include "core/log.h"
#include "core/model.h"
#include "io/mps.h"
#include "io/mps_parse.h"

static const char *shared_dir;
static const char *repo_dir;

static void path_join(char *buf, size_t size, const char *a, const char *b)
{
    snprintf(buf, size, "%s/%s", a, b);
}

static void check_csc(const slp_model_t *mo, const char *what)
{
    int ok = mo->col_ptr[0] == 0 && mo->col_ptr[mo->n] == mo->nnz;
    for (int64_t j = 0; j < mo->n && ok; j++) {
        ok = mo->col_ptr[j] <= mo->col_ptr[j + 1];
        for (int64_t k = mo->col_ptr[j]; k < mo->col_ptr[j + 1] && ok; k++)
            ok = mo->row_idx[k] >= 0 && mo->row_idx[k] < mo->m &&
                 (k == mo->col_ptr[j] || mo->row_idx[k - 1] < mo->row_idx[k]);
    }
    CHECK(ok, "%s: CSC structure valid (sorted rows, no duplicates)", what);
}

static int64_t find_row(const slp_model_t *mo, const char *name)
{
    for (int64_t i = 0; i < mo->m; i++)
        if (!strcmp(mo->row_names[i], name))
            return i;
    return -1;
}

static int64_t find_col(const slp_model_t *mo, const char *name)
{
    for (int64_t j = 0; j < mo->n; j++)
        if (!strcmp(mo->col_names[j], name))
            return j;
    return -1;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* --- corpus sizes against INDEX.tsv ------------------------------------- */

static void test_corpus_sizes(void)
{
    char path[1024];
    path_join(path, sizeof path, shared_dir, "lp/INDEX.tsv");
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    char line[8192];
    int files = 0;
    double slowest = 0.0;
    char slowest_name[256] = "";
    if (!fgets(line, sizeof line, f)) /* header */
        line[0] = '\0';
    slp_log_set_printing(0); /* integer-relaxation warnings etc. are expected here */
    /* The sanitizer build (SLP_TEST_MAX_NNZ set by `make test-asan`) reads only the
     * files up to that many nonzeros: under ASan the whole corpus takes minutes. */
    const char *cap_text = getenv("SLP_TEST_MAX_NNZ");
    long long cap = cap_text ? atoll(cap_text) : 0;
    int skipped = 0, listed = 0;
    while (fgets(line, sizeof line, f)) {
        char name[256], file[512];
        long long rows, cols, nnz;
        if (sscanf(line, "%255[^\t]\t%511[^\t]\t%lld\t%lld\t%lld", name, file, &rows, &cols, &nnz) !=
            5)
            continue;
        listed++;
        if (cap > 0 && nnz > cap) {
            skipped++;
            continue;
        }
        char full[1200];
        snprintf(full, sizeof full, "%s/lp/%s", shared_dir, file);
        double t0 = now_seconds();
        slp_model_t *mo = read_ok(full);
        double dt = now_seconds() - t0;
        if (dt > slowest) {
            slowest = dt;
            snprintf(slowest_name, sizeof slowest_name, "%s", name);
        }
        if (!mo)
            continue;
        files++;
        CHECK(mo->m == rows && mo->n == cols && mo->nnz == nnz,
              "%s: m n nnz = %lld %lld %lld, INDEX.tsv says %lld %lld %lld", name,
              (long long)mo->m, (long long)mo->n, (long long)mo->nnz, rows, cols, nnz);
        check_csc(mo, name);
        slp_model_destroy(&mo);
    }
    slp_log_set_printing(1);
    fclose(f);
    /* every file INDEX.tsv lists: the full corpus's 233, or the suite's own copy's */
    CHECK(files + skipped == listed && files >= 1, "read %d corpus files (%d skipped by size), "
          "INDEX.tsv lists %d", files, skipped, listed);
    if (listed < 233)
        check_note_skip("the full corpus's other files: its INDEX.tsv lists 233");
    printf("corpus: %d files read, slowest %s in %.3f s\n", files, slowest_name, slowest);
}

/* --- afiro by hand --------------------------------------------------------- */

static void test_afiro(void)
{
    char path[1024];
    path_join(path, sizeof path, shared_dir, "lp/netlib/afiro.mps.gz");
    slp_model_t *mo = read_ok(path);
    if (!mo)
        return;
    CHECK(mo->m == 27 && mo->n == 32 && mo->nnz == 83, "afiro sizes");
    CHECK(!strcmp(mo->name, "AFIRO"), "afiro name '%s'", mo->name);
    CHECK(!strcmp(mo->obj_name, "COST"), "afiro objective row '%s'", mo->obj_name);
    CHECK(mo->sense == 1 && mo->obj_const == 0.0, "afiro sense and constant");
    /* From afiro.mps: ROWS start E R09, E R10, L X05, L X21; the N row COST is
     * last. Column X01: X48 .301, R09 -1., R10 -1.06, X05 1.; X02 has COST -.4.
     * RHS: X05 80, R23 44; R09 and R10 have none (0). */
    int64_t x01 = find_col(mo, "X01"), x02 = find_col(mo, "X02");
    int64_t r09 = find_row(mo, "R09"), r10 = find_row(mo, "R10"), x05 = find_row(mo, "X05");
    int64_t x21 = find_row(mo, "X21"), x48 = find_row(mo, "X48"), r23 = find_row(mo, "R23");
    CHECK(x01 == 0 && x02 == 1, "afiro column order X01=%lld X02=%lld", (long long)x01,
          (long long)x02);
    CHECK(r09 == 0 && r10 == 1 && x05 == 2 && x21 == 3, "afiro row order");
    if (x01 == 0 && x02 == 1 && r09 == 0 && r10 == 1 && x05 == 2 && x21 == 3 && x48 >= 0 &&
        r23 >= 0) {
        CHECK(entry(mo, x48, x01) == 0.301, "X01/X48 = .301");
        CHECK(entry(mo, r09, x01) == -1.0, "X01/R09 = -1");
        CHECK(entry(mo, r10, x01) == -1.06, "X01/R10 = -1.06");
        CHECK(entry(mo, x05, x01) == 1.0, "X01/X05 = 1");
        CHECK(mo->col_ptr[1] - mo->col_ptr[0] == 4, "X01 has 4 matrix entries");
        CHECK(entry(mo, x21, x02) == -1.0 && entry(mo, r09, x02) == 1.0, "X02 entries");
        CHECK(mo->col_ptr[2] - mo->col_ptr[1] == 2, "X02: the COST entry is not in the matrix");
        CHECK(mo->c[x01] == 0.0, "c[X01] = 0");
        CHECK(mo->c[x02] == -0.4, "c[X02] = -0.4");
        CHECK(mo->lc[r09] == 0.0 && mo->uc[r09] == 0.0, "R09: E 0");
        CHECK(mo->lc[x05] == -INFINITY && mo->uc[x05] == 80.0, "X05: L 80");
        CHECK(mo->lc[x21] == -INFINITY && mo->uc[x21] == 0.0, "X21: L 0");
        CHECK(mo->lc[r23] == 44.0 && mo->uc[r23] == 44.0, "R23: E 44");
        for (int64_t j = 0; j < mo->n; j++)
            CHECK(mo->lv[j] == 0.0 && mo->uv[j] == INFINITY, "afiro default bounds col %lld",
                  (long long)j);
    }
    CHECK(mo->is_int == NULL, "afiro has no integer columns");
    slp_model_destroy(&mo);
}

static void test_e226_forplan_boeing(void)
{
    char path[1024];
    path_join(path, sizeof path, shared_dir, "lp/netlib/e226.mps.gz");
    slp_model_t *mo = read_ok(path);
    if (mo) {
        /* RHS on the objective row is -7.113: obj_const = +7.113, so the optimum
         * -18.751929066 + 7.113 = -11.638929066 (Clp, HiGHS, CPLEX). */
        CHECK(mo->obj_const == 7.113, "e226 obj_const = %.17g, expected 7.113", mo->obj_const);
        CHECK_CLOSE(-18.751929066 + mo->obj_const, -11.63892907, 1e-9);
        slp_model_destroy(&mo);
    }

    path_join(path, sizeof path, shared_dir, "lp/netlib/forplan.mps.gz");
    mo = read_ok(path);
    if (mo) {
        CHECK(mo->m == 161 && mo->n == 421 && mo->nnz == 4563, "forplan sizes %lld %lld %lld",
              (long long)mo->m, (long long)mo->n, (long long)mo->nnz);
        CHECK(!strcmp(mo->name, "FORPLAN  (FORPLAN1)"), "forplan NAME '%s'", mo->name);
        CHECK(!strcmp(mo->obj_name, "OB1PNW20"), "forplan objective '%s'", mo->obj_name);
        int64_t r = find_row(mo, "DEDO3 1R"), c = find_col(mo, "DEDO3 11");
        CHECK(r >= 0 && c >= 0, "forplan names with spaces kept");
        if (r >= 0 && c >= 0) {
            CHECK(entry(mo, r, c) == -1.0, "forplan DEDO3 11 / DEDO3 1R = -1");
            CHECK(mo->c[c] == 0.02466, "forplan c[DEDO3 11] = .02466");
        }
        int64_t lc123 = find_row(mo, "LC123"), br = find_row(mo, "BR   1 1");
        CHECK(lc123 == 0 && br >= 0, "forplan rows");
        if (lc123 == 0 && br >= 0) {
            CHECK(mo->lc[0] == 7392000.0 && mo->uc[0] == 7392000.0, "forplan LC123 = 7392000");
            CHECK(mo->uc[br] == 2345.0, "forplan 'BR   1 1' <= 2345 (fixed-format RHS line)");
        }
        slp_model_destroy(&mo);
    }

    path_join(path, sizeof path, shared_dir, "lp/netlib/boeing1.mps.gz");
    mo = read_ok(path);
    if (mo) {
        /* boeing1.mps: " L  DMBOSHNL", RHS1 DMBOSHNL 12., RANGE1 DMBOSHNL 2. -> [10, 12];
         * " G  REVENUES" has no RANGES. 3 declared rows are empty (README). */
        int64_t i = find_row(mo, "DMBOSHNL");
        CHECK(i >= 0 && mo->lc[i] == 10.0 && mo->uc[i] == 12.0, "boeing1 DMBOSHNL in [10, 12]");
        int ranged = 0;
        for (int64_t r = 0; r < mo->m; r++)
            ranged += isfinite(mo->lc[r]) && isfinite(mo->uc[r]) && mo->lc[r] < mo->uc[r];
        CHECK(ranged > 50, "boeing1 has many ranged rows: %d", ranged);
        int64_t *count = calloc((size_t)mo->m, sizeof *count);
        for (int64_t k = 0; k < mo->nnz; k++)
            count[mo->row_idx[k]]++;
        int empty = 0;
        for (int64_t r = 0; r < mo->m; r++)
            empty += count[r] == 0;
        free(count);
        CHECK(empty == 3, "boeing1 has 3 empty rows (got %d)", empty);
        slp_model_destroy(&mo);
    }
}

/* --- a maximisation file --------------------------------------------------- */

static void test_max(void)
{
    char path[1024];
    path_join(path, sizeof path, repo_dir, "tests/data/mps/max.mps");
    slp_model_t *mo = read_ok(path);
    if (mo) {
        CHECK(mo->sense == -1, "OBJSENSE section MAXIMIZE");
        CHECK(mo->c[0] == 3.0 && mo->c[1] == 2.0, "max: c not negated");
        CHECK(mo->uv[0] == 3.0, "max: UP X 3");
        CHECK(mo->m == 2 && mo->n == 2 && mo->nnz == 4, "max sizes");
        slp_model_destroy(&mo);
    }
    path_join(path, sizeof path, repo_dir, "tests/data/mps/max-inline.mps");
    mo = read_ok(path);
    if (mo) {
        CHECK(mo->sense == -1, "inline OBJSENSE MAX");
        CHECK(mo->obj_const == -2.5, "objective RHS 2.5 -> constant -2.5");
        CHECK(!strcmp(mo->name, "inline"), "free NAME");
        CHECK(mo->lc[0] == 1.0 && mo->uc[0] == INFINITY, "G row 1");
        slp_model_destroy(&mo);
    }
}

/* --- every convention in one file ----------------------------------------- */

static void test_semantics(void)
{
    char path[1024];
    path_join(path, sizeof path, repo_dir, "tests/data/mps/semantics.mps");
    slp_log_set_printing(0);
    slp_model_t *mo = read_ok(path);
    slp_log_set_printing(1);
    if (!mo)
        return;
    CHECK(mo->m == 6 && mo->n == 4 && mo->nnz == 10, "semantics sizes %lld %lld %lld",
          (long long)mo->m, (long long)mo->n, (long long)mo->nnz);
    check_csc(mo, "semantics");
    if (mo->m != 6 || mo->n != 4 || mo->nnz != 10) {
        slp_model_destroy(&mo);
        return;
    }
    const char *rows[6] = {"EQ", "LE", "GE", "EQNEG", "EQZERO", "LEINF"};
    for (int i = 0; i < 6; i++)
        CHECK(!strcmp(mo->row_names[i], rows[i]), "row %d is %s", i, rows[i]);
    const char *cols[4] = {"X1", "X2", "X3", "X4"};
    for (int j = 0; j < 4; j++)
        CHECK(!strcmp(mo->col_names[j], cols[j]), "col %d is %s", j, cols[j]);
    CHECK(mo->col_names[0] == (char *)(mo->col_names + 4), "the reader packs the names in "
          "one block (slp_names_pack)");
    CHECK(mo->obj_const == 2.5, "obj RHS -2.5 -> constant 2.5");
    /* objective: first value kept (7.0 ignored), D exponent */
    CHECK(mo->c[0] == 1.0 && mo->c[1] == 15.0 && mo->c[2] == 0.0 && mo->c[3] == 0.0, "c");
    /* matrix: first duplicate kept, undeclared row and dropped N row ignored,
     * explicit zero kept, split column X3 merged and sorted */
    static const int64_t ptr[5] = {0, 2, 4, 8, 10};
    static const int64_t ri[10] = {0, 1, 2, 3, 0, 1, 4, 5, 0, 2};
    static const double va[10] = {2, 3, -1, 0, 6, 4, 1, 1, 1, 2};
    for (int j = 0; j <= 4; j++)
        CHECK(mo->col_ptr[j] == ptr[j], "col_ptr[%d] = %lld, expected %lld", j,
              (long long)mo->col_ptr[j], (long long)ptr[j]);
    for (int k = 0; k < 10; k++)
        CHECK(mo->row_idx[k] == ri[k] && mo->val[k] == va[k], "entry %d: (%lld, %g) expected "
              "(%lld, %g)", k, (long long)mo->row_idx[k], mo->val[k], (long long)ri[k], va[k]);
    /* rows: RHS first value kept, RANGES rules, infinite RHS on an L row */
    CHECK(mo->lc[0] == 10.0 && mo->uc[0] == 12.0, "EQ: E 10, R +2 -> [10, 12]");
    CHECK(mo->lc[1] == 5.0 && mo->uc[1] == 8.0, "LE: L 8, R 3 -> [5, 8]");
    CHECK(mo->lc[2] == 1.0 && mo->uc[2] == 5.0, "GE: G 1, R -4 -> [1, 5]");
    CHECK(mo->lc[3] == 1.5 && mo->uc[3] == 3.0, "EQNEG: E 3, R -1.5 -> [1.5, 3]");
    CHECK(mo->lc[4] == 2.0 && mo->uc[4] == 2.0, "EQZERO: E 2, R 0 -> [2, 2]");
    CHECK(mo->lc[5] == -INFINITY && mo->uc[5] == INFINITY, "LEINF: L 1e30 -> free");
    /* bounds */
    CHECK(mo->lv[0] == -INFINITY && mo->uv[0] == -2.0, "X1: UP -2 without LO -> [-inf, -2]");
    CHECK(mo->lv[1] == -INFINITY && mo->uv[1] == INFINITY, "X2: LO -1e30, UP 1e20 -> free");
    CHECK(mo->lv[2] == -INFINITY && mo->uv[2] == -1.0, "X3: MI, UP -1, (UP 5 ignored)");
    CHECK(mo->lv[3] == 0.0 && mo->uv[3] == 1.0, "X4: BV (LO of set BND2 ignored)");
    CHECK(mo->is_int && mo->is_int[0] == 0 && mo->is_int[1] == 1 && mo->is_int[2] == 0 &&
              mo->is_int[3] == 1, "is_int: X2 (marker) and X4 (BV)");
    slp_model_destroy(&mo);
}

/* HiGHS' warnings.mps without its SI bound (and, in the "consistent" copy,
 * without the UP lines that make C4 and C6..C8 infeasible). Expected values from
 * the rules in docs/mps.md: first value wins, undeclared names ignored, negative
 * UP sets the lower bound to -inf, RANGES on N rows ignored. */
static void test_warnings_file(void)
{
    char path[1024];
    path_join(path, sizeof path, repo_dir, "tests/data/mps/warnings-no-si.mps");
    slp_log_set_printing(0);
    expect_input_error(path, 0, "column C4 has lower bound 4.0999999999999996 above upper bound -1");
    path_join(path, sizeof path, repo_dir, "tests/data/mps/warnings-consistent.mps");
    slp_model_t *mo = read_ok(path);
    slp_log_set_printing(1);
    if (!mo)
        return;
    CHECK(mo->m == 6 && mo->n == 9 && mo->nnz == 9, "warnings sizes");
    if (mo->m == 6 && mo->n == 9 && mo->nnz == 9) {
        CHECK(mo->lc[0] == -1.0 && mo->uc[0] == -1.0 + 0.1, "R0: G -1 (first), RANGES 0.1 (first)");
        for (int i = 1; i < 6; i++)
            CHECK(mo->lc[i] == 0.0 && mo->uc[i] == INFINITY, "R%d >= 0", i);
        CHECK(mo->c[0] == -1.0 && entry(mo, 0, 0) == -1.0, "C0: first COST and R0 values");
        CHECK(mo->lv[0] == -INFINITY && mo->uv[0] == -1.0, "C0: UP -1 (first) -> [-inf, -1]");
        CHECK(mo->lv[1] == 1.1 && mo->uv[1] == INFINITY, "C1: LI 1.1");
        CHECK(mo->lv[2] == 0.0 && mo->uv[2] == 2.1, "C2: UI 2.1");
        CHECK(mo->lv[4] == 4.1 && mo->uv[4] == INFINITY, "C4: LI 4.1, LO 1 ignored");
        CHECK(mo->lv[5] == 0.0 && mo->uv[5] == 5.1, "C5: UI 5.1");
        for (int j = 6; j < 9; j++)
            CHECK(mo->lv[j] == 1.0 && mo->uv[j] == INFINITY, "C%d: LO 1", j);
        int n_int = 0;
        for (int j = 0; j < 9; j++)
            n_int += mo->is_int && mo->is_int[j];
        CHECK(n_int == 5 && mo->is_int && mo->is_int[3], "C1..C5 integer (C3 by marker only)");
    }
    slp_model_destroy(&mo);
}

/* --- streaming API directly ------------------------------------------------ */

typedef struct {
    int64_t rows, objs, cols, entries;
    double sum;
} counts_t;

static slp_err count_row(void *u, int64_t row, const char *name, char type)
{
    counts_t *c = u;
    (void)name;
    if (row == SLP_MPS_OBJ_ROW)
        c->objs++;
    else if (row == c->rows && type != 'N')
        c->rows++;
    return SLP_OK;
}

static slp_err count_col(void *u, int64_t col, const char *name, int is_int)
{
    counts_t *c = u;
    (void)name, (void)is_int;
    if (col == c->cols)
        c->cols++;
    return SLP_OK;
}

static slp_err count_entry(void *u, int64_t col, int64_t row, double v)
{
    counts_t *c = u;
    if (col >= 0 && col < c->cols && row >= 0 && row < c->rows)
        c->entries++;
    c->sum += v;
    return SLP_OK;
}

static slp_err stop_entry(void *u, int64_t col, int64_t row, double v)
{
    (void)u, (void)col, (void)row, (void)v;
    return slp_error(SLP_ERR_INTERNAL, "stopped by callback");
}

static void test_streaming(void)
{
    char path[1024];
    path_join(path, sizeof path, shared_dir, "lp/netlib/afiro.mps.gz");
    counts_t cnt = {0, 0, 0, 0, 0.0};
    slp_mps_callbacks_t cb = {&cnt, count_row, count_col, count_entry, 0};
    slp_mps_result_t res;
    slp_error_clear();
    slp_err err = slp_mps_parse(path, &cb, &res);
    CHECK(err == SLP_OK, "parse afiro: %s", slp_error_message());
    CHECK(cnt.rows == 27 && cnt.objs == 1 && cnt.cols == 32 && cnt.entries == 83,
          "callbacks: rows %lld obj %lld cols %lld entries %lld", (long long)cnt.rows,
          (long long)cnt.objs, (long long)cnt.cols, (long long)cnt.entries);
    CHECK(res.m == 27 && res.n == 32 && res.nnz == 83, "result sizes");
    CHECK(res.lc && res.uc && res.c && res.lv && res.uv && res.row_names && res.col_names,
          "result arrays");
    slp_mps_result_free(&res);
    CHECK(res.lc == NULL && res.m == 0, "result freed and zeroed");

    cb.on_entry = stop_entry;
    slp_error_clear();
    err = slp_mps_parse(path, &cb, &res);
    CHECK(err == SLP_ERR_INTERNAL, "a callback error stops the parse");
    CHECK(res.lc == NULL, "no result after a failed parse");

    double v;
    CHECK(slp_mps_parse_number("1.5D2", 5, &v) && v == 150.0, "D exponent");
    CHECK(slp_mps_parse_number("-.5e-1", 6, &v) && v == -0.05, "short forms");
    CHECK(!slp_mps_parse_number("nan", 3, &v), "nan rejected");
    CHECK(!slp_mps_parse_number("-inf", 4, &v), "inf rejected");
    CHECK(!slp_mps_parse_number("1.0x", 4, &v), "trailing garbage rejected");
    CHECK(!slp_mps_parse_number("0x10", 4, &v), "hex rejected");
    CHECK(slp_mps_parse_number("1e999", 5, &v) && v == HUGE_VAL, "overflow is infinite");
}

/* --- mps-edge files --------------------------------------------------------- */

typedef struct {
    const char *file;
    int ok;              /* 1 readable, 0 input error */
    long long m, n, nnz; /* when readable */
    int line;            /* error line when not */
    const char *needle;  /* text the error must contain */
} edge_t;

static void test_edge(void)
{
    static const edge_t cases[] = {
        {"2171.mps", 1, 98, 5, 490, 0, NULL},
        {"2821-duplicate.mps", 0, 0, 0, 0, 21, "QUADOBJ"},
        {"2821-qmatrix.mps", 0, 0, 0, 0, 21, "QMATRIX"},
        {"2821-quadobj.mps", 0, 0, 0, 0, 21, "quadratic"},
        {"2821-summation.mps", 0, 0, 0, 0, 21, "quadratic"},
        {"2821.mps", 0, 0, 0, 0, 21, "quadratic"},
        {"2894.mps", 0, 0, 0, 0, 73, "quadratic"},
        {"3015.mps", 0, 0, 0, 0, 4855, "semi-continuous"},
        {"atwood0.mps", 0, 0, 0, 0, 112, "quadratic"},
        {"bound_implied.mps", 1, 73, 112, 177, 0, NULL},
        {"comment.mps", 1, 3, 2, 6, 0, NULL},
        {"dD2e.mps", 1, 0, 2, 0, 0, NULL},
        {"garbage.mps", 0, 0, 0, 0, 2, "unknown section"},
        {"gas11.mps", 1, 459, 862, 2166, 0, NULL},
        {"issue-2095.mps", 1, 29, 66, 637, 0, NULL},
        {"issue-2173.mps", 1, 192, 15, 2880, 0, NULL},
        {"issue-2204.mps", 1, 12, 37, 52, 0, NULL},
        {"issue-2290.mps", 1, 35, 30, 81, 0, NULL},
        {"issue-2402.mps", 1, 32, 36, 344, 0, NULL},
        {"issue-2446.mps", 1, 1963, 2200, 5206, 0, NULL},
        {"issue-2874-3.mps", 1, 16, 4, 39, 0, NULL},
        {"nan0.mps", 0, 0, 0, 0, 8, "'nan' is not a finite number"},
        {"nan1.mps", 0, 0, 0, 0, 9, "'nan' is not a finite number"},
        {"nan2.mps", 0, 0, 0, 0, 12, "'nan' is not a finite number"},
        {"qjh_quadobj.mps", 0, 0, 0, 0, 13, "quadratic"},
        {"semi-continuous.mps", 0, 0, 0, 0, 22, "SC"},
        {"semi-integer.mps", 0, 0, 0, 0, 20, "SI"},
        {"silly-names.mps", 1, 1, 5, 5, 0, NULL},
        {"smalllp.mps", 1, 3, 3, 6, 0, NULL},
        {"test.mps", 1, 7, 7, 16, 0, NULL},
        {"warnings.mps", 0, 0, 0, 0, 47, "semi-integer"},
    };
    slp_log_set_printing(0);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const edge_t *e = &cases[k];
        char path[1200];
        snprintf(path, sizeof path, "%s/mps-edge/%s", shared_dir, e->file);
        if (!e->ok) {
            expect_input_error(path, e->line, e->needle);
            continue;
        }
        slp_model_t *mo = read_ok(path);
        if (!mo)
            continue;
        CHECK(mo->m == e->m && mo->n == e->n && mo->nnz == e->nnz,
              "%s: m n nnz = %lld %lld %lld, expected %lld %lld %lld", e->file, (long long)mo->m,
              (long long)mo->n, (long long)mo->nnz, e->m, e->n, e->nnz);
        check_csc(mo, e->file);
        slp_model_destroy(&mo);
    }

    char path[1200];
    /* Values of a few readable ones. */
    snprintf(path, sizeof path, "%s/mps-edge/dD2e.mps", shared_dir);
    slp_model_t *mo = read_ok(path);
    if (mo) {
        CHECK(mo->uv[0] == 1000.0 && mo->uv[1] == 1000.0, "1.0D3 and 1.0d3 = 1000");
        CHECK(mo->c[0] == -1.0 && mo->c[1] == -2.0, "dD2e costs");
        slp_model_destroy(&mo);
    }
    snprintf(path, sizeof path, "%s/mps-edge/comment.mps", shared_dir);
    mo = read_ok(path);
    if (mo) {
        /* R0: G 1 with RANGES 1 -> [1, 2]; R1, R2: G -2; C0 <= 1; c = (-1, -2) */
        CHECK(mo->lc[0] == 1.0 && mo->uc[0] == 2.0, "comment.mps R0 [1, 2]");
        CHECK(mo->lc[1] == -2.0 && mo->lc[2] == -2.0, "comment.mps R1, R2 >= -2");
        CHECK(mo->uv[0] == 1.0 && mo->c[0] == -1.0 && mo->c[1] == -2.0, "comment.mps bounds/cost");
        slp_model_destroy(&mo);
    }
    snprintf(path, sizeof path, "%s/mps-edge/test.mps", shared_dir);
    mo = read_ok(path);
    if (mo) {
        /* names *OBJ* and *RHS* are names, not comments; r3: L 10, R 6 -> [4, 10] */
        CHECK(!strcmp(mo->obj_name, "*OBJ*"), "test.mps objective '*OBJ*'");
        int64_t r3 = find_row(mo, "r3");
        CHECK(r3 >= 0 && mo->lc[r3] == 4.0 && mo->uc[r3] == 10.0, "test.mps r3 [4, 10]");
        int64_t x3 = find_col(mo, "x(3)");
        CHECK(x3 >= 0 && mo->lv[x3] == 1.0 && mo->uv[x3] == 2.0, "test.mps x(3) in [1, 2]");
        slp_model_destroy(&mo);
    }
    snprintf(path, sizeof path, "%s/mps-edge/silly-names.mps", shared_dir);
    mo = read_ok(path);
    if (mo) {
        CHECK(find_col(mo, "OBJSENSE") == 1 && find_col(mo, "RHS") == 3,
              "section keywords as column names");
        CHECK(mo->lc[0] == -1.0 && !strcmp(mo->obj_name, "COST"), "N row after a G row");
        slp_model_destroy(&mo);
    }
    snprintf(path, sizeof path, "%s/mps-edge/issue-2446.mps", shared_dir);
    mo = read_ok(path);
    if (mo) {
        CHECK(mo->sense == -1, "OBJSENSE / MAX on the next line");
        slp_model_destroy(&mo);
    }
    slp_log_set_printing(1);
}

/* --- our own broken files ----------------------------------------------------- */

static void test_broken(void)
{
    static const struct {
        const char *file;
        int line;
        const char *needle;
    } cases[] = {
        {"bad-section.mps", 7, "unknown section 'FOOBAR'"},
        {"bad-number.mps", 6, "'1.0x' is not a number"},
        {"missing-value.mps", 7, "value is missing"},
        {"bad-bound-type.mps", 10, "unknown bound type 'XX'"},
        {"inf-lower.mps", 10, "lower bound 1e+30 of column 'X' is +infinite"},
        {"inf-coef.mps", 6, "infinite"},
        {"inf-text.mps", 8, "'Infinity' is not a finite number"},
        {"no-endata.mps", 8, "without ENDATA"},
        {"dup-row.mps", 5, "declared twice"},
        {"bad-row-type.mps", 4, "unknown row type 'Q'"},
        {"data-first.mps", 1, "before any section"},
        {"sos.mps", 7, "not supported"},
        {"empty.mps", 0, "empty file"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/tests/data/mps/%s", repo_dir, cases[k].file);
        expect_input_error(path, cases[k].line, cases[k].needle);
    }
    /* A gzip file cut in the middle: an I/O error, never a silently smaller model. */
    char src[1200], cut[] = "/tmp/test_mps_cut_XXXXXX";
    snprintf(src, sizeof src, "%s/lp/netlib/25fv47.mps.gz", shared_dir);
    int fd = mkstemp(cut);
    FILE *in = fopen(src, "rb");
    CHECK(fd >= 0 && in != NULL, "temporary copy of 25fv47");
    if (fd >= 0 && in) {
        char buf[20000];
        size_t got = fread(buf, 1, sizeof buf, in);
        CHECK(write(fd, buf, got) == (ssize_t)got, "write truncated copy");
        close(fd);
        slp_model_t *cut_model = NULL;
        slp_error_clear();
        slp_err err = slp_mps_read(cut, &cut_model);
        CHECK(err == SLP_ERR_IO, "truncated gzip rejected (%d: %s)",
              (int)err, slp_error_message());
        CHECK(strstr(slp_error_message(), cut) != NULL, "message names the file: %s",
              slp_error_message());
        slp_model_destroy(&cut_model);
        unlink(cut);
    }
    if (in)
        fclose(in);

    slp_model_t *mo = NULL;
    slp_error_clear();
    CHECK(slp_mps_read("/nonexistent/dir/x.mps", &mo) == SLP_ERR_IO, "missing file: I/O error");
    CHECK(strstr(slp_error_message(), "/nonexistent/dir/x.mps") != NULL, "names the file");
    slp_error_clear();
}

/* --- column lookups ---------------------------------------------------------- */

/* n columns X<k> (in increasing order, or with each pair of neighbours swapped), each
 * with entry k+1 in row R; BOUNDS give column k the lower bound k % 7 + 1 in a
 * scattered order (more lines than the reader's binary searches before it builds its
 * name index), and name 3 columns that do not exist. Optionally column X0 again at the
 * end (a split column, merged). The model read must carry exactly these values. */
static void column_lookup_case(int n, int swapped, int split)
{
    char path[] = "/tmp/test_mps_lookup_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    CHECK(f != NULL, "temporary MPS file");
    if (!f)
        return;
    fprintf(f, "NAME lookup\nROWS\n N obj\n G R\n G S\nCOLUMNS\n");
    for (int j = 0; j < n; j++) {
        int k = swapped ? (j ^ 1) : j;
        fprintf(f, "    X%d  R  %d\n", k, k + 1);
    }
    if (split)
        fprintf(f, "    X0  S  5\n");
    fprintf(f, "RHS\n    rhs  R  1\nBOUNDS\n");
    for (int t = 0; t < n; t++) {
        int k = (int)(((int64_t)t * 7919) % n); /* a permutation: 7919 is prime, not a factor of n */
        fprintf(f, " LO BND  X%d  %d\n", k, k % 7 + 1);
        if (t % 2000 == 1)
            fprintf(f, " UP BND  Y%d  1\n", t);
    }
    fprintf(f, "ENDATA\n");
    fclose(f);
    slp_log_set_printing(0);
    slp_model_t *mo = read_ok(path);
    slp_log_set_printing(1);
    unlink(path);
    if (!mo)
        return;
    CHECK(mo->n == n && mo->nnz == n + split, "lookup case %d/%d/%d: sizes %lld %lld", n,
          swapped, split, (long long)mo->n, (long long)mo->nnz);
    int wrong = 0;
    for (int j = 0; j < n && mo->n == n; j++) {
        int k = swapped ? (j ^ 1) : j;
        char want[32];
        snprintf(want, sizeof want, "X%d", k);
        if (strcmp(mo->col_names[j], want) || mo->lv[j] != k % 7 + 1 || mo->uv[j] != INFINITY ||
            entry(mo, 0, j) != k + 1)
            wrong++;
    }
    CHECK(wrong == 0, "lookup case %d/%d/%d: %d columns with a wrong name, bound or entry", n,
          swapped, split, wrong);
    if (split) {
        int64_t x0 = find_col(mo, "X0");
        CHECK(x0 >= 0 && entry(mo, 1, x0) == 5.0, "split column X0 merged");
    }
    slp_model_destroy(&mo);
}

static void test_column_lookup(void)
{
    column_lookup_case(9002, 0, 0); /* names in order: no index at all */
    column_lookup_case(9002, 1, 0); /* out of order: the index from the second name */
    column_lookup_case(9002, 0, 1); /* in order, then a split column */
}

/* --- round trip ------------------------------------------------------------ */

static void round_trip(const char *path, const char *tmpdir, const char *suffix, int names)
{
    slp_log_set_printing(0);
    slp_model_t *a = read_ok(path);
    if (!a) {
        slp_log_set_printing(1);
        return;
    }
    char out[1200];
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    snprintf(out, sizeof out, "%s/%s%s", tmpdir, base, suffix);
    slp_error_clear();
    slp_err err = slp_mps_write(a, out);
    CHECK(err == SLP_OK, "write %s: %s", out, slp_error_message());
    slp_model_t *b = err == SLP_OK ? read_ok(out) : NULL;
    slp_log_set_printing(1);
    if (b)
        compare_models(a, b, out, names);
    slp_model_destroy(&a);
    slp_model_destroy(&b);
    unlink(out);
}

/* Hand-made model with awkward values: two-sided rows whose range is not
 * exact in floating point, free rows, every bound kind, an empty column,
 * a name clash with the default objective name. */
static void test_round_trip_synthetic(const char *tmpdir)
{
    slp_model_t *a = NULL;
    CHECK(slp_model_create(5, 6, 3, &a) == SLP_OK, "create");
    if (!a)
        return;
    a->sense = -1;
    a->obj_const = 0.1;
    double lc[5] = {0.1, -INFINITY, 1e-300, -3.3, 123456789.123};
    double uc[5] = {0.7, INFINITY, 1e19, -3.3, 123456789.987654321};
    for (int i = 0; i < 5; i++) {
        a->lc[i] = lc[i];
        a->uc[i] = uc[i];
    }
    double lv[6] = {-INFINITY, -INFINITY, 0.0, 2.5, -1.0 / 3.0, 0.0};
    double uv[6] = {INFINITY, -7.0, 0.0, 2.5, INFINITY, 1.0 / 3.0};
    for (int j = 0; j < 6; j++) {
        a->lv[j] = lv[j];
        a->uv[j] = uv[j];
        a->c[j] = j == 5 ? 0.0 : 1.0 / (j + 3.0);
    }
    /* col 0: rows 0, 4; col 1: row 1 (explicit zero); cols 2..5 empty */
    a->col_ptr[0] = 0;
    a->col_ptr[1] = 2;
    for (int j = 2; j <= 6; j++)
        a->col_ptr[j] = 3;
    a->row_idx[0] = 0, a->val[0] = 0.1;
    a->row_idx[1] = 4, a->val[1] = -1e-17;
    a->row_idx[2] = 1, a->val[2] = 0.0;
    a->row_names = calloc(5, sizeof(char *));
    a->col_names = calloc(6, sizeof(char *));
    const char *rn[5] = {"OBJ", "r1", "r2", "r3", "r4"};
    for (int i = 0; i < 5; i++)
        a->row_names[i] = strdup(rn[i]);
    for (int j = 0; j < 6; j++) {
        char buf[16];
        snprintf(buf, sizeof buf, "x%d", j);
        a->col_names[j] = strdup(buf);
    }
    a->is_int = calloc(6, 1);
    a->is_int[4] = 1;
    free(a->obj_name);
    a->obj_name = strdup("");

    const char *suffixes[2] = {"synthetic.mps", "synthetic.mps.gz"};
    for (int s = 0; s < 2; s++) {
        char out[1200];
        snprintf(out, sizeof out, "%s/%s", tmpdir, suffixes[s]);
        slp_error_clear();
        CHECK(slp_mps_write(a, out) == SLP_OK, "write %s: %s", out, slp_error_message());
        slp_log_set_printing(0);
        slp_model_t *b = read_ok(out);
        slp_log_set_printing(1);
        if (b) {
            compare_models(a, b, out, 0);
            CHECK(!strcmp(b->row_names[0], "OBJ") && strcmp(b->obj_name, "OBJ") != 0,
                  "objective renamed to avoid the row called OBJ ('%s')", b->obj_name);
        }
        slp_model_destroy(&b);
        unlink(out);
    }
    slp_model_destroy(&a);
}

static void test_round_trip(void)
{
    char tmpl[] = "/tmp/test_mps_XXXXXX";
    char *tmpdir = mkdtemp(tmpl);
    CHECK(tmpdir != NULL, "mkdtemp");
    if (!tmpdir)
        return;
    static const char *files[] = {
        "lp/netlib/afiro.mps.gz",    "lp/netlib/e226.mps.gz",   "lp/netlib/boeing1.mps.gz",
        "lp/netlib/nesm.mps.gz",     "lp/netlib/80bau3b.mps.gz", "lp/miplib3/p0548.mps.gz",
        "lp/other/dcp1.mps.gz",      "lp/netlib/seba.mps.gz",   "lp/miplib2017/gen-ip002.mps.gz",
        "lp/meszaros/dbir1.mps.gz",
    };
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", shared_dir, files[k]);
        if (check_need_file(path))
            round_trip(path, tmpdir, k % 2 ? ".out.mps" : ".out.mps.gz", 1);
    }
    /* forplan: names with blanks are replaced, everything else identical */
    char path[1200];
    snprintf(path, sizeof path, "%s/lp/netlib/forplan.mps.gz", shared_dir);
    round_trip(path, tmpdir, ".out.mps", 0);
    snprintf(path, sizeof path, "%s/tests/data/mps/max.mps", repo_dir);
    round_trip(path, tmpdir, ".out.mps", 1);
    snprintf(path, sizeof path, "%s/tests/data/mps/semantics.mps", repo_dir);
    round_trip(path, tmpdir, ".out.mps", 1);
    test_round_trip_synthetic(tmpdir);
    rmdir(tmpdir);
}

/* The reader's numbers are strtod's, bit for bit (its fast path, Clinger's, covers
 * what M * 10^e with M <= 2^53 and |e| <= 22 computes exactly; the rest goes to
 * strtod): 200,000 random decimals of 1 to 20 digits, a point anywhere or none,
 * exponents with e, E or d from -30 to 30, signs, leading zeros, and the edges. */
static void test_numbers_exact(void)
{
    const char *edges[] = {"-0", "0.000", "+0e5", "9007199254740992", "9007199254740993",
                           "1e22", "1e23", "1e-22", "1e-23", "123456789012345678", ".5", "5.",
                           "0.1", "3.3333333333333335", "00012.5000", "4503599627370497.5",
                           "1D-5", "-7.e+3"};
    int bad = 0;
    char text[64], c_text[64];
    for (int k = 0; k < (int)(sizeof edges / sizeof *edges); k++) {
        double v, ref = strtod(edges[k], NULL);
        for (size_t i = 0; i <= strlen(edges[k]); i++)
            c_text[i] = edges[k][i] == 'D' ? 'e' : edges[k][i];
        ref = strtod(c_text, NULL);
        bad += !slp_mps_parse_number(edges[k], strlen(edges[k]), &v) || memcmp(&v, &ref, sizeof v);
    }
    CHECK(bad == 0, "%d edge numbers read other bits than strtod's", bad);
    unsigned long long r = 88172645463325252ULL;
    bad = 0;
    for (int k = 0; k < 200000; k++) {
        int len = 0;
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        if (r % 3 == 0)
            text[len++] = r % 2 ? '-' : '+';
        int digits = 1 + (int)((r >> 8) % 20), point = (int)((r >> 16) % (unsigned)(digits + 2)) - 1;
        for (int d = 0; d < digits; d++) {
            if (d == point)
                text[len++] = '.';
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            text[len++] = (char)('0' + (r % 10 < 3 && d < 3 ? 0 : r % 10));
        }
        if ((r >> 20) % 2) {
            text[len++] = "eEd"[(r >> 21) % 3];
            len += snprintf(text + len, 8, "%d", (int)((r >> 24) % 61) - 30);
        }
        text[len] = '\0';
        for (int i = 0; i <= len; i++)
            c_text[i] = text[i] == 'd' ? 'e' : text[i];
        double v, ref = strtod(c_text, NULL);
        if (!slp_mps_parse_number(text, (size_t)len, &v) || memcmp(&v, &ref, sizeof v)) {
            if (bad++ == 0)
                fprintf(stderr, "first difference: '%s' read as %.17g, strtod %.17g\n", text, v, ref);
        }
    }
    CHECK(bad == 0, "%d of 200,000 random numbers read other bits than strtod's", bad);
    bad = 0;
    int cases = 0;
    /* Decimals of 16 to 19 digits at and next to the halfway point between two adjacent
     * doubles (the extended path's hard cases: it must hand them to strtod or round
     * them as strtod does), over magnitudes 1e-27 to 1e27. */
    for (int k = 0; k < 100000; k++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        double d = ldexp(1.0 + (double)(r >> 12) / 4503599627370496.0, (int)(r % 180) - 90);
        long double mid = ((long double)d + (long double)nextafter(d, INFINITY)) / 2;
        int digits = 16 + (int)((r >> 8) % 4);
        snprintf(text, sizeof text, "%.*Le", digits - 1, mid);
        for (int nudge = -1; nudge <= 1; nudge++) {
            char t2[64];
            snprintf(t2, sizeof t2, "%s", text);
            char *e = strchr(t2, 'e');
            if (nudge && e) { /* the last mantissa digit moved by one, where it can be */
                char *last = e - 1;
                if ((nudge > 0 && *last == '9') || (nudge < 0 && *last == '0'))
                    continue;
                *last = (char)(*last + nudge);
            }
            double v, ref = strtod(t2, NULL);
            cases++;
            if (!slp_mps_parse_number(t2, strlen(t2), &v) || memcmp(&v, &ref, sizeof v)) {
                if (bad++ == 0)
                    fprintf(stderr, "first difference: '%s' read as %.17g, strtod %.17g\n", t2,
                            v, ref);
            }
        }
    }
    CHECK(bad == 0, "%d of %d near-halfway numbers read other bits than strtod's", bad, cases);
}

/* slp_parse_number_prefix (the LP reader's numbers) against strtod: the same bits and
 * the same end, on hand-picked prefixes and on random decimals with random tails. */
static void test_number_prefix(void)
{
    static const char *const cases[] = {"1.5e3x", "1e+", "1e", "0x10", ".5", "7.", "1.5E-3abc",
                                        "12 34", "0.77864776655596979 C2", "1e999", "1e-999",
                                        "00012", ".", "5e+07:", "123456789012345678901234"};
    int bad = 0;
    char text[96];
    unsigned r = 4242;
    for (int k = 0; k < 20000 + (int)(sizeof cases / sizeof cases[0]); k++) {
        if (k < (int)(sizeof cases / sizeof cases[0])) {
            snprintf(text, sizeof text, "%s", cases[k]);
        } else {
            r = r * 1103515245u + 12345u;
            int digits = 1 + (int)((r >> 8) % 22), point = (int)((r >> 16) % 24) - 1;
            size_t len = 0;
            for (int d = 0; d < digits; d++) {
                if (d == point)
                    text[len++] = '.';
                r = r * 1103515245u + 12345u;
                text[len++] = (char)('0' + (r >> 16) % 10);
            }
            if ((r >> 3) % 2)
                len += (size_t)snprintf(text + len, 12, "%c%d", "eE"[(r >> 5) % 2],
                                        (int)((r >> 9) % 50) - 25);
            static const char *const tails[] = {"", " x", "e", "e+", "x1"};
            snprintf(text + len, sizeof text - len, "%s", tails[(r >> 20) % 5]);
        }
        char *end_ref = NULL, *end = NULL;
        double ref = strtod(text, &end_ref), v = slp_parse_number_prefix(text, &end);
        if (end != end_ref || memcmp(&ref, &v, sizeof v) != 0) {
            if (bad++ < 3)
                fprintf(stderr, "'%s': %.17g ending at %td, strtod %.17g at %td\n", text, v,
                        end - text, ref, end_ref - text);
        }
    }
    CHECK(bad == 0, "%d number prefixes read otherwise than strtod", bad);
}

/* Packed names read back as given, and slp_names_free frees both forms (ASan checks). */
static void test_names_pack(void)
{
    char *given[3] = {"R1", "", "a_long_column_name_of_forty_bytes_or_so__"};
    char **packed = NULL;
    size_t bytes = 0;
    for (int k = 0; k < 3; k++)
        bytes += strlen(given[k]) + 1;
    CHECK(slp_names_pack(given, 3, bytes, &packed) == SLP_OK, "pack three names");
    for (int k = 0; packed && k < 3; k++)
        CHECK(!strcmp(packed[k], given[k]), "packed name %d is '%s'", k, given[k]);
    slp_names_free(packed, 3);
    char **separate = calloc(2, sizeof *separate);
    separate[0] = strdup("x"), separate[1] = strdup("y");
    slp_names_free(separate, 2);
    CHECK(slp_names_pack(given, 0, 0, &packed) == SLP_OK, "pack no names");
    slp_names_free(packed, 0);
}

int main(int argc, char **argv)
{
    test_names_pack();
    test_numbers_exact();
    test_number_prefix();
    shared_dir = argc > 1 ? argv[1] : "../shared";
    repo_dir = argc > 2 ? argv[2] : ".";
    test_afiro();
    test_e226_forplan_boeing();
    test_max();
    test_semantics();
    test_warnings_file();
    test_streaming();
    test_edge();
    test_broken();
    test_column_lookup();
    test_round_trip();
    test_corpus_sizes();
    return check_summary();
}
