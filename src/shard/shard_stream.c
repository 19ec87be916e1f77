/* The MPS-to-shards converter's bounded-memory streaming path (slp_shard_write_stream,
 * slp_shard_count): a counting pass, entries bucketed to temporary files by row block,
 * then each block sorted and written within the memory budget; the same bytes as the
 * whole-model path (shard_write.c). */
#include "shard_writer.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

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
    int64_t b = (int64_t)slp_block_of(man->row_off, man->R, i) * man->C +
                slp_block_of(man->col_off, man->C, j);
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
    slp_values_tally_t *tally; /* compact values: the block's values seen by the count pass */
} assembler_t;

static slp_err count_rec(void *arg, const bucket_rec_t *rec)
{
    assembler_t *as = arg;
    as->row_ptr[rec->i - as->row_lo + 1]++;
    if (as->tally)
        slp_values_tally_add(as->tally, &rec->v, 1);
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
    slp_err rc = w->compact_values && nnz > 0 ? slp_values_tally_open(&as.tally) : SLP_OK;
    if (rc == SLP_OK)
        rc = bucket_scan(w, b, rbuf, rcap, count_rec, &as);
    for (int64_t i = 0; i < m_loc; i++)
        as.row_ptr[i + 1] += as.row_ptr[i];
    /* The values' form, known once the count pass has seen them all. */
    slp_shard_block_values_t bv;
    memset(&bv, 0, sizeof bv);
    if (rc == SLP_OK && as.tally)
        rc = slp_shard_block_values_tallied(as.tally, &bv);
    int is_table = bv.form == SLP_VALUES_TABLE8 || bv.form == SLP_VALUES_TABLE16;
    size_t width = bv.form == SLP_VALUES_TABLE8 ? 1 : bv.form == SLP_VALUES_TABLE16 ? 2 : 8;
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
    slp_shard_writer_block_header(w, r, c, nnz, &bv, &h);
    slp_fw_t fw;
    memset(&fw, 0, sizeof fw);
    FILE *side = NULL;
    char *side_path = NULL;
    void *codes = NULL; /* a table form's codes: the chunk's, or the whole block's */
    if (rc == SLP_OK && as.row_ptr[m_loc] != nnz)
        rc = slp_error(SLP_ERR_INTERNAL, "block %d,%d: bucket holds %lld entries, expected %lld", r,
                       c, (long long)as.row_ptr[m_loc], (long long)nnz);
    if (rc == SLP_OK) {
        as.col = slp_malloc((size_t)(max_chunk ? max_chunk : 1) * sizeof(int32_t));
        as.val = slp_malloc((size_t)(max_chunk ? max_chunk : 1) * sizeof(double));
        rc = as.col && as.val ? SLP_OK : SLP_ERR_NOMEM;
    }
    if (rc == SLP_OK && is_table)
        rc = slp_alloc(&codes, (size_t)(max_chunk ? max_chunk : 1), width);
    /* Values (or codes) of several chunks wait in a side file until the indices are out. */
    if (rc == SLP_OK && nchunks > 1 && bv.form != SLP_VALUES_SIGNED) {
        side_path = slp_path_join(w->tmp, ".values.tmp");
        side = side_path ? fopen(side_path, "wb+") : NULL;
        if (!side)
            rc = slp_error(SLP_ERR_IO, "%s: cannot create: %s", side_path ? side_path : "values",
                           strerror(errno));
    }
    if (rc == SLP_OK)
        rc = slp_shard_writer_open_file(w, SLP_SHARD_BLOCK, r, c, &h, &fw);
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
            rc = slp_shard_fw_block_indices(&fw, as.col, as.val, k, &bv);
        if (rc == SLP_OK && is_table)
            slp_values_tally_codes(as.tally, bv.form, as.val, k, codes);
        const void *out = is_table ? codes : (const void *)as.val;
        if (rc == SLP_OK && side && fwrite(out, width, (size_t)k, side) != (size_t)k)
            rc = slp_error(SLP_ERR_IO, "%s: write failed: %s", side_path, strerror(errno));
    }
    if (rc == SLP_OK)
        rc = slp_shard_fw_block_values_start(&fw, nnz, &bv);
    if (rc == SLP_OK && side) /* host-order values or codes; the fw writes bytes as given */
        rc = append_file(&fw, side, side_path, rbuf, (size_t)rcap * sizeof(bucket_rec_t));
    else if (rc == SLP_OK) /* one chunk: still in memory */
        rc = slp_shard_fw_block_values(&fw, nnz, as.val, codes, &bv);
    rc = slp_shard_writer_close_file(w, SLP_SHARD_BLOCK, r, c, &fw, rc);
done:
    if (side) {
        fclose(side);
        remove(side_path);
    }
    free(side_path);
    free(codes);
    slp_shard_block_values_free(&bv);
    slp_values_tally_close(as.tally);
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
                               int compact_values, const char *dir)
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
        rc = slp_shard_writer_begin(&w, skel, R, C, ct.row, ct.col, dir);
    w.compact_values = compact_values;
    int64_t RC = (int64_t)R * C;
    if (rc == SLP_OK) {
        w.man.nnz = ct.nnz;
        rc = slp_shard_writer_write_vectors(&w, skel);
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
        rc = slp_shard_writer_commit(&w, dir);
    if (rc != SLP_OK)
        slp_shard_writer_abort(&w);
    return rc;
}
