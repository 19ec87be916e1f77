/* Compressed output in independent units (io/block_out.h). */
#include "io/block_out.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>
#ifdef SLP_HAVE_ZSTD
#include <zstd.h>
#endif

#include "io/block_units.h"

#define BGZF_TEXT 65280                 /* text bytes a member (bgzip's choice) */
#define ZSTD_FRAME_TEXT ((size_t)1 << 20)
#define ZSTD_LEVEL 3

struct slp_block_out {
    FILE *f;
    slp_block_out_kind kind;
    int failed;
    unsigned char *text, *packed; /* the unit being filled; its compressed form */
    size_t used, unit, packed_cap;
    z_stream z;
    int z_ready;
#ifdef SLP_HAVE_ZSTD
    ZSTD_CCtx *zc;
#endif
    uint32_t *sizes; /* zstd: compressed and text bytes of each frame, for the seek table */
    int64_t frames, sizes_cap;
};

static void put16(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
    put16(p, v);
    put16(p + 2, v >> 16);
}

slp_block_out_kind slp_block_out_kind_of(const char *path)
{
    size_t len = strlen(path);
    if (len > 3 && !strcasecmp(path + len - 3, ".gz"))
        return SLP_BLOCK_OUT_BGZF;
    if (len > 4 && !strcasecmp(path + len - 4, ".zst"))
        return SLP_BLOCK_OUT_ZSTD;
    return SLP_BLOCK_OUT_NONE;
}

static int put(slp_block_out_t *o, const void *buf, size_t len)
{
    if (!o->failed && fwrite(buf, 1, len, o->f) != len)
        o->failed = 1;
    return o->failed ? -1 : 0;
}

/* One BGZF member of text[0, n): deflate, or stored when deflate does not fit. */
static int bgzf_member(slp_block_out_t *o, size_t n)
{
    unsigned char *m = o->packed;
    size_t room = BGZF_MAX_MEMBER - BGZF_HEADER - BGZF_TRAILER, body;
    o->z.next_in = o->text;
    o->z.avail_in = (uInt)n;
    o->z.next_out = m + BGZF_HEADER;
    o->z.avail_out = (uInt)room;
    if (deflateReset(&o->z) == Z_OK && deflate(&o->z, Z_FINISH) == Z_STREAM_END) {
        body = room - o->z.avail_out;
    } else { /* one stored block: final, type 0, LEN, NLEN, the bytes */
        m[BGZF_HEADER] = 1;
        put16(m + BGZF_HEADER + 1, (uint32_t)n);
        put16(m + BGZF_HEADER + 3, (uint32_t)~n & 0xffff);
        memcpy(m + BGZF_HEADER + 5, o->text, n);
        body = n + 5;
    }
    size_t total = BGZF_HEADER + body + BGZF_TRAILER;
    memcpy(m, slp_bgzf_head, sizeof slp_bgzf_head);
    put16(m + 16, (uint32_t)(total - 1));
    put32(m + BGZF_HEADER + body, (uint32_t)crc32(0L, o->text, (uInt)n));
    put32(m + BGZF_HEADER + body + 4, (uint32_t)n);
    return put(o, m, total);
}

static int zstd_frame(slp_block_out_t *o, size_t n)
{
#ifdef SLP_HAVE_ZSTD
    size_t got = ZSTD_compress2(o->zc, o->packed, o->packed_cap, o->text, n);
    if (ZSTD_isError(got) || got > UINT32_MAX)
        return o->failed = 1, -1;
    if (o->frames == o->sizes_cap) {
        o->sizes_cap = o->sizes_cap ? 2 * o->sizes_cap : 256;
        uint32_t *bigger = realloc(o->sizes, sizeof *bigger * 2 * (size_t)o->sizes_cap);
        if (!bigger)
            return o->failed = 1, -1;
        o->sizes = bigger;
    }
    o->sizes[2 * o->frames] = (uint32_t)got;
    o->sizes[2 * o->frames++ + 1] = (uint32_t)n;
    return put(o, o->packed, got);
#else
    (void)n;
    return o->failed = 1, -1;
#endif
}

static int flush_unit(slp_block_out_t *o)
{
    if (o->failed)
        return -1;
    int rc = o->kind == SLP_BLOCK_OUT_BGZF ? bgzf_member(o, o->used) : zstd_frame(o, o->used);
    o->used = 0;
    return rc;
}

/* zstd's seek table: a skippable frame of the frames' sizes and the footer. */
static int seek_table(slp_block_out_t *o)
{
    size_t body = 8 * (size_t)o->frames + ZSTD_SEEKABLE_FOOTER;
    unsigned char *t = malloc(body + 8);
    if (!t)
        return o->failed = 1, -1;
    put32(t, ZSTD_SKIPPABLE_MAGIC);
    put32(t + 4, (uint32_t)body);
    for (int64_t k = 0; k < 2 * o->frames; k++)
        put32(t + 8 + 4 * k, o->sizes[k]);
    put32(t + 8 + 8 * o->frames, (uint32_t)o->frames);
    t[8 + 8 * o->frames + 4] = 0; /* no checksums in the table: each frame has its own */
    put32(t + 8 + 8 * o->frames + 5, ZSTD_SEEKABLE_MAGIC);
    int rc = put(o, t, body + 8);
    free(t);
    return rc;
}

slp_err slp_block_out_open(FILE *f, slp_block_out_kind kind, const char *path,
                           slp_block_out_t **out)
{
    *out = NULL;
#ifndef SLP_HAVE_ZSTD
    if (kind == SLP_BLOCK_OUT_ZSTD)
        return slp_error(SLP_ERR_INPUT, "%s: zstd output: this shardlp was built without "
                         "libzstd", path);
#endif
    slp_block_out_t *o = slp_calloc(1, sizeof *o);
    if (!o)
        return SLP_ERR_NOMEM;
    o->f = f;
    o->kind = kind;
    o->unit = kind == SLP_BLOCK_OUT_BGZF ? BGZF_TEXT : ZSTD_FRAME_TEXT;
    o->packed_cap = BGZF_MAX_MEMBER;
    int ok = 1;
    if (kind == SLP_BLOCK_OUT_BGZF) {
        ok = deflateInit2(&o->z, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK;
        o->z_ready = ok;
    }
#ifdef SLP_HAVE_ZSTD
    if (kind == SLP_BLOCK_OUT_ZSTD) {
        o->packed_cap = ZSTD_compressBound(ZSTD_FRAME_TEXT);
        ok = (o->zc = ZSTD_createCCtx()) != NULL &&
             !ZSTD_isError(ZSTD_CCtx_setParameter(o->zc, ZSTD_c_compressionLevel, ZSTD_LEVEL)) &&
             !ZSTD_isError(ZSTD_CCtx_setParameter(o->zc, ZSTD_c_checksumFlag, 1));
    }
#endif
    o->text = malloc(o->unit);
    o->packed = malloc(o->packed_cap);
    if (!ok || !o->text || !o->packed) {
        o->failed = 1;
        slp_block_out_close(&o);
        return slp_error(SLP_ERR_NOMEM, "%s: cannot start the compression", path);
    }
    *out = o;
    return SLP_OK;
}

int slp_block_out_write(slp_block_out_t *o, const void *buf, size_t len)
{
    const unsigned char *p = buf;
    while (len > 0 && !o->failed) {
        size_t n = o->unit - o->used < len ? o->unit - o->used : len;
        memcpy(o->text + o->used, p, n);
        o->used += n;
        p += n;
        len -= n;
        if (o->used == o->unit)
            flush_unit(o);
    }
    return o->failed ? -1 : 0;
}

int slp_block_out_close(slp_block_out_t **op)
{
    slp_block_out_t *o = *op;
    if (!o)
        return 0;
    if (!o->failed && o->used > 0)
        flush_unit(o);
    if (!o->failed && o->kind == SLP_BLOCK_OUT_BGZF)
        bgzf_member(o, 0); /* the end-of-file member */
    if (!o->failed && o->kind == SLP_BLOCK_OUT_ZSTD)
        seek_table(o);
    int rc = o->failed ? -1 : 0;
    if (o->z_ready)
        deflateEnd(&o->z);
#ifdef SLP_HAVE_ZSTD
    ZSTD_freeCCtx(o->zc);
#endif
    free(o->text);
    free(o->packed);
    free(o->sizes);
    free(o);
    *op = NULL;
    return rc;
}
