#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include "name_index.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* A slot: the key is an offset into the index's arena, plus one (0 = empty slot). */
typedef struct {
    int64_t key;
    uint64_t hash;
    int64_t value;
} slot_t;

#define FLUSH_BATCH 16    /* pending keys hashed and their slots prefetched together */

/* Keys are stored one after another, NUL-terminated, in one growing arena: a key
 * costs its length plus one byte instead of a heap block (32 bytes or more), and the
 * table grows at three quarters full (docs/memory.md "The MPS reader").
 *
 * Keys that come in increasing order (docs/mps.md "Reading speed"): a probe of a large
 * table is a cache miss, and a 195 MB MPS file inserts 2.2 million column names one
 * after another, nearly always new ones. A name greater than every key so far (shorter
 * first, then by bytes: C9 < C10 < C11, the order generated names come in) cannot be
 * present, so it goes to a pending list without a probe. The pending keys enter the
 * table together, their slots prefetched in batches, before anything else reads it.
 * They are the last keys of the arena, so the list holds only their values (the hash is
 * computed again when they enter), and not even those while the values are consecutive
 * (the column numbers of an MPS file). */
struct slp_name_index {
    slot_t *slots;
    int64_t capacity; /* power of two */
    int64_t count;    /* keys, pending ones included */
    int64_t npending;    /* keys not yet in slots */
    int64_t first_value; /* the first one's value; while the values are consecutive... */
    int64_t *pending;    /* ...NULL, else every pending key's value */
    int64_t pending_cap;
    size_t pending_from; /* arena offset of the first pending key */
    int64_t greatest; /* arena key of the greatest key so far (0: none) */
    size_t greatest_len;
    /* The pending keys are one prefix and consecutive numbers (R10, R11, ...: the rows
     * of a generated model) with consecutive values: a find answers from the name,
     * without hashing it or filling the table. */
    int numbered;
    size_t num_prefix_len; /* the first pending key's first bytes are the prefix */
    int64_t num_first;     /* the first pending key's number */
    char *arena;
    size_t arena_used, arena_cap;
};

/* A word at a time: each 8-byte word (the last one padded with zeros) is mixed in by
 * a multiply, the length seeds it, and a final avalanche spreads every bit into the
 * low bits that pick the slot. */
uint64_t slp_name_hash(const char *s, size_t len)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)len;
    for (; len >= 8; s += 8, len -= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    uint64_t w = 0;
    for (size_t k = 0; k < len; k++)
        w |= (uint64_t)(unsigned char)s[k] << (8 * k);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    return h ^ (h >> 33);
}

#define HUGE_PAGE ((size_t)2 << 20)

/* A zeroed slot table. Tables of 2 MiB and more are mapped (zero pages, touched only
 * when used) on 2 MiB boundaries with huge pages asked for: a probe is a random access,
 * and with 4 KiB pages nearly each one also missed the TLB (2.2 million column names of
 * a 195 MB MPS file: a 96 MiB table). */
static slot_t *new_slots(int64_t capacity)
{
    size_t bytes = (size_t)capacity * sizeof(slot_t);
    if (bytes < HUGE_PAGE)
        return slp_calloc((size_t)capacity, sizeof(slot_t));
    size_t mapped = bytes + HUGE_PAGE;
    char *mem = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED)
        return NULL;
    size_t lead = (HUGE_PAGE - (uintptr_t)mem % HUGE_PAGE) % HUGE_PAGE;
    if (lead)
        munmap(mem, lead);
    munmap(mem + lead + bytes, mapped - lead - bytes);
#ifdef MADV_HUGEPAGE
    madvise(mem + lead, bytes - bytes % HUGE_PAGE, MADV_HUGEPAGE);
#endif
    return (slot_t *)(void *)(mem + lead);
}

static void free_slots(slot_t *slots, int64_t capacity)
{
    size_t bytes = (size_t)capacity * sizeof(slot_t);
    if (bytes < HUGE_PAGE)
        free(slots);
    else if (slots)
        munmap(slots, bytes);
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
    index->slots = new_slots(capacity);
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
    free_slots((*index)->slots, (*index)->capacity);
    free((*index)->pending);
    free(*index);
    *index = NULL;
}

static const char *key_of(const slp_name_index_t *index, const slot_t *slot)
{
    return index->arena + slot->key - 1;
}

/* The stored key equals the len bytes at name (keys end with a NUL). */
static int same_key(const char *key, const char *name, size_t len)
{
    return slp_names_equal(key, name, len) && key[len] == '\0';
}

static int64_t probe(const slp_name_index_t *index, const char *name, size_t len,
                     uint64_t hash)
{
    int64_t mask = index->capacity - 1;
    const slot_t *slots = index->slots;
    for (int64_t k = (int64_t)(hash & (uint64_t)mask);; k = (k + 1) & mask)
        if (!slots[k].key ||
            (slots[k].hash == hash && same_key(key_of(index, &slots[k]), name, len)))
            return k;
}

/* The empty slot for a new key: the table and the pending list hold distinct keys. */
static int64_t free_slot(const slot_t *slots, int64_t capacity, uint64_t hash)
{
    int64_t mask = capacity - 1;
    int64_t k = (int64_t)(hash & (uint64_t)mask);
    while (slots[k].key)
        k = (k + 1) & mask;
    return k;
}

/* The pending keys into the table, FLUSH_BATCH at a time: their hashes first and their
 * slots prefetched, then filled, so that the cache misses overlap. */
static void flush_pending(slp_name_index_t *index)
{
    if (index->npending == 0) /* every find comes here: nothing to do */
        return;
    uint64_t mask = (uint64_t)index->capacity - 1;
    size_t offset = index->pending_from;
    for (int64_t first = 0; first < index->npending; first += FLUSH_BATCH) {
        slot_t batch[FLUSH_BATCH];
        int count = (int)(index->npending - first < FLUSH_BATCH ? index->npending - first
                                                                 : FLUSH_BATCH);
        for (int b = 0; b < count; b++) {
            const char *key = index->arena + offset;
            size_t len = strlen(key);
            int64_t k = first + b;
            int64_t value = index->pending ? index->pending[k] : index->first_value + k;
            batch[b] = (slot_t){(int64_t)offset + 1, slp_name_hash(key, len), value};
            __builtin_prefetch(&index->slots[batch[b].hash & mask], 1);
            offset += len + 1;
        }
        for (int b = 0; b < count; b++)
            index->slots[free_slot(index->slots, index->capacity, batch[b].hash)] = batch[b];
    }
    index->npending = 0;
    free(index->pending);
    index->pending = NULL;
    index->pending_cap = 0;
}

/* name after every key so far, shorter names first, then by bytes. */
static int after_greatest(const slp_name_index_t *index, const char *name, size_t len)
{
    if (!index->greatest)
        return 1;
    if (len != index->greatest_len)
        return len > index->greatest_len;
    return memcmp(name, index->arena + index->greatest - 1, len) > 0;
}

/* name (len bytes) copied to the end of the arena with a NUL; its offset plus one in
 * *key. */
static slp_err store_key(slp_name_index_t *index, const char *name, size_t name_len,
                         int64_t *key)
{
    size_t len = name_len + 1;
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
    memcpy(index->arena + index->arena_used, name, name_len);
    index->arena[index->arena_used + name_len] = '\0';
    *key = (int64_t)index->arena_used + 1;
    index->arena_used += len;
    return SLP_OK;
}

/* A table of twice the capacity; the pending keys stay pending (while every key is
 * pending, the old table is empty and is not read). */
static slp_err grow(slp_name_index_t *index)
{
    int64_t capacity = index->capacity * 2;
    slot_t *slots = new_slots(capacity);
    if (!slots)
        return SLP_ERR_NOMEM;
    if (index->count > index->npending)
        for (int64_t k = 0; k < index->capacity; k++) {
            slot_t *old = &index->slots[k];
            if (old->key)
                slots[free_slot(slots, capacity, old->hash)] = *old;
        }
    free_slots(index->slots, index->capacity);
    index->slots = slots;
    index->capacity = capacity;
    return SLP_OK;
}

/* The value of one more pending key, recorded before the key is stored: the pending
 * keys must stay the last keys of the arena. */
static slp_err add_pending_value(slp_name_index_t *index, int64_t value)
{
    if (index->npending == 0)
        index->first_value = value;
    if (!index->pending && value == index->first_value + index->npending)
        return SLP_OK; /* still consecutive */
    if (index->npending + 1 > index->pending_cap) {
        int64_t cap = index->pending_cap ? 2 * index->pending_cap : 1024;
        while (cap < index->npending + 1)
            cap *= 2;
        int64_t *bigger = realloc(index->pending, (size_t)cap * sizeof *bigger);
        if (!bigger)
            return slp_error(SLP_ERR_NOMEM, "out of memory for %lld names", (long long)cap);
        if (!index->pending) /* the values so far, written out */
            for (int64_t k = 0; k < index->npending; k++)
                bigger[k] = index->first_value + k;
        index->pending = bigger;
        index->pending_cap = cap;
    }
    index->pending[index->npending] = value;
    return SLP_OK;
}

/* The number that name[0, len) is written as (decimal digits, no leading zero but in
 * "0", at most 18 of them), or -1. */
static int64_t number_of(const char *s, size_t len)
{
    if (len == 0 || len > 18 || (s[0] == '0' && len > 1))
        return -1;
    int64_t v = 0;
    for (size_t k = 0; k < len; k++) {
        if (s[k] < '0' || s[k] > '9')
            return -1;
        v = 10 * v + (s[k] - '0');
    }
    return v;
}

/* Where the digits at the end of name[0, len) start. */
static size_t digits_from(const char *name, size_t len)
{
    while (len > 0 && name[len - 1] >= '0' && name[len - 1] <= '9')
        len--;
    return len;
}

/* Whether the pending keys, with name as the next one, still form a numbered run. */
static void note_numbered(slp_name_index_t *index, const char *name, size_t len)
{
    size_t p = digits_from(name, len);
    int64_t d = number_of(name + p, len - p);
    if (index->npending == 0) {
        index->numbered = d >= 0;
        index->num_prefix_len = p;
        index->num_first = d;
        return;
    }
    index->numbered = index->numbered && !index->pending && p == index->num_prefix_len &&
                      d == index->num_first + index->npending &&
                      memcmp(name, index->arena + index->pending_from, p) == 0;
}

/* Whether `name` is a pending key of a numbered run; its value in *value. */
static int numbered_value(const slp_name_index_t *index, const char *name, size_t len,
                          int64_t *value)
{
    size_t p = index->num_prefix_len;
    if (len <= p || !slp_names_equal(name, index->arena + index->pending_from, p))
        return 0;
    int64_t d = number_of(name + p, len - p);
    if (d < index->num_first || d - index->num_first >= index->npending)
        return 0; /* also d = -1: not a number written as the run writes them */
    *value = index->first_value + (d - index->num_first);
    return 1;
}

slp_err slp_name_index_insert_n(slp_name_index_t *index, const char *name, size_t len,
                                int64_t value, int *inserted, int64_t *existing)
{
    int greatest = after_greatest(index, name, len);
    int64_t run_value;
    if (!greatest && index->npending > 0 && index->numbered &&
        numbered_value(index, name, len, &run_value)) { /* a key of the run: no table */
        if (existing)
            *existing = run_value;
        if (inserted)
            *inserted = 0;
        return SLP_OK;
    }
    if (!greatest) { /* it may be there: look in the table, with every key in it */
        flush_pending(index);
        const slot_t *slot = &index->slots[probe(index, name, len, slp_name_hash(name, len))];
        if (slot->key) {
            if (existing)
                *existing = slot->value;
            if (inserted)
                *inserted = 0;
            return SLP_OK;
        }
    }
    while (4 * (index->count + 1) > 3 * index->capacity)
        SLP_CALL(grow(index));
    SLP_CALL(add_pending_value(index, value));
    note_numbered(index, name, len);
    int64_t key = 0;
    SLP_CALL(store_key(index, name, len, &key));
    if (index->npending == 0)
        index->pending_from = (size_t)key - 1;
    index->npending++;
    index->count++;
    if (greatest) {
        index->greatest = key;
        index->greatest_len = len;
    }
    if (inserted)
        *inserted = 1;
    return SLP_OK;
}

slp_err slp_name_index_insert(slp_name_index_t *index, const char *name, int64_t value,
                              int *inserted, int64_t *existing)
{
    return slp_name_index_insert_n(index, name, strlen(name), value, inserted, existing);
}

int64_t slp_name_index_find_n(slp_name_index_t *index, const char *name, size_t len)
{
    if (index->npending > 0 && index->numbered) {
        int64_t value;
        if (numbered_value(index, name, len, &value))
            return value;
        if (index->count == index->npending)
            return -1; /* every key is in the run */
        /* else the table holds every key outside the run */
    } else {
        flush_pending(index);
    }
    const slot_t *slot = &index->slots[probe(index, name, len, slp_name_hash(name, len))];
    return slot->key ? slot->value : -1;
}

int64_t slp_name_index_find(slp_name_index_t *index, const char *name)
{
    return slp_name_index_find_n(index, name, strlen(name));
}

int64_t slp_name_index_count(const slp_name_index_t *index) { return index->count; }
