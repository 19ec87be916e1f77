/* Pieces of a CPLEX LP file for the parallel reader (grid/read_lp.c,
 * docs/parallel-input.md "LP files"). A piece is a byte range of one section's body,
 * parsed by the LP reader's own grammar (io/lp_read.c), which keeps what it reads
 * instead of applying it: no index of column names (another rank may hold the rest of a
 * column), but every use of a name as a mention of its own, numbered in the order read,
 * with its term or its bound or marker; rows numbered in the order read and unnamed
 * unless labelled. Where the mentions of a name meet (the name's owner rank), they are
 * summed and applied in file order. */
#ifndef SLP_LP_PIECES_H
#define SLP_LP_PIECES_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "io/text_at.h"
#include "io/triplets.h"

/* The sections of an LP file (the keyword that starts a line). */
typedef enum {
    SLP_LP_NONE, SLP_LP_MIN, SLP_LP_MAX, SLP_LP_CONS, SLP_LP_BOUNDS, SLP_LP_GEN, SLP_LP_BIN,
    SLP_LP_SEMI, SLP_LP_END, SLP_LP_UNSUPPORTED
} slp_lp_section;

/* The section whose keyword starts `text` (NUL-terminated, at the line's first
 * non-blank character), *used the keyword's bytes; SLP_LP_NONE when there is none. */
int slp_lp_section_at(const char *text, size_t *used);

/* What a bound or marker does to a column, in the order of the file. */
typedef struct {
    int64_t col;   /* the mention */
    int64_t seq;   /* its place among this reader's operations */
    int32_t piece; /* the piece it was read in */
    int32_t code;  /* '<' '>' '=': a comparison with `value`; 'F' free; 'I' general;
                      'B' binary; 'S' semi-continuous */
    double value;
} slp_lp_op_t;

/* Apply an operation as the one-process reader does at the line it reads it. */
void slp_lp_apply_op(int32_t code, double value, double *lv, double *uv, unsigned char *is_int,
                     unsigned char *semi);

typedef struct slp_lp_pieces slp_lp_pieces_t;

/* A reader of pieces of `src` (not owned), named `path` in messages. */
slp_err slp_lp_pieces_open(const char *path, slp_text_at_t *src, slp_lp_pieces_t **out);
void slp_lp_pieces_close(slp_lp_pieces_t **pc);

/* Parse bytes [begin, end) as the body of `section` (SLP_LP_NONE: text before the first
 * section, which must hold nothing but comments; SLP_LP_END: the End line, whose first
 * token must be End and whose rest is not read), recording its columns, rows, entries
 * and operations under the number `piece`. `mid_line`: begin is inside a line (just
 * after the section's keyword), so its first token does not start a line.
 * `objective_start`: the first piece of the objective (a label may name it). Any text
 * the one-process reader would refuse, or a section keyword inside the range, is an
 * error (SLP_ERR_INPUT, not meant to be shown: the caller gives the file to the
 * one-process reader, which says what is wrong). */
slp_err slp_lp_pieces_read(slp_lp_pieces_t *pc, int64_t begin, int64_t end, int32_t piece,
                           slp_lp_section section, int mid_line, int objective_start);

/* What the pieces read so far hold; valid until the next read or the close. */
typedef struct {
    int64_t n;                 /* mentions of names, in the order read */
    char *const *col_names;    /* [n] each mention's name */
    const int32_t *col_piece;  /* [n] the piece it is in */
    int64_t m;                 /* rows, in file order */
    char *const *row_labels;   /* [m] the label, or NULL (the reader names it R<i>) */
    const double *lc, *uc;     /* [m] */
    const slp_triplets_t *entries; /* (mention, row, value) of each term, in the order read;
                                      row -1: the objective's */
    const slp_lp_op_t *ops;    /* the bounds and markers, in the order read (a mention
                                  each: a double bound's second side is one more) */
    int64_t n_ops;
    double obj_const;          /* the objective's constants summed */
    int64_t obj_constants;     /* how many */
} slp_lp_piece_view_t;
void slp_lp_pieces_view(const slp_lp_pieces_t *pc, slp_lp_piece_view_t *out);
/* Keep the first `mentions` mentions (with their names), `terms` entries and `ops`
 * operations, and give the memory of the rest back: a caller that is done with the
 * last ones lets the piece shrink as it goes. Views taken before are invalid. */
void slp_lp_pieces_trim(slp_lp_pieces_t *pc, int64_t mentions, int64_t terms, int64_t ops);

#endif
