/* Records to the ranks of their destinations (grid/route.h). */
#include "grid/route.h"

#include <stdlib.h>
#include <string.h>

slp_err slp_route_records(slp_comm_t *comm, slp_err local, const void *rec, size_t size,
                          int64_t count, const int *dest, const char *what, void **recv,
                          int64_t *recv_count)
{
    *recv = NULL;
    *recv_count = 0;
    int P = slp_comm_size(comm);
    int64_t *start = NULL, *per = NULL;
    char *sorted = NULL;
    slp_err rc = local;
    if (rc == SLP_OK) {
        start = calloc((size_t)P + 1, sizeof *start);
        per = calloc((size_t)P + 1, sizeof *per);
        sorted = malloc(size * (size_t)count + 1);
        if (!start || !per || !sorted)
            rc = slp_error(SLP_ERR_NOMEM, "%s: out of memory", what);
    }
    if (rc == SLP_OK) {
        for (int64_t k = 0; k < count; k++)
            per[dest[k]]++;
        for (int d = 0; d < P; d++)
            start[d + 1] = start[d] + per[d];
        for (int64_t k = 0; k < count; k++)
            memcpy(sorted + size * (size_t)start[dest[k]]++, (const char *)rec + size * (size_t)k,
                   size);
    }
    rc = slp_comm_agree(comm, rc);
    if (rc == SLP_OK)
        rc = slp_comm_exchange(comm, sorted, per, size, recv, recv_count);
    free(sorted);
    free(per);
    free(start);
    return rc;
}
