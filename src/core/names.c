#include "names.h"

#include <stdlib.h>
#include <string.h>

/* The array's first name starts right after it: one block (slp_names_pack). */
static int names_packed(char **names, int64_t count)
{
    return count > 0 && names[0] == (char *)(names + count);
}

void slp_names_free(char **names, int64_t count)
{
    if (!names)
        return;
    if (!names_packed(names, count))
        for (int64_t k = 0; k < count; k++)
            free(names[k]);
    free(names);
}

slp_err slp_names_pack(char *const *names, int64_t count, size_t bytes, char ***out)
{
    char **packed = slp_malloc((size_t)count * sizeof(char *) + bytes + 1);
    if (!packed)
        return SLP_ERR_NOMEM;
    char *at = (char *)(packed + count);
    for (int64_t k = 0; k < count; k++) { /* short names: byte by byte, no call a name */
        packed[k] = at;
        const char *from = names[k];
        while ((*at++ = *from++) != '\0')
            ;
    }
    *out = packed;
    return SLP_OK;
}

struct slp_name_chunk {
    slp_name_chunk_t *prev;
    size_t used, cap;
    char data[];
};

#define NAME_CHUNK ((size_t)1 << 20)

char *slp_name_store_add(slp_name_store_t *store, const char *name, size_t len,
                         const char *what)
{
    slp_name_chunk_t *c = store->last;
    if (!c || c->cap - c->used < len + 1) {
        size_t cap = len + 1 > NAME_CHUNK ? len + 1 : NAME_CHUNK;
        slp_name_chunk_t *fresh = malloc(sizeof *fresh + cap);
        if (!fresh) {
            slp_error(SLP_ERR_NOMEM, "out of memory for the names of %s", what);
            return NULL;
        }
        *fresh = (slp_name_chunk_t){c, 0, cap};
        store->last = c = fresh;
    }
    char *at = c->data + c->used;
    memcpy(at, name, len);
    at[len] = '\0';
    c->used += len + 1;
    store->bytes += len + 1;
    return at;
}

void slp_name_store_drop_after(slp_name_store_t *store, const char *keep)
{
    slp_name_chunk_t *c;
    while ((c = store->last) && !(keep && keep >= c->data && keep < c->data + c->cap)) {
        store->last = c->prev;
        store->bytes -= c->used;
        free(c);
    }
}

void slp_name_store_free(slp_name_store_t *store)
{
    while (store->last) {
        slp_name_chunk_t *prev = store->last->prev;
        free(store->last);
        store->last = prev;
    }
    store->bytes = 0;
}
