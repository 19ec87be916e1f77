/* Checks shared by the MPS reader's tests (test_mps.c, test_mps_blocks.c): a read that
 * must succeed, one that must fail with a given message, an entry of a model, and two
 * models compared value by value (bits, NaN equal to NaN). */
#ifndef SLP_TEST_MPS_CHECKS_H
#define SLP_TEST_MPS_CHECKS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/error.h"
#include "core/model.h"
#include "io/mps.h"

static slp_model_t *read_ok(const char *path)
{
    slp_model_t *model = NULL;
    slp_error_clear();
    slp_err err = slp_mps_read(path, &model);
    CHECK(err == SLP_OK, "reading %s failed: %s", path, slp_error_message());
    return model;
}

/* The read must fail with SLP_ERR_INPUT and a message "PATH:LINE: ..." (line > 0
 * given) or containing `needle`. */
static void expect_input_error(const char *path, int line, const char *needle)
{
    slp_model_t *model = NULL;
    slp_error_clear();
    slp_err err = slp_mps_read(path, &model);
    CHECK(err == SLP_ERR_INPUT, "%s: expected an input error, got %d (%s)", path, (int)err,
          slp_error_message());
    CHECK(model == NULL, "%s: no model on error", path);
    const char *msg = slp_error_message();
    if (line > 0) {
        char where[1200];
        snprintf(where, sizeof where, "%s:%d: ", path, line);
        CHECK(strstr(msg, where) != NULL, "%s: message should start with '%s': '%s'", path, where,
              msg);
    }
    if (needle)
        CHECK(strstr(msg, needle) != NULL, "%s: message should mention '%s': '%s'", path, needle,
              msg);
    CHECK(strchr(msg, '\n') == NULL, "one-line message");
    slp_model_destroy(&model);
}

/* Value of entry (i, j), or NAN when absent. */
static double entry(const slp_model_t *mo, int64_t i, int64_t j)
{
    for (int64_t k = mo->col_ptr[j]; k < mo->col_ptr[j + 1]; k++)
        if (mo->row_idx[k] == i)
            return mo->val[k];
    return NAN;
}

static int same_double(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

static void compare_models(const slp_model_t *a, const slp_model_t *b, const char *what,
                           int compare_names)
{
    CHECK(a->m == b->m && a->n == b->n && a->nnz == b->nnz, "%s: sizes", what);
    if (a->m != b->m || a->n != b->n || a->nnz != b->nnz)
        return;
    CHECK(a->sense == b->sense, "%s: sense", what);
    CHECK(same_double(a->obj_const, b->obj_const), "%s: obj_const %.17g vs %.17g", what,
          a->obj_const, b->obj_const);
    int64_t bad = 0;
    for (int64_t j = 0; j < a->n; j++)
        bad += !same_double(a->c[j], b->c[j]) || !same_double(a->lv[j], b->lv[j]) ||
               !same_double(a->uv[j], b->uv[j]);
    CHECK(bad == 0, "%s: %lld columns differ in c or bounds", what, (long long)bad);
    bad = 0;
    for (int64_t i = 0; i < a->m; i++)
        if (!same_double(a->lc[i], b->lc[i]) || !same_double(a->uc[i], b->uc[i])) {
            if (bad++ < 3)
                fprintf(stderr, "%s: row %lld: [%.17g, %.17g] vs [%.17g, %.17g]\n", what,
                        (long long)i, a->lc[i], a->uc[i], b->lc[i], b->uc[i]);
        }
    CHECK(bad == 0, "%s: %lld rows differ in bounds", what, (long long)bad);
    bad = 0;
    for (int64_t j = 0; j <= a->n; j++)
        bad += a->col_ptr[j] != b->col_ptr[j];
    for (int64_t k = 0; k < a->nnz; k++)
        bad += a->row_idx[k] != b->row_idx[k] || !same_double(a->val[k], b->val[k]);
    CHECK(bad == 0, "%s: matrix differs in %lld places", what, (long long)bad);
    CHECK((a->is_int == NULL) == (b->is_int == NULL), "%s: is_int presence", what);
    if (a->is_int && b->is_int) {
        bad = 0;
        for (int64_t j = 0; j < a->n; j++)
            bad += a->is_int[j] != b->is_int[j];
        CHECK(bad == 0, "%s: is_int differs in %lld columns", what, (long long)bad);
    }
    if (compare_names) {
        CHECK(!strcmp(a->name, b->name), "%s: name '%s' vs '%s'", what, a->name, b->name);
        CHECK(!strcmp(a->obj_name, b->obj_name), "%s: objective name", what);
        bad = 0;
        for (int64_t i = 0; i < a->m; i++)
            bad += strcmp(a->row_names[i], b->row_names[i]) != 0;
        for (int64_t j = 0; j < a->n; j++)
            bad += strcmp(a->col_names[j], b->col_names[j]) != 0;
        CHECK(bad == 0, "%s: %lld names differ", what, (long long)bad);
    }
}

#endif
