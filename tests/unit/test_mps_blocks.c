/* The MPS reader's input blocks and name lookups (docs/mps.md "Reading speed"), on
 * generated files whose model is known by construction:
 *   - a COLUMNS line of 150,000 pairs (2.2 MB, longer than the 1 MiB first block): every
 *     entry read, in its row, with its value;
 *   - a line over the 32 MiB limit: an input error at its line;
 *   - CRLF line ends, a UTF-8 byte order mark and a last line without a newline read
 *     the same model as the plain file;
 *   - tokens that cross or end at the tokenizer's 64-byte steps, between runs of
 *     blanks and tabs of every length from 1 to 70;
 *   - column names in decreasing order, a split column and names of shorter length
 *     after longer ones (the lookups that cannot take the "greater than every name so
 *     far" path): numbering by first appearance, merged entries, bounds found by name;
 *   - a NUL byte in a later block: an input error at its line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "mps_checks.h"
#include "core/error.h"
#include "core/log.h"
#include "core/model.h"
#include "io/mps.h"

static char dir[] = "/tmp/test_mps_blocks_XXXXXX";

static FILE *open_out(const char *name, char *path, size_t size)
{
    snprintf(path, size, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL, "create %s", path);
    return f;
}

static void test_long_line(void)
{
    enum { ROWS = 150000 };
    char path[256];
    FILE *f = open_out("long.mps", path, sizeof path);
    if (!f)
        return;
    fprintf(f, "NAME long\nROWS\n N obj\n");
    for (int i = 0; i < ROWS; i++)
        fprintf(f, " L r%d\n", i);
    fprintf(f, "COLUMNS\n x obj 1");
    for (int i = 0; i < ROWS; i++)
        fprintf(f, " r%d %d", i, i % 997 + 1);
    fprintf(f, "\n y r7 -2\nRHS\n rhs r0 5\nENDATA\n");
    fclose(f);
    slp_model_t *mo = read_ok(path);
    if (!mo)
        return;
    CHECK(mo->m == ROWS && mo->n == 2 && mo->nnz == ROWS + 1, "sizes %lld %lld %lld",
          (long long)mo->m, (long long)mo->n, (long long)mo->nnz);
    int bad = 0;
    for (int i = 0; i < ROWS && mo->nnz == ROWS + 1; i++)
        bad += mo->row_idx[i] != i || mo->val[i] != i % 997 + 1;
    CHECK(bad == 0, "%d entries of the long line wrong", bad);
    CHECK(mo->c[0] == 1.0 && entry(mo, 7, 1) == -2.0 && mo->uc[0] == 5.0,
          "objective, the next line's entry, the RHS");
    slp_model_destroy(&mo);
    unlink(path);
}

static void test_too_long_line(void)
{
    char path[256];
    FILE *f = open_out("huge.mps", path, sizeof path);
    if (!f)
        return;
    fprintf(f, "NAME huge\nROWS\n N obj\n L r\nCOLUMNS\n x r 1");
    for (int k = 0; k < (33 << 20) / 8; k++)
        fputs(" r 1    ", f);
    fprintf(f, "\nENDATA\n");
    fclose(f);
    char where[300];
    snprintf(where, sizeof where, "%s:6: line longer than", path);
    expect_input_error(path, 6, where);
    unlink(path);
}

static const char *const PLAIN[] = {
    "NAME ends", "ROWS", " N obj", " G c1", " L c2", "COLUMNS", " x obj 1 c1 2",
    " x c2 3", " y obj -1 c1 1", "RHS", " rhs c1 4 c2 9", "BOUNDS", " UP bnd y 6", "ENDATA"};
enum { NPLAIN = sizeof PLAIN / sizeof PLAIN[0] };

static void write_lines(const char *name, char *path, size_t size, const char *bom,
                        const char *eol, int last_eol)
{
    FILE *f = open_out(name, path, size);
    if (!f)
        return;
    fputs(bom, f);
    for (int k = 0; k < NPLAIN; k++)
        fprintf(f, "%s%s", PLAIN[k], k + 1 < NPLAIN || last_eol ? eol : "");
    fclose(f);
}

static void test_line_ends(void)
{
    char plain[256], crlf[256], bom[256], last[256];
    write_lines("plain.mps", plain, sizeof plain, "", "\n", 1);
    write_lines("crlf.mps", crlf, sizeof crlf, "", "\r\n", 1);
    write_lines("bom.mps", bom, sizeof bom, "\xEF\xBB\xBF", "\r\n", 0);
    write_lines("last.mps", last, sizeof last, "", "\n", 0);
    slp_model_t *a = read_ok(plain);
    if (a) { /* by hand: x, y; c1 = 2x + y >= 4, c2 = 3x <= 9, y <= 6 */
        CHECK(a->m == 2 && a->n == 2 && a->nnz == 3 && entry(a, 0, 0) == 2 &&
                  entry(a, 1, 0) == 3 && entry(a, 0, 1) == 1 && a->lc[0] == 4 &&
                  a->uc[1] == 9 && a->uv[1] == 6 && a->c[1] == -1,
              "the plain file's model");
        const char *others[] = {crlf, bom, last};
        for (int k = 0; k < 3; k++) {
            slp_model_t *b = read_ok(others[k]);
            if (b)
                compare_models(a, b, others[k], 1);
            slp_model_destroy(&b);
            unlink(others[k]);
        }
    }
    slp_model_destroy(&a);
    unlink(plain);
}

/* COLUMNS lines "<blanks>x<blanks>rK<blanks>V" with blank runs of every length: tokens
 * start, end and cross every position around 64 and 128. */
static void test_token_steps(void)
{
    enum { RUNS = 70 };
    char path[256];
    FILE *f = open_out("steps.mps", path, sizeof path);
    if (!f)
        return;
    fprintf(f, "NAME steps\nROWS\n N obj\n");
    for (int k = 1; k <= RUNS; k++)
        fprintf(f, " E r%d\n", k);
    fprintf(f, "COLUMNS\n");
    for (int k = 1; k <= RUNS; k++) {
        const char *blank = k % 2 ? " " : "\t";
        for (int b = 0; b < k; b++)
            fputs(blank, f);
        fputs("x", f);
        for (int b = 0; b < 62 - k % 60; b++)
            fputs(b % 3 ? " " : "\t", f);
        fprintf(f, "r%d", k);
        for (int b = 0; b < k; b++)
            fputc(' ', f);
        fprintf(f, "%d.5\n", k);
    }
    fprintf(f, "ENDATA\n");
    fclose(f);
    slp_model_t *mo = read_ok(path);
    if (mo) {
        int bad = mo->n != 1 || mo->nnz != RUNS;
        for (int k = 1; !bad && k <= RUNS; k++)
            bad += entry(mo, k - 1, 0) != k + 0.5;
        CHECK(!bad, "entries of the lines with blank runs (n %lld, nnz %lld)", (long long)mo->n,
              (long long)mo->nnz);
    }
    slp_model_destroy(&mo);
    unlink(path);
}

static void test_name_orders(void)
{
    char path[256];
    FILE *f = open_out("orders.mps", path, sizeof path);
    if (!f)
        return;
    fprintf(f, "NAME orders\nROWS\n N obj\n L r2\n L r10\n L r1\n"
               "COLUMNS\n C9 r1 1\n C10 r1 2\n C10 r2 3\n B r10 4\n AA r10 5\n A r1 6\n"
               " C9 r2 7\n Z r1 8\n"
               "BOUNDS\n UP b C10 20\n UP b A 30\n LO b C9 -1\n UP b Z 40\nENDATA\n");
    fclose(f);
    slp_log_set_printing(0); /* the split column's warning */
    slp_model_t *mo = read_ok(path);
    slp_log_set_printing(1);
    if (mo) {
        static const char *const names[] = {"C9", "C10", "B", "AA", "A", "Z"};
        int ok = mo->n == 6 && mo->m == 3 && mo->nnz == 8;
        for (int j = 0; ok && j < 6; j++)
            ok = !strcmp(mo->col_names[j], names[j]);
        CHECK(ok, "columns numbered by first appearance (n %lld)", (long long)mo->n);
        if (ok) { /* rows: r2 = 0, r10 = 1, r1 = 2 */
            CHECK(entry(mo, 2, 0) == 1 && entry(mo, 0, 0) == 7 && entry(mo, 2, 1) == 2 &&
                      entry(mo, 0, 1) == 3 && entry(mo, 1, 2) == 4 && entry(mo, 1, 3) == 5 &&
                      entry(mo, 2, 4) == 6 && entry(mo, 2, 5) == 8,
                  "entries, the split column C9 merged");
            CHECK(mo->uv[1] == 20 && mo->uv[4] == 30 && mo->lv[0] == -1 && mo->uv[5] == 40,
                  "bounds found by name");
        }
    }
    slp_model_destroy(&mo);
    unlink(path);
}

static void test_late_nul(void)
{
    enum { ROWS = 200000 }; /* about 2 MB of ROWS before the NUL */
    char path[256];
    FILE *f = open_out("nul.mps", path, sizeof path);
    if (!f)
        return;
    fprintf(f, "NAME nul\nROWS\n N obj\n");
    for (int i = 0; i < ROWS; i++)
        fprintf(f, " L r%d\n", i);
    fprintf(f, "COLUMNS\n x r1 1\n x r2 1");
    fputc('\0', f);
    fprintf(f, "\nENDATA\n");
    fclose(f);
    char where[300];
    snprintf(where, sizeof where, "%s:%d: NUL byte", path, ROWS + 6);
    expect_input_error(path, ROWS + 6, where);
    unlink(path);
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_long_line();
    test_too_long_line();
    test_line_ends();
    test_token_steps();
    test_name_orders();
    test_late_nul();
    rmdir(dir);
    return check_summary();
}
