/* Distributed shard writing for the generators: each rank generates and writes only
 * the blocks (and slices) it owns; rank 0 gathers O(R*C) sizes and checksums and
 * writes the manifest (docs/shard-format.md, docs/generators.md). */
#include "gen.h"

#include <stdlib.h>
#include <string.h>

#include "core/timer.h"
#include "shard/shard_internal.h"

/* Files in the converter's fixed order: blocks row-major, column slices, row slices. */
static int64_t file_slot(int R, int C, int role, int r, int c)
{
    if (role == SLP_SHARD_BLOCK)
        return (int64_t)r * C + c;
    if (role == SLP_SHARD_COL_SLICE)
        return (int64_t)R * C + c;
    return (int64_t)R * C + C + r;
}

/* Open DIR/<file of role, r, c>, write the header; the caller writes the payload. */
static slp_err open_file(const char *tmp, int role, int r, int c, slp_shard_header_t *h,
                         slp_fw_t *fw)
{
    char name[48];
    slp_shard_file_name(role, r, c, name, sizeof name);
    char *path = slp_path_join(tmp, name);
    if (!path)
        return SLP_ERR_NOMEM;
    slp_err rc = slp_fw_open(fw, path);
    free(path);
    SLP_CALL(rc);
    rc = slp_shard_fw_header(fw, h);
    if (rc != SLP_OK)
        slp_fw_discard(fw);
    return rc;
}

static slp_err finish_file(slp_fw_t *fw, slp_err rc, int64_t *bytes, int64_t *crc)
{
    if (rc != SLP_OK) {
        slp_fw_discard(fw);
        return rc;
    }
    slp_shard_file_t info;
    SLP_CALL(slp_shard_fw_close(fw, &info));
    *bytes = info.bytes;
    *crc = (int64_t)info.crc32;
    return SLP_OK;
}

static void header_common(slp_shard_header_t *h, const slp_gen_t *g, int R, int C, int r, int c)
{
    h->R = R;
    h->C = C;
    h->r = r;
    h->c = c;
    h->m = g->m;
    h->n = g->n;
}

static slp_err write_block(const slp_gen_t *g, const char *tmp, int R, int C, int r, int c,
                           const int64_t *row_off, const int64_t *col_off, int compact_values,
                           int64_t *bytes, int64_t *crc, int64_t *nnz)
{
    slp_csr_t A;
    SLP_CALL(slp_gen_block(g, row_off[r], row_off[r + 1], col_off[c], col_off[c + 1], &A));
    slp_shard_block_values_t bv;
    slp_err rc = slp_shard_block_values(A.val, A.nnz, compact_values, &bv);
    if (rc != SLP_OK) {
        slp_csr_free(&A);
        return rc;
    }
    slp_shard_header_t h;
    slp_shard_header_init(&h, SLP_SHARD_BLOCK);
    header_common(&h, g, R, C, r, c);
    h.row_lo = row_off[r];
    h.m_loc = A.rows;
    h.col_lo = col_off[c];
    h.n_loc = A.cols;
    h.count = A.nnz;
    slp_shard_block_header_values(&h, A.rows, A.nnz, &bv);
    slp_fw_t fw;
    rc = open_file(tmp, SLP_SHARD_BLOCK, r, c, &h, &fw);
    if (rc == SLP_OK) {
        rc = slp_shard_fw_block_payload(&fw, A.rows, A.row_ptr, A.col_idx, A.val, &bv);
        rc = finish_file(&fw, rc, bytes, crc);
    }
    *nnz = A.nnz;
    slp_shard_block_values_free(&bv);
    slp_csr_free(&A);
    return rc;
}

/* Column slice c (is_col) or row slice r, streamed in chunks of CHUNK values. */
#define CHUNK 4096
static slp_err write_slice(const slp_gen_t *g, const char *tmp, int R, int C, int is_col,
                           int b, int64_t lo, int64_t len, int64_t *bytes, int64_t *crc)
{
    slp_shard_header_t h;
    slp_shard_header_init(&h, is_col ? SLP_SHARD_COL_SLICE : SLP_SHARD_ROW_SLICE);
    header_common(&h, g, R, C, is_col ? -1 : b, is_col ? b : -1);
    slp_shard_header_slice(&h, is_col, lo, len, is_col ? 3 : 2);
    slp_fw_t fw;
    SLP_CALL(open_file(tmp, is_col ? SLP_SHARD_COL_SLICE : SLP_SHARD_ROW_SLICE,
                       is_col ? -1 : b, is_col ? b : -1, &h, &fw));
    double buf[3][CHUNK];
    slp_err rc = SLP_OK;
    int arrays = is_col ? 3 : 2;
    /* The file holds whole arrays one after the other: one sweep per array. */
    for (int a = 0; rc == SLP_OK && a < arrays; a++)
        for (int64_t s = 0; rc == SLP_OK && s < len; s += CHUNK) {
            int64_t e = s + CHUNK < len ? s + CHUNK : len;
            for (int64_t k = s; k < e; k++) {
                if (is_col)
                    slp_gen_col_data(g, lo + k, &buf[0][k - s], &buf[1][k - s], &buf[2][k - s]);
                else
                    slp_gen_row_bounds(g, lo + k, &buf[0][k - s], &buf[1][k - s]);
            }
            rc = slp_fw_f64(&fw, buf[a], e - s);
        }
    return finish_file(&fw, rc, bytes, crc);
}

/* This rank's share: every block b with b % P == rank, and the slices of the blocks
 * (0, c) and (r, 0) among them. info = [bytes | crc | block nnz], zero where not ours. */
static slp_err write_owned(const slp_gen_t *g, const char *tmp, int R, int C,
                           const int64_t *row_off, const int64_t *col_off, int compact_values,
                           int rank, int P, int64_t *info, slp_gen_stats_t *stats)
{
    int64_t RC = (int64_t)R * C, nfiles = RC + R + C;
    int64_t *bytes = info, *crc = info + nfiles, *bnnz = info + 2 * nfiles;
    for (int64_t b = rank; b < RC; b += P) {
        int r = (int)(b / C), c = (int)(b % C);
        int64_t s = file_slot(R, C, SLP_SHARD_BLOCK, r, c);
        SLP_CALL(write_block(g, tmp, R, C, r, c, row_off, col_off, compact_values, &bytes[s],
                             &crc[s], &bnnz[b]));
        stats->blocks++;
        stats->nnz += bnnz[b];
        if (r == 0) {
            s = file_slot(R, C, SLP_SHARD_COL_SLICE, -1, c);
            SLP_CALL(write_slice(g, tmp, R, C, 1, c, col_off[c], col_off[c + 1] - col_off[c],
                                 &bytes[s], &crc[s]));
        }
        if (c == 0) {
            s = file_slot(R, C, SLP_SHARD_ROW_SLICE, r, -1);
            SLP_CALL(write_slice(g, tmp, R, C, 0, r, row_off[r], row_off[r + 1] - row_off[r],
                                 &bytes[s], &crc[s]));
        }
    }
    return SLP_OK;
}

static slp_err write_manifest(const slp_gen_t *g, const char *tmp, int R, int C, int64_t *row_off,
                              int64_t *col_off, const int64_t *info)
{
    int64_t RC = (int64_t)R * C, nfiles = RC + R + C;
    slp_shard_manifest_t man;
    memset(&man, 0, sizeof man);
    man.version = SLP_SHARD_VERSION;
    man.name = (char *)slp_gen_kind_name(g->kind);
    man.m = g->m;
    man.n = g->n;
    man.nnz = g->nnz;
    man.R = R;
    man.C = C;
    man.row_off = row_off;
    man.col_off = col_off;
    man.block_nnz = (int64_t *)(info + 2 * nfiles);
    man.sense = 1;
    man.obj_const = 0.0;
    man.has_names = 0;
    man.nfiles = nfiles;
    man.files = slp_calloc((size_t)nfiles, sizeof(slp_shard_file_t));
    if (!man.files)
        return SLP_ERR_NOMEM;
    int64_t total = 0;
    for (int64_t b = 0; b < RC; b++)
        total += man.block_nnz[b];
    for (int64_t s = 0; s < nfiles; s++) {
        slp_shard_file_t *f = &man.files[s];
        if (s < RC) {
            f->role = SLP_SHARD_BLOCK;
            f->r = (int)(s / C);
            f->c = (int)(s % C);
        } else if (s < RC + C) {
            f->role = SLP_SHARD_COL_SLICE;
            f->r = -1;
            f->c = (int)(s - RC);
        } else {
            f->role = SLP_SHARD_ROW_SLICE;
            f->r = (int)(s - RC - C);
            f->c = -1;
        }
        slp_shard_file_name(f->role, f->r, f->c, f->path, sizeof f->path);
        f->bytes = info[s];
        f->crc32 = (uint32_t)info[nfiles + s];
    }
    slp_err rc = SLP_OK;
    if (total != g->nnz)
        rc = slp_error(SLP_ERR_INTERNAL, "gen %s: blocks hold %lld nonzeros, formula says %lld",
                       slp_gen_kind_name(g->kind), (long long)total, (long long)g->nnz);
    if (rc == SLP_OK)
        rc = slp_shard_manifest_write(tmp, &man);
    free(man.files);
    return rc;
}

slp_err slp_gen_write_shards(const slp_gen_t *g, int R, int C, int compact_values,
                             const char *dir, slp_comm_t *world, slp_gen_stats_t *stats)
{
    memset(stats, 0, sizeof *stats);
    double t0 = slp_wall_seconds();
    int rank = slp_comm_rank(world), P = slp_comm_size(world);
    if (R < 1 || C < 1 || R > 65536 || C > 65536)
        return slp_error(SLP_ERR_INPUT, "bad grid %dx%d", R, C);
    int64_t RC = (int64_t)R * C, nfiles = RC + R + C;
    int64_t *row_off = slp_malloc(((size_t)R + 1) * sizeof(int64_t));
    int64_t *col_off = slp_malloc(((size_t)C + 1) * sizeof(int64_t));
    int64_t *info = slp_calloc((size_t)(3 * nfiles), sizeof(int64_t));
    char *tmp = NULL;
    slp_err rc = row_off && col_off && info ? SLP_OK : SLP_ERR_NOMEM;
    if (rc == SLP_OK) {
        slp_gen_cuts(g, 1, R, row_off);
        slp_gen_cuts(g, 0, C, col_off);
        for (int c = 0; c < C && rc == SLP_OK; c++)
            if (col_off[c + 1] - col_off[c] > INT32_MAX)
                rc = slp_error(SLP_ERR_INPUT, "column block %d has %lld columns, more than "
                               "32-bit block-local indices allow; use more grid columns", c,
                               (long long)(col_off[c + 1] - col_off[c]));
    }
    /* Rank 0 makes the temporary directory and tells the others its name. */
    if (rc == SLP_OK && rank == 0)
        rc = slp_dir_begin(dir, SLP_SHARD_MANIFEST, &tmp);
    rc = slp_comm_agree(world, rc);
    int64_t len = tmp ? (int64_t)strlen(tmp) + 1 : 0;
    if (rc == SLP_OK)
        rc = slp_comm_bcast(world, &len, sizeof len, 0);
    if (rc == SLP_OK && rank != 0) {
        tmp = slp_malloc((size_t)len);
        rc = tmp ? SLP_OK : SLP_ERR_NOMEM;
    }
    rc = slp_comm_agree(world, rc);
    if (rc == SLP_OK)
        rc = slp_comm_bcast(world, tmp, len, 0);
    if (rc == SLP_OK)
        rc = write_owned(g, tmp, R, C, row_off, col_off, compact_values, rank, P, info, stats);
    rc = slp_comm_agree(world, rc);
    if (rc == SLP_OK) /* each entry was set by exactly one rank: the sum is a gather */
        rc = slp_comm_sum_i64(world, info, 3 * nfiles);
    if (rc == SLP_OK && rank == 0) {
        rc = write_manifest(g, tmp, R, C, row_off, col_off, info);
        if (rc == SLP_OK)
            rc = slp_dir_commit(tmp, dir, SLP_SHARD_MANIFEST);
    }
    rc = slp_comm_agree(world, rc);
    if (rc != SLP_OK && rank == 0 && tmp)
        slp_dir_discard(tmp);
    free(tmp);
    free(row_off);
    free(col_off);
    free(info);
    stats->seconds = slp_wall_seconds() - t0;
    return rc;
}
