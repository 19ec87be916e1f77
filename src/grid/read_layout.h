/* The first steps of reading one MPS file on every rank (docs/parallel-input.md): where
 * the sections are, and where each rank's piece of COLUMNS and BOUNDS begins. */
#ifndef SLP_READ_LAYOUT_H
#define SLP_READ_LAYOUT_H

#include <stdint.h>

#include "grid/comm.h"
#include "io/text_at.h"

/* Open `path` on every rank as text read at offsets (io/text_at.h); *out is NULL on
 * every rank when the file cannot be read so (a pipe, a compression without units, a
 * BGZF file whose members do not chain, ranks that see different files) and the
 * one-process reader takes it. Collective (grid/read_source.c). */
slp_err slp_read_source_open(slp_comm_t *comm, const char *path, slp_text_at_t **out);

/* Byte offsets in the text. The head [0, columns_body) ends with the COLUMNS header
 * line; COLUMNS data is [columns_body, columns_end); RHS and RANGES, headers included,
 * are [rhs_begin, rhs_end); the BOUNDS header line is [bounds_hdr, bounds_body) and its
 * data [bounds_body, bounds_end); the ENDATA line is [bounds_end, endata_end). Absent
 * sections are empty ranges. */
typedef struct slp_read_layout {
    int64_t columns_body, columns_end;
    int64_t rhs_begin, rhs_end;
    int64_t bounds_hdr, bounds_body, bounds_end;
    int64_t endata_end;
} slp_read_layout_t;

/* Collective. Each rank scans 1/P of the text for section headers; together they find
 * the layout. *usable = 0 (and no message) when the text is not an MPS file whose
 * sections after COLUMNS are RHS, RANGES and BOUNDS at most once each, in that order,
 * and ENDATA: such a file is read by one process. */
slp_err slp_read_layout(slp_comm_t *comm, slp_text_at_t *src, int64_t size,
                        slp_read_layout_t *layout, int *usable);

/* Where rank `rank` of `ranks` starts its piece of [begin, end): the first line start
 * at or after the rank's share of the bytes; with `by_column`, moved on to the first
 * line whose first token (the column name) differs from the line before it, so that no
 * column's run of lines is cut. Rank 0 starts at begin. -1 on a read failure or a line
 * longer than the scan buffer. */
int64_t slp_read_piece_start(slp_text_at_t *src, int64_t begin, int64_t end, int rank,
                             int ranks, int by_column);

#endif
