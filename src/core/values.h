/* Exact compact forms of a sparse matrix's values (docs/memory.md, "Compact values").
 *
 * Most coefficients of the LPs users generate are structured: network and assignment
 * matrices are all +1/-1, stencils and many corpus LPs hold a handful of distinct
 * values. A product reads every value once per iteration, so a form that stores fewer
 * bytes per value moves fewer bytes. Every form here is exact: the value a kernel
 * reads is the double the plain form holds, so the products' sums (and every iterate)
 * are bitwise those of the plain form. */
#ifndef SLP_VALUES_H
#define SLP_VALUES_H

#include <stdint.h>

#include "error.h"

typedef enum {
    SLP_VALUES_PLAIN = 0,  /* a double per entry */
    SLP_VALUES_SIGNED = 1, /* every value is +1 or -1: the sign rides in the index's top bit */
    SLP_VALUES_TABLE8 = 2, /* at most 256 distinct values: a 1-byte code per entry, a table */
    SLP_VALUES_TABLE16 = 3 /* at most 65,536 distinct values: 2-byte codes, a table */
} slp_values_form;

#define SLP_VALUES_TABLE_MAX 65536

typedef struct {
    slp_values_form form; /* the form of fewest bytes */
    int64_t distinct;     /* distinct values (SLP_VALUES_TABLE_MAX + 1: more than a table holds) */
    int64_t bytes;        /* bytes of that form's values (codes and table; 0 for signed) */
} slp_values_survey_t;

/* The cheapest exact form of val[0, nnz) (values nonzero and finite). */
slp_err slp_values_survey(const double *val, int64_t nnz, slp_values_survey_t *out);
/* Bytes of the values of nnz entries with `distinct` distinct values in `form`. */
int64_t slp_values_bytes(slp_values_form form, int64_t nnz, int64_t distinct);

/* A table form: *table gets the distinct values in increasing order (*table_len of
 * them) and *codes nnz codes (uint8_t for TABLE8, uint16_t for TABLE16), val[k] ==
 * (*table)[code k]. Both slp_alloc'd; the caller frees them. */
slp_err slp_values_encode(const double *val, int64_t nnz, slp_values_form form, double **table,
                          int *table_len, void **codes);

/* The same survey and tables over values that arrive in pieces (a block assembled in
 * chunks): add every piece, then ask for the form; for a table form, build the table
 * (increasing, as slp_values_encode) and then the codes of each piece. */
typedef struct slp_values_tally slp_values_tally_t;
slp_err slp_values_tally_open(slp_values_tally_t **out);
void slp_values_tally_add(slp_values_tally_t *t, const double *val, int64_t n);
void slp_values_tally_survey(const slp_values_tally_t *t, slp_values_survey_t *out);
slp_err slp_values_tally_table(slp_values_tally_t *t, double **table, int *table_len);
/* Codes (uint8_t for TABLE8, uint16_t for TABLE16) of values that were added. */
void slp_values_tally_codes(const slp_values_tally_t *t, slp_values_form form, const double *val,
                            int64_t n, void *codes);
void slp_values_tally_close(slp_values_tally_t *t);

const char *slp_values_form_name(slp_values_form form);

/* The signed form's index word: bit 31 set for -1. Block-local column indices are
 * below 2^31 (local_problem.h), so the bit is free. */
#define SLP_SIGN_BIT 0x80000000u
#define SLP_INDEX_MASK 0x7fffffffu

#endif
