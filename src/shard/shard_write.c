/* The MPS-to-shards converter's writer (shard_writer.h) and its whole-model path
 * (slp_shard_write_model); the bounded-memory streaming path is shard_stream.c. Both cut
 * rows and columns with slp_balanced_cuts on the nonzero counts and write the same
 * bytes. */
#include "shard_writer.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>


/* Files are listed in a fixed order whatever the order they are written in:
 * blocks row-major, column slices, row slices, column names, row names. */
static int64_t slot(const slp_shard_manifest_t *man, int role, int r, int c)
{
    int64_t RC = (int64_t)man->R * man->C;
    switch (role) {
    case SLP_SHARD_BLOCK: return (int64_t)r * man->C + c;
    case SLP_SHARD_COL_SLICE: return RC + c;
    case SLP_SHARD_ROW_SLICE: return RC + man->C + r;
    case SLP_SHARD_COL_NAMES: return RC + man->C + man->R + c;
    default: return RC + 2 * (int64_t)man->C + man->R + r;
    }
}

slp_err slp_shard_writer_frame(writer_t *w, const char *name, int64_t m, int64_t n, int R,
                               int C, int sense, double obj_const, int has_names)
{
    memset(w, 0, sizeof *w);
    if (R < 1 || C < 1 || R > 65536 || C > 65536)
        return slp_error(SLP_ERR_INPUT, "bad grid %dx%d", R, C);
    slp_shard_manifest_t *man = &w->man;
    man->version = SLP_SHARD_VERSION;
    man->m = m;
    man->n = n;
    man->R = R;
    man->C = C;
    man->sense = sense < 0 ? -1 : 1;
    man->obj_const = obj_const;
    man->has_names = has_names;
    man->nfiles = (int64_t)R * C + R + C + (has_names ? R + C : 0);
    man->name = slp_strdup(name ? name : "");
    if (!man->name)
        return SLP_ERR_NOMEM;
    SLP_CALL(slp_alloc(&man->row_off, (size_t)R + 1, sizeof(int64_t)));
    SLP_CALL(slp_alloc(&man->col_off, (size_t)C + 1, sizeof(int64_t)));
    man->block_nnz = slp_calloc((size_t)R * (size_t)C, sizeof(int64_t));
    man->files = slp_calloc((size_t)man->nfiles, sizeof(slp_shard_file_t));
    return man->block_nnz && man->files ? SLP_OK : SLP_ERR_NOMEM;
}

slp_err slp_shard_writer_check_cuts(const writer_t *w)
{
    const slp_shard_manifest_t *man = &w->man;
    for (int c = 0; c < man->C; c++)
        if (man->col_off[c + 1] - man->col_off[c] > INT32_MAX)
            return slp_error(SLP_ERR_INPUT,
                             "column block %d has %lld columns, more than 32-bit block-local "
                             "indices allow; use more grid columns",
                             c, (long long)(man->col_off[c + 1] - man->col_off[c]));
    return SLP_OK;
}

void slp_shard_writer_list_files(writer_t *w)
{
    slp_shard_manifest_t *man = &w->man;
    int64_t RC = (int64_t)man->R * man->C;
    for (int64_t s = 0; s < man->nfiles; s++) {
        slp_shard_file_t *e = &man->files[s];
        int64_t k = s < RC ? s : (s - RC) % (man->C + man->R); /* a slice or names' block */
        if (s < RC) {
            e->role = SLP_SHARD_BLOCK;
            e->r = (int)(s / man->C);
            e->c = (int)(s % man->C);
        } else {
            int names = s >= RC + man->C + man->R, col = k < man->C;
            e->role = names ? (col ? SLP_SHARD_COL_NAMES : SLP_SHARD_ROW_NAMES)
                            : (col ? SLP_SHARD_COL_SLICE : SLP_SHARD_ROW_SLICE);
            e->r = col ? -1 : (int)(k - man->C);
            e->c = col ? (int)k : -1;
        }
        slp_shard_file_name(e->role, e->r, e->c, e->path, sizeof e->path);
    }
}

/* Set up the layout (cuts from the counts) and the temporary directory. */
slp_err slp_shard_writer_begin(writer_t *w, const slp_model_t *skel, int R, int C,
                               const int64_t *row_nnz, const int64_t *col_nnz, const char *dir)
{
    SLP_CALL(slp_shard_writer_frame(w, skel->name, skel->m, skel->n, R, C, skel->sense,
                                    skel->obj_const,
                                    skel->row_names != NULL || skel->col_names != NULL));
    slp_balanced_cuts(row_nnz, skel->m, R, w->man.row_off);
    slp_balanced_cuts(col_nnz, skel->n, C, w->man.col_off);
    SLP_CALL(slp_shard_writer_check_cuts(w));
    return slp_dir_begin(dir, SLP_SHARD_MANIFEST, &w->tmp);
}

void slp_shard_writer_abort(writer_t *w)
{
    if (w->tmp)
        slp_dir_discard(w->tmp);
    free(w->tmp);
    slp_shard_manifest_free(&w->man);
    memset(w, 0, sizeof *w);
}

slp_err slp_shard_writer_commit(writer_t *w, const char *dir)
{
    SLP_CALL(slp_shard_manifest_write(w->tmp, &w->man));
    SLP_CALL(slp_dir_commit(w->tmp, dir, SLP_SHARD_MANIFEST));
    free(w->tmp);
    w->tmp = NULL;
    slp_shard_manifest_free(&w->man);
    return SLP_OK;
}

/* Open file (role, r, c) in the temporary directory and write its header. */
slp_err slp_shard_writer_open_file(writer_t *w, int role, int r, int c, slp_shard_header_t *h,
                                   slp_fw_t *fw)
{
    slp_shard_file_t *e = &w->man.files[slot(&w->man, role, r, c)];
    slp_shard_file_name(role, r, c, e->path, sizeof e->path);
    e->role = role;
    e->r = r;
    e->c = c;
    char *path = slp_path_join(w->tmp, e->path);
    if (!path)
        return SLP_ERR_NOMEM;
    slp_err rc = slp_fw_open(fw, path);
    free(path);
    SLP_CALL(rc);
    h->R = w->man.R;
    h->C = w->man.C;
    h->r = r;
    h->c = c;
    h->m = w->man.m;
    h->n = w->man.n;
    rc = slp_shard_fw_header(fw, h);
    if (rc != SLP_OK)
        slp_fw_discard(fw);
    return rc;
}

slp_err slp_shard_writer_close_file(writer_t *w, int role, int r, int c, slp_fw_t *fw,
                                    slp_err rc)
{
    if (rc != SLP_OK) {
        slp_fw_discard(fw);
        return rc;
    }
    return slp_shard_fw_close(fw, &w->man.files[slot(&w->man, role, r, c)]);
}

void slp_shard_writer_block_header(const writer_t *w, int r, int c, int64_t nnz,
                                   const slp_shard_block_values_t *bv, slp_shard_header_t *h)
{
    const slp_shard_manifest_t *man = &w->man;
    slp_shard_header_init(h, SLP_SHARD_BLOCK);
    h->row_lo = man->row_off[r];
    h->m_loc = man->row_off[r + 1] - man->row_off[r];
    h->col_lo = man->col_off[c];
    h->n_loc = man->col_off[c + 1] - man->col_off[c];
    h->count = nnz;
    slp_shard_block_header_values(h, h->m_loc, nnz, bv);
}

slp_err slp_shard_writer_col_slice(writer_t *w, int c, const double *obj, const double *lv,
                                   const double *uv)
{
    int64_t lo = w->man.col_off[c], len = w->man.col_off[c + 1] - lo;
    slp_shard_header_t h;
    slp_fw_t fw;
    slp_shard_header_init(&h, SLP_SHARD_COL_SLICE);
    slp_shard_header_slice(&h, 1, lo, len, 3);
    SLP_CALL(slp_shard_writer_open_file(w, SLP_SHARD_COL_SLICE, -1, c, &h, &fw));
    slp_err rc = slp_fw_f64(&fw, obj, len);
    if (rc == SLP_OK)
        rc = slp_fw_f64(&fw, lv, len);
    if (rc == SLP_OK)
        rc = slp_fw_f64(&fw, uv, len);
    return slp_shard_writer_close_file(w, SLP_SHARD_COL_SLICE, -1, c, &fw, rc);
}

slp_err slp_shard_writer_row_slice(writer_t *w, int r, const double *lc, const double *uc)
{
    int64_t lo = w->man.row_off[r], len = w->man.row_off[r + 1] - lo;
    slp_shard_header_t h;
    slp_fw_t fw;
    slp_shard_header_init(&h, SLP_SHARD_ROW_SLICE);
    slp_shard_header_slice(&h, 0, lo, len, 2);
    SLP_CALL(slp_shard_writer_open_file(w, SLP_SHARD_ROW_SLICE, r, -1, &h, &fw));
    slp_err rc = slp_fw_f64(&fw, lc, len);
    if (rc == SLP_OK)
        rc = slp_fw_f64(&fw, uc, len);
    return slp_shard_writer_close_file(w, SLP_SHARD_ROW_SLICE, r, -1, &fw, rc);
}

/* Open the name file of row block b (is_row) or column block b, of `bytes` bytes. */
static slp_err open_names(writer_t *w, int is_row, int b, int64_t bytes, slp_fw_t *fw)
{
    const int64_t *off = is_row ? w->man.row_off : w->man.col_off;
    int role = is_row ? SLP_SHARD_ROW_NAMES : SLP_SHARD_COL_NAMES;
    slp_shard_header_t h;
    slp_shard_header_init(&h, role);
    if (is_row) {
        h.row_lo = off[b];
        h.m_loc = off[b + 1] - off[b];
    } else {
        h.col_lo = off[b];
        h.n_loc = off[b + 1] - off[b];
    }
    h.count = off[b + 1] - off[b];
    h.payload_bytes = bytes;
    return slp_shard_writer_open_file(w, role, is_row ? b : -1, is_row ? -1 : b, &h, fw);
}

slp_err slp_shard_writer_names(writer_t *w, int is_row, int b, const char *packed,
                               int64_t bytes)
{
    slp_fw_t fw;
    SLP_CALL(open_names(w, is_row, b, bytes, &fw));
    slp_err rc = slp_fw_bytes(&fw, packed, (size_t)bytes);
    return slp_shard_writer_close_file(w, is_row ? SLP_SHARD_ROW_NAMES : SLP_SHARD_COL_NAMES,
                                       is_row ? b : -1, is_row ? -1 : b, &fw, rc);
}

/* Column slices, row slices and names: all from the (skeleton) model's vectors. */
slp_err slp_shard_writer_write_vectors(writer_t *w, const slp_model_t *skel)
{
    const slp_shard_manifest_t *man = &w->man;
    for (int c = 0; c < man->C; c++) {
        int64_t lo = man->col_off[c];
        SLP_CALL(slp_shard_writer_col_slice(w, c, skel->c + lo, skel->lv + lo, skel->uv + lo));
    }
    for (int r = 0; r < man->R; r++) {
        int64_t lo = man->row_off[r];
        SLP_CALL(slp_shard_writer_row_slice(w, r, skel->lc + lo, skel->uc + lo));
    }
    if (!man->has_names)
        return SLP_OK;
    char buf[32];
    slp_fw_t fw;
    for (int pass = 0; pass < 2; pass++) {
        int is_row = pass == 1;
        int parts = is_row ? man->R : man->C;
        const int64_t *off = is_row ? man->row_off : man->col_off;
        int role = is_row ? SLP_SHARD_ROW_NAMES : SLP_SHARD_COL_NAMES;
        for (int b = 0; b < parts; b++) {
            int64_t bytes = 0;
            for (int64_t g = off[b]; g < off[b + 1]; g++)
                bytes += (int64_t)strlen(is_row ? slp_model_row_name(skel, g, buf)
                                                : slp_model_col_name(skel, g, buf)) + 1;
            SLP_CALL(open_names(w, is_row, b, bytes, &fw));
            slp_err rc = SLP_OK;
            for (int64_t g = off[b]; rc == SLP_OK && g < off[b + 1]; g++) {
                const char *s = is_row ? slp_model_row_name(skel, g, buf)
                                       : slp_model_col_name(skel, g, buf);
                rc = slp_fw_bytes(&fw, s, strlen(s) + 1);
            }
            SLP_CALL(slp_shard_writer_close_file(w, role, is_row ? b : -1, is_row ? -1 : b, &fw,
                                                 rc));
        }
    }
    return SLP_OK;
}

/* A whole block from memory: row_ptr [m_loc+1] (starting at 0), col_idx and val [nnz]. */
slp_err slp_shard_writer_block(writer_t *w, int r, int c, const int64_t *row_ptr,
                               const int32_t *col_idx, const double *val)
{
    slp_shard_header_t h;
    int64_t m_loc = w->man.row_off[r + 1] - w->man.row_off[r];
    int64_t nnz = row_ptr[m_loc];
    slp_shard_block_values_t bv;
    SLP_CALL(slp_shard_block_values(val, nnz, w->compact_values, &bv));
    slp_shard_writer_block_header(w, r, c, nnz, &bv, &h);
    slp_fw_t fw;
    slp_err rc = slp_shard_writer_open_file(w, SLP_SHARD_BLOCK, r, c, &h, &fw);
    if (rc == SLP_OK) {
        rc = slp_shard_fw_block_payload(&fw, m_loc, row_ptr, col_idx, val, &bv);
        w->man.block_nnz[(int64_t)r * w->man.C + c] = nnz;
        rc = slp_shard_writer_close_file(w, SLP_SHARD_BLOCK, r, c, &fw, rc);
    }
    slp_shard_block_values_free(&bv);
    return rc;
}

/* ======================================================================================
 * Whole-model path
 * ====================================================================================== */

static slp_err check_model_matrix(const slp_model_t *model)
{
    for (int64_t j = 0; j < model->n; j++)
        for (int64_t k = model->col_ptr[j]; k < model->col_ptr[j + 1]; k++) {
            int64_t i = model->row_idx[k];
            if (i < 0 || i >= model->m)
                return slp_error(SLP_ERR_INPUT, "matrix entry in column %lld has row %lld out of range",
                                 (long long)j, (long long)i);
            if (k > model->col_ptr[j] && i <= model->row_idx[k - 1])
                return slp_error(SLP_ERR_INPUT,
                                 "matrix column %lld has unsorted or duplicate row indices",
                                 (long long)j);
        }
    return SLP_OK;
}

static int64_t lower_bound(const int64_t *a, int64_t lo, int64_t hi, int64_t key)
{
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (a[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Blocks of row block r: gather the row block in CSR (columns come out sorted because
 * the columns are visited in order), then cut it at the column offsets. */
static slp_err write_row_block(writer_t *w, const slp_model_t *model, int r)
{
    const slp_shard_manifest_t *man = &w->man;
    int64_t lo = man->row_off[r], hi = man->row_off[r + 1], m_loc = hi - lo;
    int64_t *start = NULL, *row_ptr = NULL, *cursor = NULL, *bptr = NULL, *gcol = NULL;
    int32_t *bcol = NULL;
    double *gval = NULL, *bval = NULL;
    slp_err rc = SLP_OK;
    /* Per column, where its rows in [lo, hi) start and end. */
    int64_t n = model->n, nnz = 0;
    if ((rc = slp_alloc(&start, (size_t)n + 1, sizeof(int64_t))) != SLP_OK)
        goto done;
    row_ptr = slp_calloc((size_t)m_loc + 1, sizeof(int64_t));
    if (!row_ptr) {
        rc = SLP_ERR_NOMEM;
        goto done;
    }
    for (int64_t j = 0; j < n; j++) {
        int64_t a = lower_bound(model->row_idx, model->col_ptr[j], model->col_ptr[j + 1], lo);
        int64_t b = lower_bound(model->row_idx, a, model->col_ptr[j + 1], hi);
        start[j] = a;
        for (int64_t k = a; k < b; k++)
            row_ptr[model->row_idx[k] - lo + 1]++;
        nnz += b - a;
    }
    for (int64_t i = 0; i < m_loc; i++)
        row_ptr[i + 1] += row_ptr[i];
    if ((rc = slp_alloc(&gcol, (size_t)nnz, sizeof(int64_t))) != SLP_OK ||
        (rc = slp_alloc(&gval, (size_t)nnz, sizeof(double))) != SLP_OK ||
        (rc = slp_alloc(&cursor, (size_t)m_loc + 1, sizeof(int64_t))) != SLP_OK ||
        (rc = slp_alloc(&bptr, (size_t)m_loc + 1, sizeof(int64_t))) != SLP_OK ||
        (rc = slp_alloc(&bcol, (size_t)nnz, sizeof(int32_t))) != SLP_OK ||
        (rc = slp_alloc(&bval, (size_t)nnz, sizeof(double))) != SLP_OK)
        goto done;
    memcpy(cursor, row_ptr, (size_t)(m_loc + 1) * sizeof(int64_t));
    for (int64_t j = 0; j < n; j++)
        for (int64_t k = start[j]; k < model->col_ptr[j + 1] && model->row_idx[k] < hi; k++) {
            int64_t pos = cursor[model->row_idx[k] - lo]++;
            gcol[pos] = j;
            gval[pos] = model->val[k];
        }
    /* cursor[i] now walks row i from its start, one column block at a time. */
    memcpy(cursor, row_ptr, (size_t)(m_loc + 1) * sizeof(int64_t));
    for (int c = 0; c < man->C && rc == SLP_OK; c++) {
        int64_t clo = man->col_off[c], chi = man->col_off[c + 1], k = 0;
        bptr[0] = 0;
        for (int64_t i = 0; i < m_loc; i++) {
            int64_t p = cursor[i];
            for (; p < row_ptr[i + 1] && gcol[p] < chi; p++, k++) {
                bcol[k] = (int32_t)(gcol[p] - clo);
                bval[k] = gval[p];
            }
            cursor[i] = p;
            bptr[i + 1] = k;
        }
        rc = slp_shard_writer_block(w, r, c, bptr, bcol, bval);
    }
done:
    free(start);
    free(row_ptr);
    free(cursor);
    free(bptr);
    free(gcol);
    free(gval);
    free(bcol);
    free(bval);
    return rc;
}

slp_err slp_shard_write_model(const slp_model_t *model, int R, int C, int compact_values,
                              const char *dir)
{
    SLP_CALL(check_model_matrix(model));
    int64_t *row_nnz = slp_calloc((size_t)model->m + 1, sizeof(int64_t));
    int64_t *col_nnz = slp_calloc((size_t)model->n + 1, sizeof(int64_t));
    if (!row_nnz || !col_nnz) {
        free(row_nnz);
        free(col_nnz);
        return SLP_ERR_NOMEM;
    }
    for (int64_t j = 0; j < model->n; j++) {
        col_nnz[j] = model->col_ptr[j + 1] - model->col_ptr[j];
        for (int64_t k = model->col_ptr[j]; k < model->col_ptr[j + 1]; k++)
            row_nnz[model->row_idx[k]]++;
    }
    writer_t w;
    slp_err rc = slp_shard_writer_begin(&w, model, R, C, row_nnz, col_nnz, dir);
    free(row_nnz);
    free(col_nnz);
    w.compact_values = compact_values;
    w.man.nnz = model->col_ptr[model->n];
    if (rc == SLP_OK)
        rc = slp_shard_writer_write_vectors(&w, model);
    for (int r = 0; rc == SLP_OK && r < R; r++)
        rc = write_row_block(&w, model, r);
    if (rc == SLP_OK)
        rc = slp_shard_writer_commit(&w, dir);
    if (rc != SLP_OK)
        slp_shard_writer_abort(&w);
    return rc;
}

/* ======================================================================================
 * Model source (entries in column order)
 * ====================================================================================== */

static slp_err skeleton_copy(const slp_model_t *model, slp_model_t **out)
{
    slp_model_t *s = NULL;
    SLP_CALL(slp_model_create(model->m, model->n, 0, &s));
    s->sense = model->sense;
    s->obj_const = model->obj_const;
    free(s->name);
    s->name = slp_strdup(model->name ? model->name : "");
    memcpy(s->c, model->c, (size_t)model->n * sizeof(double));
    memcpy(s->lv, model->lv, (size_t)model->n * sizeof(double));
    memcpy(s->uv, model->uv, (size_t)model->n * sizeof(double));
    memcpy(s->lc, model->lc, (size_t)model->m * sizeof(double));
    memcpy(s->uc, model->uc, (size_t)model->m * sizeof(double));
    slp_err rc = s->name ? SLP_OK : SLP_ERR_NOMEM;
    if (rc == SLP_OK && model->row_names) {
        s->row_names = slp_calloc((size_t)model->m + 1, sizeof(char *));
        rc = s->row_names ? SLP_OK : SLP_ERR_NOMEM;
        for (int64_t i = 0; rc == SLP_OK && i < model->m; i++)
            if (model->row_names[i] && !(s->row_names[i] = slp_strdup(model->row_names[i])))
                rc = SLP_ERR_NOMEM;
    }
    if (rc == SLP_OK && model->col_names) {
        s->col_names = slp_calloc((size_t)model->n + 1, sizeof(char *));
        rc = s->col_names ? SLP_OK : SLP_ERR_NOMEM;
        for (int64_t j = 0; rc == SLP_OK && j < model->n; j++)
            if (model->col_names[j] && !(s->col_names[j] = slp_strdup(model->col_names[j])))
                rc = SLP_ERR_NOMEM;
    }
    if (rc != SLP_OK) {
        slp_model_destroy(&s);
        return rc;
    }
    *out = s;
    return SLP_OK;
}

static slp_err model_scan(void *ctx, slp_shard_entry_fn entry, void *user, slp_model_t **skeleton)
{
    const slp_model_t *model = ctx;
    if (skeleton)
        SLP_CALL(skeleton_copy(model, skeleton));
    for (int64_t j = 0; j < model->n; j++)
        for (int64_t k = model->col_ptr[j]; k < model->col_ptr[j + 1]; k++) {
            slp_err rc = entry(user, model->row_idx[k], j, model->val[k]);
            if (rc != SLP_OK) {
                if (skeleton)
                    slp_model_destroy(skeleton);
                return rc;
            }
        }
    return SLP_OK;
}

void slp_shard_model_source(const slp_model_t *model, slp_shard_source_t *out)
{
    out->ctx = (void *)model;
    out->scan = model_scan;
    out->label = "model";
    out->relax = 1; /* an in-memory model was checked by whoever built it */
}
