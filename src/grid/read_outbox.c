/* Name records between the ranks of a parallel read (grid/read_internal.h). */
#include <stdlib.h>
#include <string.h>

#include "grid/read_internal.h"

/* Byte messages to every rank, built one record at a time. */

slp_err slp_outbox_open(slp_outbox_t *ob, int P)
{
    ob->data = calloc((size_t)P, sizeof *ob->data);
    ob->len = calloc((size_t)P, sizeof *ob->len);
    ob->cap = calloc((size_t)P, sizeof *ob->cap);
    return ob->data && ob->len && ob->cap ? SLP_OK : slp_error(SLP_ERR_NOMEM, "out of memory");
}

void slp_outbox_close(slp_outbox_t *ob, int P)
{
    for (int k = 0; ob->data && k < P; k++)
        free(ob->data[k]);
    free(ob->data);
    free(ob->len);
    free(ob->cap);
    memset(ob, 0, sizeof *ob);
}

slp_err slp_outbox_put(slp_outbox_t *ob, int dest, const void *src, size_t n)
{
    SLP_CALL(slp_grow(&ob->data[dest], &ob->cap[dest], ob->len[dest] + (int64_t)n, 1,
                      GROW_FIRST, "names sent to other ranks"));
    memcpy(ob->data[dest] + ob->len[dest], src, n);
    ob->len[dest] += (int64_t)n;
    return SLP_OK;
}

slp_err slp_outbox_name(slp_outbox_t *ob, int dest, const char *name, size_t len, const void *tail,
                           size_t tail_len)
{
    uint32_t n = (uint32_t)len;
    SLP_CALL(slp_outbox_put(ob, dest, &n, sizeof n));
    SLP_CALL(slp_outbox_put(ob, dest, name, len));
    return slp_outbox_put(ob, dest, tail, tail_len);
}

/* Send every rank its bytes; *in holds what this rank got (free it). Collective; `local`
 * is this rank's status (see slp_comm_allgather). */
slp_err slp_outbox_send(reader_t *rd, slp_err local, slp_outbox_t *ob, char **in,
                           int64_t *in_len)
{
    int64_t total = 0;
    for (int k = 0; k < rd->P; k++)
        total += ob->len[k];
    char *flat = malloc((size_t)total + 1);
    slp_err rc = local != SLP_OK ? local
                 : flat          ? SLP_OK
                                 : slp_error(SLP_ERR_NOMEM, "out of memory");
    for (int64_t k = 0, at = 0; rc == SLP_OK && k < rd->P; at += ob->len[k], k++)
        if (ob->len[k])
            memcpy(flat + at, ob->data[k], (size_t)ob->len[k]);
    for (int k = 0; k < rd->P; k++) {
        free(ob->data[k]);
        ob->data[k] = NULL;
    }
    rc = slp_comm_agree(rd->comm, rc);
    if (rc == SLP_OK)
        rc = slp_comm_exchange(rd->comm, flat, ob->len, 1, (void **)in, in_len);
    free(flat);
    memset(ob->len, 0, sizeof *ob->len * (size_t)rd->P);
    memset(ob->cap, 0, sizeof *ob->cap * (size_t)rd->P);
    return rc;
}

/* The owner of a name in the directory: the hash's high bits (the low ones pick slots
 * in the parser's own index). */
int slp_read_owner_of(const reader_t *rd, uint64_t hash)
{
    return (int)((hash >> 40) % (uint64_t)rd->P);
}

/* The next name record of a message: its name and the fixed tail after it. */
const char *slp_read_take_name(const char **at, size_t *len, void *tail, size_t tail_len)
{
    uint32_t n;
    memcpy(&n, *at, sizeof n);
    const char *name = *at + sizeof n;
    memcpy(tail, name + n, tail_len);
    *at = name + n + tail_len;
    *len = n;
    return name;
}

