/* Internals shared by the shard reader and writers: the 128-byte file header, a
 * checksumming buffered writer and reader, a minimal JSON parser for the manifests,
 * and atomic directory handling. Not part of the public API (see shard.h). */
#ifndef SLP_SHARD_INTERNAL_H
#define SLP_SHARD_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "core/values.h"
#include "io/checked_file.h"
#include "io/json_out.h"
#include "io/json_read.h"
#include "shard.h"

#define SLP_SHARD_HEADER_BYTES 128
/* Largest manifest read (shard or solution): its size is checked before reading. */
#define SLP_MANIFEST_MAX_BYTES ((int64_t)1 << 30)

/* Magic strings (8 bytes, no terminator in the file). */
#define SLP_MAGIC_BLOCK "SLPBLOCK"
#define SLP_MAGIC_COL "SLPCOLSL"
#define SLP_MAGIC_ROW "SLPROWSL"
#define SLP_MAGIC_COLNAMES "SLPCOLNM"
#define SLP_MAGIC_ROWNAMES "SLPROWNM"
#define SLP_MAGIC_SOLX "SLPSOLNX"
#define SLP_MAGIC_SOLY "SLPSOLNY"
#define SLP_MAGIC_RAYX "SLPRAYX_"
#define SLP_MAGIC_RAYY "SLPRAYY_"

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
    uint32_t values_form;  /* blocks, version 2: slp_values_form of the values (offset 96) */
    uint32_t table_len;    /* blocks, version 2: distinct values of a table form (offset 100) */
} slp_shard_header_t;

const char *slp_shard_role_magic(int role);
const char *slp_shard_role_name(int role);
/* "block_3_1.bin", "col_2.bin", ... */
void slp_shard_file_name(int role, int r, int c, char *buf, size_t size);
/* Fill a header for a file of `role` (magic, version, sizes); the caller sets the rest. */
void slp_shard_header_init(slp_shard_header_t *h, int role);
/* The slice fields of a header: a column slice (is_col) or row slice of `len` entries
 * from global index `lo`, holding `arrays` float64 arrays. */
void slp_shard_header_slice(slp_shard_header_t *h, int is_col, int64_t lo, int64_t len,
                            int arrays);

/* ---- Shard files on the checksummed files of io/checked_file.h ---- */
slp_err slp_shard_fw_header(slp_fw_t *w, const slp_shard_header_t *h);
/* Close (trailer) and fill *info's bytes and crc32 (path/role left to the caller). */
slp_err slp_shard_fw_close(slp_fw_t *w, slp_shard_file_t *info);

typedef struct slp_shard_fr {
    slp_fr_t fr;
    uint32_t expect_crc; /* from the manifest */
    slp_shard_header_t h;
} slp_shard_fr_t;
/* Open the file listed by `entry` in `dir`: checks the size against the manifest,
 * the magic for entry->role, the version, the header checksum and that the payload
 * size matches the file size. */
slp_err slp_shard_fr_open(slp_shard_fr_t *rd, const char *dir, const slp_shard_file_t *entry);
/* Check that a header field has the expected value (message names the file). */
slp_err slp_shard_fr_expect(slp_shard_fr_t *rd, const char *field, int64_t got, int64_t want);
/* Read the trailer; check it against the running checksum and the manifest; close. */
slp_err slp_shard_fr_finish(slp_shard_fr_t *rd);
void slp_shard_fr_close(slp_shard_fr_t *rd);

/* ---- Block payloads (shard_block.c; docs/shard-format.md, "Block payload") ---- */
/* A block file whose values are in a compact form is version 2; every other shard
 * file, and a block of plain doubles, is version 1. */
#define SLP_SHARD_BLOCK_VERSION_COMPACT 2

/* How a block's values go to its file: plain doubles, or a compact exact form. */
typedef struct slp_shard_block_values {
    slp_values_form form;
    int table_len;  /* table forms: distinct values */
    double *table;  /* table forms: the values in increasing order (owned) */
    void *codes;    /* table forms: a uint8_t or uint16_t code per entry (owned) */
} slp_shard_block_values_t;

/* The form for val[0, nnz): plain unless `compact`, else the cheapest exact form
 * (core/values.h), encoded. Free with slp_shard_block_values_free. */
slp_err slp_shard_block_values(const double *val, int64_t nnz, int compact,
                               slp_shard_block_values_t *bv);
/* The form of the values a tally saw (core/values.h), with a table form's table (no
 * codes: the writer asks the tally for each chunk's). */
slp_err slp_shard_block_values_tallied(slp_values_tally_t *t, slp_shard_block_values_t *bv);
void slp_shard_block_values_free(slp_shard_block_values_t *bv);
/* A block header's version, values form, table length and payload size for bv. */
void slp_shard_block_header_values(slp_shard_header_t *h, int64_t m_loc, int64_t nnz,
                                   const slp_shard_block_values_t *bv);
/* The payload in pieces, for a writer that assembles a block in chunks: after the row
 * pointers, every chunk's column indices (signed-unit: with the values' signs), then the
 * values' start (padding, a table form's table), then the values (plain: doubles; a
 * table form: the codes, slp_values_tally_codes). */
slp_err slp_shard_fw_block_indices(slp_fw_t *fw, const int32_t *col_idx, const double *val,
                                   int64_t n, const slp_shard_block_values_t *bv);
slp_err slp_shard_fw_block_values_start(slp_fw_t *fw, int64_t nnz,
                                        const slp_shard_block_values_t *bv);
/* n values in bv's form: nothing (signed-unit), `codes` (table forms) or `val` (plain). */
slp_err slp_shard_fw_block_values(slp_fw_t *fw, int64_t n, const double *val, const void *codes,
                                  const slp_shard_block_values_t *bv);
/* The whole payload from memory: row_ptr [m_loc + 1] (from 0), col_idx and val
 * [row_ptr[m_loc]] in bv's form. */
slp_err slp_shard_fw_block_payload(slp_fw_t *fw, int64_t m_loc, const int64_t *row_ptr,
                                   const int32_t *col_idx, const double *val,
                                   const slp_shard_block_values_t *bv);
/* The smallest and largest payload any form gives a block of these sizes. */
int64_t slp_shard_block_min_payload(int64_t m_loc, int64_t nnz);
int64_t slp_shard_block_max_payload(int64_t m_loc, int64_t nnz);
/* A block header's values fields against its sizes (path names the file). */
slp_err slp_shard_block_check_header(const slp_shard_header_t *h, int64_t m_loc, int64_t nnz,
                                     const char *path);
/* Read the payload into A (created with m_loc rows and the header's nnz) as doubles;
 * *bad_code: the first entry whose table code is past the table (its value NaN), or -1,
 * for the caller to report after the checksum. */
slp_err slp_shard_fr_block_payload(slp_fr_t *fr, const slp_shard_header_t *h, int64_t m_loc,
                                   slp_csr_t *A, int64_t *bad_code);

/* ---- Directories ---- */
/* Create a fresh temporary directory next to `dir` ("DIR.tmp.XXXXXX"); checks that
 * `dir` may be replaced (absent, empty, or holding `manifest_name`). tmp is malloc'd. */
slp_err slp_dir_begin(const char *dir, const char *manifest_name, char **tmp);
/* Replace `dir` by `tmp`. */
slp_err slp_dir_commit(const char *tmp, const char *dir, const char *manifest_name);
/* Remove the regular files of `tmp` and the directory itself (errors ignored). */
void slp_dir_discard(const char *tmp);

/* Parse the "files" array into entries. */
slp_err slp_mjson_files(const slp_mjson_t *obj, const char *source, int64_t *nfiles,
                       slp_shard_file_t **files);
/* The model fingerprint of a file list (manifest "fingerprint"). */
uint32_t slp_shard_fingerprint(const slp_shard_file_t *files, int64_t nfiles);
/* Write a "files" array member (JSON text) for the manifests. */
void slp_mjson_write_files(FILE *f, const slp_shard_file_t *files, int64_t nfiles);

/* Write DIR/manifest.json (via a .tmp file and rename). */
slp_err slp_shard_manifest_write(const char *dir, const slp_shard_manifest_t *man);


#endif
