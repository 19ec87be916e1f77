/* Checksummed binary files, shared by shard files and checkpoints: a buffered writer
 * that keeps a running crc32 and ends the file with it (4 bytes, little-endian), either
 * in place (inside a temporary directory that is renamed later) or atomically (as an
 * output file of io/out_file.h: renamed over PATH on close), and a reader that
 * checks the trailer. Arrays are little-endian on disk whatever the host. */
#ifndef SLP_CHECKED_FILE_H
#define SLP_CHECKED_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "io/out_file.h"

#define SLP_CHECKED_TRAILER_BYTES 4

typedef struct slp_fw {
    FILE *f;
    char *path;          /* the name given (owned) */
    int atomic;          /* written through `out` (io/out_file.h) */
    slp_out_file_t out;
    unsigned long crc;
    int64_t bytes;       /* payload bytes so far (without the trailer) */
    unsigned char *buf;  /* owned */
    size_t used;
} slp_fw_t;

slp_err slp_fw_open(slp_fw_t *w, const char *path);
slp_err slp_fw_open_atomic(slp_fw_t *w, const char *path);
slp_err slp_fw_bytes(slp_fw_t *w, const void *data, size_t len);
slp_err slp_fw_i64(slp_fw_t *w, const int64_t *v, int64_t count);
slp_err slp_fw_i32(slp_fw_t *w, const int32_t *v, int64_t count);
slp_err slp_fw_u16(slp_fw_t *w, const uint16_t *v, int64_t count);
slp_err slp_fw_f64(slp_fw_t *w, const double *v, int64_t count);
slp_err slp_fw_zeros(slp_fw_t *w, size_t len);
/* Write the trailer, sync, close (and rename in atomic mode); *bytes (file size) and
 * *crc may be NULL. On failure the file is removed. */
slp_err slp_fw_close(slp_fw_t *w, int64_t *bytes, uint32_t *crc);
/* Close and delete after a failure (safe on a closed or never-opened writer). */
void slp_fw_discard(slp_fw_t *w);

typedef struct slp_fr {
    FILE *f;
    char *path;          /* owned, used in messages */
    unsigned long crc;   /* of everything read so far */
    int64_t size;        /* of the file */
} slp_fr_t;

/* Open a regular file for reading (`what` names it in messages: "checkpoint"). */
slp_err slp_fr_open(slp_fr_t *rd, const char *path, const char *what);
slp_err slp_fr_bytes(slp_fr_t *rd, void *data, size_t len);
slp_err slp_fr_i64(slp_fr_t *rd, int64_t *v, int64_t count);
slp_err slp_fr_i32(slp_fr_t *rd, int32_t *v, int64_t count);
slp_err slp_fr_u16(slp_fr_t *rd, uint16_t *v, int64_t count);
slp_err slp_fr_f64(slp_fr_t *rd, double *v, int64_t count);
/* Read the trailer, check it against the running checksum and that the file ends
 * there; *stored (may be NULL) receives it. */
slp_err slp_fr_trailer(slp_fr_t *rd, uint32_t *stored);
void slp_fr_close(slp_fr_t *rd);

/* crc32 of `bytes` bytes continuing `crc` (start with 0), any length. */
uint32_t slp_crc32(uint32_t crc, const void *data, size_t bytes);

/* Little-endian fields of fixed headers. */
void slp_le_put_u32(unsigned char *p, uint32_t v);
void slp_le_put_u64(unsigned char *p, uint64_t v);
uint32_t slp_le_get_u32(const unsigned char *p);
uint64_t slp_le_get_u64(const unsigned char *p);


#endif
