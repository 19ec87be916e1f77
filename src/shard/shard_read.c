/* Reading a shard directory: one rank's block and slices (or any (r, c), for tests and
 * tools), the collective per-rank read with agreed failure, and name files. */
#include "shard_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Open the manifest's file (role, r, c) and check the header's position fields. */
static slp_err open_checked(const char *dir, const slp_shard_manifest_t *man, int role, int r,
                            int c, slp_shard_fr_t *rd)
{
    const slp_shard_file_t *e = slp_shard_manifest_find(man, role, r, c);
    if (!e)
        return slp_error(SLP_ERR_INPUT, "%s/%s: no %s file listed for r=%d c=%d", dir,
                         SLP_SHARD_MANIFEST, slp_shard_role_name(role), r, c);
    SLP_CALL(slp_shard_fr_open(rd, dir, e));
    const slp_shard_header_t *h = &rd->h;
    SLP_CALL(slp_shard_fr_expect(rd, "R (grid rows)", h->R, man->R));
    SLP_CALL(slp_shard_fr_expect(rd, "C (grid columns)", h->C, man->C));
    SLP_CALL(slp_shard_fr_expect(rd, "r", h->r, r));
    SLP_CALL(slp_shard_fr_expect(rd, "c", h->c, c));
    SLP_CALL(slp_shard_fr_expect(rd, "m", h->m, man->m));
    SLP_CALL(slp_shard_fr_expect(rd, "n", h->n, man->n));
    if (r >= 0) {
        SLP_CALL(slp_shard_fr_expect(rd, "row_lo", h->row_lo, man->row_off[r]));
        SLP_CALL(slp_shard_fr_expect(rd, "m_loc", h->m_loc, man->row_off[r + 1] - man->row_off[r]));
    }
    if (c >= 0) {
        SLP_CALL(slp_shard_fr_expect(rd, "col_lo", h->col_lo, man->col_off[c]));
        SLP_CALL(slp_shard_fr_expect(rd, "n_loc", h->n_loc, man->col_off[c + 1] - man->col_off[c]));
    }
    return SLP_OK;
}

static slp_err read_block_file(const char *dir, const slp_shard_manifest_t *man, int r, int c,
                               slp_local_problem_t *lp)
{
    slp_shard_fr_t rd;
    slp_err rc = open_checked(dir, man, SLP_SHARD_BLOCK, r, c, &rd);
    int64_t m_loc = lp->m_loc, nnz = man->block_nnz[(int64_t)r * man->C + c];
    if (rc == SLP_OK)
        rc = slp_shard_fr_expect(&rd, "nnz", rd.h.count, nnz);
    if (rc == SLP_OK)
        rc = slp_shard_block_check_header(&rd.h, m_loc, nnz, rd.fr.path);
    if (rc == SLP_OK)
        rc = slp_csr_create(m_loc, lp->n_loc, nnz, &lp->A);
    int64_t bad_code = -1;
    if (rc == SLP_OK)
        rc = slp_shard_fr_block_payload(&rd.fr, &rd.h, m_loc, &lp->A, &bad_code);
    if (rc == SLP_OK)
        rc = slp_shard_fr_finish(&rd);
    if (rc == SLP_OK && bad_code >= 0)
        rc = slp_error(SLP_ERR_INPUT, "%s: entry %lld has a value code past the block's table "
                       "of %u values", rd.fr.path, (long long)bad_code, rd.h.table_len);
    /* Structure (after the checksum, so this only catches a writer bug or a forged file). */
    if (rc == SLP_OK) {
        const slp_csr_t *A = &lp->A;
        char name[64];
        slp_shard_file_name(SLP_SHARD_BLOCK, r, c, name, sizeof name);
        if (A->row_ptr[0] != 0 || A->row_ptr[m_loc] != nnz)
            rc = slp_error(SLP_ERR_INPUT, "%s/%s: row pointers do not run from 0 to nnz", dir, name);
        for (int64_t i = 0; rc == SLP_OK && i < m_loc; i++) {
            if (A->row_ptr[i + 1] < A->row_ptr[i]) {
                rc = slp_error(SLP_ERR_INPUT, "%s/%s: row pointers decrease at row %lld", dir, name,
                               (long long)i);
                break;
            }
            for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
                if (A->col_idx[k] < 0 || A->col_idx[k] >= lp->n_loc ||
                    (k > A->row_ptr[i] && A->col_idx[k] <= A->col_idx[k - 1])) {
                    rc = slp_error(SLP_ERR_INPUT,
                                   "%s/%s: column indices of row %lld out of range or unsorted",
                                   dir, name, (long long)i);
                    break;
                }
        }
    }
    slp_shard_fr_close(&rd);
    return rc;
}

static slp_err read_slice(const char *dir, const slp_shard_manifest_t *man, int role, int block,
                          int64_t len, double *a, double *b, double *c3)
{
    slp_shard_fr_t rd;
    int is_row = role == SLP_SHARD_ROW_SLICE;
    slp_err rc = open_checked(dir, man, role, is_row ? block : -1, is_row ? -1 : block, &rd);
    int arrays = c3 ? 3 : 2;
    if (rc == SLP_OK)
        rc = slp_shard_fr_expect(&rd, "count", rd.h.count, len);
    if (rc == SLP_OK)
        rc = slp_shard_fr_expect(&rd, "payload size", rd.h.payload_bytes, 8 * arrays * len);
    if (rc == SLP_OK)
        rc = slp_fr_f64(&rd.fr, a, len);
    if (rc == SLP_OK)
        rc = slp_fr_f64(&rd.fr, b, len);
    if (rc == SLP_OK && c3)
        rc = slp_fr_f64(&rd.fr, c3, len);
    if (rc == SLP_OK)
        rc = slp_shard_fr_finish(&rd);
    slp_shard_fr_close(&rd);
    return rc;
}

/* The values a rank read, checked like slp_model_validate checks a whole model: a file
 * with a valid checksum can still carry NaN or inconsistent bounds (a buggy generator or
 * a forged file), and the solver would only see them as a numerical_error later.
 * Indices in messages are global. */
static slp_err check_values(const char *dir, const slp_local_problem_t *lp, int r, int c)
{
    char col[64], row[64], blk[64];
    slp_shard_file_name(SLP_SHARD_COL_SLICE, r, c, col, sizeof col);
    slp_shard_file_name(SLP_SHARD_ROW_SLICE, r, c, row, sizeof row);
    slp_shard_file_name(SLP_SHARD_BLOCK, r, c, blk, sizeof blk);
    for (int64_t j = 0; j < lp->n_loc; j++) {
        long long g = (long long)(lp->col_lo + j);
        if (!isfinite(lp->obj[j]))
            return slp_error(SLP_ERR_INPUT, "%s/%s: objective coefficient of column %lld is not "
                             "finite (%g)", dir, col, g, lp->obj[j]);
        if (isnan(lp->lv[j]) || isnan(lp->uv[j]) || lp->lv[j] == INFINITY ||
            lp->uv[j] == -INFINITY || lp->lv[j] > lp->uv[j])
            return slp_error(SLP_ERR_INPUT, "%s/%s: column %lld has invalid bounds [%g, %g]", dir,
                             col, g, lp->lv[j], lp->uv[j]);
    }
    for (int64_t i = 0; i < lp->m_loc; i++)
        if (isnan(lp->lc[i]) || isnan(lp->uc[i]) || lp->lc[i] == INFINITY ||
            lp->uc[i] == -INFINITY || lp->lc[i] > lp->uc[i])
            return slp_error(SLP_ERR_INPUT, "%s/%s: row %lld has invalid bounds [%g, %g]", dir, row,
                             (long long)(lp->row_lo + i), lp->lc[i], lp->uc[i]);
    for (int64_t k = 0; k < lp->A.nnz; k++)
        if (!isfinite(lp->A.val[k]))
            return slp_error(SLP_ERR_INPUT, "%s/%s: matrix entry %lld of the block is not finite "
                             "(%g)", dir, blk, (long long)k, lp->A.val[k]);
    if (!isfinite(lp->obj_const))
        return slp_error(SLP_ERR_INPUT, "%s/%s: objective constant is not finite", dir,
                         SLP_SHARD_MANIFEST);
    return SLP_OK;
}

/* Before allocating anything sized by the manifest: each of the rank's three files must
 * exist with exactly the size its sizes imply (header + payload + trailer), so a forged
 * or damaged manifest (m = 10^12 with a 200-byte block file) fails with a message
 * instead of a huge allocation. Found by fuzz/fuzz_shard.c (docs/fuzzing.md). */
static slp_err check_file_sizes(const char *dir, const slp_shard_manifest_t *man, int r, int c,
                                int64_t m_loc, int64_t n_loc)
{
    int64_t nnz = man->block_nnz[(int64_t)r * man->C + c];
    const int64_t big = INT64_MAX / 64;
    if (m_loc < 0 || n_loc < 0 || nnz < 0 || m_loc > big || n_loc > big || nnz > big)
        return slp_error(SLP_ERR_INPUT, "%s/%s: block (%d, %d) sizes out of range", dir,
                         SLP_SHARD_MANIFEST, r, c);
    const int roles[3] = {SLP_SHARD_BLOCK, SLP_SHARD_COL_SLICE, SLP_SHARD_ROW_SLICE};
    /* A block's size depends on its values' form (docs/shard-format.md): any size
       between the forms' smallest and largest bounds the arrays by the file. */
    const int64_t low[3] = {slp_shard_block_min_payload(m_loc, nnz), 24 * n_loc, 16 * m_loc};
    const int64_t high[3] = {slp_shard_block_max_payload(m_loc, nnz), 24 * n_loc, 16 * m_loc};
    for (int k = 0; k < 3; k++) {
        int fr = roles[k] == SLP_SHARD_COL_SLICE ? -1 : r;
        int fc = roles[k] == SLP_SHARD_ROW_SLICE ? -1 : c;
        const slp_shard_file_t *e = slp_shard_manifest_find(man, roles[k], fr, fc);
        if (!e)
            return slp_error(SLP_ERR_INPUT, "%s/%s: no %s file listed for r=%d c=%d", dir,
                             SLP_SHARD_MANIFEST, slp_shard_role_name(roles[k]), fr, fc);
        int64_t frame = SLP_SHARD_HEADER_BYTES + SLP_CHECKED_TRAILER_BYTES;
        char *path = slp_path_join(dir, e->path);
        if (!path)
            return SLP_ERR_NOMEM;
        struct stat st;
        slp_err rc = SLP_OK;
        if (stat(path, &st) != 0)
            rc = slp_error(SLP_ERR_IO, "%s: cannot open %s file: %s", path,
                           slp_shard_role_name(roles[k]), strerror(errno));
        else if ((int64_t)st.st_size != e->bytes)
            rc = slp_error(SLP_ERR_INPUT,
                           "%s: file is %lld bytes but the manifest says %lld (truncated or replaced)",
                           path, (long long)st.st_size, (long long)e->bytes);
        else if (e->bytes < frame + low[k] || e->bytes > frame + high[k])
            rc = low[k] == high[k]
                     ? slp_error(SLP_ERR_INPUT,
                                 "%s: file is %lld bytes but the manifest's sizes (m, n, nnz, "
                                 "cut points) need %lld: damaged manifest",
                                 path, (long long)e->bytes, (long long)(frame + low[k]))
                     : slp_error(SLP_ERR_INPUT,
                                 "%s: file is %lld bytes but the manifest's sizes (m, n, nnz, "
                                 "cut points) need %lld to %lld: damaged manifest",
                                 path, (long long)e->bytes, (long long)(frame + low[k]),
                                 (long long)(frame + high[k]));
        free(path);
        SLP_CALL(rc);
    }
    return SLP_OK;
}

slp_err slp_shard_read_block(const char *dir, const slp_shard_manifest_t *man, int r, int c,
                             slp_local_problem_t *out)
{
    memset(out, 0, sizeof *out);
    if (r < 0 || r >= man->R || c < 0 || c >= man->C)
        return slp_error(SLP_ERR_INPUT, "%s: no block (%d, %d) in a %dx%d grid", dir, r, c, man->R,
                         man->C);
    int64_t m_loc = man->row_off[r + 1] - man->row_off[r];
    int64_t n_loc = man->col_off[c + 1] - man->col_off[c];
    SLP_CALL(check_file_sizes(dir, man, r, c, m_loc, n_loc));
    /* Allocate the vectors now and the matrix when its header has been checked. */
    SLP_CALL(slp_local_problem_alloc(out, man->R, man->C, m_loc, n_loc, 0));
    slp_csr_free(&out->A);
    out->m = man->m;
    out->n = man->n;
    out->nnz = man->nnz;
    memcpy(out->row_off, man->row_off, (size_t)(man->R + 1) * sizeof(int64_t));
    memcpy(out->col_off, man->col_off, (size_t)(man->C + 1) * sizeof(int64_t));
    out->sense = man->sense;
    out->obj_const = man->obj_const;
    out->r = r;
    out->c = c;
    out->row_lo = man->row_off[r];
    out->col_lo = man->col_off[c];
    slp_err rc = read_block_file(dir, man, r, c, out);
    if (rc == SLP_OK)
        rc = read_slice(dir, man, SLP_SHARD_COL_SLICE, c, n_loc, out->obj, out->lv, out->uv);
    if (rc == SLP_OK)
        rc = read_slice(dir, man, SLP_SHARD_ROW_SLICE, r, m_loc, out->lc, out->uc, NULL);
    if (rc == SLP_OK)
        rc = check_values(dir, out, r, c);
    if (rc != SLP_OK)
        slp_local_problem_free(out);
    return rc;
}

slp_err slp_shard_read_manifest_all(const char *dir, slp_shard_manifest_t *out)
{
    slp_comm_t *world = slp_comm_world();
    slp_err rc = slp_shard_read_manifest(dir, out);
    /* Every rank reads the same file, so the same error appears on every rank. */
    rc = slp_comm_agree_named(world, rc, "reading the shard manifest");
    if (rc == SLP_OK) {
        int size = slp_comm_size(world);
        if ((int64_t)out->R * out->C != size)
            rc = slp_error(SLP_ERR_MPI,
                           "%s/%s: the shards are cut for a %dx%d grid (%lld ranks) but the job "
                           "has %d rank%s; run with mpirun -np %lld",
                           dir, SLP_SHARD_MANIFEST, out->R, out->C, (long long)out->R * out->C,
                           size, size == 1 ? "" : "s", (long long)out->R * out->C);
    }
    if (rc != SLP_OK)
        slp_shard_manifest_free(out);
    return rc;
}

slp_err slp_shard_read_local_from(const char *dir, const slp_shard_manifest_t *man,
                                  slp_grid_t *grid, slp_local_problem_t *out)
{
    memset(out, 0, sizeof *out);
    /* Same answer on every rank: no agreement needed for the grid check. */
    if (grid->R != man->R || grid->C != man->C)
        return slp_error(SLP_ERR_MPI, "%s/%s: the shards are cut for a %dx%d grid, the job's "
                         "grid is %dx%d", dir, SLP_SHARD_MANIFEST, man->R, man->C, grid->R,
                         grid->C);
    slp_err rc = slp_shard_read_block(dir, man, grid->r, grid->c, out);
    rc = slp_comm_agree_named(grid->world, rc, "reading the shards");
    if (rc != SLP_OK)
        slp_local_problem_free(out);
    else /* the problem enters in canonical form (core/local_problem.h) */
        slp_local_problem_canonical_bounds(out);
    return rc;
}

slp_err slp_shard_read_local(const char *dir, slp_grid_t *grid, slp_local_problem_t *out)
{
    memset(out, 0, sizeof *out);
    slp_shard_manifest_t man;
    SLP_CALL(slp_shard_read_manifest_all(dir, &man));
    slp_err rc = slp_shard_read_local_from(dir, &man, grid, out);
    slp_shard_manifest_free(&man);
    return rc;
}

/* ---- names ------------------------------------------------------------------------- */

void slp_shard_names_free(slp_shard_names_t *names)
{
    if (!names)
        return;
    free(names->name);
    free(names->data);
    memset(names, 0, sizeof *names);
}

slp_err slp_shard_read_names(const char *dir, const slp_shard_manifest_t *man, int is_row,
                             int block, slp_shard_names_t *out)
{
    memset(out, 0, sizeof *out);
    int parts = is_row ? man->R : man->C;
    if (block < 0 || block >= parts)
        return slp_error(SLP_ERR_INPUT, "%s: no %s block %d", dir, is_row ? "row" : "column", block);
    const int64_t *off = is_row ? man->row_off : man->col_off;
    int64_t lo = off[block], count = off[block + 1] - lo;
    slp_err rc = SLP_OK;
    if (!man->has_names) {
        /* Generated names, like slp_model_row_name / slp_model_col_name. */
        size_t bytes = (size_t)count * 24 + 1;
        out->data = slp_malloc(bytes);
        out->name = slp_malloc((size_t)(count ? count : 1) * sizeof(char *));
        if (!out->data || !out->name) {
            slp_shard_names_free(out);
            return SLP_ERR_NOMEM;
        }
        size_t pos = 0;
        for (int64_t k = 0; k < count; k++) {
            out->name[k] = out->data + pos;
            pos += (size_t)snprintf(out->data + pos, bytes - pos, "%c%lld", is_row ? 'R' : 'C',
                                    (long long)(lo + k)) + 1;
        }
        out->count = count;
        return SLP_OK;
    }
    int role = is_row ? SLP_SHARD_ROW_NAMES : SLP_SHARD_COL_NAMES;
    slp_shard_fr_t rd;
    rc = open_checked(dir, man, role, is_row ? block : -1, is_row ? -1 : block, &rd);
    if (rc == SLP_OK)
        rc = slp_shard_fr_expect(&rd, "count", rd.h.count, count);
    if (rc == SLP_OK && rd.h.payload_bytes < count)
        rc = slp_error(SLP_ERR_INPUT, "%s: %lld payload bytes cannot hold %lld names", rd.fr.path,
                       (long long)rd.h.payload_bytes, (long long)count);
    if (rc == SLP_OK) {
        out->data = slp_malloc((size_t)rd.h.payload_bytes + 1);
        out->name = slp_malloc((size_t)(count ? count : 1) * sizeof(char *));
        rc = out->data && out->name ? SLP_OK : SLP_ERR_NOMEM;
    }
    if (rc == SLP_OK)
        rc = slp_fr_bytes(&rd.fr, out->data, (size_t)rd.h.payload_bytes);
    int64_t payload = rd.h.payload_bytes;
    char *path = rd.fr.path ? slp_strdup(rd.fr.path) : NULL;
    if (rc == SLP_OK)
        rc = slp_shard_fr_finish(&rd);
    if (rc == SLP_OK) {
        int64_t k = 0, start = 0;
        for (int64_t p = 0; p < payload; p++)
            if (out->data[p] == '\0') {
                if (k < count)
                    out->name[k] = out->data + start;
                k++;
                start = p + 1;
            }
        if (k != count || (payload > 0 && out->data[payload - 1] != '\0'))
            rc = slp_error(SLP_ERR_INPUT, "%s: holds %lld names, expected %lld",
                           path ? path : dir, (long long)k, (long long)count);
        out->count = count;
    }
    free(path);
    slp_shard_fr_close(&rd);
    if (rc != SLP_OK)
        slp_shard_names_free(out);
    return rc;
}
