/* The name index (src/core/name_index.c): names of every length from 0 to 300 bytes and
 * 100,000 generated ones, inserted while the table and its key arena grow many times;
 * every name found with its value afterwards, absent names not found, a repeated name
 * reported with its first value and left unchanged. */
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

int main(void)
{
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
    return check_summary();
}
