/* Shard file layer: the 128-byte header, checksumming writer and reader (little-endian
 * on disk whatever the host), and atomic directory replacement. */
#include "shard_internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <zlib.h>

#define SLP_FW_BUF (1 << 16)

static int host_is_le(void)
{
    const uint16_t one = 1;
    return *(const unsigned char *)&one == 1;
}

/* Little-endian stores / loads of fixed-width values. */
static void put_u32(unsigned char *p, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        p[k] = (unsigned char)(v >> (8 * k));
}
static void put_u64(unsigned char *p, uint64_t v)
{
    for (int k = 0; k < 8; k++)
        p[k] = (unsigned char)(v >> (8 * k));
}
static uint32_t get_u32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int k = 3; k >= 0; k--)
        v = (v << 8) | p[k];
    return v;
}
static uint64_t get_u64(const unsigned char *p)
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

const char *slp_shard_role_magic(int role)
{
    switch (role) {
    case SLP_SHARD_BLOCK: return SLP_MAGIC_BLOCK;
    case SLP_SHARD_COL_SLICE: return SLP_MAGIC_COL;
    case SLP_SHARD_ROW_SLICE: return SLP_MAGIC_ROW;
    case SLP_SHARD_COL_NAMES: return SLP_MAGIC_COLNAMES;
    case SLP_SHARD_ROW_NAMES: return SLP_MAGIC_ROWNAMES;
    case SLP_SHARD_SOL_X: return SLP_MAGIC_SOLX;
    case SLP_SHARD_SOL_Y: return SLP_MAGIC_SOLY;
    }
    return "????????";
}

const char *slp_shard_role_name(int role)
{
    switch (role) {
    case SLP_SHARD_BLOCK: return "block";
    case SLP_SHARD_COL_SLICE: return "col_slice";
    case SLP_SHARD_ROW_SLICE: return "row_slice";
    case SLP_SHARD_COL_NAMES: return "col_names";
    case SLP_SHARD_ROW_NAMES: return "row_names";
    case SLP_SHARD_SOL_X: return "solution_x";
    case SLP_SHARD_SOL_Y: return "solution_y";
    }
    return "unknown";
}

void slp_shard_file_name(int role, int r, int c, char *buf, size_t size)
{
    switch (role) {
    case SLP_SHARD_BLOCK: snprintf(buf, size, "block_%d_%d.bin", r, c); break;
    case SLP_SHARD_COL_SLICE: snprintf(buf, size, "col_%d.bin", c); break;
    case SLP_SHARD_ROW_SLICE: snprintf(buf, size, "row_%d.bin", r); break;
    case SLP_SHARD_COL_NAMES: snprintf(buf, size, "colnames_%d.bin", c); break;
    case SLP_SHARD_ROW_NAMES: snprintf(buf, size, "rownames_%d.bin", r); break;
    case SLP_SHARD_SOL_X: snprintf(buf, size, "x_%d.bin", c); break;
    case SLP_SHARD_SOL_Y: snprintf(buf, size, "y_%d.bin", r); break;
    default: snprintf(buf, size, "unknown.bin"); break;
    }
}

void slp_shard_header_init(slp_shard_header_t *h, int role)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, slp_shard_role_magic(role), 8);
    h->version = SLP_SHARD_VERSION;
    h->header_bytes = SLP_SHARD_HEADER_BYTES;
    h->r = h->c = -1;
}

static void header_encode(const slp_shard_header_t *h, unsigned char *p)
{
    memset(p, 0, SLP_SHARD_HEADER_BYTES);
    memcpy(p, h->magic, 8);
    put_u32(p + 8, h->version);
    put_u32(p + 12, h->header_bytes);
    put_u32(p + 16, (uint32_t)h->R);
    put_u32(p + 20, (uint32_t)h->C);
    put_u32(p + 24, (uint32_t)h->r);
    put_u32(p + 28, (uint32_t)h->c);
    put_u64(p + 32, (uint64_t)h->row_lo);
    put_u64(p + 40, (uint64_t)h->m_loc);
    put_u64(p + 48, (uint64_t)h->col_lo);
    put_u64(p + 56, (uint64_t)h->n_loc);
    put_u64(p + 64, (uint64_t)h->count);
    put_u64(p + 72, (uint64_t)h->m);
    put_u64(p + 80, (uint64_t)h->n);
    put_u64(p + 88, (uint64_t)h->payload_bytes);
    put_u32(p + 124, (uint32_t)crc32(0L, p, 124));
}

static void header_decode(const unsigned char *p, slp_shard_header_t *h)
{
    memcpy(h->magic, p, 8);
    h->version = get_u32(p + 8);
    h->header_bytes = get_u32(p + 12);
    h->R = (int32_t)get_u32(p + 16);
    h->C = (int32_t)get_u32(p + 20);
    h->r = (int32_t)get_u32(p + 24);
    h->c = (int32_t)get_u32(p + 28);
    h->row_lo = (int64_t)get_u64(p + 32);
    h->m_loc = (int64_t)get_u64(p + 40);
    h->col_lo = (int64_t)get_u64(p + 48);
    h->n_loc = (int64_t)get_u64(p + 56);
    h->count = (int64_t)get_u64(p + 64);
    h->m = (int64_t)get_u64(p + 72);
    h->n = (int64_t)get_u64(p + 80);
    h->payload_bytes = (int64_t)get_u64(p + 88);
}

/* ---- writer ------------------------------------------------------------------------ */

static slp_err fw_flush(slp_fw_t *w)
{
    if (w->used && fwrite(w->buf, 1, w->used, w->f) != w->used)
        return slp_error(SLP_ERR_IO, "%s: write failed: %s", w->path, strerror(errno));
    w->used = 0;
    return SLP_OK;
}

slp_err slp_fw_open(slp_fw_t *w, const char *path)
{
    memset(w, 0, sizeof *w);
    w->path = slp_strdup(path);
    w->buf = slp_malloc(SLP_FW_BUF);
    if (!w->path || !w->buf) {
        slp_fw_discard(w);
        return SLP_ERR_NOMEM;
    }
    w->f = fopen(path, "wb");
    if (!w->f) {
        slp_err rc = slp_error(SLP_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
        slp_fw_discard(w);
        return rc;
    }
    w->crc = crc32(0L, Z_NULL, 0);
    return SLP_OK;
}

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

slp_err slp_fw_header(slp_fw_t *w, const slp_shard_header_t *h)
{
    unsigned char p[SLP_SHARD_HEADER_BYTES];
    header_encode(h, p);
    return slp_fw_bytes(w, p, sizeof p);
}

slp_err slp_fw_close(slp_fw_t *w, slp_shard_file_t *info)
{
    unsigned char t[4];
    uint32_t crc = (uint32_t)w->crc;
    put_u32(t, crc);
    slp_err rc = fw_flush(w);
    if (rc == SLP_OK && fwrite(t, 1, 4, w->f) != 4)
        rc = slp_error(SLP_ERR_IO, "%s: write failed: %s", w->path, strerror(errno));
    if (rc == SLP_OK && fflush(w->f) != 0)
        rc = slp_error(SLP_ERR_IO, "%s: write failed: %s", w->path, strerror(errno));
    if (rc == SLP_OK && fsync(fileno(w->f)) != 0 && errno != EINVAL && errno != EROFS)
        rc = slp_error(SLP_ERR_IO, "%s: sync failed: %s", w->path, strerror(errno));
    int close_rc = fclose(w->f);
    w->f = NULL;
    if (rc == SLP_OK && close_rc != 0)
        rc = slp_error(SLP_ERR_IO, "%s: close failed: %s", w->path, strerror(errno));
    if (rc != SLP_OK) {
        slp_fw_discard(w);
        return rc;
    }
    if (info) {
        info->bytes = w->bytes + 4;
        info->crc32 = crc;
    }
    free(w->path);
    free(w->buf);
    memset(w, 0, sizeof *w);
    return SLP_OK;
}

void slp_fw_discard(slp_fw_t *w)
{
    if (w->f) {
        fclose(w->f);
        w->f = NULL;
    }
    if (w->path)
        remove(w->path);
    free(w->path);
    free(w->buf);
    memset(w, 0, sizeof *w);
}

/* ---- reader ------------------------------------------------------------------------ */

slp_err slp_fr_open(slp_fr_t *rd, const char *dir, const slp_shard_file_t *entry)
{
    memset(rd, 0, sizeof *rd);
    rd->path = slp_path_join(dir, entry->path);
    if (!rd->path)
        return SLP_ERR_NOMEM;
    rd->expect_crc = entry->crc32;
    struct stat st;
    if (stat(rd->path, &st) != 0)
        return slp_error(SLP_ERR_IO, "%s: cannot open %s file: %s", rd->path,
                         slp_shard_role_name(entry->role), strerror(errno));
    rd->size = (int64_t)st.st_size;
    if (rd->size != entry->bytes)
        return slp_error(SLP_ERR_INPUT,
                         "%s: file is %lld bytes but the manifest says %lld (truncated or replaced)",
                         rd->path, (long long)rd->size, (long long)entry->bytes);
    if (rd->size < SLP_SHARD_HEADER_BYTES + SLP_SHARD_TRAILER_BYTES)
        return slp_error(SLP_ERR_INPUT, "%s: file too short (%lld bytes) for a shard file",
                         rd->path, (long long)rd->size);
    rd->f = fopen(rd->path, "rb");
    if (!rd->f)
        return slp_error(SLP_ERR_IO, "%s: cannot open: %s", rd->path, strerror(errno));
    unsigned char p[SLP_SHARD_HEADER_BYTES];
    if (fread(p, 1, sizeof p, rd->f) != sizeof p)
        return slp_error(SLP_ERR_IO, "%s: cannot read the header", rd->path);
    const char *magic = slp_shard_role_magic(entry->role);
    if (memcmp(p, magic, 8) != 0)
        return slp_error(SLP_ERR_INPUT, "%s: wrong magic (expected \"%.8s\" for a %s file)",
                         rd->path, magic, slp_shard_role_name(entry->role));
    header_decode(p, &rd->h);
    if (rd->h.version != SLP_SHARD_VERSION)
        return slp_error(SLP_ERR_INPUT, "%s: format version %u, this reader supports %d",
                         rd->path, rd->h.version, SLP_SHARD_VERSION);
    if (get_u32(p + 124) != (uint32_t)crc32(0L, p, 124))
        return slp_error(SLP_ERR_INPUT, "%s: header checksum mismatch (file corrupted)",
                         rd->path);
    if (rd->h.header_bytes != SLP_SHARD_HEADER_BYTES || rd->h.payload_bytes < 0 ||
        rd->h.payload_bytes != rd->size - SLP_SHARD_HEADER_BYTES - SLP_SHARD_TRAILER_BYTES)
        return slp_error(SLP_ERR_INPUT, "%s: header says %lld payload bytes, file has %lld",
                         rd->path, (long long)rd->h.payload_bytes,
                         (long long)(rd->size - SLP_SHARD_HEADER_BYTES - SLP_SHARD_TRAILER_BYTES));
    rd->crc = crc32(crc32(0L, Z_NULL, 0), p, sizeof p);
    return SLP_OK;
}

slp_err slp_fr_expect(slp_fr_t *rd, const char *field, int64_t got, int64_t want)
{
    if (got != want)
        return slp_error(SLP_ERR_INPUT, "%s: header field %s is %lld, expected %lld from the manifest",
                         rd->path, field, (long long)got, (long long)want);
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

slp_err slp_fr_finish(slp_fr_t *rd)
{
    unsigned char t[4];
    if (fread(t, 1, 4, rd->f) != 4)
        return slp_error(SLP_ERR_IO, "%s: unexpected end of file", rd->path);
    uint32_t stored = get_u32(t);
    if (stored != (uint32_t)rd->crc)
        return slp_error(SLP_ERR_INPUT, "%s: checksum mismatch (file corrupted)", rd->path);
    if (stored != rd->expect_crc)
        return slp_error(SLP_ERR_INPUT,
                         "%s: checksum %u does not match the manifest's %u (file from another shard set?)",
                         rd->path, stored, rd->expect_crc);
    slp_fr_close(rd);
    return SLP_OK;
}

void slp_fr_close(slp_fr_t *rd)
{
    if (rd->f)
        fclose(rd->f);
    free(rd->path);
    memset(rd, 0, sizeof *rd);
}

/* ---- paths and directories ------------------------------------------------------------ */

char *slp_path_join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    char *p = slp_malloc(a + b + 2);
    if (!p)
        return NULL;
    memcpy(p, dir, a);
    size_t k = a;
    if (a > 0 && dir[a - 1] != '/')
        p[k++] = '/';
    memcpy(p + k, name, b + 1);
    return p;
}

/* 0 absent, 1 replaceable (empty dir or holding manifest_name), -1 not replaceable. */
static int target_state(const char *dir, const char *manifest_name)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return 0;
    if (!S_ISDIR(st.st_mode))
        return -1;
    char *man = slp_path_join(dir, manifest_name);
    int ok = man && stat(man, &st) == 0;
    free(man);
    if (ok)
        return 1;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *e;
    int empty = 1;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            empty = 0;
    closedir(d);
    return empty ? 1 : -1;
}

slp_err slp_dir_begin(const char *dir, const char *manifest_name, char **tmp)
{
    *tmp = NULL;
    if (!dir || !*dir)
        return slp_error(SLP_ERR_INPUT, "no output directory given");
    if (target_state(dir, manifest_name) < 0)
        return slp_error(SLP_ERR_IO,
                         "%s: exists and is not an empty directory or a previous output "
                         "(no %s); refusing to overwrite it",
                         dir, manifest_name);
    size_t len = strlen(dir) + 32;
    char *p = slp_malloc(len);
    if (!p)
        return SLP_ERR_NOMEM;
    /* Strip trailing slashes so the temporary directory is a sibling. */
    snprintf(p, len, "%s", dir);
    size_t k = strlen(p);
    while (k > 1 && p[k - 1] == '/')
        p[--k] = '\0';
    snprintf(p + k, len - k, ".tmp.%ld", (long)getpid());
    slp_dir_discard(p); /* a leftover of an earlier crashed run with the same pid */
    if (mkdir(p, 0777) != 0) {
        slp_err rc = slp_error(SLP_ERR_IO, "%s: cannot create directory: %s", p, strerror(errno));
        free(p);
        return rc;
    }
    *tmp = p;
    return SLP_OK;
}

slp_err slp_dir_commit(const char *tmp, const char *dir, const char *manifest_name)
{
    int state = target_state(dir, manifest_name);
    if (state < 0)
        return slp_error(SLP_ERR_IO, "%s: exists and is not a previous output; refusing to overwrite it",
                         dir);
    char *old = NULL;
    if (state == 1) {
        size_t len = strlen(tmp) + 8;
        old = slp_malloc(len);
        if (!old)
            return SLP_ERR_NOMEM;
        snprintf(old, len, "%s.old", tmp);
        slp_dir_discard(old);
        if (rename(dir, old) != 0) {
            slp_err rc = slp_error(SLP_ERR_IO, "%s: cannot move the previous output aside: %s",
                                   dir, strerror(errno));
            free(old);
            return rc;
        }
    }
    if (rename(tmp, dir) != 0) {
        slp_err rc = slp_error(SLP_ERR_IO, "%s: cannot rename %s into place: %s", dir, tmp,
                               strerror(errno));
        if (old)
            rename(old, dir);
        free(old);
        return rc;
    }
    if (old)
        slp_dir_discard(old);
    free(old);
    return SLP_OK;
}

void slp_dir_discard(const char *tmp)
{
    DIR *d = opendir(tmp);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *p = slp_path_join(tmp, e->d_name);
        if (p)
            remove(p);
        free(p);
    }
    closedir(d);
    rmdir(tmp);
}

int slp_shard_block_of(const int64_t *off, int parts, int64_t g)
{
    int lo = 0, hi = parts - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (off[mid] <= g)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}
