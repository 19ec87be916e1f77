/* Text input through gzip, bzip2 or xz (text_in.h). One loop shape for all: raw bytes
 * from the file into `in`, decoded bytes into `out`, lines and blocks served from
 * `out`. */
#include "io/text_in.h"

#include <bzlib.h>
#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#ifdef SLP_HAVE_ZSTD
#include <zstd.h>
#endif

typedef enum { K_PLAIN, K_GZIP, K_BZIP2, K_XZ, K_ZSTD } kind_t;

struct slp_text_in {
    FILE *f;
    kind_t kind;
    unsigned char in[1 << 16];
    size_t in_len, in_pos;
    int in_eof;           /* the file has no more bytes */
    unsigned char out[1 << 18];
    size_t out_len, out_pos;
    int end;              /* the decoded input is complete */
    slp_text_status status;
    char why[200];
    z_stream z;
    bz_stream bz;
    lzma_stream lz;
#ifdef SLP_HAVE_ZSTD
    ZSTD_DStream *zs;
    size_t zs_hint;       /* ZSTD_decompressStream's last answer: 0 at a frame's end */
#endif
    int coder_ready;      /* the kind's decoder is initialised */
};

static void fail(slp_text_in_t *t, slp_text_status status, const char *why)
{
    if (t->status == SLP_TEXT_OK) {
        t->status = status;
        snprintf(t->why, sizeof t->why, "%s", why);
    }
    t->end = 1;
}

/* More raw bytes when `in` is used up; sets in_eof at the end of the file. */
static void fill_in(slp_text_in_t *t)
{
    if (t->in_pos < t->in_len || t->in_eof)
        return;
    t->in_pos = 0;
    t->in_len = fread(t->in, 1, sizeof t->in, t->f);
    if (t->in_len == 0) {
        if (ferror(t->f))
            fail(t, SLP_TEXT_IO, strerror(errno ? errno : EIO));
        t->in_eof = 1;
    }
}

/* The compression whose magic bytes begin head[0..len). */
static kind_t kind_of(const unsigned char *head, size_t len)
{
    static const struct {
        kind_t kind;
        const char *magic;
        size_t n;
    } MAGIC[] = {{K_GZIP, "\x1f\x8b", 2}, {K_BZIP2, "BZh", 3}, {K_XZ, "\xfd" "7zXZ\0", 6},
                 {K_ZSTD, "\x28\xb5\x2f\xfd", 4}};
    for (size_t k = 0; k < sizeof MAGIC / sizeof MAGIC[0]; k++)
        if (len >= MAGIC[k].n && !memcmp(head, MAGIC[k].magic, MAGIC[k].n))
            return MAGIC[k].kind;
    return K_PLAIN;
}

int slp_text_compressed(const void *head, size_t len)
{
    return kind_of(head, len) != K_PLAIN;
}

ssize_t slp_pread_full(int fd, void *buf, size_t len, int64_t offset)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = pread(fd, (char *)buf + got, len - got, (off_t)(offset + (int64_t)got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        got += (size_t)n;
    }
    return (ssize_t)got;
}

static int starts_with(const slp_text_in_t *t, const char *magic, size_t n)
{
    return t->in_len - t->in_pos >= n && !memcmp(t->in + t->in_pos, magic, n);
}

/* ------------------------------------------------------------------ decoders */

static void end_coder(slp_text_in_t *t)
{
    if (!t->coder_ready)
        return;
    if (t->kind == K_GZIP)
        inflateEnd(&t->z);
    else if (t->kind == K_BZIP2)
        BZ2_bzDecompressEnd(&t->bz);
    else if (t->kind == K_XZ)
        lzma_end(&t->lz);
#ifdef SLP_HAVE_ZSTD
    else if (t->kind == K_ZSTD)
        ZSTD_freeDStream(t->zs);
#endif
    t->coder_ready = 0;
}

static int start_coder(slp_text_in_t *t)
{
    end_coder(t);
    int ok = 1;
    if (t->kind == K_GZIP) {
        memset(&t->z, 0, sizeof t->z);
        ok = inflateInit2(&t->z, 16 + MAX_WBITS) == Z_OK; /* gzip header and trailer */
    } else if (t->kind == K_BZIP2) {
        memset(&t->bz, 0, sizeof t->bz);
        ok = BZ2_bzDecompressInit(&t->bz, 0, 0) == BZ_OK;
    } else if (t->kind == K_XZ) {
        lzma_stream init = LZMA_STREAM_INIT;
        t->lz = init;
        ok = lzma_stream_decoder(&t->lz, UINT64_MAX, LZMA_CONCATENATED) == LZMA_OK;
    } else if (t->kind == K_ZSTD) {
#ifdef SLP_HAVE_ZSTD
        t->zs = ZSTD_createDStream();
        ok = t->zs && !ZSTD_isError(ZSTD_initDStream(t->zs));
        t->zs_hint = 1;
#else
        fail(t, SLP_TEXT_IO, "zstd-compressed input: this shardlp was built without libzstd");
        return 0;
#endif
    }
    t->coder_ready = ok;
    if (!ok)
        fail(t, SLP_TEXT_IO, "cannot start the decompressor (out of memory?)");
    return ok;
}

/* After a gzip member or a bzip2 stream: another one follows, or the input ends. */
static void member_done(slp_text_in_t *t, const char *magic, size_t n)
{
    fill_in(t);
    if (t->in_pos < t->in_len && starts_with(t, magic, n))
        start_coder(t);
    else
        t->end = 1; /* what follows (if anything) is not compressed data: ignored */
}

static void decode_gzip(slp_text_in_t *t)
{
    t->z.next_in = t->in + t->in_pos;
    t->z.avail_in = (uInt)(t->in_len - t->in_pos);
    t->z.next_out = t->out;
    t->z.avail_out = (uInt)sizeof t->out;
    int rc = inflate(&t->z, Z_NO_FLUSH);
    t->in_pos = t->in_len - t->z.avail_in;
    t->out_len = sizeof t->out - t->z.avail_out;
    if (rc == Z_STREAM_END)
        member_done(t, "\x1f\x8b", 2);
    else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT)
        fail(t, SLP_TEXT_CORRUPT, t->z.msg ? t->z.msg : "invalid gzip data");
    else if (rc == Z_MEM_ERROR)
        fail(t, SLP_TEXT_IO, "out of memory in the gzip decoder");
    else if (t->out_len == 0 && t->in_eof && t->in_pos == t->in_len)
        fail(t, SLP_TEXT_TRUNCATED, "unexpected end of gzip data");
}

static void decode_bzip2(slp_text_in_t *t)
{
    t->bz.next_in = (char *)t->in + t->in_pos;
    t->bz.avail_in = (unsigned)(t->in_len - t->in_pos);
    t->bz.next_out = (char *)t->out;
    t->bz.avail_out = (unsigned)sizeof t->out;
    int rc = BZ2_bzDecompress(&t->bz);
    t->in_pos = t->in_len - t->bz.avail_in;
    t->out_len = sizeof t->out - t->bz.avail_out;
    if (rc == BZ_STREAM_END)
        member_done(t, "BZh", 3);
    else if (rc == BZ_DATA_ERROR || rc == BZ_DATA_ERROR_MAGIC)
        fail(t, SLP_TEXT_CORRUPT, "invalid bzip2 data");
    else if (rc != BZ_OK)
        fail(t, SLP_TEXT_IO, "bzip2 decoder failure");
    else if (t->out_len == 0 && t->in_eof && t->in_pos == t->in_len)
        fail(t, SLP_TEXT_TRUNCATED, "unexpected end of bzip2 data");
}

static void decode_xz(slp_text_in_t *t)
{
    t->lz.next_in = t->in + t->in_pos;
    t->lz.avail_in = t->in_len - t->in_pos;
    t->lz.next_out = t->out;
    t->lz.avail_out = sizeof t->out;
    lzma_ret rc = lzma_code(&t->lz, t->in_eof && t->lz.avail_in == 0 ? LZMA_FINISH : LZMA_RUN);
    t->in_pos = t->in_len - t->lz.avail_in;
    t->out_len = sizeof t->out - t->lz.avail_out;
    if (rc == LZMA_STREAM_END)
        t->end = 1;
    else if (rc == LZMA_BUF_ERROR && t->in_eof)
        fail(t, SLP_TEXT_TRUNCATED, "unexpected end of xz data");
    else if (rc == LZMA_DATA_ERROR || rc == LZMA_FORMAT_ERROR || rc == LZMA_OPTIONS_ERROR)
        fail(t, SLP_TEXT_CORRUPT, "invalid xz data");
    else if (rc != LZMA_OK && rc != LZMA_BUF_ERROR)
        fail(t, SLP_TEXT_IO, "xz decoder failure (out of memory?)");
}

#ifdef SLP_HAVE_ZSTD
static void decode_zstd(slp_text_in_t *t)
{
    int no_input = t->in_eof && t->in_pos == t->in_len;
    ZSTD_inBuffer in = {t->in + t->in_pos, t->in_len - t->in_pos, 0};
    ZSTD_outBuffer out = {t->out, sizeof t->out, 0};
    size_t rc = ZSTD_decompressStream(t->zs, &out, &in);
    t->in_pos += in.pos;
    t->out_len = out.pos;
    if (ZSTD_isError(rc)) {
        fail(t, SLP_TEXT_CORRUPT, ZSTD_getErrorName(rc));
        return;
    }
    if (t->out_len == 0 && no_input) { /* the end: clean only after a whole frame */
        if (t->zs_hint == 0)
            t->end = 1;
        else
            fail(t, SLP_TEXT_TRUNCATED, "unexpected end of zstd data");
        return;
    }
    t->zs_hint = rc; /* 0: a frame ended here (the next call starts the next one) */
}
#endif

/* Refill `out` (it is empty): decoded bytes, or the end, or an error. */
static void decode_more(slp_text_in_t *t)
{
    t->out_pos = t->out_len = 0;
    while (!t->end && t->out_len == 0) {
        fill_in(t);
        if (t->status != SLP_TEXT_OK)
            return;
        if (t->kind == K_PLAIN) {
            size_t n = t->in_len - t->in_pos;
            memcpy(t->out, t->in + t->in_pos, n);
            t->in_pos += n;
            t->out_len = n;
            t->end = n == 0 && t->in_eof;
        } else if (t->kind == K_GZIP) {
            decode_gzip(t);
        } else if (t->kind == K_BZIP2) {
            decode_bzip2(t);
        } else if (t->kind == K_XZ) {
            decode_xz(t);
        } else {
#ifdef SLP_HAVE_ZSTD
            decode_zstd(t);
#endif
        }
    }
}

/* ------------------------------------------------------------------ public */

slp_err slp_text_in_open(const char *path, slp_text_in_t **out)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return slp_error(SLP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    slp_text_in_t *t = slp_calloc(1, sizeof *t);
    if (!t) {
        fclose(f);
        return SLP_ERR_NOMEM;
    }
    t->f = f;
    fill_in(t);
    t->kind = kind_of(t->in + t->in_pos, t->in_len - t->in_pos);
    if (t->kind != K_PLAIN)
        start_coder(t);
    if (t->status != SLP_TEXT_OK) {
        slp_err rc = slp_error(SLP_ERR_IO, "%s: %s", path, t->why);
        slp_text_in_close(&t);
        return rc;
    }
    *out = t;
    return SLP_OK;
}

void slp_text_in_close(slp_text_in_t **t)
{
    if (!t || !*t)
        return;
    end_coder(*t);
    if ((*t)->f)
        fclose((*t)->f);
    free(*t);
    *t = NULL;
}

char *slp_text_in_gets(slp_text_in_t *t, char *buf, size_t size, size_t *count)
{
    size_t got = 0;
    while (got + 1 < size) {
        if (t->out_pos == t->out_len) {
            decode_more(t);
            if (t->out_len == 0)
                break;
        }
        size_t avail = t->out_len - t->out_pos, room = size - 1 - got;
        size_t take = avail < room ? avail : room;
        const unsigned char *start = t->out + t->out_pos;
        const unsigned char *nl = memchr(start, '\n', take);
        if (nl)
            take = (size_t)(nl - start) + 1;
        memcpy(buf + got, start, take);
        got += take;
        t->out_pos += take;
        if (nl)
            break;
    }
    if (size > 0)
        buf[got] = '\0';
    if (count)
        *count = got;
    return got > 0 ? buf : NULL;
}

/* Plain input, both buffers empty: the file's bytes go straight to the caller's buffer
 * (no copy through in and out; 3% of reading a large MPS file). Returns the count;
 * at the end of the file or on an error, the state fill_in would leave. */
static size_t read_plain_direct(slp_text_in_t *t, unsigned char *buf, size_t size)
{
    size_t n = fread(buf, 1, size, t->f);
    if (n == 0) {
        if (ferror(t->f))
            fail(t, SLP_TEXT_IO, strerror(errno ? errno : EIO));
        t->in_eof = 1;
        t->end = t->status == SLP_TEXT_OK;
    }
    return n;
}

size_t slp_text_in_read(slp_text_in_t *t, void *buf, size_t size)
{
    size_t got = 0;
    while (got < size) {
        if (t->out_pos == t->out_len && t->kind == K_PLAIN && t->in_pos == t->in_len &&
            !t->in_eof && t->status == SLP_TEXT_OK) {
            size_t n = read_plain_direct(t, (unsigned char *)buf + got, size - got);
            if (n == 0)
                break;
            got += n;
            continue;
        }
        if (t->out_pos == t->out_len) {
            decode_more(t);
            if (t->out_len == 0)
                break;
        }
        size_t avail = t->out_len - t->out_pos, take = avail < size - got ? avail : size - got;
        memcpy((char *)buf + got, t->out + t->out_pos, take);
        got += take;
        t->out_pos += take;
    }
    return got;
}

int slp_text_in_eof(const slp_text_in_t *t)
{
    return t->end && t->status == SLP_TEXT_OK && t->out_pos == t->out_len;
}

slp_text_status slp_text_in_status(const slp_text_in_t *t, const char **why)
{
    if (why)
        *why = t->why;
    return t->status;
}

const char *slp_text_in_kind(const slp_text_in_t *t)
{
    static const char *names[] = {"none", "gzip", "bzip2", "xz", "zstd"};
    return names[t->kind];
}
