/* Checksummed binary files (io/checked_file.h). */
#include "io/checked_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define SLP_FW_BUF (1 << 16)

static int host_is_le(void)
{
    const uint16_t one = 1;
    return *(const unsigned char *)&one == 1;
}

uint32_t slp_crc32(uint32_t crc, const void *data, size_t bytes)
{
    const unsigned char *p = data;
    unsigned long c = crc;
    while (bytes > 0) { /* zlib takes uInt lengths */
        size_t k = bytes < ((size_t)1 << 30) ? bytes : ((size_t)1 << 30);
        c = crc32(c, p, (uInt)k);
        p += k;
        bytes -= k;
    }
    return (uint32_t)c;
}

void slp_le_put_u32(unsigned char *p, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        p[k] = (unsigned char)(v >> (8 * k));
}

void slp_le_put_u64(unsigned char *p, uint64_t v)
{
    for (int k = 0; k < 8; k++)
        p[k] = (unsigned char)(v >> (8 * k));
}

uint32_t slp_le_get_u32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int k = 3; k >= 0; k--)
        v = (v << 8) | p[k];
    return v;
}

uint64_t slp_le_get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int k = 7; k >= 0; k--)
        v = (v << 8) | p[k];
    return v;
}

static void swap_bytes(unsigned char *p, size_t elem, size_t count)
{
    for (size_t e = 0; e < count; e++, p += elem)
        for (size_t k = 0; k < elem / 2; k++) {
            unsigned char t = p[k];
            p[k] = p[elem - 1 - k];
            p[elem - 1 - k] = t;
        }
}

/* ---- writer ------------------------------------------------------------------------ */

static slp_err fw_flush(slp_fw_t *w)
{
    if (w->used && fwrite(w->buf, 1, w->used, w->f) != w->used)
        return slp_error(SLP_ERR_IO, "%s: write failed: %s", w->path, strerror(errno));
    w->used = 0;
    return SLP_OK;
}

static slp_err fw_start(slp_fw_t *w, const char *path, int atomic)
{
    memset(w, 0, sizeof *w);
    w->path = slp_strdup(path);
    w->buf = slp_malloc(SLP_FW_BUF);
    w->atomic = atomic;
    if (!w->path || !w->buf) {
        slp_fw_discard(w);
        return SLP_ERR_NOMEM;
    }
    slp_err rc = SLP_OK;
    if (atomic) {
        rc = slp_out_open(&w->out, path, "file", 1);
        w->f = w->out.f;
    } else if (!(w->f = fopen(path, "wb"))) {
        rc = slp_error(SLP_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    }
    if (rc != SLP_OK) {
        slp_fw_discard(w);
        return rc;
    }
    w->crc = crc32(0L, Z_NULL, 0);
    return SLP_OK;
}

slp_err slp_fw_open(slp_fw_t *w, const char *path) { return fw_start(w, path, 0); }
slp_err slp_fw_open_atomic(slp_fw_t *w, const char *path) { return fw_start(w, path, 1); }

slp_err slp_fw_bytes(slp_fw_t *w, const void *data, size_t len)
{
    const unsigned char *p = data;
    while (len > 0) {
        size_t take = SLP_FW_BUF - w->used;
        if (take > len)
            take = len;
        memcpy(w->buf + w->used, p, take);
        w->crc = crc32(w->crc, w->buf + w->used, (uInt)take);
        w->used += take;
        w->bytes += (int64_t)take;
        p += take;
        len -= take;
        if (w->used == SLP_FW_BUF)
            SLP_CALL(fw_flush(w));
    }
    return SLP_OK;
}

/* Arrays go through the buffer in pieces, byte-swapped on big-endian hosts. */
static slp_err fw_array(slp_fw_t *w, const void *v, size_t elem, int64_t count)
{
    if (host_is_le())
        return slp_fw_bytes(w, v, (size_t)count * elem);
    unsigned char tmp[4096];
    const unsigned char *p = v;
    size_t per = sizeof tmp / elem;
    for (int64_t done = 0; done < count;) {
        size_t k = (size_t)(count - done) < per ? (size_t)(count - done) : per;
        memcpy(tmp, p + (size_t)done * elem, k * elem);
        swap_bytes(tmp, elem, k);
        SLP_CALL(slp_fw_bytes(w, tmp, k * elem));
        done += (int64_t)k;
    }
    return SLP_OK;
}

slp_err slp_fw_i64(slp_fw_t *w, const int64_t *v, int64_t count) { return fw_array(w, v, 8, count); }
slp_err slp_fw_i32(slp_fw_t *w, const int32_t *v, int64_t count) { return fw_array(w, v, 4, count); }
slp_err slp_fw_f64(slp_fw_t *w, const double *v, int64_t count) { return fw_array(w, v, 8, count); }
slp_err slp_fw_u16(slp_fw_t *w, const uint16_t *v, int64_t count) { return fw_array(w, v, 2, count); }

slp_err slp_fw_zeros(slp_fw_t *w, size_t len)
{
    static const unsigned char zero[8];
    while (len > 0) {
        size_t k = len < sizeof zero ? len : sizeof zero;
        SLP_CALL(slp_fw_bytes(w, zero, k));
        len -= k;
    }
    return SLP_OK;
}

/* Trailer, then flush, fsync (a file system without fsync is not an error), close, and
 * in atomic mode the rename. */
static slp_err fw_finish_file(slp_fw_t *w)
{
    unsigned char t[SLP_CHECKED_TRAILER_BYTES];
    slp_le_put_u32(t, (uint32_t)w->crc);
    slp_err rc = fw_flush(w);
    if (rc == SLP_OK && fwrite(t, 1, sizeof t, w->f) != sizeof t)
        rc = slp_error(SLP_ERR_IO, "%s: write failed: %s", w->path, strerror(errno));
    if (w->atomic) {
        w->f = NULL;
        return rc == SLP_OK ? slp_out_commit(&w->out) : rc;
    }
    if (rc == SLP_OK && fflush(w->f) != 0)
        rc = slp_error(SLP_ERR_IO, "%s: write failed: %s", w->path, strerror(errno));
    if (rc == SLP_OK && fsync(fileno(w->f)) != 0 && errno != EINVAL && errno != EROFS)
        rc = slp_error(SLP_ERR_IO, "%s: sync failed: %s", w->path, strerror(errno));
    int close_rc = fclose(w->f);
    w->f = NULL;
    if (rc == SLP_OK && close_rc != 0)
        rc = slp_error(SLP_ERR_IO, "%s: close failed: %s", w->path, strerror(errno));
    return rc;
}

slp_err slp_fw_close(slp_fw_t *w, int64_t *bytes, uint32_t *crc)
{
    slp_err rc = fw_finish_file(w);
    if (rc != SLP_OK) {
        slp_fw_discard(w);
        return rc;
    }
    if (bytes)
        *bytes = w->bytes + SLP_CHECKED_TRAILER_BYTES;
    if (crc)
        *crc = (uint32_t)w->crc;
    free(w->path);
    free(w->buf);
    memset(w, 0, sizeof *w);
    return SLP_OK;
}

void slp_fw_discard(slp_fw_t *w)
{
    if (w->atomic) {
        slp_out_abort(&w->out); /* closes the file and removes the temporary */
    } else if (w->f) {
        fclose(w->f);
        remove(w->path);
    }
    free(w->path);
    free(w->buf);
    memset(w, 0, sizeof *w);
}

/* ---- reader ------------------------------------------------------------------------ */

slp_err slp_fr_open(slp_fr_t *rd, const char *path, const char *what)
{
    memset(rd, 0, sizeof *rd);
    rd->path = slp_strdup(path);
    if (!rd->path)
        return SLP_ERR_NOMEM;
    rd->crc = crc32(0L, Z_NULL, 0);
    struct stat st;
    if (stat(path, &st) != 0)
        return slp_error(SLP_ERR_IO, "%s: cannot open %s file: %s", path, what, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return slp_error(SLP_ERR_INPUT, "%s: %s file is not a regular file", path, what);
    rd->size = (int64_t)st.st_size;
    rd->f = fopen(path, "rb");
    if (!rd->f)
        return slp_error(SLP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    return SLP_OK;
}

slp_err slp_fr_bytes(slp_fr_t *rd, void *data, size_t len)
{
    unsigned char *p = data;
    while (len > 0) {
        size_t k = len < ((size_t)1 << 30) ? len : ((size_t)1 << 30);
        if (fread(p, 1, k, rd->f) != k)
            return slp_error(SLP_ERR_IO, "%s: unexpected end of file", rd->path);
        rd->crc = crc32(rd->crc, p, (uInt)k);
        p += k;
        len -= k;
    }
    return SLP_OK;
}

static slp_err fr_array(slp_fr_t *rd, void *v, size_t elem, int64_t count)
{
    SLP_CALL(slp_fr_bytes(rd, v, (size_t)count * elem));
    if (!host_is_le())
        swap_bytes(v, elem, (size_t)count);
    return SLP_OK;
}

slp_err slp_fr_i64(slp_fr_t *rd, int64_t *v, int64_t count) { return fr_array(rd, v, 8, count); }
slp_err slp_fr_i32(slp_fr_t *rd, int32_t *v, int64_t count) { return fr_array(rd, v, 4, count); }
slp_err slp_fr_f64(slp_fr_t *rd, double *v, int64_t count) { return fr_array(rd, v, 8, count); }
slp_err slp_fr_u16(slp_fr_t *rd, uint16_t *v, int64_t count) { return fr_array(rd, v, 2, count); }

slp_err slp_fr_trailer(slp_fr_t *rd, uint32_t *stored)
{
    unsigned char t[SLP_CHECKED_TRAILER_BYTES];
    if (fread(t, 1, sizeof t, rd->f) != sizeof t)
        return slp_error(SLP_ERR_INPUT, "%s: truncated (no checksum at the end)", rd->path);
    uint32_t value = slp_le_get_u32(t);
    if (value != (uint32_t)rd->crc || fgetc(rd->f) != EOF)
        return slp_error(SLP_ERR_INPUT, "%s: checksum mismatch (file corrupted)", rd->path);
    if (stored)
        *stored = value;
    return SLP_OK;
}

void slp_fr_close(slp_fr_t *rd)
{
    if (rd->f)
        fclose(rd->f);
    free(rd->path);
    memset(rd, 0, sizeof *rd);
}
