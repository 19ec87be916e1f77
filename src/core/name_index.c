#include "name_index.h"

#include <stdlib.h>
#include <string.h>

/* A slot: the key is an offset into the index's arena, plus one (0 = empty slot). */
typedef struct {
    int64_t key;
    uint64_t hash;
    int64_t value;
} slot_t;

/* Keys are stored one after another, NUL-terminated, in one growing arena: a key
 * costs its length plus one byte instead of a heap block (32 bytes or more), and the
 * table grows at three quarters full (docs/memory.md "The MPS reader"). */
struct slp_name_index {
    slot_t *slots;
    int64_t capacity; /* power of two */
    int64_t count;
    char *arena;
    size_t arena_used, arena_cap;
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
    while (4 * expected > 3 * capacity)
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
    free((*index)->arena);
    free((*index)->slots);
    free(*index);
    *index = NULL;
}

static const char *key_of(const slp_name_index_t *index, const slot_t *slot)
{
    return index->arena + slot->key - 1;
}

static int64_t probe(const slp_name_index_t *index, const slot_t *slots, int64_t capacity,
                     const char *name, uint64_t hash)
{
    int64_t mask = capacity - 1;
    for (int64_t k = (int64_t)(hash & (uint64_t)mask);; k = (k + 1) & mask)
        if (!slots[k].key || (slots[k].hash == hash && !strcmp(key_of(index, &slots[k]), name)))
            return k;
}

/* name copied to the end of the arena; its offset plus one in *key. */
static slp_err store_key(slp_name_index_t *index, const char *name, int64_t *key)
{
    size_t len = strlen(name) + 1;
    if (index->arena_used + len > index->arena_cap) {
        size_t cap = index->arena_cap ? index->arena_cap : 4096;
        while (index->arena_used + len > cap)
            cap *= 2;
        char *bigger = realloc(index->arena, cap);
        if (!bigger)
            return slp_error(SLP_ERR_NOMEM, "out of memory for %zu bytes of names", cap);
        index->arena = bigger;
        index->arena_cap = cap;
    }
    memcpy(index->arena + index->arena_used, name, len);
    *key = (int64_t)index->arena_used + 1;
    index->arena_used += len;
    return SLP_OK;
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
            slots[probe(index, slots, capacity, key_of(index, old), old->hash)] = *old;
    }
    free(index->slots);
    index->slots = slots;
    index->capacity = capacity;
    return SLP_OK;
}

slp_err slp_name_index_insert(slp_name_index_t *index, const char *name, int64_t value,
                              int *inserted, int64_t *existing)
{
    if (4 * (index->count + 1) > 3 * index->capacity)
        SLP_CALL(grow(index));
    uint64_t hash = hash_name(name);
    slot_t *slot = &index->slots[probe(index, index->slots, index->capacity, name, hash)];
    if (slot->key) {
        if (existing)
            *existing = slot->value;
        if (inserted)
            *inserted = 0;
        return SLP_OK;
    }
    SLP_CALL(store_key(index, name, &slot->key));
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
    const slot_t *slot = &index->slots[probe(index, index->slots, index->capacity, name, hash)];
    return slot->key ? slot->value : -1;
}

int64_t slp_name_index_count(const slp_name_index_t *index) { return index->count; }
