/* A string -> int64 hash index (open addressing), for row and column names.
 * Keys are copied. Not thread-safe. The _n forms take a name by pointer and length
 * (a token inside a line, not NUL-terminated; it must not contain a NUL). */
#ifndef SLP_NAME_INDEX_H
#define SLP_NAME_INDEX_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "error.h"

typedef struct slp_name_index slp_name_index_t;

slp_err slp_name_index_create(int64_t expected, slp_name_index_t **out);
void slp_name_index_destroy(slp_name_index_t **index);

/* Insert name -> value. If the name is present, leaves it unchanged and sets
 * *existing to its value (when existing is not NULL) and returns SLP_OK with
 * *inserted = 0. */
slp_err slp_name_index_insert(slp_name_index_t *index, const char *name, int64_t value,
                              int *inserted, int64_t *existing);
slp_err slp_name_index_insert_n(slp_name_index_t *index, const char *name, size_t len,
                                int64_t value, int *inserted, int64_t *existing);
/* Value of name, or -1 when absent. Not const: a find first moves the keys inserted
 * in increasing order (name_index.c) into the table. */
int64_t slp_name_index_find(slp_name_index_t *index, const char *name);
int64_t slp_name_index_find_n(slp_name_index_t *index, const char *name, size_t len);
int64_t slp_name_index_count(const slp_name_index_t *index);
/* The hash the index uses (its low bits pick the slot; other users take high bits). */
uint64_t slp_name_hash(const char *s, size_t len);

/* The len bytes at a and at b are the same. Names are short: byte by byte, without the
 * call of memcmp, which was 5% of reading a large MPS file. */
static inline int slp_names_equal(const char *a, const char *b, size_t len)
{
    if (len > 32)
        return !memcmp(a, b, len);
    for (size_t k = 0; k < len; k++)
        if (a[k] != b[k])
            return 0;
    return 1;
}

#endif
