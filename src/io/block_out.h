/* Compressed output in independent units, so that the parallel reader can read the text
 * at any offset (io/text_at.h, docs/parallel-input.md "Compressed files"): BGZF for
 * names ending in ".gz" (gzip members of 65,280 text bytes with their length in a "BC"
 * extra field, and the empty end-of-file member; every gzip reader reads it), zstd's
 * seekable format for ".zst" (frames of 1 MiB of text, each with its checksum, and the
 * seek table in a skippable frame at the end; every zstd reader reads it). */
#ifndef SLP_BLOCK_OUT_H
#define SLP_BLOCK_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "core/error.h"

typedef enum { SLP_BLOCK_OUT_NONE, SLP_BLOCK_OUT_BGZF, SLP_BLOCK_OUT_ZSTD } slp_block_out_kind;

typedef struct slp_block_out slp_block_out_t;

/* The compression a file name asks for: ".gz" BGZF, ".zst" zstd (any case), else none. */
slp_block_out_kind slp_block_out_kind_of(const char *path);
/* Compress into f (not owned); errors name `path`. */
slp_err slp_block_out_open(FILE *f, slp_block_out_kind kind, const char *path,
                           slp_block_out_t **out);
/* 0, or -1 when compressing or writing failed (then every later call fails too). */
int slp_block_out_write(slp_block_out_t *o, const void *buf, size_t len);
/* Write what is buffered and the end (BGZF's end member, zstd's seek table); frees o.
 * 0, or -1 on a failure now or before. */
int slp_block_out_close(slp_block_out_t **o);

#endif
