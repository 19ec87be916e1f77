/* The entries of the parallel MPS reader's pieces into the blocks' CSR, in rounds
 * (grid/read_internal.h, docs/parallel-input.md step 9).
 *
 * Memory is the point. The piece's entries (12 bytes each) and the block they end in
 * (12 bytes an entry) would be held twice over if every entry were first sent, then
 * received into a buffer, then placed. Instead:
 *   1. each piece counts its entries per block and row, and the blocks learn them (an
 *      exchange of per-row counts, only to the blocks of the column blocks that the
 *      piece's columns overlap), so that every block builds its row pointers, and for
 *      each piece sending to it, where that piece's entries of each row go: pieces hold
 *      increasing columns in rank order, so a row's entries from piece s come after
 *      those from the pieces before s;
 *   2. the entries travel in rounds, each a bounded part of every piece taken from the
 *      end of its array, which then shrinks (realloc returns the tail), and each block
 *      places what it receives straight into its CSR, each piece's part last entry
 *      first, from the end of that piece's run in the row: the columns of each row end
 *      in increasing order, as slp_extract_block gives them, and a piece that sends
 *      more or fewer entries of a row than it announced is caught.
 * A rank's peak is its piece's entries or its block, plus two round buffers, never
 * both whole. */
#include <stdlib.h>
#include <string.h>

#include "grid/fault_hook.h"
#include "grid/read_internal.h"

#define ROUND_MIN ((int64_t)1 << 16) /* entries a round takes from a piece, at least */
#define ROUNDS 32                    /* rounds for the largest piece, at most */

typedef struct { /* an entry on its way to its block, in block-local numbers */
    int32_t row, col;
    double val;
} block_entry_t;

typedef struct {
    const reader_t *rd;
    const slp_grid_t *grid;
    const int64_t *row_off, *col_off;
    uint16_t *dest; /* [n_ent] each entry's block once found (NULL: P > 65536, or no memory) */
} route_t;

/* The rank of the block of this piece's entry k in piece column j, from the cuts. */
static int find_dest(const route_t *rt, int64_t k, int64_t j)
{
    int64_t g = rt->rd->col_start[rt->rd->me] + j;
    int r = slp_block_of(rt->row_off, rt->grid->R, rt->rd->ent[k].row);
    return r * rt->grid->C + slp_block_of(rt->col_off, rt->grid->C, g);
}

/* The same, as count_rows recorded it (each entry is looked at three times). */
static int entry_dest(const route_t *rt, int64_t k, int64_t j)
{
    return rt->dest ? rt->dest[k] : find_dest(rt, k, j);
}

static int64_t rows_of(const route_t *rt, int dest)
{
    int r = dest / rt->grid->C;
    return rt->row_off[r + 1] - rt->row_off[r];
}

/* Step 1 on the sending side: for each block this piece may send to (every row block
 * of the column blocks its columns overlap), its entries per row of the block (int32),
 * packed in rank order; per[d] the number of counts for rank d (its block's rows, or 0).
 * One pass over the entries, which also records each entry's block. */
static slp_err count_rows(const route_t *rt, int32_t **packed, int64_t *per)
{
    const reader_t *rd = rt->rd;
    const slp_grid_t *grid = rt->grid;
    int P = rd->P;
    memset(per, 0, sizeof *per * (size_t)P);
    int64_t first = rd->col_start[rd->me], end = rd->col_start[rd->me + 1];
    if (end > first) {
        int c_lo = slp_block_of(rt->col_off, grid->C, first);
        int c_hi = slp_block_of(rt->col_off, grid->C, end - 1);
        for (int r = 0; r < grid->R; r++)
            for (int c = c_lo; c <= c_hi; c++)
                per[r * grid->C + c] = rows_of(rt, r * grid->C + c);
    }
    int64_t *start = calloc((size_t)P + 1, sizeof *start);
    if (!start)
        return slp_error(SLP_ERR_NOMEM, "out of memory");
    for (int d = 0; d < P; d++)
        start[d + 1] = start[d] + per[d];
    *packed = calloc((size_t)start[P] + 1, sizeof **packed);
    if (!*packed) {
        free(start);
        return slp_error(SLP_ERR_NOMEM, "out of memory for the entries' row counts");
    }
    for (int64_t k = 0, j = 0; k < rd->n_ent; k++) {
        int d = find_dest(rt, k, slp_read_next_column(rd, k, &j));
        if (rt->dest)
            rt->dest[k] = (uint16_t)d;
        (*packed)[start[d] + rd->ent[k].row - rt->row_off[d / grid->C]]++;
    }
    free(start);
    return SLP_OK;
}

/* Where the block's entries go: for each sending piece (slot[s] >= 0) and row, the
 * start of that piece's run in the row and the entries of the run still to come; the
 * next one goes to start + left - 1 (a piece's entries arrive in column order, and are
 * placed last first). */
typedef struct {
    int *slot;       /* [P] */
    int n_slots;
    int64_t m_loc;
    int64_t *start;  /* [n_slots * m_loc] */
    int32_t *left;   /* [n_slots * m_loc]: the row counts the pieces announced */
} places_t;

static void places_free(places_t *pl)
{
    free(pl->slot);
    free(pl->start);
    free(pl->left);
}

/* Step 1 on the receiving side: the CSR's row pointers and the runs, from the row
 * counts of each sending piece (in sender order in `counts`, taken over). */
static slp_err plan_places(int P, const int64_t *from, int32_t *counts, slp_csr_t *a,
                           places_t *pl)
{
    int64_t m = a->rows;
    pl->m_loc = m;
    pl->left = counts;
    pl->slot = malloc(sizeof *pl->slot * (size_t)P);
    pl->n_slots = 0;
    for (int s = 0; pl->slot && s < P; s++)
        pl->slot[s] = from[s] ? pl->n_slots++ : -1;
    pl->start = malloc(sizeof *pl->start * (size_t)(pl->n_slots * m + 1));
    if (!pl->slot || !pl->start)
        return slp_error(SLP_ERR_NOMEM, "out of memory for the block's row counts");
    a->row_ptr[0] = 0;
    for (int64_t i = 0; i < m; i++) {
        int64_t at = a->row_ptr[i];
        for (int t = 0; t < pl->n_slots; t++) {
            pl->start[t * m + i] = at;
            at += counts[t * m + i];
        }
        a->row_ptr[i + 1] = at;
    }
    return SLP_OK;
}

/* Step 1: count, tell the blocks, and lay out this rank's block (*a, created here). */
static slp_err exchange_counts(const route_t *rt, int64_t m_loc, int64_t n_loc, int64_t *from,
                               slp_csr_t *a, places_t *pl)
{
    const reader_t *rd = rt->rd;
    int64_t *per = malloc(sizeof *per * (size_t)rd->P);
    int32_t *packed = NULL, *counts = NULL;
    int64_t n_counts = 0, nnz = 0;
    slp_err rc = per ? count_rows(rt, &packed, per) : slp_error(SLP_ERR_NOMEM, "out of memory");
    rc = slp_comm_agree(rd->comm, rc);
    if (rc == SLP_OK) /* from[s]: m_loc counts from a piece whose columns overlap here, or 0 */
        rc = slp_comm_exchange_from(rd->comm, packed, per, sizeof *packed, (void **)&counts,
                                    &n_counts, from);
    free(packed);
    for (int64_t k = 0; rc == SLP_OK && k < n_counts; k++)
        nnz += counts[k];
    if (rc == SLP_OK)
        rc = slp_csr_create(m_loc, n_loc, nnz, a);
    if (rc == SLP_OK) {
        rc = plan_places(rd->P, from, counts, a, pl);
        counts = NULL; /* pl->left */
    }
    free(counts);
    free(per);
    return slp_comm_agree(rd->comm, rc);
}

/* One round's part of this piece, entries [lo, hi), sorted by block (in order within
 * each) into out (room for hi - lo), with per[d] entries for rank d. */
static slp_err pack_round(const route_t *rt, int64_t lo, int64_t hi, block_entry_t *out,
                          int64_t *per)
{
    int P = rt->rd->P;
    int64_t *at = calloc((size_t)P + 1, sizeof *at);
    if (!at)
        return slp_error(SLP_ERR_NOMEM, "out of memory for a round of entries");
    int64_t first = lo < hi ? slp_part_of(rt->rd->col_ptr, rt->rd->cols_seen, lo) : 0;
    int64_t j = first;
    for (int64_t k = lo; k < hi; k++)
        at[entry_dest(rt, k, slp_read_next_column(rt->rd, k, &j)) + 1]++;
    for (int d = 0; d < P; d++) {
        per[d] = at[d + 1];
        at[d + 1] += at[d];
    }
    j = first;
    for (int64_t k = lo; k < hi; k++) {
        const entry_t *e = &rt->rd->ent[k];
        int64_t col = slp_read_next_column(rt->rd, k, &j);
        int64_t g = rt->rd->col_start[rt->rd->me] + col;
        int d = entry_dest(rt, k, col), r = d / rt->grid->C, c = d % rt->grid->C;
        out[at[d]++] = (block_entry_t){(int32_t)(e->row - rt->row_off[r]),
                                          (int32_t)(g - rt->col_off[c]), e->val};
    }
    free(at);
    return SLP_OK;
}

/* Place a round's entries (in sender order, got[s] from rank s), each sender's part
 * last first. */
static slp_err place_round(const block_entry_t *in, const int64_t *got, int P, places_t *pl,
                           slp_csr_t *a)
{
    int64_t at = 0;
    for (int s = 0; s < P; s++) {
        if (got[s] && pl->slot[s] < 0)
            return slp_error(SLP_ERR_INTERNAL, "parallel read: entries from rank %d, which "
                             "announced none", s);
        int64_t base = (int64_t)(pl->slot[s] < 0 ? 0 : pl->slot[s]) * pl->m_loc;
        for (int64_t k = at + got[s] - 1; k >= at; k--) {
            int64_t i = in[k].row;
            if (i < 0 || i >= pl->m_loc || pl->left[base + i] <= 0)
                return slp_error(SLP_ERR_INTERNAL, "parallel read: rank %d sent more entries "
                                 "of row %lld than it announced", s, (long long)i);
            int64_t to = pl->start[base + i] + --pl->left[base + i];
            a->col_idx[to] = in[k].col;
            a->val[to] = in[k].val;
        }
        at += got[s];
    }
    return SLP_OK;
}

/* Every announced entry arrived. */
static int all_placed(const places_t *pl)
{
    for (int64_t k = 0; k < (int64_t)pl->n_slots * pl->m_loc; k++)
        if (pl->left[k])
            return 0;
    return 1;
}

/* Step 2: the rounds. The piece's entries are freed as they go. */
static slp_err send_rounds(reader_t *rd, route_t *rt, places_t *pl, slp_csr_t *a)
{
    int64_t most = rd->n_ent;
    SLP_CALL(slp_comm_max_i64(rd->comm, &most, 1));
    int64_t size = (most + ROUNDS - 1) / ROUNDS;
    if (size < ROUND_MIN)
        size = ROUND_MIN;
    int64_t *per = malloc(sizeof *per * (size_t)rd->P), *got = malloc(sizeof *got * (size_t)rd->P);
    int64_t room = rd->n_ent < size ? rd->n_ent : size;
    block_entry_t *out = malloc(sizeof *out * (size_t)(room + 1)); /* reused: one fault a page */
    slp_err rc = slp_comm_agree(rd->comm, per && got && out
                                              ? SLP_OK : slp_error(SLP_ERR_NOMEM, "out of memory"));
    slp_err placed = SLP_OK; /* this rank's placing, agreed after the rounds */
    block_entry_t *in = NULL; /* reused by the rounds, as out is */
    int64_t in_bytes = 0;
    for (int64_t hi = rd->n_ent, done = 0; rc == SLP_OK && done < most; done += size) {
        int64_t lo = hi > size ? hi - size : 0;
        int64_t count = 0;
        rc = slp_fault_nomem("read-entries"); /* the test hook of failures.sh */
        rc = slp_comm_agree(rd->comm, rc != SLP_OK ? rc : pack_round(rt, lo, hi, out, per));
        if (rc == SLP_OK)
            rc = slp_comm_exchange_into(rd->comm, out, per, sizeof *out, (void **)&in,
                                        &in_bytes, &count, got);
        if (rc == SLP_OK && lo > 0) { /* the tail is sent: give it back */
            entry_t *kept = realloc(rd->ent, sizeof *rd->ent * (size_t)lo);
            if (kept)
                rd->ent = kept;
            uint16_t *kept_dest = rt->dest ? realloc(rt->dest, sizeof *rt->dest * (size_t)lo)
                                           : NULL;
            if (kept_dest)
                rt->dest = kept_dest;
        }
        rd->n_ent = lo;
        hi = lo;
        if (rc == SLP_OK && placed == SLP_OK)
            placed = place_round(in, got, rd->P, pl, a);
    }
    free(per);
    free(got);
    free(out);
    free(in);
    free(rd->ent);
    rd->ent = NULL;
    rd->n_ent = rd->cap_ent = 0;
    free(rd->col_ptr); /* before the column vectors come (docs/parallel-input.md step 10) */
    rd->col_ptr = NULL;
    rd->cols_seen = rd->cap_col_ptr = 0;
    if (rc == SLP_OK && placed == SLP_OK && !all_placed(pl))
        placed = slp_error(SLP_ERR_INTERNAL, "parallel read: fewer entries arrived than "
                           "announced");
    return slp_comm_agree(rd->comm, rc != SLP_OK ? rc : placed);
}

slp_err slp_read_send_entries(reader_t *rd, const slp_grid_t *grid, const int64_t *row_off,
                              const int64_t *col_off, slp_csr_t *block)
{
    route_t rt = {rd, grid, row_off, col_off, NULL};
    if (rd->P <= 65536) /* without it (no memory), each look finds the block again */
        rt.dest = malloc(sizeof *rt.dest * (size_t)(rd->n_ent + 1));
    int64_t m_loc = row_off[grid->r + 1] - row_off[grid->r];
    int64_t n_loc = col_off[grid->c + 1] - col_off[grid->c];
    int64_t *from = malloc(sizeof *from * (size_t)rd->P);
    places_t pl = {NULL, 0, 0, NULL, NULL};
    memset(block, 0, sizeof *block);
    slp_err rc = slp_comm_agree(rd->comm, from ? SLP_OK
                                               : slp_error(SLP_ERR_NOMEM, "out of memory"));
    if (rc == SLP_OK)
        rc = exchange_counts(&rt, m_loc, n_loc, from, block, &pl);
    if (rc == SLP_OK)
        rc = send_rounds(rd, &rt, &pl, block);
    places_free(&pl);
    free(from);
    free(rt.dest);
    if (rc != SLP_OK)
        slp_csr_free(block);
    return rc;
}
