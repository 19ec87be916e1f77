/* A model file's text read at any offset (docs/parallel-input.md "Compressed files"):
 * the parallel MPS read's one way to the bytes. A plain file is read with pread; two
 * compressed forms are made of independently compressed units that a rank can find and
 * decode alone: BGZF (gzip members of at most 64 KiB of text, each naming its own
 * length in a "BC" extra field; bgzip writes it, and so does `shardlp convert` for
 * .gz) and zstd's seekable format (frames listed in a seek table at the end of the
 * file; `shardlp convert` writes it for .zst). Every other file (a single-member gzip,
 * bzip2, xz, a plain zstd stream, a pipe) cannot be read at offsets. */
#ifndef SLP_TEXT_AT_H
#define SLP_TEXT_AT_H

#include <stdint.h>
#include <sys/types.h>

#include "core/error.h"

typedef enum {
    SLP_TEXT_AT_NONE,  /* cannot be read at offsets (or cannot be opened) */
    SLP_TEXT_AT_PLAIN, /* a regular file without a compression's magic bytes */
    SLP_TEXT_AT_BGZF,  /* BGZF: the units are found by slp_bgzf_scan over the ranks */
    SLP_TEXT_AT_ZSTD   /* zstd's seekable format: the units are in the file's seek table */
} slp_text_at_kind;

typedef struct slp_text_at slp_text_at_t;

/* One compressed unit: where it starts in the file and how many text bytes it holds. */
typedef struct {
    int64_t file_offset, text_bytes;
} slp_text_unit_t;

/* Open `path`. *out is NULL and *kind SLP_TEXT_AT_NONE when the file cannot be read at
 * offsets (not an error: such a file is read by one process). A BGZF file's units are
 * not known yet: give them with slp_text_at_set_units before reading. Fails only when
 * out of memory. */
slp_err slp_text_at_open(const char *path, slp_text_at_t **out, slp_text_at_kind *kind);
void slp_text_at_close(slp_text_at_t **t);
/* Bytes of text (-1 while a BGZF file's units are not given); bytes of the file. */
int64_t slp_text_at_size(const slp_text_at_t *t);
int64_t slp_text_at_file_size(const slp_text_at_t *t);
/* Up to len text bytes at `offset` into dst: len, fewer only at the end of the text,
 * -1 on a read failure or damaged compressed data (errno set). */
ssize_t slp_text_at_read(slp_text_at_t *t, void *dst, size_t len, int64_t offset);

/* BGZF: the members whose headers start in file bytes [begin, end), in order, followed
 * from the first member header at or after `begin` (*first; the file's size when none)
 * by their lengths; *next is where the member after the last one starts (the first
 * member at or after `end`, or the file's size). 0, or -1 when the bytes are not such a
 * chain of members (then nothing is returned). The units of the ranges of all ranks
 * together are the file's when rank 0's range starts at 0, each rank's *first is the
 * previous rank's *next, and the last *next is the file's size (grid/read_source.c). */
int slp_bgzf_scan(slp_text_at_t *t, int64_t begin, int64_t end, slp_text_unit_t **units,
                  int64_t *count, int64_t *first, int64_t *next);
/* A BGZF file's units, in file order (copied). */
slp_err slp_text_at_set_units(slp_text_at_t *t, const slp_text_unit_t *units, int64_t count);

#endif
