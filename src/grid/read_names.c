/* The names of the blocks when P ranks write the shards of one MPS or LP file
 * (grid/read_parallel.h, docs/parallel-input.md "Shards from P ranks"): every rank has
 * the row names, each rank's columns' names go to the ranks (0, c) of their column
 * blocks. */
#include <stdlib.h>
#include <string.h>

#include "grid/fault_hook.h"
#include "grid/read_internal.h"

void slp_read_names_free(slp_read_names_t *names)
{
    free(names->rows);
    free(names->cols);
    memset(names, 0, sizeof *names);
}

static int64_t packed_bytes(char *const *names, int64_t lo, int64_t hi)
{
    int64_t bytes = 0;
    for (int64_t k = lo; k < hi; k++)
        bytes += (int64_t)strlen(names[k]) + 1;
    return bytes;
}

/* names[lo, hi), each with its NUL, one after the other into a new buffer. */
static char *pack(char *const *names, int64_t lo, int64_t hi, int64_t *bytes)
{
    *bytes = packed_bytes(names, lo, hi);
    char *buf = malloc((size_t)*bytes + 1), *at = buf;
    for (int64_t k = lo; buf && k < hi; k++) {
        size_t len = strlen(names[k]) + 1;
        memcpy(at, names[k], len);
        at += len;
    }
    return buf;
}

slp_err slp_read_block_names(reader_t *rd, const slp_grid_t *grid,
                             const slp_local_problem_t *lp, char *const *rows,
                             char *const *cols, int64_t n, slp_read_names_t *out)
{
    memset(out, 0, sizeof *out);
    int64_t bytes;
    int ok = 1;
    if (grid->c == 0) {
        out->rows = pack(rows, lp->row_off[grid->r], lp->row_off[grid->r + 1], &out->rows_bytes);
        ok = out->rows != NULL;
    }
    /* the piece's columns are global [first, first + n), in order: per grid column c the
     * bytes of those in its block go to rank (0, c), which is world rank c */
    int64_t first = rd->col_start[rd->me], *per = calloc((size_t)rd->P, sizeof *per);
    char *send = pack(cols, 0, n, &bytes);
    ok = ok && per && send;
    for (int c = 0; ok && c < grid->C; c++) {
        int64_t lo = lp->col_off[c] > first ? lp->col_off[c] : first;
        int64_t hi = lp->col_off[c + 1] < first + n ? lp->col_off[c + 1] : first + n;
        per[c] = hi > lo ? packed_bytes(cols, lo - first, hi - first) : 0;
    }
    slp_err rc = ok ? slp_fault_nomem("read-names") /* the test hook of failures.sh */
                    : slp_error(SLP_ERR_NOMEM, "out of memory for the names");
    rc = slp_comm_agree(rd->comm, rc);
    void *recv = NULL;
    int64_t got = 0;
    if (rc == SLP_OK)
        rc = slp_comm_exchange(rd->comm, send, per, 1, &recv, &got);
    if (rc == SLP_OK && grid->r == 0) {
        out->cols = recv;
        out->cols_bytes = got;
        recv = NULL;
    }
    free(recv);
    free(send);
    free(per);
    if (rc != SLP_OK)
        slp_read_names_free(out);
    return rc;
}
