/* A block file's payload (docs/shard-format.md, "Block payload"): the CSR arrays with
 * the values as doubles (version 1) or, when the writer asks for compact values and the
 * block has an exact form of fewer bytes (core/values.h), as signs in the column
 * indices' top bit or as codes into a table of the block's distinct values (version 2).
 * One place for both directions, used by every block writer and the reader. */
#include "shard_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of a block's payload with `table_len` distinct values in `form`. */
static int64_t payload_bytes(int64_t m_loc, int64_t nnz, slp_values_form form, int64_t table_len)
{
    int64_t base = (m_loc + 1) * 8 + nnz * 4;
    int64_t pad = (nnz & 1) * 4; /* so that the doubles start 8-byte aligned */
    switch (form) {
    case SLP_VALUES_SIGNED: return base;
    case SLP_VALUES_TABLE8: return base + pad + 8 * table_len + nnz;
    case SLP_VALUES_TABLE16: return base + pad + 8 * table_len + 2 * nnz;
    default: return base + pad + 8 * nnz;
    }
}

slp_err slp_shard_block_values(const double *val, int64_t nnz, int compact,
                               slp_shard_block_values_t *bv)
{
    memset(bv, 0, sizeof *bv);
    bv->form = SLP_VALUES_PLAIN;
    if (!compact || nnz == 0)
        return SLP_OK;
    slp_values_survey_t sv;
    SLP_CALL(slp_values_survey(val, nnz, &sv));
    bv->form = sv.form;
    if (sv.form == SLP_VALUES_TABLE8 || sv.form == SLP_VALUES_TABLE16)
        return slp_values_encode(val, nnz, sv.form, &bv->table, &bv->table_len, &bv->codes);
    return SLP_OK;
}

slp_err slp_shard_block_values_tallied(slp_values_tally_t *t, slp_shard_block_values_t *bv)
{
    memset(bv, 0, sizeof *bv);
    slp_values_survey_t sv;
    slp_values_tally_survey(t, &sv);
    bv->form = sv.form;
    if (sv.form == SLP_VALUES_TABLE8 || sv.form == SLP_VALUES_TABLE16)
        return slp_values_tally_table(t, &bv->table, &bv->table_len);
    return SLP_OK;
}

void slp_shard_block_values_free(slp_shard_block_values_t *bv)
{
    free(bv->table);
    free(bv->codes);
    memset(bv, 0, sizeof *bv);
}

void slp_shard_block_header_values(slp_shard_header_t *h, int64_t m_loc, int64_t nnz,
                                   const slp_shard_block_values_t *bv)
{
    h->values_form = (uint32_t)bv->form;
    h->table_len = (uint32_t)bv->table_len;
    h->version = bv->form == SLP_VALUES_PLAIN ? 1 : SLP_SHARD_BLOCK_VERSION_COMPACT;
    h->payload_bytes = payload_bytes(m_loc, nnz, bv->form, bv->table_len);
}

slp_err slp_shard_fw_block_indices(slp_fw_t *fw, const int32_t *col_idx, const double *val,
                                   int64_t n, const slp_shard_block_values_t *bv)
{
    if (bv->form != SLP_VALUES_SIGNED)
        return slp_fw_i32(fw, col_idx, n);
    int32_t buf[4096]; /* the sign of each value in bit 31 (SLP_SIGN_BIT) */
    for (int64_t k0 = 0; k0 < n; k0 += 4096) {
        int64_t k1 = k0 + 4096 < n ? k0 + 4096 : n;
        for (int64_t k = k0; k < k1; k++)
            buf[k - k0] = (int32_t)((uint32_t)col_idx[k] | (val[k] < 0 ? SLP_SIGN_BIT : 0u));
        SLP_CALL(slp_fw_i32(fw, buf, k1 - k0));
    }
    return SLP_OK;
}

slp_err slp_shard_fw_block_values_start(slp_fw_t *fw, int64_t nnz,
                                        const slp_shard_block_values_t *bv)
{
    if (bv->form == SLP_VALUES_SIGNED)
        return SLP_OK;
    SLP_CALL(slp_fw_zeros(fw, (size_t)(nnz & 1) * 4));
    if (bv->form == SLP_VALUES_PLAIN)
        return SLP_OK;
    return slp_fw_f64(fw, bv->table, bv->table_len);
}

slp_err slp_shard_fw_block_values(slp_fw_t *fw, int64_t n, const double *val, const void *codes,
                                  const slp_shard_block_values_t *bv)
{
    switch (bv->form) {
    case SLP_VALUES_SIGNED: return SLP_OK;
    case SLP_VALUES_TABLE8: return slp_fw_bytes(fw, codes, (size_t)n);
    case SLP_VALUES_TABLE16: return slp_fw_u16(fw, codes, n);
    default: return slp_fw_f64(fw, val, n);
    }
}

slp_err slp_shard_fw_block_payload(slp_fw_t *fw, int64_t m_loc, const int64_t *row_ptr,
                                   const int32_t *col_idx, const double *val,
                                   const slp_shard_block_values_t *bv)
{
    int64_t nnz = row_ptr[m_loc];
    SLP_CALL(slp_fw_i64(fw, row_ptr, m_loc + 1));
    SLP_CALL(slp_shard_fw_block_indices(fw, col_idx, val, nnz, bv));
    SLP_CALL(slp_shard_fw_block_values_start(fw, nnz, bv));
    return slp_shard_fw_block_values(fw, nnz, val, bv->codes, bv);
}

int64_t slp_shard_block_plain_bytes(int64_t m_loc, int64_t nnz)
{
    return SLP_SHARD_HEADER_BYTES + payload_bytes(m_loc, nnz, SLP_VALUES_PLAIN, 0) +
           SLP_CHECKED_TRAILER_BYTES;
}

int64_t slp_shard_block_min_payload(int64_t m_loc, int64_t nnz)
{
    return payload_bytes(m_loc, nnz, SLP_VALUES_SIGNED, 0);
}

int64_t slp_shard_block_max_payload(int64_t m_loc, int64_t nnz)
{
    int64_t plain = payload_bytes(m_loc, nnz, SLP_VALUES_PLAIN, 0);
    int64_t table = payload_bytes(m_loc, nnz, SLP_VALUES_TABLE16, SLP_VALUES_TABLE_MAX);
    return plain > table ? plain : table;
}

slp_err slp_shard_block_check_header(const slp_shard_header_t *h, int64_t m_loc, int64_t nnz,
                                     const char *path)
{
    slp_values_form form = (slp_values_form)h->values_form;
    int64_t limit = form == SLP_VALUES_TABLE8 ? 256 : SLP_VALUES_TABLE_MAX;
    int table = form == SLP_VALUES_TABLE8 || form == SLP_VALUES_TABLE16;
    if (h->version == 1 && (h->values_form != 0 || h->table_len != 0))
        return slp_error(SLP_ERR_INPUT, "%s: a version 1 block with a values form set "
                         "(reserved bytes not zero)", path);
    if (h->values_form > SLP_VALUES_TABLE16)
        return slp_error(SLP_ERR_INPUT, "%s: unknown values form %u", path, h->values_form);
    if (table ? h->table_len < 1 || h->table_len > limit || h->table_len > nnz
              : h->table_len != 0)
        return slp_error(SLP_ERR_INPUT, "%s: %u table values for a %s block of %lld entries",
                         path, h->table_len, slp_values_form_name(form), (long long)nnz);
    int64_t want = payload_bytes(m_loc, nnz, form, h->table_len);
    if (h->payload_bytes != want)
        return slp_error(SLP_ERR_INPUT, "%s: header says %lld payload bytes, a %s block needs %lld",
                         path, (long long)h->payload_bytes, slp_values_form_name(form),
                         (long long)want);
    return SLP_OK;
}

/* The signs in bit 31 become values +1 / -1; the indices lose the bit. */
static void decode_signed(int32_t *col_idx, double *val, int64_t nnz)
{
    for (int64_t k = 0; k < nnz; k++) {
        uint32_t word = (uint32_t)col_idx[k];
        val[k] = word & SLP_SIGN_BIT ? -1.0 : 1.0;
        col_idx[k] = (int32_t)(word & SLP_INDEX_MASK);
    }
}

/* Table codes, read in chunks, become the table's values. A code past the table (a
 * forged file, or damage the checksum will report) gives NaN, and *bad the first such
 * entry, so that the caller reports it only after the checksum. */
static slp_err read_table_values(slp_fr_t *fr, const slp_shard_header_t *h, int64_t nnz,
                                 double *val, int64_t *bad)
{
    double *table = NULL;
    SLP_CALL(slp_alloc(&table, h->table_len, sizeof(double)));
    slp_err rc = slp_fr_f64(fr, table, h->table_len);
    int wide = h->values_form == SLP_VALUES_TABLE16;
    enum { CHUNK = 8192 };
    uint16_t codes16[CHUNK];
    uint8_t codes8[CHUNK];
    for (int64_t k0 = 0; rc == SLP_OK && k0 < nnz; k0 += CHUNK) {
        int64_t len = nnz - k0 < CHUNK ? nnz - k0 : CHUNK;
        rc = wide ? slp_fr_u16(fr, codes16, len) : slp_fr_bytes(fr, codes8, (size_t)len);
        for (int64_t k = 0; rc == SLP_OK && k < len; k++) {
            uint32_t code = wide ? codes16[k] : codes8[k];
            if (code < h->table_len) {
                val[k0 + k] = table[code];
            } else {
                val[k0 + k] = NAN;
                if (*bad < 0)
                    *bad = k0 + k;
            }
        }
    }
    free(table);
    return rc;
}

slp_err slp_shard_fr_block_payload(slp_fr_t *fr, const slp_shard_header_t *h, int64_t m_loc,
                                   slp_csr_t *A, int64_t *bad_code)
{
    int64_t nnz = A->nnz;
    *bad_code = -1;
    SLP_CALL(slp_fr_i64(fr, A->row_ptr, m_loc + 1));
    SLP_CALL(slp_fr_i32(fr, A->col_idx, nnz));
    if (h->values_form == SLP_VALUES_SIGNED) {
        decode_signed(A->col_idx, A->val, nnz);
        return SLP_OK;
    }
    unsigned char pad[4];
    if (nnz & 1)
        SLP_CALL(slp_fr_bytes(fr, pad, 4));
    if (h->values_form == SLP_VALUES_PLAIN)
        return slp_fr_f64(fr, A->val, nnz);
    return read_table_values(fr, h, nnz, A->val, bad_code);
}
