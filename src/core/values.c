/* Exact compact forms of a matrix's values (core/values.h). */
#include "core/values.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* An open-addressing set of doubles by their bits, sized for SLP_VALUES_TABLE_MAX + 1
 * entries at a load of at most 1/4; the value with bits 0 (+0.0) is kept apart, since
 * 0 marks an empty slot. */
#define SET_SLOTS (1u << 18)

typedef struct {
    uint64_t *key;
    int32_t *code; /* NULL: a plain set */
    int64_t count;
    int has_zero;
    int32_t zero_code;
} value_set_t;

static uint64_t bits_of(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

static double value_of(uint64_t b)
{
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

static uint32_t slot_of(uint64_t b)
{
    b ^= b >> 33; /* the finaliser of MurmurHash3: the mantissa's low bits are often 0 */
    b *= 0xff51afd7ed558ccdULL;
    b ^= b >> 33;
    return (uint32_t)b & (SET_SLOTS - 1);
}

/* The slot of b: where it is, or the empty slot where it goes. */
static uint32_t find(const value_set_t *s, uint64_t b)
{
    uint32_t k = slot_of(b);
    while (s->key[k] && s->key[k] != b)
        k = (k + 1) & (SET_SLOTS - 1);
    return k;
}

/* Adds b; returns 0 once the set holds more than SLP_VALUES_TABLE_MAX values. */
static int insert(value_set_t *s, uint64_t b)
{
    if (b == 0) {
        s->count += !s->has_zero;
        s->has_zero = 1;
    } else {
        uint32_t k = find(s, b);
        if (!s->key[k]) {
            s->key[k] = b;
            s->count++;
        }
    }
    return s->count <= SLP_VALUES_TABLE_MAX;
}

int64_t slp_values_bytes(slp_values_form form, int64_t nnz, int64_t distinct)
{
    switch (form) {
    case SLP_VALUES_SIGNED: return 0;
    case SLP_VALUES_TABLE8: return nnz + 8 * distinct;
    case SLP_VALUES_TABLE16: return 2 * nnz + 8 * distinct;
    default: return 8 * nnz;
    }
}

slp_err slp_values_survey(const double *val, int64_t nnz, slp_values_survey_t *out)
{
    memset(out, 0, sizeof *out);
    int signed_unit = 1;
    for (int64_t k = 0; k < nnz && signed_unit; k++)
        signed_unit = fabs(val[k]) == 1.0;
    if (signed_unit && nnz > 0) {
        out->form = SLP_VALUES_SIGNED;
        out->distinct = 2;
        return SLP_OK;
    }
    value_set_t s = {0};
    s.key = slp_calloc(SET_SLOTS, sizeof(uint64_t));
    if (!s.key)
        return SLP_ERR_NOMEM;
    int fits = 1;
    for (int64_t k = 0; k < nnz && fits; k++)
        fits = insert(&s, bits_of(val[k]));
    free(s.key);
    out->distinct = s.count;
    out->form = SLP_VALUES_PLAIN;
    out->bytes = slp_values_bytes(SLP_VALUES_PLAIN, nnz, 0);
    if (!fits)
        return SLP_OK;
    slp_values_form tables[] = {SLP_VALUES_TABLE8, SLP_VALUES_TABLE16};
    for (int t = 0; t < 2; t++) {
        int64_t bytes = slp_values_bytes(tables[t], nnz, s.count);
        int room = tables[t] == SLP_VALUES_TABLE8 ? s.count <= 256 : 1;
        if (room && bytes < out->bytes) {
            out->form = tables[t];
            out->bytes = bytes;
        }
    }
    return SLP_OK;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    if (x != y)
        return x < y ? -1 : 1;
    uint64_t bx = bits_of(x), by = bits_of(y); /* -0.0 before +0.0: a total order */
    return bx == by ? 0 : bx > by ? -1 : 1;
}

/* The distinct values of val in increasing order, and the set mapping each to its code. */
static slp_err build_table(const double *val, int64_t nnz, value_set_t *s, double **table)
{
    for (int64_t k = 0; k < nnz; k++)
        if (!insert(s, bits_of(val[k])))
            return slp_error(SLP_ERR_INTERNAL, "values: more than %d distinct values for a table",
                             SLP_VALUES_TABLE_MAX);
    SLP_CALL(slp_alloc(table, (size_t)s->count + 1, sizeof(double)));
    int64_t n = 0;
    if (s->has_zero)
        (*table)[n++] = 0.0;
    for (uint32_t k = 0; k < SET_SLOTS; k++)
        if (s->key[k])
            (*table)[n++] = value_of(s->key[k]);
    qsort(*table, (size_t)n, sizeof(double), compare_doubles);
    for (int64_t c = 0; c < n; c++) {
        uint64_t b = bits_of((*table)[c]);
        if (b == 0)
            s->zero_code = (int32_t)c;
        else
            s->code[find(s, b)] = (int32_t)c;
    }
    return SLP_OK;
}

slp_err slp_values_encode(const double *val, int64_t nnz, slp_values_form form, double **table,
                          int *table_len, void **codes)
{
    *table = NULL;
    *codes = NULL;
    *table_len = 0;
    size_t width = form == SLP_VALUES_TABLE8 ? 1 : 2;
    value_set_t s = {0};
    s.key = slp_calloc(SET_SLOTS, sizeof(uint64_t));
    slp_err rc = s.key ? SLP_OK : SLP_ERR_NOMEM;
    if (rc == SLP_OK)
        rc = slp_alloc(&s.code, SET_SLOTS, sizeof(int32_t));
    if (rc == SLP_OK)
        rc = build_table(val, nnz, &s, table);
    if (rc == SLP_OK && s.count > (width == 1 ? 256 : SLP_VALUES_TABLE_MAX))
        rc = slp_error(SLP_ERR_INTERNAL, "values: %lld distinct values for %zu-byte codes",
                       (long long)s.count, width);
    if (rc == SLP_OK)
        rc = slp_alloc(codes, (size_t)nnz + 1, width);
    if (rc == SLP_OK) {
        for (int64_t k = 0; k < nnz; k++) {
            uint64_t b = bits_of(val[k]);
            int32_t c = b == 0 ? s.zero_code : s.code[find(&s, b)];
            if (width == 1)
                ((uint8_t *)*codes)[k] = (uint8_t)c;
            else
                ((uint16_t *)*codes)[k] = (uint16_t)c;
        }
        *table_len = (int)s.count;
    }
    free(s.key);
    free(s.code);
    if (rc != SLP_OK) {
        free(*table);
        free(*codes);
        *table = NULL;
        *codes = NULL;
    }
    return rc;
}

const char *slp_values_form_name(slp_values_form form)
{
    switch (form) {
    case SLP_VALUES_SIGNED: return "signed-unit";
    case SLP_VALUES_TABLE8: return "table8";
    case SLP_VALUES_TABLE16: return "table16";
    default: return "plain";
    }
}
