/* Arrays of names (rows, columns) and where their strings live (docs/mps.md, "Stop 59"):
 * a reader stores names in chunks while it parses, then hands them over packed in one
 * block with their array; every owner frees an array with slp_names_free. */
#ifndef SLP_NAMES_H
#define SLP_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* Free an array of `count` names (NULL, and NULL entries, allowed): a name each on the
 * heap, or one packed block (slp_names_pack). */
void slp_names_free(char **names, int64_t count);
/* `count` names (none NULL; `bytes` their lengths plus one each) copied into one heap
 * block: the array of count pointers followed by the strings, so that a reader with
 * millions of names makes one allocation instead of one a name. Such an array is told
 * apart by its first name, which starts right after the array; slp_names_free frees it
 * whole. */
slp_err slp_names_pack(char *const *names, int64_t count, size_t bytes, char ***out);

/* Names stored one after another in 1 MiB chunks that never move, so that a pointer to
 * a stored name stays valid until the store is freed: no malloc a name, and about 20
 * bytes a name fewer than heap blocks. Zero-initialise before use. */
typedef struct slp_name_chunk slp_name_chunk_t;
typedef struct {
    slp_name_chunk_t *last;
    size_t bytes; /* the stored names' lengths plus one each (slp_names_pack's `bytes`) */
} slp_name_store_t;

/* A copy of the len bytes at name, NUL-terminated, in the store; NULL when out of memory
 * (with the error set, naming `what`). */
char *slp_name_store_add(slp_name_store_t *store, const char *name, size_t len,
                         const char *what);
void slp_name_store_free(slp_name_store_t *store);
/* Free the chunks stored after the one that holds `keep` (a name in the store; NULL:
 * every chunk), for a reader that gives its names back from the last one. */
void slp_name_store_drop_after(slp_name_store_t *store, const char *keep);

#endif
