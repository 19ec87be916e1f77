/* The MPS-to-shards converter: the whole-model path (slp_shard_write_model) and the
 * bounded-memory streaming path (slp_shard_write_stream). Both cut rows and columns
 * with slp_balanced_cuts on the nonzero counts and write the same bytes. */
#include "shard_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Output being assembled in a temporary directory. */
typedef struct writer {
    char *tmp;                 /* temporary directory (renamed to the target at the end) */
    slp_shard_manifest_t man;  /* files[] in a fixed slot order, see slot() */
} writer_t;

static slp_err write_block_arrays(writer_t *w, int r, int c, const int64_t *row_ptr,
                                  const int32_t *col_idx, const double *val);

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

/* Set up the layout (cuts from the counts) and the temporary directory. */
static slp_err writer_begin(writer_t *w, const slp_model_t *skel, int R, int C,
                            const int64_t *row_nnz, const int64_t *col_nnz, const char *dir)
{
    memset(w, 0, sizeof *w);
    if (R < 1 || C < 1 || R > 65536 || C > 65536)
        return slp_error(SLP_ERR_INPUT, "bad grid %dx%d", R, C);
    slp_shard_manifest_t *man = &w->man;
    man->version = SLP_SHARD_VERSION;
    man->m = skel->m;
    man->n = skel->n;
    man->R = R;
    man->C = C;
    man->sense = skel->sense < 0 ? -1 : 1;
    man->obj_const = skel->obj_const;
    man->has_names = skel->row_names != NULL || skel->col_names != NULL;
    man->nfiles = (int64_t)R * C + R + C + (man->has_names ? R + C : 0);
    man->name = slp_strdup(skel->name ? skel->name : "");
    if (!man->name)
        return SLP_ERR_NOMEM;
    SLP_CALL(slp_alloc(&man->row_off, (size_t)R + 1, sizeof(int64_t)));
    SLP_CALL(slp_alloc(&man->col_off, (size_t)C + 1, sizeof(int64_t)));
    man->block_nnz = slp_calloc((size_t)R * (size_t)C, sizeof(int64_t));
    man->files = slp_calloc((size_t)man->nfiles, sizeof(slp_shard_file_t));
    if (!man->block_nnz || !man->files)
        return SLP_ERR_NOMEM;
    slp_balanced_cuts(row_nnz, skel->m, R, man->row_off);
    slp_balanced_cuts(col_nnz, skel->n, C, man->col_off);
    for (int c = 0; c < C; c++)
        if (man->col_off[c + 1] - man->col_off[c] > INT32_MAX)
            return slp_error(SLP_ERR_INPUT,
                             "column block %d has %lld columns, more than 32-bit block-local "
                             "indices allow; use more grid columns",
                             c, (long long)(man->col_off[c + 1] - man->col_off[c]));
    return slp_dir_begin(dir, SLP_SHARD_MANIFEST, &w->tmp);
}

static void writer_abort(writer_t *w)
{
    if (w->tmp)
        slp_dir_discard(w->tmp);
    free(w->tmp);
    slp_shard_manifest_free(&w->man);
    memset(w, 0, sizeof *w);
}

static slp_err writer_commit(writer_t *w, const char *dir)
{
    SLP_CALL(slp_shard_manifest_write(w->tmp, &w->man));
    SLP_CALL(slp_dir_commit(w->tmp, dir, SLP_SHARD_MANIFEST));
    free(w->tmp);
    w->tmp = NULL;
    slp_shard_manifest_free(&w->man);
    return SLP_OK;
}

/* Open file (role, r, c) in the temporary directory and write its header. */
static slp_err open_file(writer_t *w, int role, int r, int c, slp_shard_header_t *h,
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

static slp_err close_file(writer_t *w, int role, int r, int c, slp_fw_t *fw, slp_err rc)
{
    if (rc != SLP_OK) {
        slp_fw_discard(fw);
        return rc;
    }
    return slp_shard_fw_close(fw, &w->man.files[slot(&w->man, role, r, c)]);
}

static void block_header(const writer_t *w, int r, int c, int64_t nnz, slp_shard_header_t *h)
{
    const slp_shard_manifest_t *man = &w->man;
    slp_shard_header_init(h, SLP_SHARD_BLOCK);
    h->row_lo = man->row_off[r];
    h->m_loc = man->row_off[r + 1] - man->row_off[r];
    h->col_lo = man->col_off[c];
    h->n_loc = man->col_off[c + 1] - man->col_off[c];
    h->count = nnz;
    h->payload_bytes = (h->m_loc + 1) * 8 + nnz * 4 + (nnz & 1) * 4 + nnz * 8;
}

/* Column slices, row slices and names: all from the (skeleton) model's vectors. */
static slp_err write_vectors(writer_t *w, const slp_model_t *skel)
{
    const slp_shard_manifest_t *man = &w->man;
    slp_shard_header_t h;
    slp_fw_t fw;
    for (int c = 0; c < man->C; c++) {
        int64_t lo = man->col_off[c], len = man->col_off[c + 1] - lo;
        slp_shard_header_init(&h, SLP_SHARD_COL_SLICE);
        slp_shard_header_slice(&h, 1, lo, len, 3);
        SLP_CALL(open_file(w, SLP_SHARD_COL_SLICE, -1, c, &h, &fw));
        slp_err rc = slp_fw_f64(&fw, skel->c + lo, len);
        if (rc == SLP_OK)
            rc = slp_fw_f64(&fw, skel->lv + lo, len);
        if (rc == SLP_OK)
            rc = slp_fw_f64(&fw, skel->uv + lo, len);
        SLP_CALL(close_file(w, SLP_SHARD_COL_SLICE, -1, c, &fw, rc));
    }
    for (int r = 0; r < man->R; r++) {
        int64_t lo = man->row_off[r], len = man->row_off[r + 1] - lo;
        slp_shard_header_init(&h, SLP_SHARD_ROW_SLICE);
        slp_shard_header_slice(&h, 0, lo, len, 2);
        SLP_CALL(open_file(w, SLP_SHARD_ROW_SLICE, r, -1, &h, &fw));
        slp_err rc = slp_fw_f64(&fw, skel->lc + lo, len);
        if (rc == SLP_OK)
            rc = slp_fw_f64(&fw, skel->uc + lo, len);
        SLP_CALL(close_file(w, SLP_SHARD_ROW_SLICE, r, -1, &fw, rc));
    }
    if (!man->has_names)
        return SLP_OK;
    char buf[32];
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
            SLP_CALL(open_file(w, role, is_row ? b : -1, is_row ? -1 : b, &h, &fw));
            slp_err rc = SLP_OK;
            for (int64_t g = off[b]; rc == SLP_OK && g < off[b + 1]; g++) {
                const char *s = is_row ? slp_model_row_name(skel, g, buf)
                                       : slp_model_col_name(skel, g, buf);
                rc = slp_fw_bytes(&fw, s, strlen(s) + 1);
            }
            SLP_CALL(close_file(w, role, is_row ? b : -1, is_row ? -1 : b, &fw, rc));
        }
    }
    return SLP_OK;
}

/* A whole block from memory: row_ptr [m_loc+1] (starting at 0), col_idx and val [nnz]. */
static slp_err write_block_arrays(writer_t *w, int r, int c, const int64_t *row_ptr,
                                  const int32_t *col_idx, const double *val)
{
    slp_shard_header_t h;
    int64_t m_loc = w->man.row_off[r + 1] - w->man.row_off[r];
    int64_t nnz = row_ptr[m_loc];
    block_header(w, r, c, nnz, &h);
    slp_fw_t fw;
    SLP_CALL(open_file(w, SLP_SHARD_BLOCK, r, c, &h, &fw));
    slp_err rc = slp_fw_i64(&fw, row_ptr, m_loc + 1);
    if (rc == SLP_OK)
        rc = slp_fw_i32(&fw, col_idx, nnz);
    if (rc == SLP_OK)
        rc = slp_fw_zeros(&fw, (size_t)(nnz & 1) * 4);
    if (rc == SLP_OK)
        rc = slp_fw_f64(&fw, val, nnz);
    w->man.block_nnz[(int64_t)r * w->man.C + c] = nnz;
    return close_file(w, SLP_SHARD_BLOCK, r, c, &fw, rc);
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
        rc = write_block_arrays(w, r, c, bptr, bcol, bval);
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

slp_err slp_shard_write_model(const slp_model_t *model, int R, int C, const char *dir)
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
    slp_err rc = writer_begin(&w, model, R, C, row_nnz, col_nnz, dir);
    free(row_nnz);
    free(col_nnz);
    w.man.nnz = model->col_ptr[model->n];
    if (rc == SLP_OK)
        rc = write_vectors(&w, model);
    for (int r = 0; rc == SLP_OK && r < R; r++)
        rc = write_row_block(&w, model, r);
    if (rc == SLP_OK)
        rc = writer_commit(&w, dir);
    if (rc != SLP_OK)
        writer_abort(&w);
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

/* ======================================================================================
 * Bounded-memory streaming path
 * ====================================================================================== */

/* Pass 1: nonzero counts per row and column (arrays grow as indices appear). */
typedef struct counts {
    int64_t *row, *col;
    int64_t row_cap, col_cap, nnz;
} counts_t;

static slp_err grow(int64_t **a, int64_t *cap, int64_t need)
{
    if (need <= *cap)
        return SLP_OK;
    int64_t nc = *cap ? *cap : 1024;
    while (nc < need)
        nc *= 2;
    int64_t *p = realloc(*a, (size_t)nc * sizeof(int64_t));
    if (!p)
        return slp_error(SLP_ERR_NOMEM, "out of memory counting nonzeros");
    memset(p + *cap, 0, (size_t)(nc - *cap) * sizeof(int64_t));
    *a = p;
    *cap = nc;
    return SLP_OK;
}

static slp_err count_entry(void *user, int64_t i, int64_t j, double v)
{
    counts_t *ct = user;
    (void)v;
    if (i < 0 || j < 0)
        return slp_error(SLP_ERR_INPUT, "matrix entry with a negative index");
    SLP_CALL(grow(&ct->row, &ct->row_cap, i + 1));
    SLP_CALL(grow(&ct->col, &ct->col_cap, j + 1));
    ct->row[i]++;
    ct->col[j]++;
    ct->nnz++;
    return SLP_OK;
}

/* One pass of the source collecting counts (and the skeleton when asked). */
static slp_err count_pass(const slp_shard_source_t *src, counts_t *ct, slp_model_t **skel)
{
    memset(ct, 0, sizeof *ct);
    slp_err rc = src->scan(src->ctx, count_entry, ct, skel);
    if (rc == SLP_OK && !*skel)
        rc = slp_error(SLP_ERR_INTERNAL, "model source returned no skeleton");
    if (rc == SLP_OK)
        rc = slp_integer_rule(slp_model_integer_columns(*skel), src->label, src->relax);
    if (rc != SLP_OK)
        return rc;
    /* Make the arrays cover the model's sizes. */
    rc = grow(&ct->row, &ct->row_cap, (*skel)->m + 1);
    if (rc == SLP_OK)
        rc = grow(&ct->col, &ct->col_cap, (*skel)->n + 1);
    for (int64_t i = (*skel)->m; rc == SLP_OK && i < ct->row_cap; i++)
        if (ct->row[i])
            rc = slp_error(SLP_ERR_INPUT, "matrix entry with a row index beyond the %lld rows",
                           (long long)(*skel)->m);
    for (int64_t j = (*skel)->n; rc == SLP_OK && j < ct->col_cap; j++)
        if (ct->col[j])
            rc = slp_error(SLP_ERR_INPUT, "matrix entry with a column index beyond the %lld columns",
                           (long long)(*skel)->n);
    return rc;
}

slp_err slp_shard_count(const slp_shard_source_t *src, int64_t **row_nnz, int64_t **col_nnz,
                        slp_model_t **skeleton)
{
    counts_t ct;
    *skeleton = NULL;
    slp_err rc = count_pass(src, &ct, skeleton);
    if (rc != SLP_OK) {
        free(ct.row);
        free(ct.col);
        slp_model_destroy(skeleton);
        return rc;
    }
    *row_nnz = ct.row;
    *col_nnz = ct.col;
    return SLP_OK;
}

typedef struct bucket_rec {
    int64_t i, j; /* global */
    double v;
} bucket_rec_t;

/* Pass 2: entries into one bucket file per block through bounded buffers. */
typedef struct bucketer {
    writer_t *w;
    int64_t cap;          /* records per buffer */
    bucket_rec_t *buf;    /* [R*C*cap] */
    int64_t *used;        /* [R*C] */
    int64_t seen;
} bucketer_t;

static char *bucket_path(const writer_t *w, int64_t b)
{
    char name[64];
    snprintf(name, sizeof name, ".bucket_%lld.tmp", (long long)b);
    return slp_path_join(w->tmp, name);
}

static slp_err bucket_flush(bucketer_t *bk, int64_t b)
{
    if (bk->used[b] == 0)
        return SLP_OK;
    char *path = bucket_path(bk->w, b);
    if (!path)
        return SLP_ERR_NOMEM;
    /* Open, append, close: never more than one bucket file open at a time. */
    FILE *f = fopen(path, "ab");
    slp_err rc = SLP_OK;
    if (!f)
        rc = slp_error(SLP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    else {
        size_t k = (size_t)bk->used[b];
        if (fwrite(bk->buf + b * bk->cap, sizeof(bucket_rec_t), k, f) != k)
            rc = slp_error(SLP_ERR_IO, "%s: write failed: %s", path, strerror(errno));
        if (fclose(f) != 0 && rc == SLP_OK)
            rc = slp_error(SLP_ERR_IO, "%s: write failed: %s", path, strerror(errno));
    }
    free(path);
    bk->used[b] = 0;
    return rc;
}

static slp_err bucket_entry(void *user, int64_t i, int64_t j, double v)
{
    bucketer_t *bk = user;
    const slp_shard_manifest_t *man = &bk->w->man;
    if (i < 0 || i >= man->m || j < 0 || j >= man->n)
        return slp_error(SLP_ERR_INPUT, "matrix entry (%lld, %lld) out of range in the second pass",
                         (long long)i, (long long)j);
    int64_t b = (int64_t)slp_shard_block_of(man->row_off, man->R, i) * man->C +
                slp_shard_block_of(man->col_off, man->C, j);
    bucket_rec_t *rec = &bk->buf[b * bk->cap + bk->used[b]++];
    rec->i = i;
    rec->j = j;
    rec->v = v;
    bk->w->man.block_nnz[b]++;
    bk->seen++;
    if (bk->used[b] == bk->cap)
        return bucket_flush(bk, b);
    return SLP_OK;
}

/* Stream the bucket of block b through buf (cap records), calling fn on each. */
typedef slp_err (*rec_fn)(void *arg, const bucket_rec_t *rec);
static slp_err bucket_scan(const writer_t *w, int64_t b, bucket_rec_t *buf, int64_t cap,
                           rec_fn fn, void *arg)
{
    if (w->man.block_nnz[b] == 0)
        return SLP_OK;
    char *path = bucket_path(w, b);
    if (!path)
        return SLP_ERR_NOMEM;
    FILE *f = fopen(path, "rb");
    slp_err rc = SLP_OK;
    if (!f)
        rc = slp_error(SLP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    int64_t total = 0;
    while (rc == SLP_OK) {
        size_t got = fread(buf, sizeof(bucket_rec_t), (size_t)cap, f);
        for (size_t k = 0; rc == SLP_OK && k < got; k++)
            rc = fn(arg, &buf[k]);
        total += (int64_t)got;
        if (got < (size_t)cap)
            break;
    }
    if (rc == SLP_OK && total != w->man.block_nnz[b])
        rc = slp_error(SLP_ERR_IO, "%s: short read of a temporary bucket", path);
    if (f)
        fclose(f);
    free(path);
    return rc;
}

/* Assembly of one block in row chunks. */
typedef struct assembler {
    int64_t row_lo, col_lo;
    int64_t *row_ptr;      /* [m_loc+1] */
    int64_t i0, i1;        /* current chunk rows (local) */
    int64_t *fill;         /* [i1-i0] next free slot per row, relative to row_ptr[i0] */
    int32_t *col;          /* chunk column indices */
    double *val;           /* chunk values */
} assembler_t;

static slp_err count_rec(void *arg, const bucket_rec_t *rec)
{
    assembler_t *as = arg;
    as->row_ptr[rec->i - as->row_lo + 1]++;
    return SLP_OK;
}

static slp_err place_rec(void *arg, const bucket_rec_t *rec)
{
    assembler_t *as = arg;
    int64_t i = rec->i - as->row_lo;
    if (i < as->i0 || i >= as->i1)
        return SLP_OK;
    int64_t pos = as->fill[i - as->i0]++;
    as->col[pos] = (int32_t)(rec->j - as->col_lo);
    as->val[pos] = rec->v;
    return SLP_OK;
}

typedef struct colval {
    int32_t col;
    double val;
} colval_t;

static int cmp_colval(const void *a, const void *b)
{
    int32_t x = ((const colval_t *)a)->col, y = ((const colval_t *)b)->col;
    return (x > y) - (x < y);
}

/* Sort each row of the chunk by column (the usual column-ordered input is already
 * sorted) and reject duplicates. */
static slp_err sort_chunk(assembler_t *as)
{
    int64_t base = as->row_ptr[as->i0];
    for (int64_t i = as->i0; i < as->i1; i++) {
        int64_t a = as->row_ptr[i] - base, b = as->row_ptr[i + 1] - base;
        int sorted = 1;
        for (int64_t k = a + 1; k < b; k++)
            if (as->col[k] <= as->col[k - 1])
                sorted = 0;
        if (sorted)
            continue;
        colval_t *tmp;
        SLP_CALL(slp_alloc(&tmp, (size_t)(b - a), sizeof *tmp));
        for (int64_t k = a; k < b; k++) {
            tmp[k - a].col = as->col[k];
            tmp[k - a].val = as->val[k];
        }
        qsort(tmp, (size_t)(b - a), sizeof *tmp, cmp_colval);
        for (int64_t k = a; k < b; k++) {
            as->col[k] = tmp[k - a].col;
            as->val[k] = tmp[k - a].val;
        }
        free(tmp);
        for (int64_t k = a + 1; k < b; k++)
            if (as->col[k] == as->col[k - 1])
                return slp_error(SLP_ERR_INPUT, "duplicate matrix entry in row %lld, column %lld",
                                 (long long)(as->row_lo + i), (long long)(as->col_lo + as->col[k]));
    }
    return SLP_OK;
}

/* Copy the side file of values into the block file. */
static slp_err append_file(slp_fw_t *fw, FILE *side, const char *side_path, void *buf, size_t cap)
{
    if (fflush(side) != 0 || fseek(side, 0, SEEK_SET) != 0)
        return slp_error(SLP_ERR_IO, "%s: %s", side_path, strerror(errno));
    size_t got;
    while ((got = fread(buf, 1, cap, side)) > 0)
        SLP_CALL(slp_fw_bytes(fw, buf, got));
    if (ferror(side))
        return slp_error(SLP_ERR_IO, "%s: read failed", side_path);
    return SLP_OK;
}

static slp_err write_block_stream(writer_t *w, int r, int c, int64_t mem_budget, bucket_rec_t *rbuf,
                                  int64_t rcap)
{
    const slp_shard_manifest_t *man = &w->man;
    int64_t b = (int64_t)r * man->C + c, nnz = man->block_nnz[b];
    int64_t m_loc = man->row_off[r + 1] - man->row_off[r];
    assembler_t as;
    memset(&as, 0, sizeof as);
    as.row_lo = man->row_off[r];
    as.col_lo = man->col_off[c];
    as.row_ptr = slp_calloc((size_t)m_loc + 1, sizeof(int64_t));
    if (!as.row_ptr)
        return SLP_ERR_NOMEM;
    slp_err rc = bucket_scan(w, b, rbuf, rcap, count_rec, &as);
    for (int64_t i = 0; i < m_loc; i++)
        as.row_ptr[i + 1] += as.row_ptr[i];
    /* Chunk capacity: 12 bytes per entry (column index and value), at least one row. */
    int64_t cap = mem_budget / 2 / 12;
    if (cap < 1)
        cap = 1;
    int64_t max_chunk = 0, nchunks = 0;
    for (int64_t i0 = 0, i1; i0 < m_loc; i0 = i1, nchunks++) {
        for (i1 = i0 + 1; i1 < m_loc && as.row_ptr[i1 + 1] - as.row_ptr[i0] <= cap; i1++)
            ;
        if (as.row_ptr[i1] - as.row_ptr[i0] > max_chunk)
            max_chunk = as.row_ptr[i1] - as.row_ptr[i0];
    }
    slp_shard_header_t h;
    block_header(w, r, c, nnz, &h);
    slp_fw_t fw;
    memset(&fw, 0, sizeof fw);
    FILE *side = NULL;
    char *side_path = NULL;
    if (rc == SLP_OK && as.row_ptr[m_loc] != nnz)
        rc = slp_error(SLP_ERR_INTERNAL, "block %d,%d: bucket holds %lld entries, expected %lld", r,
                       c, (long long)as.row_ptr[m_loc], (long long)nnz);
    if (rc == SLP_OK) {
        as.col = slp_malloc((size_t)(max_chunk ? max_chunk : 1) * sizeof(int32_t));
        as.val = slp_malloc((size_t)(max_chunk ? max_chunk : 1) * sizeof(double));
        rc = as.col && as.val ? SLP_OK : SLP_ERR_NOMEM;
    }
    if (rc == SLP_OK && nchunks > 1) {
        side_path = slp_path_join(w->tmp, ".values.tmp");
        side = side_path ? fopen(side_path, "wb+") : NULL;
        if (!side)
            rc = slp_error(SLP_ERR_IO, "%s: cannot create: %s", side_path ? side_path : "values",
                           strerror(errno));
    }
    if (rc == SLP_OK)
        rc = open_file(w, SLP_SHARD_BLOCK, r, c, &h, &fw);
    if (rc != SLP_OK)
        goto done;
    rc = slp_fw_i64(&fw, as.row_ptr, m_loc + 1);
    for (int64_t i0 = 0, i1; rc == SLP_OK && i0 < m_loc; i0 = i1) {
        for (i1 = i0 + 1; i1 < m_loc && as.row_ptr[i1 + 1] - as.row_ptr[i0] <= cap; i1++)
            ;
        as.i0 = i0;
        as.i1 = i1;
        if ((rc = slp_alloc(&as.fill, (size_t)(i1 - i0), sizeof(int64_t))) != SLP_OK)
            break;
        for (int64_t i = i0; i < i1; i++)
            as.fill[i - i0] = as.row_ptr[i] - as.row_ptr[i0];
        rc = bucket_scan(w, b, rbuf, rcap, place_rec, &as);
        free(as.fill);
        as.fill = NULL;
        if (rc == SLP_OK)
            rc = sort_chunk(&as);
        int64_t k = as.row_ptr[i1] - as.row_ptr[i0];
        if (rc == SLP_OK)
            rc = slp_fw_i32(&fw, as.col, k);
        if (rc == SLP_OK && side && fwrite(as.val, sizeof(double), (size_t)k, side) != (size_t)k)
            rc = slp_error(SLP_ERR_IO, "%s: write failed: %s", side_path, strerror(errno));
    }
    if (rc == SLP_OK)
        rc = slp_fw_zeros(&fw, (size_t)(nnz & 1) * 4);
    if (rc == SLP_OK) {
        if (side) /* the side file holds host-order doubles; the fw writes bytes as given */
            rc = append_file(&fw, side, side_path, rbuf, (size_t)rcap * sizeof(bucket_rec_t));
        else
            rc = slp_fw_f64(&fw, as.val, nnz);
    }
    rc = close_file(w, SLP_SHARD_BLOCK, r, c, &fw, rc);
done:
    if (side) {
        fclose(side);
        remove(side_path);
    }
    free(side_path);
    free(as.row_ptr);
    free(as.col);
    free(as.val);
    char *bp = bucket_path(w, b);
    if (bp)
        remove(bp);
    free(bp);
    return rc;
}

slp_err slp_shard_write_stream(const slp_shard_source_t *src, int R, int C, int64_t mem_budget,
                               const char *dir)
{
    /* The side file of values is appended byte for byte: on a big-endian host it would
     * need swapping, which the single-chunk path does; keep that path there. */
    const uint16_t one = 1;
    if (*(const unsigned char *)&one != 1 && mem_budget < ((int64_t)1 << 62))
        mem_budget = (int64_t)1 << 62;
    counts_t ct;
    slp_model_t *skel = NULL;
    slp_err rc = count_pass(src, &ct, &skel);
    writer_t w;
    memset(&w, 0, sizeof w);
    bucketer_t bk;
    memset(&bk, 0, sizeof bk);
    if (rc == SLP_OK)
        rc = writer_begin(&w, skel, R, C, ct.row, ct.col, dir);
    int64_t RC = (int64_t)R * C;
    if (rc == SLP_OK) {
        w.man.nnz = ct.nnz;
        rc = write_vectors(&w, skel);
    }
    if (rc == SLP_OK) {
        /* Bucket buffers: half the budget over the blocks, at least 4 KiB each. */
        bk.w = &w;
        bk.cap = mem_budget / 2 / RC / (int64_t)sizeof(bucket_rec_t);
        if (bk.cap < 4096 / (int64_t)sizeof(bucket_rec_t))
            bk.cap = 4096 / (int64_t)sizeof(bucket_rec_t);
        rc = slp_alloc(&bk.buf, (size_t)(RC * bk.cap), sizeof(bucket_rec_t));
        if (rc == SLP_OK) {
            bk.used = slp_calloc((size_t)RC, sizeof(int64_t));
            rc = bk.used ? SLP_OK : SLP_ERR_NOMEM;
        }
    }
    if (rc == SLP_OK)
        rc = src->scan(src->ctx, bucket_entry, &bk, NULL);
    for (int64_t b = 0; rc == SLP_OK && b < RC; b++)
        rc = bucket_flush(&bk, b);
    if (rc == SLP_OK && bk.seen != ct.nnz)
        rc = slp_error(SLP_ERR_INPUT, "the input changed between passes (%lld then %lld entries)",
                       (long long)ct.nnz, (long long)bk.seen);
    /* Block assembly reuses the bucket buffer for reading (at least one buffer's worth). */
    int64_t rcap = bk.cap * (RC < 2 ? 1 : 2);
    if (rcap > bk.cap * RC)
        rcap = bk.cap * RC;
    for (int r = 0; rc == SLP_OK && r < R; r++)
        for (int c = 0; rc == SLP_OK && c < C; c++)
            rc = write_block_stream(&w, r, c, mem_budget, bk.buf, rcap);
    free(bk.buf);
    free(bk.used);
    free(ct.row);
    free(ct.col);
    slp_model_destroy(&skel);
    if (rc == SLP_OK)
        rc = writer_commit(&w, dir);
    if (rc != SLP_OK)
        writer_abort(&w);
    return rc;
}
