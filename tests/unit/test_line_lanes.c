/* The CUDA backend's gathering product, rendered on the host (src/backend/line_lanes.h,
 * docs/gpu.md section 1): the kernel and slp_line_dot_lanes share the per-entry and
 * per-lane code and the tree's order. Checked here, without a device: every value form
 * (signed-unit, table8, table16) gives each line's dot product bit for bit as plain
 * doubles do, for every lane count; the sums are right (against a long double sum, and
 * exactly on integers); the lanes take strided entries and meet in the documented tree;
 * the device's table codes are slp_values_encode's; the FP32 copy's sums are those of the
 * float-rounded values; the lane count follows the mean line length. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend/line_lanes.h"
#include "check.h"
#include "core/values.h"

#define LINES 64
#define MAX_LEN 200

typedef struct {
    int64_t ptr[LINES + 1];
    int32_t idx[LINES * MAX_LEN];
    double val[LINES * MAX_LEN];
    int64_t nnz;
} lines_t;

static uint64_t rng = 88172645463325252ull;
static uint64_t next_u64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* LINES lines of lengths 0 .. MAX_LEN - 1 over n columns, values drawn from pick. */
static void make_lines(lines_t *l, int32_t n, const double *pick, int n_pick)
{
    l->nnz = 0;
    l->ptr[0] = 0;
    for (int i = 0; i < LINES; i++) {
        int len = i == 0 ? 0 : (int)(next_u64() % MAX_LEN);
        for (int k = 0; k < len; k++, l->nnz++) {
            l->idx[l->nnz] = (int32_t)(next_u64() % (uint64_t)n);
            l->val[l->nnz] = pick[next_u64() % (uint64_t)n_pick];
        }
        l->ptr[i + 1] = l->nnz;
    }
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Every line, every lane count: `form` (encoded from l's plain values) against plain,
 * bit for bit, and against a long double sum within rounding. */
static void check_form(const lines_t *l, slp_values_form form, const double *x, const char *what)
{
    int32_t *signed_idx = malloc(sizeof *signed_idx * (size_t)(l->nnz + 1));
    double *table = NULL;
    int table_len = 0;
    void *codes = NULL;
    slp_line_entries_t plain = {SLP_VALUES_PLAIN, l->idx, l->val, NULL, NULL, NULL, NULL};
    slp_line_entries_t e = plain;
    e.form = form;
    if (form == SLP_VALUES_SIGNED) {
        for (int64_t k = 0; k < l->nnz; k++)
            signed_idx[k] = (int32_t)((uint32_t)l->idx[k] | (l->val[k] < 0 ? SLP_SIGN_BIT : 0u));
        e.idx = signed_idx;
    } else {
        CHECK(slp_values_encode(l->val, l->nnz, form, &table, &table_len, &codes) == SLP_OK,
              "%s: encode", what);
        e.table = table;
        e.code8 = codes;
        e.code16 = codes;
    }
    e.val = NULL; /* the form must not read the doubles */
    int same = 1, close = 1;
    for (int width = 1; width <= 32; width *= 2)
        for (int i = 0; i < LINES; i++) {
            double p = slp_line_dot_lanes(&plain, l->ptr[i], l->ptr[i + 1], width, x);
            double c = slp_line_dot_lanes(&e, l->ptr[i], l->ptr[i + 1], width, x);
            long double ref = 0.0L, mag = 0.0L;
            for (int64_t k = l->ptr[i]; k < l->ptr[i + 1]; k++) {
                ref += (long double)l->val[k] * x[l->idx[k]];
                mag += fabsl((long double)l->val[k] * x[l->idx[k]]);
            }
            same &= same_bits(p, c);
            close &= fabsl((long double)c - ref) <= 1e-14L * mag;
        }
    CHECK(same, "%s: the same bits as plain values on every line and lane count", what);
    CHECK(close, "%s: every line's dot product within rounding of the exact sum", what);
    free(signed_idx);
    free(table);
    free(codes);
}

static void test_forms(void)
{
    double x[1000];
    for (int j = 0; j < 1000; j++)
        x[j] = (double)(next_u64() % 2000001) / 1000.0 - 1000.0 + 1.0 / 3.0;
    lines_t *l = malloc(sizeof *l);
    const double units[] = {1.0, -1.0};
    make_lines(l, 1000, units, 2);
    check_form(l, SLP_VALUES_SIGNED, x, "signed-unit");
    check_form(l, SLP_VALUES_TABLE8, x, "table8 of +-1");
    double few[7] = {0.3, -1.7, 2.5e-3, 1.0 / 7.0, -4096.0, 1e-9, 3.14159};
    make_lines(l, 1000, few, 7);
    check_form(l, SLP_VALUES_TABLE8, x, "table8 of 7 values");
    check_form(l, SLP_VALUES_TABLE16, x, "table16 of 7 values");
    double many[1000];
    for (int k = 0; k < 1000; k++)
        many[k] = ((double)k + 0.5) / 333.0 * (k % 2 ? 1.0 : -1.0);
    make_lines(l, 1000, many, 1000);
    check_form(l, SLP_VALUES_TABLE16, x, "table16 of 1000 values");
    free(l);
}

/* The FP32 copy (--precision fp32-matrix): each term (double) v32 * x, so on values that
 * are floats already the sums are plain's bit for bit, and otherwise within a float's
 * rounding of each value. */
static void test_fp32(void)
{
    double x[1000];
    for (int j = 0; j < 1000; j++)
        x[j] = (double)(next_u64() % 2000001) / 1000.0 - 1000.0 + 1.0 / 3.0;
    lines_t *l = malloc(sizeof *l);
    double many[300];
    for (int k = 0; k < 300; k++)
        many[k] = ((double)k + 0.1) / 7.0 * (k % 3 ? 1.0 : -1.0);
    make_lines(l, 1000, many, 300);
    float *v32 = malloc(sizeof *v32 * (size_t)(l->nnz + 1));
    double *rounded = malloc(sizeof *rounded * (size_t)(l->nnz + 1));
    for (int64_t k = 0; k < l->nnz; k++) {
        v32[k] = (float)l->val[k];
        rounded[k] = (double)v32[k];
    }
    slp_line_entries_t f = {SLP_LINE_FP32, l->idx, NULL, NULL, NULL, NULL, v32};
    slp_line_entries_t p = {SLP_VALUES_PLAIN, l->idx, rounded, NULL, NULL, NULL, NULL};
    slp_line_entries_t d = {SLP_VALUES_PLAIN, l->idx, l->val, NULL, NULL, NULL, NULL};
    int same = 1, near = 1;
    for (int width = 1; width <= 32; width *= 2)
        for (int i = 0; i < LINES; i++) {
            double a = slp_line_dot_lanes(&f, l->ptr[i], l->ptr[i + 1], width, x);
            double b = slp_line_dot_lanes(&p, l->ptr[i], l->ptr[i + 1], width, x);
            double c = slp_line_dot_lanes(&d, l->ptr[i], l->ptr[i + 1], width, x);
            double mag = 0.0;
            for (int64_t k = l->ptr[i]; k < l->ptr[i + 1]; k++)
                mag += fabs(l->val[k] * x[l->idx[k]]);
            same &= same_bits(a, b);
            near &= fabs(a - c) <= 1e-7 * mag;
        }
    CHECK(same, "fp32: the plain sums of the float-rounded values, bit for bit");
    CHECK(near, "fp32: within a float's rounding of the doubles' sums");
    free(v32);
    free(rounded);
    free(l);
}

/* Small integers: every partial sum is exact, so every lane count gives the exact dot. */
static void test_exact(void)
{
    double x[50];
    for (int j = 0; j < 50; j++)
        x[j] = (double)(j % 11) - 5.0;
    lines_t *l = malloc(sizeof *l);
    const double ints[] = {1.0, -2.0, 3.0, 7.0, -12.0};
    make_lines(l, 50, ints, 5);
    slp_line_entries_t e = {SLP_VALUES_PLAIN, l->idx, l->val, NULL, NULL, NULL, NULL};
    int exact = 1;
    for (int width = 1; width <= 32; width *= 2)
        for (int i = 0; i < LINES; i++) {
            double ref = 0.0;
            for (int64_t k = l->ptr[i]; k < l->ptr[i + 1]; k++)
                ref += l->val[k] * x[l->idx[k]];
            exact &= slp_line_dot_lanes(&e, l->ptr[i], l->ptr[i + 1], width, x) == ref;
        }
    CHECK(exact, "integer lines: the exact dot product on every lane count");
    free(l);
}

/* The order itself: lane l sums entries l, l + W, ...; the lanes meet pairwise from the
 * top. With terms 1e16, 1, -1e16, 1 (rounding absorbs a 1 added to 1e16): one lane gives
 * ((1e16 + 1) - 1e16) + 1 = 1; two lanes (1e16 - 1e16) + (1 + 1) = 2; contiguous halves
 * would give 0. */
static void test_order(void)
{
    const int32_t idx[4] = {0, 1, 2, 3};
    const double val[4] = {1e16, 1.0, -1e16, 1.0}, x[4] = {1.0, 1.0, 1.0, 1.0};
    slp_line_entries_t e = {SLP_VALUES_PLAIN, idx, val, NULL, NULL, NULL, NULL};
    CHECK(slp_line_dot_lanes(&e, 0, 4, 1, x) == 1.0, "one lane: in order");
    CHECK(slp_line_dot_lanes(&e, 0, 4, 2, x) == 2.0, "two lanes: strided, then added");
    CHECK(slp_line_dot_lanes(&e, 0, 4, 4, x) == 2.0, "four lanes: lanes 0+2 and 1+3, then 0+1");
    CHECK(slp_line_dot_lanes(&e, 0, 0, 8, x) == 0.0, "an empty line");
}

/* The device's codes (a binary search of the table) are slp_values_encode's. */
static void test_codes(void)
{
    enum { N = 20000 };
    double *val = malloc(sizeof *val * N);
    for (int form = SLP_VALUES_TABLE8; form <= SLP_VALUES_TABLE16; form++) {
        int distinct = form == SLP_VALUES_TABLE8 ? 256 : 5000;
        for (int k = 0; k < N; k++)
            val[k] = ((double)(next_u64() % (uint64_t)distinct) - distinct / 2 + 0.25) * 0.1;
        double *table = NULL;
        int len = 0;
        void *codes = NULL;
        CHECK(slp_values_encode(val, N, (slp_values_form)form, &table, &len, &codes) == SLP_OK,
              "encode");
        int same = codes != NULL;
        for (int k = 0; same && k < N; k++) {
            int32_t want = form == SLP_VALUES_TABLE8 ? ((uint8_t *)codes)[k] : ((uint16_t *)codes)[k];
            same = slp_table_code(table, len, val[k]) == want;
        }
        CHECK(same && len <= distinct, "%s: the binary search finds slp_values_encode's code",
              slp_values_form_name((slp_values_form)form));
        free(table);
        free(codes);
    }
    free(val);
}

static void test_lanes_for(void)
{
    CHECK(slp_lanes_for(0, 0) == 1 && slp_lanes_for(10, 10) == 1 && slp_lanes_for(11, 10) == 2,
          "up to one entry a line: one lane; a little more: two");
    CHECK(slp_lanes_for(3, 1) == 4 && slp_lanes_for(16, 1) == 16 && slp_lanes_for(17, 1) == 32 &&
              slp_lanes_for(1000000, 3) == 32,
          "the mean rounded up to a power of two, at most 32");
}

int main(void)
{
    test_forms();
    test_fp32();
    test_exact();
    test_order();
    test_codes();
    test_lanes_for();
    return check_summary();
}
