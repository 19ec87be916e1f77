#include "name_index.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    char *key;     /* NULL = empty slot */
    uint64_t hash;
    int64_t value;
} slot_t;

struct slp_name_index {
    slot_t *slots;
    int64_t capacity; /* power of two */
    int64_t count;
};

/* FNV-1a, 64-bit. */
static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h;
}

slp_err slp_name_index_create(int64_t expected, slp_name_index_t **out)
{
    *out = NULL;
    slp_name_index_t *index = slp_calloc(1, sizeof *index);
    if (!index)
        return SLP_ERR_NOMEM;
    int64_t capacity = 16;
    while (capacity < 2 * expected)
        capacity *= 2;
    index->slots = slp_calloc((size_t)capacity, sizeof(slot_t));
    if (!index->slots) {
        free(index);
        return SLP_ERR_NOMEM;
    }
    index->capacity = capacity;
    *out = index;
    return SLP_OK;
}

void slp_name_index_destroy(slp_name_index_t **index)
{
    if (!index || !*index)
        return;
    for (int64_t k = 0; k < (*index)->capacity; k++)
        free((*index)->slots[k].key);
    free((*index)->slots);
    free(*index);
    *index = NULL;
}

static int64_t probe(const slot_t *slots, int64_t capacity, const char *name, uint64_t hash)
{
    int64_t mask = capacity - 1;
    for (int64_t k = (int64_t)(hash & (uint64_t)mask);; k = (k + 1) & mask)
        if (!slots[k].key || (slots[k].hash == hash && !strcmp(slots[k].key, name)))
            return k;
}

static slp_err grow(slp_name_index_t *index)
{
    int64_t capacity = index->capacity * 2;
    slot_t *slots = slp_calloc((size_t)capacity, sizeof(slot_t));
    if (!slots)
        return SLP_ERR_NOMEM;
    for (int64_t k = 0; k < index->capacity; k++) {
        slot_t *old = &index->slots[k];
        if (old->key)
            slots[probe(slots, capacity, old->key, old->hash)] = *old;
    }
    free(index->slots);
    index->slots = slots;
    index->capacity = capacity;
    return SLP_OK;
}

slp_err slp_name_index_insert(slp_name_index_t *index, const char *name, int64_t value,
                              int *inserted, int64_t *existing)
{
    if (2 * (index->count + 1) > index->capacity)
        SLP_CALL(grow(index));
    uint64_t hash = hash_name(name);
    slot_t *slot = &index->slots[probe(index->slots, index->capacity, name, hash)];
    if (slot->key) {
        if (existing)
            *existing = slot->value;
        if (inserted)
            *inserted = 0;
        return SLP_OK;
    }
    slot->key = slp_strdup(name);
    if (!slot->key)
        return SLP_ERR_NOMEM;
    slot->hash = hash;
    slot->value = value;
    index->count++;
    if (inserted)
        *inserted = 1;
    return SLP_OK;
}

int64_t slp_name_index_find(const slp_name_index_t *index, const char *name)
{
    uint64_t hash = hash_name(name);
    const slot_t *slot = &index->slots[probe(index->slots, index->capacity, name, hash)];
    return slot->key ? slot->value : -1;
}

int64_t slp_name_index_count(const slp_name_index_t *index) { return index->count; }
