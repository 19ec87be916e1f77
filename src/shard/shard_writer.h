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
} writer_t;

/* Create the temporary directory and the manifest for an R x C cut by the nonzero counts. */
slp_err slp_shard_writer_begin(writer_t *w, const slp_model_t *skel, int R, int C,
                               const int64_t *row_nnz, const int64_t *col_nnz, const char *dir);
/* Remove the temporary directory (after a failure). */
void slp_shard_writer_abort(writer_t *w);
/* Write the manifest and rename the temporary directory to dir. */
slp_err slp_shard_writer_commit(writer_t *w, const char *dir);
/* Open / close the file of one role (vector slice or block) with its header. */
slp_err slp_shard_writer_open_file(writer_t *w, int role, int r, int c, slp_shard_header_t *h,
                                   slp_fw_t *fw);
slp_err slp_shard_writer_close_file(writer_t *w, int role, int r, int c, slp_fw_t *fw,
                                    slp_err rc);
/* The header of block (r, c) with nnz entries. */
void slp_shard_writer_block_header(const writer_t *w, int r, int c, int64_t nnz,
                                   slp_shard_header_t *h);
/* The row and column slices of the vectors (bounds, costs) of the skeleton model. */
slp_err slp_shard_writer_write_vectors(writer_t *w, const slp_model_t *skel);

#endif
