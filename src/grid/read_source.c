/* The file of a parallel MPS read opened on every rank as text at offsets
 * (grid/read_layout.h, docs/parallel-input.md "Compressed files"): a plain file, a
 * seekable zstd file (its seek table read by each rank), or a BGZF file, whose members
 * the ranks find together, each in 1/P of the file's bytes. */
#include "grid/read_layout.h"

#include <stdlib.h>
#include <string.h>

typedef struct { /* what a rank found in its bytes of a BGZF file */
    int64_t ok, first, next, count;
} bgzf_part_t;

/* Every rank's units, in rank order, from each rank's own (collective). */
static slp_err gather_units(slp_comm_t *comm, const slp_text_unit_t *mine, int64_t count,
                            slp_text_unit_t **all, int64_t *total)
{
    int P = slp_comm_size(comm);
    int64_t *counts = malloc(sizeof *counts * (size_t)P);
    slp_text_unit_t *send = malloc(sizeof *send * (size_t)(count * P + 1));
    slp_err rc = slp_comm_agree(comm, counts && send ? SLP_OK : SLP_ERR_NOMEM);
    for (int k = 0; rc == SLP_OK && k < P; k++) {
        counts[k] = count;
        if (count > 0)
            memcpy(send + k * count, mine, sizeof *send * (size_t)count);
    }
    void *recv = NULL;
    if (rc == SLP_OK)
        rc = slp_comm_exchange(comm, send, counts, sizeof *send, &recv, total);
    *all = recv;
    free(counts);
    free(send);
    return rc;
}

/* The members of a BGZF file: each rank scans 1/P of the file; together the chains must
 * join (each rank's first member is the one after the previous rank's last) and end at
 * the file's end. *ok = 0 on every rank when they do not. Collective. */
static slp_err bgzf_units(slp_comm_t *comm, slp_text_at_t *t, int *ok)
{
    int P = slp_comm_size(comm), me = slp_comm_rank(comm);
    int64_t size = slp_text_at_file_size(t);
    slp_text_unit_t *mine = NULL, *all = NULL;
    bgzf_part_t part = {0, 0, 0, 0};
    part.ok = slp_bgzf_scan(t, size * me / P, size * (me + 1) / P, &mine, &part.count,
                            &part.first, &part.next) == 0;
    bgzf_part_t *parts = malloc(sizeof *parts * (size_t)P);
    slp_err rc = slp_comm_allgather(comm, parts ? SLP_OK : SLP_ERR_NOMEM, &part, sizeof part,
                                    parts);
    *ok = rc == SLP_OK;
    for (int k = 0; *ok && k < P; k++)
        *ok = parts[k].ok && parts[k].first == (k == 0 ? 0 : parts[k - 1].next);
    *ok = *ok && parts[P - 1].next == size;
    int64_t total = 0;
    if (*ok)
        rc = gather_units(comm, mine, part.count, &all, &total);
    if (rc == SLP_OK && *ok)
        rc = slp_comm_agree(comm, slp_text_at_set_units(t, all, total));
    free(all);
    free(mine);
    free(parts);
    return rc;
}

slp_err slp_read_source_open(slp_comm_t *comm, const char *path, slp_text_at_t **out)
{
    slp_text_at_kind kind;
    slp_err rc = slp_comm_agree(comm, slp_text_at_open(path, out, &kind));
    int P = slp_comm_size(comm);
    int *kinds = malloc(sizeof *kinds * (size_t)P), same = rc == SLP_OK;
    int mine = (int)kind;
    rc = slp_comm_allgather(comm, rc == SLP_OK && kinds ? SLP_OK : SLP_ERR_NOMEM, &mine,
                            sizeof mine, kinds);
    for (int k = 0; rc == SLP_OK && k < P; k++)
        same &= kinds[k] == mine;
    free(kinds);
    int ok = rc == SLP_OK && same && kind != SLP_TEXT_AT_NONE;
    if (ok && kind == SLP_TEXT_AT_BGZF)
        rc = bgzf_units(comm, *out, &ok);
    if (rc != SLP_OK || !ok)
        slp_text_at_close(out);
    return rc;
}
