/* What the files of the parallel reader share (docs/parallel-input.md):
 * grid/read_parallel.c (MPS pieces, names, bounds), grid/read_lp.c (LP files),
 * grid/read_blocks.c and read_entries.c (cuts, blocks), read_names.c (names for shards),
 * read_outbox.c (name records between the ranks). */
#ifndef SLP_READ_INTERNAL_H
#define SLP_READ_INTERNAL_H

#include <stdint.h>

#include "core/local_problem.h"
#include "core/names.h"
#include "grid/grid.h"
#include "grid/read_parallel.h"
#include "io/mps_parse.h"

#define SET_BYTES 64
#define GROW_FIRST 1024 /* the first capacity of the reader's growing arrays (slp_grow) */

/* A matrix entry of this rank's piece: its global row and value (12 bytes). The entries
 * are in the order of the piece's columns, col_ptr[j] the first of column j. */
typedef struct __attribute__((packed)) {
    int32_t row;
    double val;
} entry_t;

typedef struct { /* a BOUNDS line of this rank's piece, its column name in `names` */
    int64_t key; /* piece << 40 | line: the order of the lines in the file */
    int64_t name_at, name_len;
    int32_t type, has_value;
    double value;
} bound_line_t;

typedef struct { /* the first set name of a piece's BOUNDS lines */
    char name[SET_BYTES];
    int32_t len, mixed;
} set_rec_t;

typedef struct {
    int P, me;
    slp_comm_t *comm;
    slp_text_at_t *src; /* the file's text (grid/read_source.c) */
    slp_mps_pieces_t *pc;
    int irregular;   /* the file goes to the one-process reader */
    int names_in_order; /* the pieces' column names in order: no directory (verbose log) */
    int keep_names;     /* names for shards: the pieces keep theirs to the end */
    const char *why; /* the first reason this rank found (for the log) */
    entry_t *ent;
    int64_t n_ent, cap_ent;
    int64_t *col_ptr; /* [cols_seen + 1] after slp_read_column_starts */
    int64_t cols_seen, cap_col_ptr;
    bound_line_t *bnd;
    int64_t n_bnd, cap_bnd;
    char *names;
    int64_t names_len, names_cap;
    set_rec_t set;
    int64_t *col_start; /* [P + 1] first global column of each piece */
    double t[4];        /* wall clock at the ends of the phases, for the log */
    char sparse[8];     /* the column vectors sent as exceptions ("clu", for the log) */
    /* an LP file's names for shards (grid/read_lp.c): every row's, and this rank's
     * columns' [col_start[me], col_start[me + 1]), in the store */
    char **row_names, **col_names;
    slp_name_store_t name_store;
} reader_t;

/* Byte messages to every rank, built one record at a time (grid/read_outbox.c): the
 * name records of the parallel readers' directories. */
typedef struct {
    char **data;
    int64_t *len, *cap;
} slp_outbox_t;
/* Empty boxes for P ranks (SLP_ERR_NOMEM: close it anyway); close frees them. */
slp_err slp_outbox_open(slp_outbox_t *ob, int P);
void slp_outbox_close(slp_outbox_t *ob, int P);
slp_err slp_outbox_put(slp_outbox_t *ob, int dest, const void *src, size_t n);
/* A name record: its length (uint32), its bytes, then tail_len bytes of `tail`. */
slp_err slp_outbox_name(slp_outbox_t *ob, int dest, const char *name, size_t len,
                        const void *tail, size_t tail_len);
/* Send every rank its bytes; *in holds what this rank got (free it). Collective; `local`
 * is this rank's status (see slp_comm_allgather). */
slp_err slp_outbox_send(reader_t *rd, slp_err local, slp_outbox_t *ob, char **in,
                        int64_t *in_len);
/* The next name record of a message: its name (*len bytes) and the tail after it. */
const char *slp_read_take_name(const char **at, size_t *len, void *tail, size_t tail_len);
/* The owner of a name in a directory: the hash's high bits (the low ones pick slots in
 * the parsers' own indexes). */
int slp_read_owner_of(const reader_t *rd, uint64_t hash);
/* What slp_model_validate and the integer rule would refuse (a rank's columns, all the
 * rows): left to the one-process reader, which says it. */
int slp_read_model_acceptable(const slp_mps_result_t *res, int relax);

/* The piece's col_ptr completed to its n columns (the last ones may have no entry). */
slp_err slp_read_column_starts(reader_t *rd, int64_t n);
/* The piece column of entry k: *j moves forward to it (calls with growing k), from the
 * column slp_part_of(col_ptr, cols_seen, k) gives for the first k. */
static inline int64_t slp_read_next_column(const reader_t *rd, int64_t k, int64_t *j)
{
    while (rd->col_ptr[*j + 1] <= k)
        (*j)++;
    return *j;
}

/* This rank found a reason to leave the file to the one-process reader. */
void slp_read_give_up(reader_t *rd, const char *why);

/* *all = 1 when `ok` on every rank. Collective; `rc` is this rank's status so far, and a
 * failure on any rank is returned on all (no rank goes on to wait for one that stopped). */
slp_err slp_read_all_ranks(slp_comm_t *comm, slp_err rc, int ok, int *all);

/* The piece's entries (freed on the way) into this rank's block of the cuts row_off and
 * col_off: *block as slp_extract_block gives it (src/grid/read_entries.c). Collective. */
slp_err slp_read_send_entries(reader_t *rd, const slp_grid_t *grid, const int64_t *row_off,
                              const int64_t *col_off, slp_csr_t *block);

/* The names of this rank's blocks into *out (grid/read_parallel.h), from every row's
 * names and this rank's columns' (cols: global columns [col_start[me], col_start[me] +
 * n), in order) and the cuts of *lp. Collective (src/grid/read_names.c). */
slp_err slp_read_block_names(reader_t *rd, const slp_grid_t *grid,
                             const slp_local_problem_t *lp, char *const *rows,
                             char *const *cols, int64_t n, slp_read_names_t *out);

/* Cuts by nonzeros as slp_model_cuts makes them, then the entries and the column vectors
 * to the ranks of their blocks and slices: *out as slp_distribute_model gives it (before
 * the canonical bounds). The piece's entries and res's column vectors are freed on the
 * way. Collective; sets rd->irregular (on all ranks) when a block is too wide. */
slp_err slp_read_distribute(reader_t *rd, slp_grid_t *grid, slp_mps_result_t *res,
                            slp_local_problem_t *out);

/* The model of the LP file rd->src (open) as the MPS path's pieces leave it: this rank's
 * share of the columns in rd (ent, col_ptr, col_start) and res (their values; every
 * row's bounds); with `names`, rd->row_names and rd->col_names too. *ok = 0 on every
 * rank when the file is left to the one-process reader (grid/read_lp.c). Collective. */
slp_err slp_read_lp_model(reader_t *rd, const char *path, int relax, int names,
                          slp_mps_result_t *res, int *ok);

#endif
