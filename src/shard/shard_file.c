/* Shard file layer: the 128-byte header, checksumming writer and reader (little-endian
 * on disk whatever the host), and atomic directory replacement. */
#include "shard_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <zlib.h>


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
    case SLP_SHARD_SOL_RAY_X: return SLP_MAGIC_RAYX;
    case SLP_SHARD_SOL_RAY_Y: return SLP_MAGIC_RAYY;
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
    case SLP_SHARD_SOL_RAY_X: return "ray_x";
    case SLP_SHARD_SOL_RAY_Y: return "ray_y";
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
    case SLP_SHARD_SOL_RAY_X: snprintf(buf, size, "rayx_%d.bin", c); break;
    case SLP_SHARD_SOL_RAY_Y: snprintf(buf, size, "rayy_%d.bin", r); break;
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

void slp_shard_header_slice(slp_shard_header_t *h, int is_col, int64_t lo, int64_t len,
                            int arrays)
{
    if (is_col) {
        h->col_lo = lo;
        h->n_loc = len;
    } else {
        h->row_lo = lo;
        h->m_loc = len;
    }
    h->count = len;
    h->payload_bytes = 8 * (int64_t)arrays * len;
}

static void header_encode(const slp_shard_header_t *h, unsigned char *p)
{
    memset(p, 0, SLP_SHARD_HEADER_BYTES);
    memcpy(p, h->magic, 8);
    slp_le_put_u32(p + 8, h->version);
    slp_le_put_u32(p + 12, h->header_bytes);
    slp_le_put_u32(p + 16, (uint32_t)h->R);
    slp_le_put_u32(p + 20, (uint32_t)h->C);
    slp_le_put_u32(p + 24, (uint32_t)h->r);
    slp_le_put_u32(p + 28, (uint32_t)h->c);
    slp_le_put_u64(p + 32, (uint64_t)h->row_lo);
    slp_le_put_u64(p + 40, (uint64_t)h->m_loc);
    slp_le_put_u64(p + 48, (uint64_t)h->col_lo);
    slp_le_put_u64(p + 56, (uint64_t)h->n_loc);
    slp_le_put_u64(p + 64, (uint64_t)h->count);
    slp_le_put_u64(p + 72, (uint64_t)h->m);
    slp_le_put_u64(p + 80, (uint64_t)h->n);
    slp_le_put_u64(p + 88, (uint64_t)h->payload_bytes);
    slp_le_put_u32(p + 96, h->values_form);
    slp_le_put_u32(p + 100, h->table_len);
    slp_le_put_u32(p + 124, (uint32_t)crc32(0L, p, 124));
}

static void header_decode(const unsigned char *p, slp_shard_header_t *h)
{
    memcpy(h->magic, p, 8);
    h->version = slp_le_get_u32(p + 8);
    h->header_bytes = slp_le_get_u32(p + 12);
    h->R = (int32_t)slp_le_get_u32(p + 16);
    h->C = (int32_t)slp_le_get_u32(p + 20);
    h->r = (int32_t)slp_le_get_u32(p + 24);
    h->c = (int32_t)slp_le_get_u32(p + 28);
    h->row_lo = (int64_t)slp_le_get_u64(p + 32);
    h->m_loc = (int64_t)slp_le_get_u64(p + 40);
    h->col_lo = (int64_t)slp_le_get_u64(p + 48);
    h->n_loc = (int64_t)slp_le_get_u64(p + 56);
    h->count = (int64_t)slp_le_get_u64(p + 64);
    h->m = (int64_t)slp_le_get_u64(p + 72);
    h->n = (int64_t)slp_le_get_u64(p + 80);
    h->payload_bytes = (int64_t)slp_le_get_u64(p + 88);
    h->values_form = slp_le_get_u32(p + 96);
    h->table_len = slp_le_get_u32(p + 100);
}

/* ---- writer ------------------------------------------------------------------------ */

slp_err slp_shard_fw_header(slp_fw_t *w, const slp_shard_header_t *h)
{
    unsigned char p[SLP_SHARD_HEADER_BYTES];
    header_encode(h, p);
    return slp_fw_bytes(w, p, sizeof p);
}

slp_err slp_shard_fw_close(slp_fw_t *w, slp_shard_file_t *info)
{
    int64_t bytes = 0;
    uint32_t crc = 0;
    SLP_CALL(slp_fw_close(w, &bytes, &crc));
    if (info) {
        info->bytes = bytes;
        info->crc32 = crc;
    }
    return SLP_OK;
}

/* ---- reader ------------------------------------------------------------------------ */

slp_err slp_shard_fr_open(slp_shard_fr_t *rd, const char *dir, const slp_shard_file_t *entry)
{
    memset(rd, 0, sizeof *rd);
    char *path = slp_path_join(dir, entry->path);
    if (!path)
        return SLP_ERR_NOMEM;
    rd->expect_crc = entry->crc32;
    slp_err rc = slp_fr_open(&rd->fr, path, slp_shard_role_name(entry->role));
    free(path);
    SLP_CALL(rc);
    const char *name = rd->fr.path;
    int64_t size = rd->fr.size;
    if (size != entry->bytes)
        return slp_error(SLP_ERR_INPUT,
                         "%s: file is %lld bytes but the manifest says %lld (truncated or replaced)",
                         name, (long long)size, (long long)entry->bytes);
    if (size < SLP_SHARD_HEADER_BYTES + SLP_CHECKED_TRAILER_BYTES)
        return slp_error(SLP_ERR_INPUT, "%s: file too short (%lld bytes) for a shard file", name,
                         (long long)size);
    unsigned char p[SLP_SHARD_HEADER_BYTES];
    SLP_CALL(slp_fr_bytes(&rd->fr, p, sizeof p));
    const char *magic = slp_shard_role_magic(entry->role);
    if (memcmp(p, magic, 8) != 0)
        return slp_error(SLP_ERR_INPUT, "%s: wrong magic (expected \"%.8s\" for a %s file)",
                         name, magic, slp_shard_role_name(entry->role));
    header_decode(p, &rd->h);
    int newest = entry->role == SLP_SHARD_BLOCK ? SLP_SHARD_BLOCK_VERSION_COMPACT
                                                : SLP_SHARD_VERSION;
    if (rd->h.version < SLP_SHARD_VERSION || rd->h.version > (uint32_t)newest)
        return slp_error(SLP_ERR_INPUT, "%s: format version %u, this reader supports %s", name,
                         rd->h.version, newest > SLP_SHARD_VERSION ? "1 and 2" : "1");
    if (slp_le_get_u32(p + 124) != (uint32_t)crc32(0L, p, 124))
        return slp_error(SLP_ERR_INPUT, "%s: header checksum mismatch (file corrupted)", name);
    int64_t payload = size - SLP_SHARD_HEADER_BYTES - SLP_CHECKED_TRAILER_BYTES;
    if (rd->h.header_bytes != SLP_SHARD_HEADER_BYTES || rd->h.payload_bytes != payload)
        return slp_error(SLP_ERR_INPUT, "%s: header says %lld payload bytes, file has %lld", name,
                         (long long)rd->h.payload_bytes, (long long)payload);
    return SLP_OK;
}

slp_err slp_shard_fr_expect(slp_shard_fr_t *rd, const char *field, int64_t got, int64_t want)
{
    if (got != want)
        return slp_error(SLP_ERR_INPUT, "%s: header field %s is %lld, expected %lld from the manifest",
                         rd->fr.path, field, (long long)got, (long long)want);
    return SLP_OK;
}

slp_err slp_shard_fr_finish(slp_shard_fr_t *rd)
{
    uint32_t stored = 0;
    SLP_CALL(slp_fr_trailer(&rd->fr, &stored));
    if (stored != rd->expect_crc)
        return slp_error(SLP_ERR_INPUT,
                         "%s: checksum %u does not match the manifest's %u (file from another shard set?)",
                         rd->fr.path, stored, rd->expect_crc);
    slp_shard_fr_close(rd);
    return SLP_OK;
}

void slp_shard_fr_close(slp_shard_fr_t *rd) { slp_fr_close(&rd->fr); }

/* ---- paths and directories ------------------------------------------------------------ */

/* Whether `name` is the manifest or a file the manifest lists. */
static int listed(const char *name, const char *manifest_name, const slp_shard_file_t *files,
                  int64_t nfiles)
{
    if (!strcmp(name, manifest_name))
        return 1;
    for (int64_t k = 0; k < nfiles; k++)
        if (!strcmp(name, files[k].path))
            return 1;
    return 0;
}

/* Whether the directory holds nothing but a complete earlier output of this kind:
 * a manifest of shardlp's format for `manifest_name` and only the files it lists. */
static int earlier_output(const char *dir, const char *manifest_name)
{
    char *path = slp_path_join(dir, manifest_name);
    slp_mjson_t root;
    int ok = path && slp_mjson_read_file(path, SLP_MANIFEST_MAX_BYTES, &root) == SLP_OK;
    free(path);
    if (!ok) {
        slp_error_clear();
        return 0;
    }
    const slp_mjson_t *format = slp_mjson_get(&root, "format");
    const char *want = strcmp(manifest_name, SLP_SHARD_MANIFEST) ? "shardlp-solution"
                                                                  : "shardlp-shards";
    slp_shard_file_t *files = NULL;
    int64_t nfiles = 0;
    ok = format && format->type == SLP_MJSON_STR && !strcmp(format->str, want) &&
         slp_mjson_files(&root, dir, &nfiles, &files) == SLP_OK;
    slp_mjson_free(&root);
    slp_error_clear();
    DIR *d = ok ? opendir(dir) : NULL;
    ok = d != NULL;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
            !listed(e->d_name, manifest_name, files, nfiles))
            ok = 0; /* a file shardlp did not write: never replaced */
    if (d)
        closedir(d);
    free(files);
    return ok;
}

/* 0: absent; 1: may be replaced (empty, or an earlier output of this kind); -1: not. */
static int target_state(const char *dir, const char *manifest_name)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return 0;
    if (!S_ISDIR(st.st_mode))
        return -1;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *e;
    int empty = 1;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            empty = 0;
    closedir(d);
    if (empty)
        return 1;
    return earlier_output(dir, manifest_name) ? 1 : -1;
}

slp_err slp_shard_check_output_dir(const char *dir, int solution)
{
    const char *manifest = solution ? SLP_SOLUTION_MANIFEST : SLP_SHARD_MANIFEST;
    int state = target_state(dir, manifest);
    if (state < 0)
        return slp_error(SLP_ERR_IO,
                         "%s: exists and is neither empty nor a complete earlier shardlp output "
                         "(%s and only the files it lists); refusing to overwrite it",
                         dir, manifest);
    /* absent: the parent must take the DIR.tmp.XXXXXX sibling; present: so must it
     * ("sol/" is the directory sol: its parent is ".") */
    char bare[PATH_MAX];
    snprintf(bare, sizeof bare, "%s", dir);
    for (size_t k = strlen(bare); k > 1 && bare[k - 1] == '/'; k--)
        bare[k - 1] = '\0';
    return slp_out_check(bare, solution ? "sharded solution" : "shard directory", state == 1);
}

slp_err slp_dir_begin(const char *dir, const char *manifest_name, char **tmp)
{
    *tmp = NULL;
    if (!dir || !*dir)
        return slp_error(SLP_ERR_INPUT, "no output directory given");
    if (target_state(dir, manifest_name) < 0)
        return slp_error(SLP_ERR_IO,
                         "%s: exists and is neither empty nor a complete earlier shardlp output "
                         "(%s and only the files it lists); refusing to overwrite it",
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
    snprintf(p + k, len - k, ".tmp.XXXXXX");
    /* a new directory of our own: nothing that exists (or a planted link) is reused */
    if (!mkdtemp(p)) {
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
        size_t len = strlen(tmp) + 16;
        old = slp_malloc(len);
        if (!old)
            return SLP_ERR_NOMEM;
        snprintf(old, len, "%s.old.XXXXXX", tmp);
        /* an empty directory of our own that the rename replaces */
        if (!mkdtemp(old)) {
            slp_err rc = slp_error(SLP_ERR_IO, "%s: cannot create a directory beside it: %s",
                                   dir, strerror(errno));
            free(old);
            return rc;
        }
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
    /* Never through a link: a link at `tmp` is removed itself, and the entries are
     * unlinked relative to the directory opened without following one. */
    int fd = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    if (fd < 0) {
        struct stat st;
        if (lstat(tmp, &st) == 0 && S_ISLNK(st.st_mode))
            unlink(tmp);
        return;
    }
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            unlinkat(fd, e->d_name, 0); /* files and links; a directory stays */
    closedir(d);
    rmdir(tmp);
}
