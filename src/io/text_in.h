/* Text input through any compression the file uses (docs/mps.md, "Compressed input").
 * The first bytes decide, never the name: gzip (one or several members), bzip2, xz and
 * zstd (one or several streams or frames; zstd when built with libzstd) are decoded as
 * they are read, anything else is read as it is. Works on regular files and on pipes (nothing is read twice). One reader of a
 * file at a time; not thread-safe. */
#ifndef SLP_TEXT_IN_H
#define SLP_TEXT_IN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/error.h"

typedef struct slp_text_in slp_text_in_t;

typedef enum {
    SLP_TEXT_OK = 0,
    SLP_TEXT_TRUNCATED, /* the compressed data ends early (a cut file) */
    SLP_TEXT_CORRUPT,   /* the compressed data is damaged (checksum, format) */
    SLP_TEXT_IO         /* the read itself failed (errno) */
} slp_text_status;

/* Open `path`; SLP_ERR_IO naming the file when it cannot be opened. */
slp_err slp_text_in_open(const char *path, slp_text_in_t **out);
void slp_text_in_close(slp_text_in_t **t);

/* Like fgets: up to size - 1 bytes, stopping after a '\n'; NUL bytes are copied as
 * they are, and *count (when not NULL) says how many bytes were copied, so that a
 * caller can tell a NUL byte from the end of the text. Returns buf, or NULL when
 * nothing was read (end of input or an error: see slp_text_in_status). */
char *slp_text_in_gets(slp_text_in_t *t, char *buf, size_t size, size_t *count);
/* Up to size bytes; returns the count (0 at the end or on an error). */
size_t slp_text_in_read(slp_text_in_t *t, void *buf, size_t size);
/* 1 once the end of the (decoded) input has been reached without an error. */
int slp_text_in_eof(const slp_text_in_t *t);
/* The first problem met, and a short description of it ("" when none). */
slp_text_status slp_text_in_status(const slp_text_in_t *t, const char **why);
/* The compression found: "gzip", "bzip2", "xz", "zstd" or "none". */
const char *slp_text_in_kind(const slp_text_in_t *t);
/* 1 when the first `len` bytes of a file are the magic bytes of a compression this
 * reader decodes (what slp_text_in_open looks at). */
int slp_text_compressed(const void *head, size_t len);
/* Bytes [offset, offset + len) of the plain file fd (fewer at its end), retried across
 * short reads and EINTR; -1 on an error (errno). */
ssize_t slp_pread_full(int fd, void *buf, size_t len, int64_t offset);

#endif
