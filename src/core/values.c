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

/* The incremental survey: whether every value so far is +1 or -1, and the set of their
 * bits until it holds more than a table can (then it stops growing). */
struct slp_values_tally {
    value_set_t set;
    int64_t nnz;
    int signed_unit;
    int overflow;
};

slp_err slp_values_tally_open(slp_values_tally_t **out)
{
    slp_values_tally_t *t = slp_calloc(1, sizeof *t);
    if (t)
        t->set.key = slp_calloc(SET_SLOTS, sizeof(uint64_t));
    if (!t || !t->set.key) {
        free(t);
        return SLP_ERR_NOMEM;
    }
    t->signed_unit = 1;
    *out = t;
    return SLP_OK;
}

void slp_values_tally_close(slp_values_tally_t *t)
{
    if (!t)
        return;
    free(t->set.key);
    free(t->set.code);
    free(t);
}

void slp_values_tally_add(slp_values_tally_t *t, const double *val, int64_t n)
{
    t->nnz += n;
    for (int64_t k = 0; k < n && t->signed_unit; k++)
        t->signed_unit = fabs(val[k]) == 1.0;
    for (int64_t k = 0; k < n && !t->overflow; k++)
        t->overflow = !insert(&t->set, bits_of(val[k]));
}

void slp_values_tally_survey(const slp_values_tally_t *t, slp_values_survey_t *out)
{
    memset(out, 0, sizeof *out);
    if (t->signed_unit && t->nnz > 0) {
        out->form = SLP_VALUES_SIGNED;
        out->distinct = 2;
        return;
    }
    out->distinct = t->set.count;
    out->form = SLP_VALUES_PLAIN;
    out->bytes = slp_values_bytes(SLP_VALUES_PLAIN, t->nnz, 0);
    if (t->overflow)
        return;
    slp_values_form tables[] = {SLP_VALUES_TABLE8, SLP_VALUES_TABLE16};
    for (int i = 0; i < 2; i++) {
        int64_t bytes = slp_values_bytes(tables[i], t->nnz, t->set.count);
        int room = tables[i] == SLP_VALUES_TABLE8 ? t->set.count <= 256 : 1;
        if (room && bytes < out->bytes) {
            out->form = tables[i];
            out->bytes = bytes;
        }
    }
}

slp_err slp_values_survey(const double *val, int64_t nnz, slp_values_survey_t *out)
{
    /* All +-1 needs no set: the common network case costs one pass and no memory. */
    int signed_unit = nnz > 0;
    for (int64_t k = 0; k < nnz && signed_unit; k++)
        signed_unit = fabs(val[k]) == 1.0;
    if (signed_unit) {
        memset(out, 0, sizeof *out);
        out->form = SLP_VALUES_SIGNED;
        out->distinct = 2;
        return SLP_OK;
    }
    slp_values_tally_t *t;
    SLP_CALL(slp_values_tally_open(&t));
    slp_values_tally_add(t, val, nnz);
    slp_values_tally_survey(t, out);
    slp_values_tally_close(t);
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

slp_err slp_values_tally_table(slp_values_tally_t *t, double **table, int *table_len)
{
    value_set_t *s = &t->set;
    *table = NULL;
    *table_len = 0;
    if (t->overflow)
        return slp_error(SLP_ERR_INTERNAL, "values: more than %d distinct values for a table",
                         SLP_VALUES_TABLE_MAX);
    if (!s->code)
        SLP_CALL(slp_alloc(&s->code, SET_SLOTS, sizeof(int32_t)));
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
    *table_len = (int)n;
    return SLP_OK;
}

void slp_values_tally_codes(const slp_values_tally_t *t, slp_values_form form, const double *val,
                            int64_t n, void *codes)
{
    const value_set_t *s = &t->set;
    for (int64_t k = 0; k < n; k++) {
        uint64_t b = bits_of(val[k]);
        int32_t c = b == 0 ? s->zero_code : s->code[find(s, b)];
        if (form == SLP_VALUES_TABLE8)
            ((uint8_t *)codes)[k] = (uint8_t)c;
        else
            ((uint16_t *)codes)[k] = (uint16_t)c;
    }
}

slp_err slp_values_encode(const double *val, int64_t nnz, slp_values_form form, double **table,
                          int *table_len, void **codes)
{
    *table = NULL;
    *codes = NULL;
    *table_len = 0;
    size_t width = form == SLP_VALUES_TABLE8 ? 1 : 2;
    slp_values_tally_t *t;
    SLP_CALL(slp_values_tally_open(&t));
    slp_values_tally_add(t, val, nnz);
    slp_err rc = slp_values_tally_table(t, table, table_len);
    if (rc == SLP_OK && *table_len > (width == 1 ? 256 : SLP_VALUES_TABLE_MAX))
        rc = slp_error(SLP_ERR_INTERNAL, "values: %d distinct values for %zu-byte codes",
                       *table_len, width);
    if (rc == SLP_OK)
        rc = slp_alloc(codes, (size_t)nnz + 1, width);
    if (rc == SLP_OK)
        slp_values_tally_codes(t, form, val, nnz, *codes);
    slp_values_tally_close(t);
    if (rc != SLP_OK) {
        free(*table);
        free(*codes);
        *table = NULL;
        *codes = NULL;
        *table_len = 0;
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
