/* The shard directory writer shared by the whole-model path (shard_write.c) and the
 * bounded-memory streaming path (shard_stream.c): a temporary directory, its manifest,
 * the vector slices and the block files' headers. */
#ifndef SLP_SHARD_WRITER_H
#define SLP_SHARD_WRITER_H

#include "shard_internal.h"

/* Output being assembled in a temporary directory. */
typedef struct writer {
    char *tmp;                 /* temporary directory (renamed to the target at the end) */
    slp_shard_manifest_t man;  /* files[] in a fixed slot order, see slot() */
    int compact_values;        /* blocks in their compact exact form where one is smaller */
} writer_t;

/* The manifest's frame (no cuts, no files yet; no directory). */
slp_err slp_shard_writer_frame(writer_t *w, const char *name, int64_t m, int64_t n, int R,
                               int C, int sense, double obj_const, int has_names);
/* An error when a column block is too wide for 32-bit block-local indices. */
slp_err slp_shard_writer_check_cuts(const writer_t *w);
/* Create the temporary directory and the manifest for an R x C cut by the nonzero counts. */
slp_err slp_shard_writer_begin(writer_t *w, const slp_model_t *skel, int R, int C,
                               const int64_t *row_nnz, const int64_t *col_nnz, const char *dir);
/* Every files entry's role, block and path, in the fixed order (the sizes and checksums
 * are the caller's). */
void slp_shard_writer_list_files(writer_t *w);
/* Remove the temporary directory (after a failure). */
void slp_shard_writer_abort(writer_t *w);
/* Write the manifest and rename the temporary directory to dir. */
slp_err slp_shard_writer_commit(writer_t *w, const char *dir);
/* Open / close the file of one role (vector slice or block) with its header. */
slp_err slp_shard_writer_open_file(writer_t *w, int role, int r, int c, slp_shard_header_t *h,
                                   slp_fw_t *fw);
slp_err slp_shard_writer_close_file(writer_t *w, int role, int r, int c, slp_fw_t *fw,
                                    slp_err rc);
/* The header of block (r, c) with nnz entries, its values as bv holds them. */
void slp_shard_writer_block_header(const writer_t *w, int r, int c, int64_t nnz,
                                   const slp_shard_block_values_t *bv, slp_shard_header_t *h);
/* The row and column slices of the vectors (bounds, costs) of the skeleton model. */
slp_err slp_shard_writer_write_vectors(writer_t *w, const slp_model_t *skel);
/* Column slice c, row slice r, from the slice's own arrays. */
slp_err slp_shard_writer_col_slice(writer_t *w, int c, const double *obj, const double *lv,
                                   const double *uv);
slp_err slp_shard_writer_row_slice(writer_t *w, int r, const double *lc, const double *uc);
/* The name file of row block b (is_row) or column block b: `bytes` bytes of names, each
 * ending with its NUL, in index order. */
slp_err slp_shard_writer_names(writer_t *w, int is_row, int b, const char *packed,
                               int64_t bytes);
/* Block (r, c) from memory: row_ptr [m_loc + 1] (from 0), col_idx and val [nnz]. */
slp_err slp_shard_writer_block(writer_t *w, int r, int c, const int64_t *row_ptr,
                               const int32_t *col_idx, const double *val);

#endif
