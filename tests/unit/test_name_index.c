/* The name index (src/core/name_index.c): names of every length from 0 to 300 bytes and
 * 100,000 generated ones, inserted while the table and its key arena grow many times;
 * every name found with its value afterwards, absent names not found, a repeated name
 * reported with its first value and left unchanged. Then the keys that come in
 * increasing order (held back from the table until a lookup needs it, name_index.c):
 * interleaved with finds, repeats, smaller names and negative values, each answer
 * checked against a plain list of what went in. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/name_index.h"

static void make_name(int64_t k, char *buf)
{
    if (k < 301) { /* lengths 0..300 */
        memset(buf, 'a' + (int)(k % 26), (size_t)k);
        buf[k] = '\0';
    } else {
        snprintf(buf, 64, "C%lld", (long long)k);
    }
}

/* Names N0..N(count-1) (shorter first, so increasing as the index orders them), a
 * random repeat or a smaller new name ("A<k>") every few keys, a find every few keys. */
static void test_orders(void)
{
    enum { COUNT = 50000 };
    slp_name_index_t *index = NULL;
    CHECK(slp_name_index_create(1, &index) == SLP_OK, "create");
    static char small[COUNT][16];
    int64_t small_value[COUNT];
    int nsmall = 0, bad = 0;
    unsigned seed = 12345;
    char name[32];
    for (int64_t k = 0; k < COUNT && index; k++) {
        snprintf(name, sizeof name, "N%lld", (long long)k);
        int inserted = -1;
        int64_t existing = 0;
        bad += slp_name_index_insert(index, name, -3 - k, &inserted, NULL) != SLP_OK || !inserted;
        seed = seed * 1103515245u + 12345u;
        unsigned r = (seed >> 16) % 8;
        if (r == 0) { /* a repeat of a key inserted earlier (maybe still pending) */
            int64_t old = (int64_t)((seed >> 8) % (unsigned)(k + 1));
            snprintf(name, sizeof name, "N%lld", (long long)old);
            bad += slp_name_index_insert(index, name, 7, &inserted, &existing) != SLP_OK ||
                   inserted || existing != -3 - old;
        } else if (r == 1) { /* a new name smaller than the greatest */
            snprintf(small[nsmall], sizeof small[0], "A%d", nsmall);
            small_value[nsmall] = 1000000 + k;
            bad += slp_name_index_insert(index, small[nsmall], small_value[nsmall], &inserted,
                                         NULL) != SLP_OK || !inserted;
            nsmall++;
        } else if (r == 2) { /* a find of the last key, of a larger absent one */
            snprintf(name, sizeof name, "N%lld", (long long)k);
            bad += slp_name_index_find(index, name) != -3 - k;
            snprintf(name, sizeof name, "N%lld", (long long)k + 1);
            bad += slp_name_index_find(index, name) != -1;
        }
    }
    CHECK(bad == 0, "%d wrong answers while inserting", bad);
    for (int64_t k = 0; k < COUNT && index; k++) {
        snprintf(name, sizeof name, "N%lld", (long long)k);
        bad += slp_name_index_find(index, name) != -3 - k;
    }
    for (int k = 0; k < nsmall && index; k++)
        bad += slp_name_index_find(index, small[k]) != small_value[k];
    CHECK(bad == 0 && nsmall > 1000, "%d keys not found with their values (%d smaller names)",
          bad, nsmall);
    CHECK(index && slp_name_index_count(index) == COUNT + nsmall, "count");
    CHECK(index && slp_name_index_find(index, "A") == -1 && slp_name_index_find(index, "") == -1,
          "absent smaller names");
    slp_name_index_destroy(&index);
}

/* Rows of a generated model: "OBJ", then PREFIX0, PREFIX1, ... with consecutive values
 * (a numbered run, answered without the table), finds of them and of look-alikes that
 * are not keys (a leading zero, a number past the run, another prefix, a sign), then a
 * smaller name that ends the run: every answer the same before and after. */
static void test_numbered(const char *prefix)
{
    enum { ROWS = 30000 };
    slp_name_index_t *index = NULL;
    CHECK(slp_name_index_create(1, &index) == SLP_OK, "create");
    char name[64];
    int bad = 0, inserted;
    bad += slp_name_index_insert(index, "OBJ", 77, &inserted, NULL) != SLP_OK;
    for (int k = 0; k < ROWS; k++) {
        snprintf(name, sizeof name, "%s%d", prefix, k);
        bad += slp_name_index_insert(index, name, 5 + k, &inserted, NULL) != SLP_OK || !inserted;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < ROWS; k += 7) {
            snprintf(name, sizeof name, "%s%d", prefix, k);
            bad += slp_name_index_find(index, name) != 5 + k;
        }
        const char *absent[] = {"01", "00", "30000", "-1", "", "1x", "999999999999999999999"};
        for (size_t a = 0; a < sizeof absent / sizeof *absent; a++) {
            snprintf(name, sizeof name, "%s%s", prefix, absent[a]);
            bad += slp_name_index_find(index, name) != -1;
        }
        snprintf(name, sizeof name, "Q%s7", prefix);
        bad += slp_name_index_find(index, name) != -1;
        bad += slp_name_index_find(index, "OBJ") != 77;
        /* a repeat of a run key is found, not inserted */
        int64_t existing = 0;
        snprintf(name, sizeof name, "%s%d", prefix, ROWS - 1);
        bad += slp_name_index_insert(index, name, 1, &inserted, &existing) != SLP_OK ||
               inserted || existing != 5 + ROWS - 1;
        /* ... and so is a repeat of a key outside the run (the table), run or not */
        bad += slp_name_index_insert(index, "OBJ", 1, &inserted, &existing) != SLP_OK ||
               inserted || existing != 77;
        if (pass == 0) /* a smaller new name: the run goes into the table */
            bad += slp_name_index_insert(index, "A", 3, &inserted, NULL) != SLP_OK || !inserted;
    }
    CHECK(bad == 0, "prefix '%s': %d wrong answers", prefix, bad);
    slp_name_index_destroy(&index);
}

int main(void)
{
    test_numbered("R");
    test_numbered("c1_");
    test_numbered("");
    enum { COUNT = 100000 };
    slp_name_index_t *index = NULL;
    CHECK(slp_name_index_create(4, &index) == SLP_OK, "create");
    char name[512];
    int bad = 0;
    for (int64_t k = 0; k < COUNT; k++) {
        make_name(k, name);
        int inserted = -1;
        if (slp_name_index_insert(index, name, 3 * k, &inserted, NULL) != SLP_OK || inserted != 1)
            bad++;
    }
    CHECK(bad == 0, "%d inserts failed", bad);
    CHECK(slp_name_index_count(index) == COUNT, "count %lld", (long long)slp_name_index_count(index));
    for (int64_t k = 0; k < COUNT; k++) {
        make_name(k, name);
        if (slp_name_index_find(index, name) != 3 * k)
            bad++;
    }
    CHECK(bad == 0, "%d names not found with their values", bad);
    CHECK(slp_name_index_find(index, "C100000") == -1 && slp_name_index_find(index, "x") == -1,
          "absent names found");
    int inserted = -1;
    int64_t existing = 0;
    CHECK(slp_name_index_insert(index, "C777", 5, &inserted, &existing) == SLP_OK &&
              inserted == 0 && existing == 3 * 777 && slp_name_index_find(index, "C777") == 3 * 777,
          "a repeated name: inserted %d existing %lld", inserted, (long long)existing);
    slp_name_index_destroy(&index);
    CHECK(index == NULL, "destroy clears the handle");
    test_orders();
    return check_summary();
}
