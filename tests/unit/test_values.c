/* The exact compact forms of a matrix's values (src/core/values.c, docs/memory.md
 * "Compact values"): the survey's choice at each boundary (all +-1; 256 and 257
 * distinct values; more than a 2-byte table holds; a table that would cost more than
 * the doubles), the tables' codes, which must give back every value bit for bit, and the
 * tally that sees the values in pieces (the streaming shard writer's). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/values.h"

/* nnz values cycling through `distinct` values (a multiple of 1/7: not exact in
 * binary, so that bits matter), the sign alternating with the index. */
static double *cycling(int64_t nnz, int64_t distinct)
{
    double *v = malloc(sizeof(double) * (size_t)nnz);
    for (int64_t k = 0; k < nnz; k++)
        v[k] = ((double)(k % distinct) + 1.0) / 7.0;
    return v;
}

static void check_form(const double *v, int64_t nnz, slp_values_form want, int64_t distinct,
                       const char *what)
{
    slp_values_survey_t s;
    CHECK(slp_values_survey(v, nnz, &s) == SLP_OK, "%s: survey", what);
    CHECK(s.form == want, "%s: form %s, want %s", what, slp_values_form_name(s.form),
          slp_values_form_name(want));
    CHECK(distinct < 0 || s.distinct == distinct, "%s: %lld distinct, want %lld", what,
          (long long)s.distinct, (long long)distinct);
    CHECK(s.bytes == slp_values_bytes(s.form, nnz, s.distinct), "%s: bytes %lld", what,
          (long long)s.bytes);
}

static void check_codes(const double *v, int64_t nnz, slp_values_form form)
{
    double *table = NULL;
    void *codes = NULL;
    int len = 0;
    CHECK(slp_values_encode(v, nnz, form, &table, &len, &codes) == SLP_OK, "encode: %s",
          slp_error_message());
    int same = 1, sorted = 1;
    for (int64_t k = 0; k < nnz; k++) {
        int code = form == SLP_VALUES_TABLE8 ? ((uint8_t *)codes)[k] : ((uint16_t *)codes)[k];
        same &= code < len && !memcmp(&table[code], &v[k], sizeof(double));
    }
    for (int c = 1; c < len; c++)
        sorted &= table[c - 1] < table[c];
    CHECK(same, "%s: a code does not give back its value's bits", slp_values_form_name(form));
    CHECK(sorted, "%s: table not increasing", slp_values_form_name(form));
    free(table);
    free(codes);
}

/* The tally (values in pieces, as the streaming shard writer adds them) decides as the
 * whole-array survey does and gives the same codes piece by piece. */
static void check_tally(const double *v, int64_t nnz, int64_t piece, const char *what)
{
    slp_values_survey_t whole, pieces;
    slp_values_tally_t *t = NULL;
    CHECK(slp_values_survey(v, nnz, &whole) == SLP_OK &&
              slp_values_tally_open(&t) == SLP_OK, "%s: survey", what);
    if (!t)
        return;
    for (int64_t k = 0; k < nnz; k += piece)
        slp_values_tally_add(t, v + k, nnz - k < piece ? nnz - k : piece);
    slp_values_tally_survey(t, &pieces);
    CHECK(pieces.form == whole.form && pieces.distinct == whole.distinct &&
              pieces.bytes == whole.bytes,
          "%s: pieces give %s (%lld distinct), the whole %s (%lld)", what,
          slp_values_form_name(pieces.form), (long long)pieces.distinct,
          slp_values_form_name(whole.form), (long long)whole.distinct);
    if (whole.form == SLP_VALUES_TABLE8 || whole.form == SLP_VALUES_TABLE16) {
        double *table = NULL, *want_table = NULL;
        void *want_codes = NULL;
        int len = 0, want_len = 0;
        size_t width = whole.form == SLP_VALUES_TABLE8 ? 1 : 2;
        unsigned char *codes = malloc((size_t)nnz * width);
        CHECK(slp_values_tally_table(t, &table, &len) == SLP_OK &&
                  slp_values_encode(v, nnz, whole.form, &want_table, &want_len, &want_codes) ==
                      SLP_OK,
              "%s: tables", what);
        for (int64_t k = 0; k < nnz; k += piece)
            slp_values_tally_codes(t, whole.form, v + k, nnz - k < piece ? nnz - k : piece,
                                   codes + (size_t)k * width);
        CHECK(len == want_len && table && want_table && want_codes &&
                  !memcmp(table, want_table, sizeof(double) * (size_t)len) &&
                  !memcmp(codes, want_codes, (size_t)nnz * width),
              "%s: the pieces' table or codes differ from the whole array's", what);
        free(table);
        free(want_table);
        free(want_codes);
        free(codes);
    }
    slp_values_tally_close(t);
}

int main(void)
{
    double unit[] = {1.0, -1.0, -1.0, 1.0};
    check_form(unit, 4, SLP_VALUES_SIGNED, 2, "+-1");
    double almost[] = {1.0, -1.0, nextafter(1.0, 2.0)};
    check_form(almost, 3, SLP_VALUES_PLAIN, 3, "+-1 and 1 + eps, 3 entries (a table costs more)");
    double *v = cycling(100000, 256);
    check_form(v, 100000, SLP_VALUES_TABLE8, 256, "256 values");
    check_codes(v, 100000, SLP_VALUES_TABLE8);
    free(v);
    v = cycling(100000, 257);
    check_form(v, 100000, SLP_VALUES_TABLE16, 257, "257 values");
    check_codes(v, 100000, SLP_VALUES_TABLE16);
    free(v);
    v = cycling(300000, SLP_VALUES_TABLE_MAX);
    check_form(v, 300000, SLP_VALUES_TABLE16, SLP_VALUES_TABLE_MAX, "65,536 values");
    check_codes(v, 300000, SLP_VALUES_TABLE16);
    free(v);
    v = cycling(300000, SLP_VALUES_TABLE_MAX + 1);
    check_form(v, 300000, SLP_VALUES_PLAIN, -1, "65,537 values");
    free(v);
    v = cycling(1000, 900); /* 900 values in 1000 entries: 2 + 7.2 bytes each > 8 */
    check_form(v, 1000, SLP_VALUES_PLAIN, 900, "a table larger than the doubles");
    free(v);
    double units[1000];
    for (int k = 0; k < 1000; k++)
        units[k] = k % 3 ? 1.0 : -1.0;
    check_tally(units, 1000, 7, "tally of +-1");
    v = cycling(100000, 200);
    check_tally(v, 100000, 999, "tally of 200 values");
    free(v);
    v = cycling(100000, 3000);
    check_tally(v, 100000, 4096, "tally of 3,000 values");
    free(v);
    v = cycling(300000, SLP_VALUES_TABLE_MAX + 1);
    check_tally(v, 300000, 65536, "tally of 65,537 values");
    free(v);
    CHECK(strcmp(slp_values_form_name(SLP_VALUES_SIGNED), "signed-unit") == 0, "name");
    return check_summary();
}
