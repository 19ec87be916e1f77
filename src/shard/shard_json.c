/* The "files" member of shard manifests (reading and writing); the JSON reader itself
 * is io/json_read.c. */
#include "shard_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

slp_err slp_mjson_files(const slp_mjson_t *obj, const char *source, int64_t *nfiles,
                       slp_shard_file_t **files)
{
    *nfiles = 0;
    *files = NULL;
    const slp_mjson_t *v = slp_mjson_get(obj, "files");
    if (!v || v->type != SLP_MJSON_ARR)
        return slp_error(SLP_ERR_INPUT, "%s: field 'files' is missing or not an array", source);
    slp_shard_file_t *out = slp_calloc((size_t)v->len, sizeof *out);
    if (!out)
        return SLP_ERR_NOMEM;
    for (int64_t k = 0; k < v->len; k++) {
        const slp_mjson_t *e = &v->items[k];
        const slp_mjson_t *path = slp_mjson_get(e, "path");
        const slp_mjson_t *role = slp_mjson_get(e, "role");
        int64_t r = -1, c = -1, bytes = 0, crc = 0;
        slp_err rc = SLP_OK;
        if (!path || path->type != SLP_MJSON_STR || strlen(path->str) >= sizeof out[k].path ||
            strchr(path->str, '/') || !role || role->type != SLP_MJSON_STR)
            rc = slp_error(SLP_ERR_INPUT, "%s: files[%lld] needs a plain 'path' and a 'role'",
                           source, (long long)k);
        if (rc == SLP_OK)
            rc = slp_mjson_int(e, "bytes", source, 0, INT64_MAX, &bytes);
        if (rc == SLP_OK)
            rc = slp_mjson_int(e, "crc32", source, 0, UINT32_MAX, &crc);
        if (rc == SLP_OK && slp_mjson_get(e, "r"))
            rc = slp_mjson_int(e, "r", source, 0, INT32_MAX, &r);
        if (rc == SLP_OK && slp_mjson_get(e, "c"))
            rc = slp_mjson_int(e, "c", source, 0, INT32_MAX, &c);
        int found = -1;
        for (int ro = SLP_SHARD_BLOCK; rc == SLP_OK && ro < SLP_SHARD_ROLE_COUNT; ro++)
            if (!strcmp(role->str, slp_shard_role_name(ro)))
                found = ro;
        if (rc == SLP_OK && found < 0)
            rc = slp_error(SLP_ERR_INPUT, "%s: files[%lld] has unknown role '%s'", source,
                           (long long)k, role->str);
        if (rc != SLP_OK) {
            free(out);
            return rc;
        }
        snprintf(out[k].path, sizeof out[k].path, "%s", path->str);
        out[k].role = found;
        out[k].r = (int)r;
        out[k].c = (int)c;
        out[k].bytes = bytes;
        out[k].crc32 = (uint32_t)crc;
    }
    *nfiles = v->len;
    *files = out;
    return SLP_OK;
}

uint32_t slp_shard_fingerprint(const slp_shard_file_t *files, int64_t nfiles)
{
    uint32_t crc = 0;
    for (int64_t k = 0; k < nfiles; k++) {
        unsigned char rec[24];
        slp_le_put_u32(rec, (uint32_t)files[k].role);
        slp_le_put_u32(rec + 4, (uint32_t)files[k].r);
        slp_le_put_u32(rec + 8, (uint32_t)files[k].c);
        slp_le_put_u64(rec + 12, (uint64_t)files[k].bytes);
        slp_le_put_u32(rec + 20, files[k].crc32);
        crc = slp_crc32(crc, rec, sizeof rec);
    }
    return crc;
}

void slp_mjson_write_files(FILE *f, const slp_shard_file_t *files, int64_t nfiles)
{
    fprintf(f, "  \"files\": [\n");
    for (int64_t k = 0; k < nfiles; k++) {
        const slp_shard_file_t *e = &files[k];
        fprintf(f, "    {\"path\": \"%s\", \"role\": \"%s\"", e->path, slp_shard_role_name(e->role));
        if (e->r >= 0)
            fprintf(f, ", \"r\": %d", e->r);
        if (e->c >= 0)
            fprintf(f, ", \"c\": %d", e->c);
        fprintf(f, ", \"bytes\": %lld, \"crc32\": %" PRIu32 "}%s\n", (long long)e->bytes,
                e->crc32, k + 1 < nfiles ? "," : "");
    }
    fprintf(f, "  ]\n");
}
