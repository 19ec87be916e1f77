/* A model file's text read at any offset (io/text_at.h, docs/parallel-input.md
 * "Compressed files"). */
#include "io/text_at.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#ifdef SLP_HAVE_ZSTD
#include <zstd.h>
#endif

#include "core/local_problem.h"
#include "io/block_units.h"
#include "io/text_in.h"

#define BGZF_MIN (BGZF_HEADER + 2 + BGZF_TRAILER) /* an empty member (the end marker) */
#define BGZF_WINDOW ((size_t)1 << 20)      /* bytes read at a time by the scan */
#define ZSTD_MAX_FRAME_TEXT ((int64_t)64 << 20) /* larger frames: read by one process */

struct slp_text_at {
    int fd;
    slp_text_at_kind kind;
    int64_t file_size, size; /* size: bytes of text (-1: a BGZF file's units not given) */
    int64_t units_end;       /* where the compressed units end in the file */
    int64_t units;           /* compressed units; starts in the file and in the text, */
    int64_t *file_at, *text_at; /* units + 1 of each (the last: the ends) */
    int64_t cached;          /* the unit whose text is in out, -1 none */
    unsigned char *in, *out;
    size_t in_cap, out_cap;
    z_stream z;
    int z_ready;
#ifdef SLP_HAVE_ZSTD
    ZSTD_DCtx *zd;
#endif
};

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The length of the BGZF member whose header is h, or -1 when h is not one: gzip,
 * deflate, only the extra-field flag, one 6-byte field "BC" holding the length - 1. */
static int64_t bgzf_member_length(const unsigned char *h)
{
    if (memcmp(h, slp_bgzf_head, 4) != 0 || memcmp(h + 10, slp_bgzf_head + 10, 6) != 0)
        return -1; /* MTIME, XFL and OS (bytes 4-9) may be anything */
    int64_t len = (int64_t)(h[16] | h[17] << 8) + 1;
    return len >= BGZF_MIN ? len : -1;
}

/* ---- units ------------------------------------------------------------------------ */

static slp_err install_units(slp_text_at_t *t, const slp_text_unit_t *u, int64_t count)
{
    free(t->file_at);
    free(t->text_at);
    t->file_at = slp_malloc(sizeof(int64_t) * (size_t)(count + 1));
    t->text_at = slp_malloc(sizeof(int64_t) * (size_t)(count + 1));
    if (!t->file_at || !t->text_at)
        return SLP_ERR_NOMEM;
    int64_t text = 0, most = 0;
    for (int64_t k = 0; k < count; k++) {
        t->file_at[k] = u[k].file_offset;
        t->text_at[k] = text;
        text += u[k].text_bytes;
        most = u[k].text_bytes > most ? u[k].text_bytes : most;
    }
    t->file_at[count] = t->units_end;
    t->text_at[count] = text;
    t->units = count;
    t->size = text;
    t->cached = -1;
    free(t->out);
    t->out_cap = (size_t)most + 1;
    t->out = slp_malloc(t->out_cap);
    return t->out ? SLP_OK : SLP_ERR_NOMEM;
}

slp_err slp_text_at_set_units(slp_text_at_t *t, const slp_text_unit_t *units, int64_t count)
{
    return install_units(t, units, count);
}

/* The unit that holds text byte `at` (< size): the last whose start is at or before it
 * (empty units share their start with the next one). */
static int64_t unit_of(const slp_text_at_t *t, int64_t at)
{
    if (t->cached >= 0 && t->text_at[t->cached] <= at && at < t->text_at[t->cached + 1])
        return t->cached;
    return slp_part_of(t->text_at, t->units, at);
}

static int grow(unsigned char **buf, size_t *cap, size_t need)
{
    if (*cap >= need)
        return 0;
    unsigned char *bigger = realloc(*buf, need);
    if (!bigger)
        return -1;
    *buf = bigger;
    *cap = need;
    return 0;
}

/* Inflate one BGZF member (in[0, clen)) into out[0, tlen), checking its CRC and size. */
static int inflate_member(slp_text_at_t *t, size_t clen, size_t tlen)
{
    if (!t->z_ready) {
        memset(&t->z, 0, sizeof t->z);
        if (inflateInit2(&t->z, -MAX_WBITS) != Z_OK)
            return -1;
        t->z_ready = 1;
    } else if (inflateReset(&t->z) != Z_OK) {
        return -1;
    }
    if (bgzf_member_length(t->in) != (int64_t)clen)
        return -1;
    t->z.next_in = t->in + BGZF_HEADER;
    t->z.avail_in = (uInt)(clen - BGZF_HEADER - BGZF_TRAILER);
    t->z.next_out = t->out;
    t->z.avail_out = (uInt)tlen;
    if (inflate(&t->z, Z_FINISH) != Z_STREAM_END || t->z.avail_in != 0 || t->z.total_out != tlen)
        return -1;
    const unsigned char *tail = t->in + clen - BGZF_TRAILER;
    return crc32(0L, t->out, (uInt)tlen) == le32(tail) && le32(tail + 4) == tlen ? 0 : -1;
}

static int decompress_frame(slp_text_at_t *t, size_t clen, size_t tlen)
{
#ifdef SLP_HAVE_ZSTD
    if (!t->zd && !(t->zd = ZSTD_createDCtx()))
        return -1;
    size_t got = ZSTD_decompressDCtx(t->zd, t->out, tlen, t->in, clen);
    return !ZSTD_isError(got) && got == tlen ? 0 : -1;
#else
    (void)t, (void)clen, (void)tlen;
    return -1;
#endif
}

/* The text of unit u into out. */
static int decode(slp_text_at_t *t, int64_t u)
{
    if (t->cached == u)
        return 0;
    t->cached = -1;
    size_t clen = (size_t)(t->file_at[u + 1] - t->file_at[u]);
    size_t tlen = (size_t)(t->text_at[u + 1] - t->text_at[u]);
    if (grow(&t->in, &t->in_cap, clen) != 0 ||
        slp_pread_full(t->fd, t->in, clen, t->file_at[u]) != (ssize_t)clen)
        return -1;
    int rc = t->kind == SLP_TEXT_AT_BGZF ? inflate_member(t, clen, tlen)
                                         : decompress_frame(t, clen, tlen);
    if (rc == 0)
        t->cached = u;
    return rc;
}

ssize_t slp_text_at_read(slp_text_at_t *t, void *dst, size_t len, int64_t offset)
{
    if (t->kind == SLP_TEXT_AT_PLAIN)
        return slp_pread_full(t->fd, dst, len, offset);
    if (t->size < 0 || offset < 0) {
        errno = EINVAL;
        return -1;
    }
    size_t done = 0;
    while (done < len && offset + (int64_t)done < t->size) {
        int64_t at = offset + (int64_t)done, u = unit_of(t, at);
        if (decode(t, u) != 0) {
            errno = EIO;
            return -1;
        }
        size_t from = (size_t)(at - t->text_at[u]);
        size_t n = (size_t)(t->text_at[u + 1] - at);
        n = n < len - done ? n : len - done;
        memcpy((char *)dst + done, t->out + from, n);
        done += n;
    }
    return (ssize_t)done;
}

/* ---- BGZF: members found by their headers ----------------------------------------- */

/* A forward window on the file for the scan. */
typedef struct {
    int fd;
    unsigned char *buf;
    int64_t pos;
    size_t len;
} window_t;

/* Bytes [off, off + n) of the file (n small), or NULL past its end or on a failure. */
static const unsigned char *window_get(window_t *w, int64_t off, size_t n)
{
    if (off < w->pos || off + (int64_t)n > w->pos + (int64_t)w->len) {
        ssize_t got = slp_pread_full(w->fd, w->buf, BGZF_WINDOW, off);
        w->pos = off;
        w->len = got > 0 ? (size_t)got : 0;
        if (got < (ssize_t)n)
            return NULL;
    }
    return w->buf + (off - w->pos);
}

/* The first offset in [from, limit) where a BGZF member header starts; limit if none. */
static int64_t first_header(window_t *w, int64_t from, int64_t limit)
{
    for (int64_t at = from; at < limit;) {
        const unsigned char *p = window_get(w, at, 1);
        if (!p)
            return limit;
        size_t avail = w->len - (size_t)(at - w->pos);
        const unsigned char *hit = memchr(p, 0x1f, avail);
        if (!hit) {
            at += (int64_t)avail;
            continue;
        }
        at += hit - p;
        const unsigned char *h = at < limit ? window_get(w, at, BGZF_HEADER) : NULL;
        if (h && bgzf_member_length(h) > 0)
            return at;
        at++;
    }
    return limit;
}

int slp_bgzf_scan(slp_text_at_t *t, int64_t begin, int64_t end, slp_text_unit_t **units,
                  int64_t *count, int64_t *first, int64_t *next)
{
    *units = NULL;
    *count = 0;
    window_t w = {t->fd, malloc(BGZF_WINDOW), -1, 0};
    if (!w.buf)
        return -1;
    int64_t size = t->file_size, cap = 0, n = 0;
    slp_text_unit_t *list = NULL;
    /* a member starts within every BGZF_MAX_TEXT + its overhead bytes of a BGZF file */
    int64_t limit = begin + 2 * BGZF_MAX_TEXT < size ? begin + 2 * BGZF_MAX_TEXT : size;
    int64_t at = begin < size ? first_header(&w, begin, limit) : size;
    int ok = at < limit || limit == size; /* a header found, or none can follow */
    *first = at;
    while (ok && at < end && at < size) {
        const unsigned char *h = window_get(&w, at, BGZF_HEADER);
        int64_t len = h ? bgzf_member_length(h) : -1;
        const unsigned char *tail = len > 0 && at + len <= size ? window_get(&w, at + len - 4, 4)
                                                                : NULL;
        uint32_t text = tail ? le32(tail) : 0;
        if (!tail || text > BGZF_MAX_TEXT) {
            ok = 0;
            break;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            slp_text_unit_t *bigger = realloc(list, sizeof *list * (size_t)cap);
            if (!bigger) {
                ok = 0;
                break;
            }
            list = bigger;
        }
        list[n++] = (slp_text_unit_t){at, text};
        at += len;
    }
    free(w.buf);
    if (!ok) {
        free(list);
        return -1;
    }
    *next = at;
    *units = list;
    *count = n;
    return 0;
}

/* ---- zstd's seekable format: the seek table at the end ---------------------------- */

/* The frames listed in the seek table; 0, or -1 when the file does not end with one
 * this reader takes (then the file is read by one process). */
static int read_seek_table(slp_text_at_t *t)
{
    unsigned char foot[ZSTD_SEEKABLE_FOOTER];
    if (t->file_size < 8 + ZSTD_SEEKABLE_FOOTER ||
        slp_pread_full(t->fd, foot, sizeof foot, t->file_size - ZSTD_SEEKABLE_FOOTER) !=
            ZSTD_SEEKABLE_FOOTER ||
        le32(foot + 5) != ZSTD_SEEKABLE_MAGIC || (foot[4] & 0x7c) != 0)
        return -1;
    int64_t frames = le32(foot), entry = foot[4] & 0x80 ? 12 : 8;
    int64_t body = frames * entry + ZSTD_SEEKABLE_FOOTER, start = t->file_size - 8 - body;
    if (start < 0)
        return -1;
    unsigned char *tab = malloc((size_t)body + 8);
    int ok = tab && slp_pread_full(t->fd, tab, (size_t)body + 8, start) == body + 8 &&
             le32(tab) == ZSTD_SKIPPABLE_MAGIC && le32(tab + 4) == (uint64_t)body;
    slp_text_unit_t *u = ok ? malloc(sizeof *u * (size_t)(frames + 1)) : NULL;
    int64_t file = 0;
    ok = ok && u;
    for (int64_t k = 0; ok && k < frames; k++) {
        const unsigned char *e = tab + 8 + k * entry;
        u[k] = (slp_text_unit_t){file, le32(e + 4)};
        file += le32(e);
        ok = u[k].text_bytes <= ZSTD_MAX_FRAME_TEXT;
    }
    t->units_end = start;
    ok = ok && file == start && install_units(t, u, frames) == SLP_OK;
    slp_error_clear();
    free(u);
    free(tab);
    return ok ? 0 : -1;
}

/* ---- open and close ----------------------------------------------------------------- */

static slp_text_at_kind kind_of(slp_text_at_t *t)
{
    unsigned char head[BGZF_HEADER] = {0};
    ssize_t got = slp_pread_full(t->fd, head, sizeof head, 0);
    if (got < 0)
        return SLP_TEXT_AT_NONE;
    if (got == BGZF_HEADER && bgzf_member_length(head) > 0)
        return SLP_TEXT_AT_BGZF;
#ifdef SLP_HAVE_ZSTD
    if (got >= 4 && le32(head) == 0xFD2FB528u)
        return read_seek_table(t) == 0 ? SLP_TEXT_AT_ZSTD : SLP_TEXT_AT_NONE;
#endif
    return slp_text_compressed(head, (size_t)got) ? SLP_TEXT_AT_NONE : SLP_TEXT_AT_PLAIN;
}

slp_err slp_text_at_open(const char *path, slp_text_at_t **out, slp_text_at_kind *kind)
{
    *out = NULL;
    *kind = SLP_TEXT_AT_NONE;
    struct stat st;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return SLP_OK;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return SLP_OK;
    }
    slp_text_at_t *t = slp_calloc(1, sizeof *t);
    if (!t) {
        close(fd);
        return SLP_ERR_NOMEM;
    }
    t->fd = fd;
    t->file_size = t->units_end = (int64_t)st.st_size;
    t->size = t->file_size;
    t->cached = -1;
    t->kind = kind_of(t);
    if (t->kind == SLP_TEXT_AT_BGZF)
        t->size = -1;
    if (t->kind == SLP_TEXT_AT_NONE) {
        slp_text_at_close(&t);
        return SLP_OK;
    }
    *out = t;
    *kind = t->kind;
    return SLP_OK;
}

void slp_text_at_close(slp_text_at_t **tp)
{
    slp_text_at_t *t = *tp;
    if (!t)
        return;
    close(t->fd);
    if (t->z_ready)
        inflateEnd(&t->z);
#ifdef SLP_HAVE_ZSTD
    ZSTD_freeDCtx(t->zd);
#endif
    free(t->file_at);
    free(t->text_at);
    free(t->in);
    free(t->out);
    free(t);
    *tp = NULL;
}

int64_t slp_text_at_size(const slp_text_at_t *t) { return t->size; }
int64_t slp_text_at_file_size(const slp_text_at_t *t) { return t->file_size; }
