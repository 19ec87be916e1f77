/* Giving memory back while a buffer is read (src/core/error.c, names.c, io/triplets.c;
 * the parallel LP reader's pieces and messages, docs/parallel-input.md "LP files"):
 * slp_release_pages frees only the whole pages inside its range (every byte outside it
 * keeps its value); slp_shrink keeps the first elements; a name store dropped after a
 * name keeps that name and every one before it, and takes new names after; triplets
 * truncated keep their first entries and take new ones. */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core/error.h"
#include "core/names.h"
#include "io/triplets.h"

static void test_release_pages(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), bytes = 16 * page + 123;
    unsigned char *buf = malloc(bytes);
    CHECK(buf != NULL, "malloc");
    if (!buf)
        return;
    memset(buf, 0xab, bytes);
    /* a range that starts and ends inside pages: only the pages wholly inside it go */
    unsigned char *begin = buf + 3 * page + 17, *end = buf + 11 * page + 5;
    uintptr_t lo = ((uintptr_t)begin + page - 1) / page * page, hi = (uintptr_t)end / page * page;
    slp_release_pages(begin, end);
    size_t kept = 0, outside = 0;
    for (size_t k = 0; k < bytes; k++)
        if ((uintptr_t)(buf + k) < lo || (uintptr_t)(buf + k) >= hi) {
            outside++;
            kept += buf[k] == 0xab;
        }
    CHECK(kept == outside && outside < bytes, "%zu of %zu bytes outside the released pages kept",
          kept, outside);
    memset(begin, 0x5c, (size_t)(end - begin)); /* the released pages can be used again */
    CHECK(buf[5 * page] == 0x5c && buf[3 * page + 16] == 0xab && buf[11 * page + 5] == 0xab,
          "the range written again");
    slp_release_pages(end, begin); /* empty: nothing happens */
    CHECK(buf[5 * page] == 0x5c, "an empty range");
    free(buf);
}

static void test_shrink(void)
{
    int64_t cap = 1000, *v = malloc(sizeof *v * (size_t)cap);
    CHECK(v != NULL, "malloc");
    if (!v)
        return;
    for (int64_t k = 0; k < cap; k++)
        v[k] = 3 * k;
    slp_shrink(&v, &cap, 10, sizeof *v);
    int ok = cap == 10;
    for (int64_t k = 0; k < 10; k++)
        ok = ok && v[k] == 3 * k;
    CHECK(ok, "the first 10 kept, capacity %lld", (long long)cap);
    slp_shrink(&v, &cap, 20, sizeof *v); /* never grows */
    CHECK(cap == 10, "capacity %lld after a larger keep", (long long)cap);
    slp_shrink(&v, &cap, 0, sizeof *v);
    CHECK(cap == 0 && v != NULL, "kept nothing");
    free(v);
}

static void test_store_drop(void)
{
    enum { NAMES = 400000 }; /* about 4 MiB: several 1 MiB chunks */
    slp_name_store_t store = {0};
    char **at = malloc(sizeof *at * NAMES), buf[32];
    size_t bytes[NAMES / 1000 + 1];
    int ok = at != NULL;
    for (int k = 0; ok && k < NAMES; k++) {
        int len = snprintf(buf, sizeof buf, "C%d", k);
        ok = (at[k] = slp_name_store_add(&store, buf, (size_t)len, "test")) != NULL;
        if (k % 1000 == 0)
            bytes[k / 1000] = store.bytes; /* after names 0..k */
    }
    CHECK(ok, "names stored");
    if (!ok) {
        free(at);
        slp_name_store_free(&store);
        return;
    }
    int keep = 250000;
    slp_name_store_drop_after(&store, at[keep]);
    int intact = 1;
    for (int k = 0; k <= keep; k++) {
        snprintf(buf, sizeof buf, "C%d", k);
        intact = intact && strcmp(at[k], buf) == 0;
    }
    CHECK(intact, "the names up to the kept one intact");
    CHECK(store.bytes >= bytes[keep / 1000] && store.bytes < bytes[NAMES / 1000 - 1],
          "bytes %zu after the drop", store.bytes);
    char *more = slp_name_store_add(&store, "after", 5, "test");
    CHECK(more && strcmp(more, "after") == 0 && strcmp(at[keep], "C250000") == 0,
          "a name stored after the drop");
    slp_name_store_drop_after(&store, NULL);
    CHECK(store.bytes == 0 && store.last == NULL, "everything dropped");
    free(at);
}

static void test_triplets_truncate(void)
{
    slp_triplets_t t;
    slp_triplets_init(&t);
    int ok = 1;
    for (int64_t k = 0; ok && k < 5000; k++)
        ok = slp_triplets_add(&t, k, 2 * k, 0.5 * (double)k) == SLP_OK;
    slp_triplets_truncate(&t, 1234);
    for (int64_t k = 0; ok && k < 1234; k++)
        ok = t.col[k] == k && t.row[k] == 2 * k && t.val[k] == 0.5 * (double)k;
    CHECK(ok && t.count == 1234 && t.cap == 1234, "the first 1234 kept (count %lld)",
          (long long)t.count);
    ok = slp_triplets_add(&t, 7, 8, 9.0) == SLP_OK;
    CHECK(ok && t.count == 1235 && t.col[1234] == 7 && t.val[1233] == 616.5, "one added after");
    slp_triplets_truncate(&t, 0);
    CHECK(t.count == 0, "none kept");
    slp_triplets_free(&t);
}

int main(void)
{
    test_release_pages();
    test_shrink();
    test_store_drop();
    test_triplets_truncate();
    return check_summary();
}
