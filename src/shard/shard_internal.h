/* Internals shared by the shard reader and writers: the 128-byte file header, a
 * checksumming buffered writer and reader, a minimal JSON parser for the manifests,
 * and atomic directory handling. Not part of the public API (see shard.h). */
#ifndef SLP_SHARD_INTERNAL_H
#define SLP_SHARD_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "shard.h"

#define SLP_SHARD_HEADER_BYTES 128
#define SLP_SHARD_TRAILER_BYTES 4

/* Magic strings (8 bytes, no terminator in the file). */
#define SLP_MAGIC_BLOCK "SLPBLOCK"
#define SLP_MAGIC_COL "SLPCOLSL"
#define SLP_MAGIC_ROW "SLPROWSL"
#define SLP_MAGIC_COLNAMES "SLPCOLNM"
#define SLP_MAGIC_ROWNAMES "SLPROWNM"
#define SLP_MAGIC_SOLX "SLPSOLNX"
#define SLP_MAGIC_SOLY "SLPSOLNY"

/* The common header (docs/shard-format.md, "File header"). */
typedef struct slp_shard_header {
    char magic[8];
    uint32_t version;
    uint32_t header_bytes;
    int32_t R, C, r, c;
    int64_t row_lo, m_loc, col_lo, n_loc;
    int64_t count;         /* nnz (block) or entries per array / names */
    int64_t m, n;          /* global sizes */
    int64_t payload_bytes;
} slp_shard_header_t;

const char *slp_shard_role_magic(int role);
const char *slp_shard_role_name(int role);
/* "block_3_1.bin", "col_2.bin", ... */
void slp_shard_file_name(int role, int r, int c, char *buf, size_t size);
/* Fill a header for a file of `role` (magic, version, sizes); the caller sets the rest. */
void slp_shard_header_init(slp_shard_header_t *h, int role);

/* ---- Checksumming buffered writer ---- */
typedef struct slp_fw {
    FILE *f;
    char *path;          /* owned */
    unsigned long crc;
    int64_t bytes;
    unsigned char *buf;  /* owned, SLP_FW_BUF bytes */
    size_t used;
} slp_fw_t;

slp_err slp_fw_open(slp_fw_t *w, const char *path);
slp_err slp_fw_bytes(slp_fw_t *w, const void *data, size_t len);
slp_err slp_fw_header(slp_fw_t *w, const slp_shard_header_t *h);
slp_err slp_fw_i64(slp_fw_t *w, const int64_t *v, int64_t count);
slp_err slp_fw_i32(slp_fw_t *w, const int32_t *v, int64_t count);
slp_err slp_fw_f64(slp_fw_t *w, const double *v, int64_t count);
slp_err slp_fw_zeros(slp_fw_t *w, size_t len);
/* Write the trailer, close, fill *info (bytes, crc32; path/role left to the caller). */
slp_err slp_fw_close(slp_fw_t *w, slp_shard_file_t *info);
/* Close and delete after a failure (safe on a closed or never-opened writer). */
void slp_fw_discard(slp_fw_t *w);

/* ---- Checksumming reader ---- */
typedef struct slp_fr {
    FILE *f;
    char *path;          /* owned: DIR/NAME, used in messages */
    unsigned long crc;
    int64_t size;
    uint32_t expect_crc; /* from the manifest */
    slp_shard_header_t h;
} slp_fr_t;

/* Open the file listed by `entry` in `dir`: checks the size against the manifest,
 * the magic for entry->role, the version, the header checksum and that the payload
 * size matches the file size. */
slp_err slp_fr_open(slp_fr_t *rd, const char *dir, const slp_shard_file_t *entry);
/* Check that a header field has the expected value (message names the file). */
slp_err slp_fr_expect(slp_fr_t *rd, const char *field, int64_t got, int64_t want);
slp_err slp_fr_bytes(slp_fr_t *rd, void *data, size_t len);
slp_err slp_fr_i64(slp_fr_t *rd, int64_t *v, int64_t count);
slp_err slp_fr_i32(slp_fr_t *rd, int32_t *v, int64_t count);
slp_err slp_fr_f64(slp_fr_t *rd, double *v, int64_t count);
/* Read the trailer; check it against the running checksum and the manifest; close. */
slp_err slp_fr_finish(slp_fr_t *rd);
void slp_fr_close(slp_fr_t *rd);

/* ---- Paths and directories ---- */
/* Joined "dir/name" (malloc'd) or NULL on out-of-memory. */
char *slp_path_join(const char *dir, const char *name);
/* Create a fresh temporary directory next to `dir` ("DIR.tmp.<pid>"); checks that
 * `dir` may be replaced (absent, empty, or holding `manifest_name`). tmp is malloc'd. */
slp_err slp_dir_begin(const char *dir, const char *manifest_name, char **tmp);
/* Replace `dir` by `tmp`. */
slp_err slp_dir_commit(const char *tmp, const char *dir, const char *manifest_name);
/* Remove the regular files of `tmp` and the directory itself (errors ignored). */
void slp_dir_discard(const char *tmp);

/* ---- Minimal JSON ---- */
typedef enum { SLP_MJSON_NULL, SLP_MJSON_BOOL, SLP_MJSON_NUM, SLP_MJSON_STR, SLP_MJSON_ARR,
               SLP_MJSON_OBJ } slp_mjson_type;
typedef struct slp_mjson {
    slp_mjson_type type;
    int is_int;          /* number written without fraction or exponent */
    int64_t ival;
    double num;
    char *str;           /* SLP_MJSON_STR */
    int64_t len;         /* children of ARR / OBJ */
    char **keys;         /* OBJ keys [len] */
    struct slp_mjson *items; /* [len] */
} slp_mjson_t;

/* Parse text; on error the message names `source`. */
slp_err slp_mjson_parse(const char *text, const char *source, slp_mjson_t *out);
void slp_mjson_free(slp_mjson_t *v);
const slp_mjson_t *slp_mjson_get(const slp_mjson_t *obj, const char *key);
/* Read the whole (small) file into a NUL-terminated buffer. */
slp_err slp_read_text_file(const char *path, int64_t max_bytes, char **out);

/* Typed getters for manifest fields: errors say "<source>: field 'key' ...". */
slp_err slp_mjson_int(const slp_mjson_t *obj, const char *key, const char *source, int64_t lo,
                     int64_t hi, int64_t *out);
slp_err slp_mjson_num(const slp_mjson_t *obj, const char *key, const char *source, double *out);
slp_err slp_mjson_int_array(const slp_mjson_t *obj, const char *key, const char *source,
                           int64_t len, int64_t *out);
/* Parse the "files" array into entries. */
slp_err slp_mjson_files(const slp_mjson_t *obj, const char *source, int64_t *nfiles,
                       slp_shard_file_t **files);
/* Write a "files" array member (JSON text) for the manifests. */
void slp_mjson_write_files(FILE *f, const slp_shard_file_t *files, int64_t nfiles);
/* Print a double so that it reads back exactly; non-finite values as strings
 * "inf", "-inf", "nan" (the parser accepts those for numeric fields). */
void slp_mjson_write_double(FILE *f, double v);

/* Write DIR/manifest.json (via a .tmp file and rename). */
slp_err slp_shard_manifest_write(const char *dir, const slp_shard_manifest_t *man);

/* Index of the block holding global index g in off[0..parts]. */
int slp_shard_block_of(const int64_t *off, int parts, int64_t g);

#endif
