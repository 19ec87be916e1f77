/* Reading one MPS file on every rank (grid/read_parallel.h, docs/parallel-input.md);
 * an LP file takes grid/read_lp.c to the same cuts and blocks.
 *
 * Every rank parses the head (NAME to the COLUMNS header: the rows), its piece of
 * COLUMNS, the RHS and RANGES sections, and its piece of BOUNDS. Columns are numbered by
 * piece, then in order; a directory of the column names' hashes, spread over the ranks
 * by hash, finds names that appear in two pieces and the columns of BOUNDS lines.
 * Entries and column values then go to the ranks of their blocks (grid/read_blocks.c).
 * Whatever the one-process reader would warn about or refuse makes every rank give up
 * (*done = 0) before anything is printed; that reader then reads the file and says why. */
#include "grid/read_parallel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/model.h"
#include "core/name_index.h"
#include "core/timer.h"
#include "grid/fault_hook.h"
#include "grid/read_internal.h"
#include "grid/read_layout.h"
#include "io/input_format.h"
#include "io/text_in.h"

typedef struct { /* a bound resolved to its column, sent to the column's piece */
    int64_t col, key;
    int32_t type, has_value;
    double value;
} bound_rec_t;

static slp_err on_entry(void *user, int64_t col, int64_t row, double value)
{
    reader_t *rd = user;
    if (col > INT32_MAX || row > INT32_MAX) {
        slp_read_give_up(rd, "a row or column number of 2^31 or more in a piece");
        return SLP_ERR_INPUT;
    }
    if (col + 1 < rd->cols_seen) { /* never: a piece numbers its columns as they come */
        slp_read_give_up(rd, "entries of a piece out of column order");
        return SLP_ERR_INPUT;
    }
    if (col >= rd->cols_seen)
        SLP_CALL(slp_read_column_starts(rd, col + 1));
    SLP_CALL(slp_grow(&rd->ent, &rd->cap_ent, rd->n_ent + 1, sizeof *rd->ent, GROW_FIRST,
                      "a piece's matrix entries"));
    rd->ent[rd->n_ent++] = (entry_t){(int32_t)row, value};
    return SLP_OK;
}

slp_err slp_read_column_starts(reader_t *rd, int64_t n)
{
    SLP_CALL(slp_grow(&rd->col_ptr, &rd->cap_col_ptr, n + 1, sizeof *rd->col_ptr, GROW_FIRST,
                      "a piece's column starts"));
    while (rd->cols_seen < n)
        rd->col_ptr[rd->cols_seen++] = rd->n_ent;
    rd->col_ptr[n] = rd->n_ent; /* the end of the last column so far */
    return SLP_OK;
}

/* The set rule of the BOUNDS section: only the first named set counts; a piece that
 * names two sets, or another set than the first piece, is left to the one-process
 * reader (which warns). */
static void note_set(reader_t *rd, const slp_mps_bound_t *b)
{
    if (b->set_len == 0)
        return;
    if (rd->set.len == 0) {
        if (b->set_len >= SET_BYTES) {
            slp_read_give_up(rd, "a BOUNDS set name of 64 bytes or more");
            return;
        }
        memcpy(rd->set.name, b->set, b->set_len);
        rd->set.len = (int32_t)b->set_len;
    } else if ((size_t)rd->set.len != b->set_len || memcmp(rd->set.name, b->set, b->set_len)) {
        rd->set.mixed = 1;
    }
}

static slp_err on_bound(void *user, int64_t line, const slp_mps_bound_t *b)
{
    reader_t *rd = user;
    note_set(rd, b);
    SLP_CALL(slp_grow(&rd->bnd, &rd->cap_bnd, rd->n_bnd + 1, sizeof *rd->bnd, GROW_FIRST,
                      "a piece's BOUNDS lines"));
    SLP_CALL(slp_grow(&rd->names, &rd->names_cap, rd->names_len + (int64_t)b->col_len, 1,
                      GROW_FIRST, "a piece's BOUNDS column names"));
    rd->bnd[rd->n_bnd++] = (bound_line_t){(int64_t)rd->me << 40 | line, rd->names_len,
                                          (int64_t)b->col_len, b->type, b->has_value, b->value};
    memcpy(rd->names + rd->names_len, b->col, b->col_len);
    rd->names_len += (int64_t)b->col_len;
    return SLP_OK;
}

/* ---- files and pieces ------------------------------------------------------------- */

/* This rank's piece of [begin, end) and the next rank's start, agreed by all ranks. */
static slp_err piece_of(reader_t *rd, int64_t begin, int64_t end, int by_column, int64_t *lo,
                        int64_t *hi)
{
    int64_t mine = slp_read_piece_start(rd->src, begin, end, rd->me, rd->P, by_column);
    int64_t *all = malloc(sizeof *all * (size_t)rd->P);
    slp_err rc = slp_comm_allgather(rd->comm, all ? SLP_OK : SLP_ERR_NOMEM, &mine, sizeof mine,
                                    all);
    int64_t last = begin;
    for (int k = 0; rc == SLP_OK && k < rd->P; k++) {
        if (all[k] < 0)
            slp_read_give_up(rd, "a line of 1 MiB or more where a piece starts");
        else if (all[k] < last) /* never: the starts grow with the rank */
            all[k] = last;
        last = all[k] > last ? all[k] : last;
    }
    if (rc == SLP_OK) {
        *lo = all[rd->me] < 0 ? end : all[rd->me];
        *hi = rd->me + 1 < rd->P && all[rd->me + 1] >= 0 ? all[rd->me + 1] : end;
    }
    free(all);
    return rc;
}

/* Parse a piece; a failure of the parse, or a range that does not hold what the layout
 * says (a header line inside COLUMNS, say), only makes the file irregular. */
static void parse_piece(reader_t *rd, int64_t begin, int64_t end, int64_t lines_before,
                        slp_mps_piece_kind kind)
{
    if (rd->irregular || begin >= end)
        return;
    if (slp_fault_nomem("read-pieces") != SLP_OK || /* the test hook of failures.sh */
        slp_mps_pieces_read(rd->pc, begin, end, lines_before, kind) != SLP_OK) {
        slp_error_clear();
        slp_read_give_up(rd, "a line the one-process reader warns about or refuses");
    } else if (slp_mps_pieces_irregular(rd->pc)) {
        slp_read_give_up(rd, "a line the one-process reader warns about, or a section "
                             "header where the layout has none");
    }
}

/* The head, this rank's pieces of COLUMNS and BOUNDS, RHS and RANGES, the ENDATA line
 * (lines_before > 0 after the head: no byte-order mark in a piece). */
static slp_err parse_pieces(reader_t *rd, const slp_read_layout_t *l)
{
    int64_t lo, hi;
    parse_piece(rd, 0, l->columns_body, 0, SLP_PIECE_SECTIONS);
    slp_mps_pieces_defer_bounds(rd->pc, on_bound, rd);
    slp_mps_pieces_drop_column_index(rd->pc); /* names are resolved by the directory */
    SLP_CALL(piece_of(rd, l->columns_body, l->columns_end, 1, &lo, &hi));
    parse_piece(rd, lo, hi, 1, SLP_PIECE_DATA);
    parse_piece(rd, l->rhs_begin, l->rhs_end, 1, SLP_PIECE_SECTIONS);
    parse_piece(rd, l->bounds_hdr, l->bounds_body, 1, SLP_PIECE_SECTIONS);
    SLP_CALL(piece_of(rd, l->bounds_body, l->bounds_end, 0, &lo, &hi));
    parse_piece(rd, lo, hi, 1, SLP_PIECE_DATA);
    /* the ENDATA line as the one-process reader reads it (a NUL byte or an over-long
     * line there is its error), on every rank */
    parse_piece(rd, l->bounds_end, l->endata_end, 1, SLP_PIECE_ENDATA);
    return SLP_OK;
}

/* Integer blocks that cross pieces: a piece's columns before its first MARKER line are
 * inside the block that the pieces before it leave open. */
static slp_err inherit_markers(reader_t *rd)
{
    int64_t first, mine[2];
    int open;
    slp_mps_pieces_markers(rd->pc, &first, &open);
    mine[0] = first;
    mine[1] = open;
    int64_t *all = malloc(sizeof *all * 2 * (size_t)rd->P);
    slp_err rc = slp_comm_allgather(rd->comm, all ? SLP_OK : SLP_ERR_NOMEM, mine, sizeof mine,
                                    all);
    int inside = 0;
    for (int k = 0; rc == SLP_OK && k < rd->me; k++)
        if (all[2 * k] >= 0) /* that piece met a marker: its state at the end counts */
            inside = (int)all[2 * k + 1];
    int64_t n;
    slp_mps_pieces_columns(rd->pc, &n);
    for (int64_t j = 0; rc == SLP_OK && inside && j < (first < 0 ? n : first); j++)
        slp_mps_pieces_set_integer(rd->pc, j);
    free(all);
    return rc;
}

/* ---- names: a directory of hashes, split columns, BOUNDS -------------------------- */

typedef struct { /* the directory: a column name's hash and the column */
    uint64_t hash;
    int64_t col;
} dir_rec_t;

/* The owner's part of the directory: the records received, and an open-addressing
 * table of their positions (4 bytes a slot, at most 3/4 full), the slot picked by the
 * hash's low bits. */
typedef struct {
    dir_rec_t *rec;
    int64_t count;
    uint32_t *slot; /* UINT32_MAX: free */
    int64_t mask;
} directory_t;

/* Index the received records (the directory takes them over); an equal hash is a column
 * split over distant lines (or, rarely, two names with one hash): irregular either way. */
static slp_err directory_fill(reader_t *rd, directory_t *dir, dir_rec_t *rec, int64_t n)
{
    dir->rec = rec;
    dir->count = n;
    if (n >= (int64_t)UINT32_MAX)
        return slp_error(SLP_ERR_INPUT, "parallel read: %lld column names on one rank; use "
                         "more ranks", (long long)n);
    int64_t cap = 16;
    while (cap < n + n / 3 + 1)
        cap *= 2;
    dir->slot = malloc(sizeof *dir->slot * (size_t)cap);
    if (!dir->slot)
        return slp_error(SLP_ERR_NOMEM, "out of memory");
    dir->mask = cap - 1;
    memset(dir->slot, 0xff, sizeof *dir->slot * (size_t)cap);
    for (int64_t k = 0; k < n; k++) {
        int64_t at = (int64_t)(rec[k].hash & (uint64_t)dir->mask);
        while (dir->slot[at] != UINT32_MAX && rec[dir->slot[at]].hash != rec[k].hash)
            at = (at + 1) & dir->mask;
        if (dir->slot[at] != UINT32_MAX)
            slp_read_give_up(rd, "a column whose lines are apart (or two names with one hash)");
        dir->slot[at] = (uint32_t)k;
    }
    return SLP_OK;
}

/* The column of a hash in the directory, or -1. */
static int64_t directory_find(const directory_t *dir, uint64_t hash)
{
    int64_t at = (int64_t)(hash & (uint64_t)dir->mask);
    while (dir->slot[at] != UINT32_MAX && dir->rec[dir->slot[at]].hash != hash)
        at = (at + 1) & dir->mask;
    return dir->slot[at] == UINT32_MAX ? -1 : dir->rec[dir->slot[at]].col;
}

/* Each column's name hash and global number to the hash's owner, which keeps them in its
 * part of the directory. */
static slp_err build_directory(reader_t *rd, directory_t *dir)
{
    int64_t n;
    char *const *names = slp_mps_pieces_columns(rd->pc, &n);
    int64_t *per = calloc((size_t)rd->P + 1, sizeof *per);
    dir_rec_t *out = malloc(sizeof *out * (size_t)(n + 1));
    slp_err rc = per && out ? SLP_OK : slp_error(SLP_ERR_NOMEM, "out of memory");
    for (int pass = 0; pass < 2 && rc == SLP_OK; pass++) { /* count, then place by owner */
        for (int64_t j = 0; j < n; j++) {
            uint64_t h = slp_name_hash(names[j], strlen(names[j]));
            int d = slp_read_owner_of(rd, h);
            if (pass == 0)
                per[d + 1]++;
            else
                out[per[d]++] = (dir_rec_t){h, rd->col_start[rd->me] + j};
        }
        for (int d = 0; pass == 0 && d < rd->P; d++)
            per[d + 1] += per[d];
    }
    for (int d = rd->P - 1; rc == SLP_OK && d > 0; d--) /* ends to counts */
        per[d] -= per[d - 1];
    rc = slp_comm_agree(rd->comm, rc);
    dir_rec_t *in = NULL;
    int64_t count = 0;
    if (rc == SLP_OK)
        rc = slp_comm_exchange(rd->comm, out, per, sizeof *out, (void **)&in, &count);
    free(out);
    free(per);
    if (rc == SLP_OK)
        rc = directory_fill(rd, dir, in, count);
    else
        free(in);
    return rc;
}

/* ---- names in increasing order: no directory --------------------------------------- */

#define RANGE_NAME_BYTES 192 /* longer first or last names: the directory decides */

typedef struct { /* the first and last column names of a piece */
    int32_t in_order, piece;
    uint32_t first_len, last_len;
    char first[RANGE_NAME_BYTES], last[RANGE_NAME_BYTES];
} name_range_t;

/* Whether the pieces' column names, taken together, come in increasing order
 * (slp_mps_name_order): each piece's in order and each non-empty piece's first name
 * after the last name of the non-empty piece before. Then no name is in two pieces
 * (no split column), and the column of a BOUNDS line can only be in the piece whose
 * range holds its name, which finds it by a binary search: the directory of hashes is
 * not needed (generated files, and files whose columns are numbered in one sequence).
 * *ranges gets the ranges of the non-empty pieces, *count of them (free it).
 * Collective; every rank decides the same. */
static slp_err names_in_order(reader_t *rd, name_range_t **ranges, int *count, int *in_order)
{
    int64_t n;
    char *const *names = slp_mps_pieces_columns(rd->pc, &n);
    name_range_t mine;
    memset(&mine, 0, sizeof mine);
    mine.in_order = slp_mps_pieces_in_order(rd->pc);
    mine.piece = n > 0 ? rd->me : -1;
    if (n > 0) {
        size_t first = strlen(names[0]), last = strlen(names[n - 1]);
        if (first > RANGE_NAME_BYTES || last > RANGE_NAME_BYTES) {
            mine.in_order = 0;
        } else {
            memcpy(mine.first, names[0], first);
            memcpy(mine.last, names[n - 1], last);
            mine.first_len = (uint32_t)first;
            mine.last_len = (uint32_t)last;
        }
    }
    *in_order = 0;
    name_range_t *all = *ranges = malloc(sizeof *all * (size_t)rd->P);
    SLP_CALL(slp_comm_allgather(rd->comm, all ? SLP_OK : slp_error(SLP_ERR_NOMEM, "out of memory"),
                                &mine, sizeof mine, all));
    *count = 0;
    for (int k = 0; k < rd->P; k++) {
        if (!all[k].in_order)
            return SLP_OK;
        if (all[k].piece < 0)
            continue;
        const name_range_t *prev = *count ? &all[*count - 1] : NULL;
        if (prev && slp_mps_name_order(prev->last, prev->last_len, all[k].first,
                                       all[k].first_len) >= 0)
            return SLP_OK;
        all[(*count)++] = all[k];
    }
    *in_order = 1;
    return SLP_OK;
}

/* The piece whose range of names holds `name`, or -1 (ranges in increasing order). */
static int piece_of_name(const name_range_t *ranges, int count, const char *name, size_t len)
{
    int lo = 0, hi = count; /* ranges [0, lo) start at or before name, [hi, count) after */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (slp_mps_name_order(ranges[mid].first, ranges[mid].first_len, name, len) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return -1;
    const name_range_t *r = &ranges[lo - 1];
    return slp_mps_name_order(name, len, r->last, r->last_len) <= 0 ? r->piece : -1;
}

static int by_key(const void *a, const void *b)
{
    int64_t x = ((const bound_rec_t *)a)->key, y = ((const bound_rec_t *)b)->key;
    return (x > y) - (x < y);
}

/* Bounds for this piece's columns: *mine grows by one. */
static slp_err keep_bound(bound_rec_t **mine, int64_t *count, int64_t *cap, const bound_rec_t *r)
{
    SLP_CALL(slp_grow(mine, cap, *count + 1, sizeof **mine, GROW_FIRST,
                      "the bounds of a piece's columns"));
    (*mine)[(*count)++] = *r;
    return SLP_OK;
}

/* BOUNDS lines go with their column name to the directory's owner of the name's hash
 * (unknown there: irregular), which sends them on to the column's piece; that piece
 * checks the name (another name with the same hash: irregular) and applies its lines
 * sorted by (piece, line): in file order. With names in order (`ranges`, else NULL)
 * they go straight to the piece whose range holds the name, which finds the column by
 * a binary search (not there, or no such piece: irregular). */
static slp_err resolve_bounds(reader_t *rd, slp_outbox_t *ob, const directory_t *dir,
                              const name_range_t *ranges, int n_ranges)
{
    int64_t n;
    char *const *names = slp_mps_pieces_columns(rd->pc, &n);
    bound_rec_t *mine = NULL;
    int64_t n_mine = 0, cap = 0;
    slp_err rc = SLP_OK;
    for (int64_t k = 0; k < rd->n_bnd && rc == SLP_OK; k++) {
        const bound_line_t *b = &rd->bnd[k];
        const char *name = rd->names + b->name_at;
        bound_rec_t r = {-1, b->key, b->type, b->has_value, b->value};
        size_t len = (size_t)b->name_len;
        int dest = ranges ? piece_of_name(ranges, n_ranges, name, len)
                          : slp_read_owner_of(rd, slp_name_hash(name, len));
        if (dest < 0) /* the one-process reader warns */
            slp_read_give_up(rd, "a bound on a column that is not in COLUMNS");
        else
            rc = slp_outbox_name(ob, dest, name, len, &r, sizeof r);
    }
    for (int hop = ranges ? 1 : 0; hop < 2; hop++) { /* to the owners, then to the pieces */
        char *in = NULL;
        int64_t in_len = 0;
        rc = slp_outbox_send(rd, rc, ob, &in, &in_len);
        for (const char *at = in; rc == SLP_OK && at < in + in_len;) {
            size_t len;
            bound_rec_t r;
            const char *name = slp_read_take_name(&at, &len, &r, sizeof r);
            if (hop == 0) {
                r.col = directory_find(dir, slp_name_hash(name, len));
                if (r.col < 0) /* the one-process reader warns */
                    slp_read_give_up(rd, "a bound on a column that is not in COLUMNS");
                else
                    rc = slp_outbox_name(ob, slp_block_of(rd->col_start, rd->P, r.col), name,
                                         len, &r, sizeof r);
                continue;
            }
            if (ranges) {
                int64_t j = slp_mps_pieces_find_in_order(rd->pc, name, len);
                if (j < 0) {
                    slp_read_give_up(rd, "a bound on a column that is not in COLUMNS");
                    continue;
                }
                r.col = rd->col_start[rd->me] + j;
            } else {
                const char *own = names[r.col - rd->col_start[rd->me]];
                if (strlen(own) != len || memcmp(own, name, len) != 0) {
                    slp_read_give_up(rd, "two column names with one hash");
                    continue;
                }
            }
            rc = keep_bound(&mine, &n_mine, &cap, &r);
        }
        free(in);
    }
    if (rc == SLP_OK && n_mine > 1)
        qsort(mine, (size_t)n_mine, sizeof *mine, by_key);
    if (!rd->keep_names) /* resolved: the bounds below make the piece's bounds arrays */
        slp_mps_pieces_drop_names(rd->pc);
    for (int64_t k = 0; rc == SLP_OK && k < n_mine && !rd->irregular; k++) {
        slp_mps_bound_t b = {mine[k].type, "", 0, "", 0, mine[k].has_value, mine[k].value};
        if (slp_mps_pieces_apply_bound(rd->pc, mine[k].col - rd->col_start[rd->me], &b,
                                       mine[k].key) != SLP_OK) {
            slp_error_clear();
            slp_read_give_up(rd, "a bound the one-process reader refuses");
        }
    }
    free(mine);
    return rc;
}

/* Column numbers, the set rule, split columns and BOUNDS, agreed by all ranks. */
static slp_err resolve_names(reader_t *rd, int *ok)
{
    int64_t n;
    slp_mps_pieces_columns(rd->pc, &n);
    set_rec_t *sets = malloc(sizeof *sets * (size_t)rd->P);
    int64_t *counts = malloc(sizeof *counts * (size_t)rd->P);
    slp_outbox_t ob;
    slp_err rc = slp_outbox_open(&ob, rd->P);
    if (rc == SLP_OK && (!sets || !counts))
        rc = slp_error(SLP_ERR_NOMEM, "out of memory");
    rc = slp_comm_allgather(rd->comm, rc, &n, sizeof n, counts);
    if (rc == SLP_OK)
        rc = slp_comm_allgather(rd->comm, rc, &rd->set, sizeof rd->set, sets);
    directory_t dir = {NULL, 0, NULL, 0};
    name_range_t *ranges = NULL;
    int in_order = 0, n_ranges = 0;
    if (rc == SLP_OK) {
        rd->col_start[0] = 0;
        for (int k = 0; k < rd->P; k++)
            rd->col_start[k + 1] = rd->col_start[k] + counts[k];
        const set_rec_t *first = NULL;
        for (int k = 0; k < rd->P; k++) {
            if (sets[k].mixed)
                slp_read_give_up(rd, "a second BOUNDS set");
            if (sets[k].len && !first)
                first = &sets[k];
            else if (sets[k].len && (sets[k].len != first->len ||
                                     memcmp(sets[k].name, first->name, (size_t)first->len)))
                slp_read_give_up(rd, "a second BOUNDS set");
        }
        rc = names_in_order(rd, &ranges, &n_ranges, &in_order);
        if (rc == SLP_OK && !in_order)
            rc = build_directory(rd, &dir);
        rd->names_in_order = in_order;
    }
    rc = slp_read_all_ranks(rd->comm, rc, !rd->irregular, ok);
    if (rc == SLP_OK && *ok) {
        rc = resolve_bounds(rd, &ob, &dir, in_order ? ranges : NULL, n_ranges);
        if (slp_mps_pieces_irregular(rd->pc))
            slp_read_give_up(rd, "a bound the one-process reader warns about");
        rc = slp_read_all_ranks(rd->comm, rc, !rd->irregular, ok);
    }
    free(dir.rec);
    free(dir.slot);
    free(ranges);
    slp_outbox_close(&ob, rd->P);
    free(sets);
    free(counts);
    return rc;
}

/* ---- the whole read ---------------------------------------------------------------- */

static void reader_free(reader_t *rd)
{
    slp_mps_pieces_close(&rd->pc);
    slp_text_at_close(&rd->src);
    free(rd->ent);
    free(rd->col_ptr);
    free(rd->bnd);
    free(rd->names);
    free(rd->col_start);
    free(rd->row_names);
    free(rd->col_names);
    slp_name_store_free(&rd->name_store);
}

/* Parse and resolve; *ok = 0 when the file is left to the one-process reader. */
static slp_err read_model(reader_t *rd, const char *path, int lp, int relax, int names,
                          slp_mps_result_t *res, int *ok)
{
    *ok = 0;
    slp_err rc = slp_read_source_open(rd->comm, path, &rd->src);
    if (rc == SLP_OK && !rd->src)
        slp_read_give_up(rd, "not a file that can be read at offsets (a pipe, not found, or "
                             "compressed other than BGZF or seekable zstd)");
    if (rc == SLP_OK)
        rc = slp_read_all_ranks(rd->comm, rc, rd->src != NULL, ok);
    if (rc == SLP_OK && *ok && lp)
        return slp_read_lp_model(rd, path, relax, names, res, ok);
    slp_read_layout_t layout;
    if (rc == SLP_OK && *ok)
        rc = slp_read_layout(rd->comm, rd->src, slp_text_at_size(rd->src), &layout, ok);
    if (rc == SLP_OK && !*ok && !rd->why)
        slp_read_give_up(rd, "sections other than NAME to ROWS, COLUMNS, RHS, RANGES, "
                             "BOUNDS, ENDATA in this order, or text that cannot be read");
    if (rc == SLP_OK && *ok)
        rc = slp_read_all_ranks(rd->comm, rc, *ok, ok); /* every rank found the same layout */
    slp_mps_callbacks_t cb = {.user = rd, .on_entry = on_entry, .quiet = 1};
    if (rc == SLP_OK && *ok)
        rc = slp_comm_agree(rd->comm, slp_mps_pieces_open(path, rd->src, &cb, &rd->pc));
    rd->t[0] = slp_wall_seconds();
    if (rc == SLP_OK && *ok)
        rc = parse_pieces(rd, &layout);
    if (rc == SLP_OK && *ok)
        rc = slp_read_all_ranks(rd->comm, rc, !rd->irregular, ok);
    if (rc == SLP_OK && *ok)
        rc = inherit_markers(rd);
    rd->t[1] = slp_wall_seconds();
    if (rc == SLP_OK && *ok)
        rc = resolve_names(rd, ok);
    rd->t[2] = slp_wall_seconds();
    int good = 1;
    if (rc == SLP_OK && *ok) {
        good = slp_mps_pieces_result(rd->pc, res) == SLP_OK &&
               slp_read_model_acceptable(res, relax);
        if (!good) {
            slp_error_clear();
            slp_read_give_up(rd, "integer columns without relax, or values the model check "
                                 "refuses");
        }
        rc = slp_read_all_ranks(rd->comm, rc, good, ok);
    }
    return rc;
}

/* Why rank 0 reads the file: the lowest rank's reason, in the verbose log. Collective. */
static void log_reason(const reader_t *rd)
{
    char mine[128] = "", *all = malloc(sizeof mine * (size_t)rd->P);
    if (rd->why)
        snprintf(mine, sizeof mine, "%s", rd->why);
    if (slp_comm_allgather(rd->comm, all ? SLP_OK : SLP_ERR_NOMEM, mine, sizeof mine, all) !=
        SLP_OK) {
        slp_error_clear();
        free(all);
        return;
    }
    for (int k = 0; k < rd->P; k++)
        if (all[k * sizeof mine]) {
            slp_log_verbose("Parallel read: rank 0 reads the file instead (rank %d: %s)\n", k,
                            all + k * sizeof mine);
            break;
        }
    free(all);
}

/* The names of this rank's blocks, from the MPS pieces or what the LP path kept. */
static slp_err block_names(reader_t *rd, const slp_grid_t *grid, const slp_local_problem_t *lp,
                           slp_read_names_t *out)
{
    int64_t m, n = rd->col_start[rd->me + 1] - rd->col_start[rd->me];
    if (!rd->pc)
        return slp_read_block_names(rd, grid, lp, rd->row_names, rd->col_names, n, out);
    char *const *rows = slp_mps_pieces_rows(rd->pc, &m);
    char *const *cols = slp_mps_pieces_columns(rd->pc, &n);
    return slp_read_block_names(rd, grid, lp, rows, cols, n, out);
}

/* 1 on every rank when every rank sees an LP file (grid/read_lp.c), else 0 (MPS). */
static int lp_file(slp_comm_t *comm, const char *path)
{
    slp_input_format format = SLP_INPUT_MPS;
    if (slp_input_format_of(path, &format) != SLP_OK)
        slp_error_clear(); /* the readers say what is wrong */
    int64_t seen[2] = {format == SLP_INPUT_LP, format != SLP_INPUT_LP};
    if (slp_comm_max_i64(comm, seen, 2) != SLP_OK) {
        slp_error_clear();
        return 0;
    }
    return seen[0] && !seen[1];
}

slp_err slp_read_parallel(slp_grid_t *grid, const char *path, int relax,
                          slp_local_problem_t *out, slp_read_parallel_info_t *info,
                          slp_read_names_t *names, int *done)
{
    *done = 0;
    memset(out, 0, sizeof *out);
    memset(info, 0, sizeof *info);
    if (names)
        memset(names, 0, sizeof *names);
    reader_t rd = {.P = grid->size, .me = grid->rank, .comm = grid->world,
                   .keep_names = names != NULL};
    double t0 = slp_wall_seconds();
    rd.col_start = calloc((size_t)rd.P + 1, sizeof *rd.col_start);
    slp_mps_result_t res;
    memset(&res, 0, sizeof res);
    int ok = 0;
    slp_err rc = slp_comm_agree(grid->world, rd.col_start ? SLP_OK : SLP_ERR_NOMEM);
    int lp = lp_file(grid->world, path);
    if (rc == SLP_OK)
        rc = slp_comm_agree(grid->world, read_model(&rd, path, lp, relax, names != NULL, &res,
                                                    &ok));
    int64_t n_int = res.n_int;
    if (rc == SLP_OK && ok)
        rc = slp_comm_sum_i64(grid->world, &n_int, 1);
    if (!names) /* the names and the row index are no longer needed */
        slp_mps_pieces_close(&rd.pc);
    slp_text_at_close(&rd.src);
    if (rc == SLP_OK && ok)
        rc = slp_comm_agree(grid->world, slp_read_distribute(&rd, grid, &res, out));
    if (rc == SLP_OK && ok && names && !rd.irregular)
        rc = slp_comm_agree(grid->world, block_names(&rd, grid, out, names));
    rd.t[3] = slp_wall_seconds();
    if (rc == SLP_OK && ok && !rd.irregular) {
        info->name = res.name;
        res.name = NULL;
        info->m = out->m;
        info->n = out->n;
        info->nnz = out->nnz;
        info->sense = out->sense;
        info->n_int = n_int;
        *done = 1;
        slp_log_verbose("Parallel read: layout %.2f s, pieces %.2f s, names and bounds %.2f s "
                        "(%s), blocks %.2f s (columns' c, l, u sent as exceptions: %s; "
                        "rank 0's clock)\n", rd.t[0] - t0,
                        rd.t[1] - rd.t[0], rd.t[2] - rd.t[1],
                        rd.names_in_order ? "names in order" : "directory of names",
                        rd.t[3] - rd.t[2], rd.sparse[0] ? rd.sparse : "none");
    } else {
        slp_local_problem_free(out);
        memset(out, 0, sizeof *out);
        if (names)
            slp_read_names_free(names);
        if (rc == SLP_OK)
            log_reason(&rd);
    }
    slp_mps_result_free(&res);
    reader_free(&rd);
    return rc;
}
