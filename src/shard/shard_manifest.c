/* manifest.json and solution.json: writing, reading and validation. */
#include "shard_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>


void slp_shard_manifest_free(slp_shard_manifest_t *man)
{
    if (!man)
        return;
    free(man->name);
    free(man->row_off);
    free(man->col_off);
    free(man->block_nnz);
    free(man->files);
    memset(man, 0, sizeof *man);
}

const slp_shard_file_t *slp_shard_manifest_find(const slp_shard_manifest_t *man, int role, int r,
                                                int c)
{
    for (int64_t k = 0; k < man->nfiles; k++) {
        const slp_shard_file_t *e = &man->files[k];
        if (e->role == role && e->r == r && e->c == c)
            return e;
    }
    return NULL;
}

static void write_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static void write_offsets(FILE *f, const char *key, const int64_t *off, int parts)
{
    fprintf(f, "  \"%s\": [", key);
    for (int k = 0; k <= parts; k++)
        fprintf(f, "%s%lld", k ? ", " : "", (long long)off[k]);
    fprintf(f, "],\n");
}

/* Write text through `emit` into DIR/NAME as an output file (io/out_file.h). */
static slp_err write_json_file(const char *dir, const char *name,
                               void (*emit)(FILE *, const void *), const void *arg)
{
    slp_out_file_t out;
    SLP_CALL(slp_out_open_in(&out, dir, name, "manifest", 0));
    emit(out.f, arg);
    return slp_out_commit(&out);
}

static void emit_manifest(FILE *f, const void *arg)
{
    const slp_shard_manifest_t *man = arg;
    fprintf(f, "{\n  \"format\": \"shardlp-shards\",\n  \"version\": %d,\n  \"name\": ",
            SLP_SHARD_VERSION);
    write_json_string(f, man->name ? man->name : "");
    fprintf(f, ",\n  \"m\": %lld,\n  \"n\": %lld,\n  \"nnz\": %lld,\n", (long long)man->m,
            (long long)man->n, (long long)man->nnz);
    fprintf(f, "  \"grid\": [%d, %d],\n", man->R, man->C);
    write_offsets(f, "row_off", man->row_off, man->R);
    write_offsets(f, "col_off", man->col_off, man->C);
    fprintf(f, "  \"block_nnz\": [");
    for (int r = 0; r < man->R; r++) {
        fprintf(f, "%s[", r ? ", " : "");
        for (int c = 0; c < man->C; c++)
            fprintf(f, "%s%lld", c ? ", " : "", (long long)man->block_nnz[(int64_t)r * man->C + c]);
        fputc(']', f);
    }
    fprintf(f, "],\n  \"sense\": \"%s\",\n  \"obj_const\": ",
            man->sense < 0 ? "maximize" : "minimize");
    slp_json_write_exact(f, man->obj_const);
    fprintf(f, ",\n  \"names\": %s,\n", man->has_names ? "true" : "false");
    fprintf(f, "  \"fingerprint\": %lu,\n",
            (unsigned long)slp_shard_fingerprint(man->files, man->nfiles));
    slp_mjson_write_files(f, man->files, man->nfiles);
    fprintf(f, "}\n");
}

slp_err slp_shard_manifest_write(const char *dir, const slp_shard_manifest_t *man)
{
    return write_json_file(dir, SLP_SHARD_MANIFEST, emit_manifest, man);
}

/* Cut points: off[0] = 0, off[parts] = total, non-decreasing. */
static slp_err check_offsets(const char *source, const char *key, const int64_t *off, int parts,
                             int64_t total)
{
    if (off[0] != 0 || off[parts] != total)
        return slp_error(SLP_ERR_INPUT, "%s: '%s' must run from 0 to %lld", source, key,
                         (long long)total);
    for (int k = 0; k < parts; k++)
        if (off[k + 1] < off[k])
            return slp_error(SLP_ERR_INPUT, "%s: '%s' is not non-decreasing", source, key);
    return SLP_OK;
}

static slp_err read_grid(const slp_mjson_t *root, const char *source, int *R, int *C)
{
    const slp_mjson_t *g = slp_mjson_get(root, "grid");
    if (!g || g->type != SLP_MJSON_ARR || g->len != 2 || !g->items[0].is_int ||
        !g->items[1].is_int || g->items[0].ival < 1 || g->items[1].ival < 1 ||
        g->items[0].ival > 65536 || g->items[1].ival > 65536)
        return slp_error(SLP_ERR_INPUT, "%s: field 'grid' must be [R, C] with 1 <= R, C <= 65536",
                         source);
    *R = (int)g->items[0].ival;
    *C = (int)g->items[1].ival;
    return SLP_OK;
}

static slp_err check_format(const slp_mjson_t *root, const char *source, const char *format)
{
    const slp_mjson_t *fmt = slp_mjson_get(root, "format");
    if (!fmt || fmt->type != SLP_MJSON_STR || strcmp(fmt->str, format))
        return slp_error(SLP_ERR_INPUT, "%s: not a %s manifest (field 'format' must be \"%s\")",
                         source, format, format);
    const slp_mjson_t *ver = slp_mjson_get(root, "version");
    if (!ver || ver->type != SLP_MJSON_NUM || !ver->is_int)
        return slp_error(SLP_ERR_INPUT, "%s: field 'version' is missing", source);
    if (ver->ival != SLP_SHARD_VERSION)
        return slp_error(SLP_ERR_INPUT, "%s: format version %lld, this reader supports %d", source,
                         (long long)ver->ival, SLP_SHARD_VERSION);
    return SLP_OK;
}

/* Every (role, r, c) in the expected set appears exactly once. */
static slp_err require_file(const char *source, const slp_shard_file_t *files, int64_t nfiles,
                            int role, int r, int c)
{
    int count = 0;
    for (int64_t k = 0; k < nfiles; k++)
        if (files[k].role == role && files[k].r == r && files[k].c == c)
            count++;
    if (count == 1)
        return SLP_OK;
    char name[64];
    slp_shard_file_name(role, r, c, name, sizeof name);
    return slp_error(SLP_ERR_INPUT, "%s: %s the %s file for r=%d c=%d (%s)", source,
                     count ? "lists more than once" : "does not list", slp_shard_role_name(role),
                     r, c, name);
}

static slp_err parse_manifest(const slp_mjson_t *root, const char *source, void *into)
{
    slp_shard_manifest_t *man = into;
    SLP_CALL(check_format(root, source, "shardlp-shards"));
    man->version = SLP_SHARD_VERSION;
    const slp_mjson_t *name = slp_mjson_get(root, "name");
    man->name = slp_strdup(name && name->type == SLP_MJSON_STR ? name->str : "");
    if (!man->name)
        return SLP_ERR_NOMEM;
    SLP_CALL(slp_mjson_int(root, "m", source, 0, INT64_MAX / 2, &man->m));
    SLP_CALL(slp_mjson_int(root, "n", source, 0, INT64_MAX / 2, &man->n));
    SLP_CALL(slp_mjson_int(root, "nnz", source, 0, INT64_MAX / 2, &man->nnz));
    SLP_CALL(read_grid(root, source, &man->R, &man->C));
    int R = man->R, C = man->C;
    /* Before allocating anything of the grid's size: the manifest must list a file per
     * block and per slice, so a claimed grid is bounded by what the file holds. */
    const slp_mjson_t *listed = slp_mjson_get(root, "files");
    int64_t need = (int64_t)R * C + R + C, have = listed ? listed->len : 0;
    if (!listed || listed->type != SLP_MJSON_ARR || have < need)
        return slp_error(SLP_ERR_INPUT, "%s: a %dx%d grid needs %lld files but the manifest "
                         "lists %lld (corrupted manifest?)", source, R, C, (long long)need,
                         (long long)have);
    SLP_CALL(slp_alloc(&man->row_off, (size_t)R + 1, sizeof(int64_t)));
    SLP_CALL(slp_alloc(&man->col_off, (size_t)C + 1, sizeof(int64_t)));
    SLP_CALL(slp_alloc(&man->block_nnz, (size_t)R * (size_t)C, sizeof(int64_t)));
    SLP_CALL(slp_mjson_int_array(root, "row_off", source, R + 1, man->row_off));
    SLP_CALL(slp_mjson_int_array(root, "col_off", source, C + 1, man->col_off));
    SLP_CALL(check_offsets(source, "row_off", man->row_off, R, man->m));
    SLP_CALL(check_offsets(source, "col_off", man->col_off, C, man->n));
    const slp_mjson_t *bn = slp_mjson_get(root, "block_nnz");
    if (!bn || bn->type != SLP_MJSON_ARR || bn->len != R)
        return slp_error(SLP_ERR_INPUT, "%s: field 'block_nnz' must hold R = %d rows", source, R);
    int64_t total = 0;
    for (int r = 0; r < R; r++) {
        const slp_mjson_t *row = &bn->items[r];
        if (row->type != SLP_MJSON_ARR || row->len != C)
            return slp_error(SLP_ERR_INPUT, "%s: block_nnz[%d] must hold C = %d counts", source, r, C);
        for (int c = 0; c < C; c++) {
            if (!row->items[c].is_int || row->items[c].ival < 0)
                return slp_error(SLP_ERR_INPUT, "%s: block_nnz[%d][%d] is not a count", source, r, c);
            man->block_nnz[(int64_t)r * C + c] = row->items[c].ival;
            total += row->items[c].ival;
        }
    }
    if (total != man->nnz)
        return slp_error(SLP_ERR_INPUT, "%s: block_nnz sums to %lld but nnz is %lld", source,
                         (long long)total, (long long)man->nnz);
    const slp_mjson_t *sense = slp_mjson_get(root, "sense");
    if (!sense || sense->type != SLP_MJSON_STR ||
        (strcmp(sense->str, "minimize") && strcmp(sense->str, "maximize")))
        return slp_error(SLP_ERR_INPUT, "%s: field 'sense' must be \"minimize\" or \"maximize\"",
                         source);
    man->sense = strcmp(sense->str, "maximize") ? 1 : -1;
    SLP_CALL(slp_mjson_num(root, "obj_const", source, &man->obj_const));
    const slp_mjson_t *names = slp_mjson_get(root, "names");
    man->has_names = names && names->type == SLP_MJSON_BOOL && names->ival;
    SLP_CALL(slp_mjson_files(root, source, &man->nfiles, &man->files));
    if (slp_mjson_get(root, "fingerprint")) { /* every block is bound to it by its checksum */
        int64_t fp = 0;
        SLP_CALL(slp_mjson_int(root, "fingerprint", source, 0, UINT32_MAX, &fp));
        man->fingerprint = slp_shard_fingerprint(man->files, man->nfiles);
        if ((uint32_t)fp != man->fingerprint)
            return slp_error(SLP_ERR_INPUT, "%s: fingerprint %lld does not match its file list "
                             "(%lu): the manifest was edited or mixed with another model's",
                             source, (long long)fp, (unsigned long)man->fingerprint);
    }
    for (int r = 0; r < R; r++) {
        for (int c = 0; c < C; c++)
            SLP_CALL(require_file(source, man->files, man->nfiles, SLP_SHARD_BLOCK, r, c));
        SLP_CALL(require_file(source, man->files, man->nfiles, SLP_SHARD_ROW_SLICE, r, -1));
        if (man->has_names)
            SLP_CALL(require_file(source, man->files, man->nfiles, SLP_SHARD_ROW_NAMES, r, -1));
    }
    for (int c = 0; c < C; c++) {
        SLP_CALL(require_file(source, man->files, man->nfiles, SLP_SHARD_COL_SLICE, -1, c));
        if (man->has_names)
            SLP_CALL(require_file(source, man->files, man->nfiles, SLP_SHARD_COL_NAMES, -1, c));
    }
    return SLP_OK;
}

/* Read DIR/NAME and hand the tree to `parse` (which names the file in its errors). */
static slp_err read_json_in(const char *dir, const char *name,
                            slp_err (*parse)(const slp_mjson_t *, const char *, void *), void *out)
{
    char *path = slp_path_join(dir, name);
    if (!path)
        return SLP_ERR_NOMEM;
    slp_mjson_t root;
    slp_err rc = slp_mjson_read_file(path, SLP_MANIFEST_MAX_BYTES, &root);
    if (rc == SLP_OK)
        rc = parse(&root, path, out);
    slp_mjson_free(&root);
    free(path);
    return rc;
}

slp_err slp_shard_read_manifest(const char *dir, slp_shard_manifest_t *out)
{
    memset(out, 0, sizeof *out);
    slp_err rc = read_json_in(dir, SLP_SHARD_MANIFEST, parse_manifest, out);
    if (rc != SLP_OK)
        slp_shard_manifest_free(out);
    return rc;
}

/* ---- solution.json ------------------------------------------------------------------ */

void slp_shard_solution_manifest_free(slp_shard_solution_manifest_t *man)
{
    if (!man)
        return;
    free(man->row_off);
    free(man->col_off);
    free(man->files);
    memset(man, 0, sizeof *man);
}

static void emit_solution(FILE *f, const void *arg)
{
    const slp_shard_solution_manifest_t *man = arg;
    fprintf(f, "{\n  \"format\": \"shardlp-solution\",\n  \"version\": %d,\n  \"status\": ",
            SLP_SHARD_VERSION);
    write_json_string(f, man->status);
    fprintf(f, ",\n  \"objective\": ");
    slp_json_write_exact(f, man->objective);
    fprintf(f, ",\n  \"dual_objective\": ");
    slp_json_write_exact(f, man->dual_objective);
    fprintf(f, ",\n  \"iterations\": %lld,\n  \"m\": %lld,\n  \"n\": %lld,\n",
            (long long)man->iterations, (long long)man->m, (long long)man->n);
    fprintf(f, "  \"grid\": [%d, %d],\n", man->R, man->C);
    write_offsets(f, "row_off", man->row_off, man->R);
    write_offsets(f, "col_off", man->col_off, man->C);
    slp_mjson_write_files(f, man->files, man->nfiles);
    fprintf(f, "}\n");
}

slp_err slp_shard_write_solution_manifest(const char *dir, const slp_shard_solution_manifest_t *man)
{
    return write_json_file(dir, SLP_SOLUTION_MANIFEST, emit_solution, man);
}

static slp_err parse_solution(const slp_mjson_t *root, const char *source, void *into)
{
    slp_shard_solution_manifest_t *man = into;
    SLP_CALL(check_format(root, source, "shardlp-solution"));
    man->version = SLP_SHARD_VERSION;
    const slp_mjson_t *st = slp_mjson_get(root, "status");
    if (!st || st->type != SLP_MJSON_STR)
        return slp_error(SLP_ERR_INPUT, "%s: field 'status' is missing", source);
    snprintf(man->status, sizeof man->status, "%s", st->str);
    SLP_CALL(slp_mjson_num(root, "objective", source, &man->objective));
    SLP_CALL(slp_mjson_num(root, "dual_objective", source, &man->dual_objective));
    SLP_CALL(slp_mjson_int(root, "iterations", source, 0, INT64_MAX, &man->iterations));
    SLP_CALL(slp_mjson_int(root, "m", source, 0, INT64_MAX / 2, &man->m));
    SLP_CALL(slp_mjson_int(root, "n", source, 0, INT64_MAX / 2, &man->n));
    SLP_CALL(read_grid(root, source, &man->R, &man->C));
    SLP_CALL(slp_alloc(&man->row_off, (size_t)man->R + 1, sizeof(int64_t)));
    SLP_CALL(slp_alloc(&man->col_off, (size_t)man->C + 1, sizeof(int64_t)));
    SLP_CALL(slp_mjson_int_array(root, "row_off", source, man->R + 1, man->row_off));
    SLP_CALL(slp_mjson_int_array(root, "col_off", source, man->C + 1, man->col_off));
    SLP_CALL(check_offsets(source, "row_off", man->row_off, man->R, man->m));
    SLP_CALL(check_offsets(source, "col_off", man->col_off, man->C, man->n));
    SLP_CALL(slp_mjson_files(root, source, &man->nfiles, &man->files));
    for (int r = 0; r < man->R; r++)
        SLP_CALL(require_file(source, man->files, man->nfiles, SLP_SHARD_SOL_Y, r, -1));
    for (int c = 0; c < man->C; c++)
        SLP_CALL(require_file(source, man->files, man->nfiles, SLP_SHARD_SOL_X, -1, c));
    /* A certificate is optional, but whole: a ray slice for every block or none. */
    int64_t rays[2] = {0, 0};
    for (int64_t k = 0; k < man->nfiles; k++)
        if (man->files[k].role == SLP_SHARD_SOL_RAY_X || man->files[k].role == SLP_SHARD_SOL_RAY_Y)
            rays[man->files[k].role == SLP_SHARD_SOL_RAY_Y]++;
    if ((rays[0] && rays[0] != man->C) || (rays[1] && rays[1] != man->R))
        return slp_error(SLP_ERR_INPUT, "%s: lists %lld primal and %lld dual ray slices; a "
                         "certificate needs one per column block (%d) or row block (%d)", source,
                         (long long)rays[0], (long long)rays[1], man->C, man->R);
    for (int c = 0; rays[0] && c < man->C; c++)
        SLP_CALL(require_file(source, man->files, man->nfiles, SLP_SHARD_SOL_RAY_X, -1, c));
    for (int r = 0; rays[1] && r < man->R; r++)
        SLP_CALL(require_file(source, man->files, man->nfiles, SLP_SHARD_SOL_RAY_Y, r, -1));
    man->has_ray_x = rays[0] > 0;
    man->has_ray_y = rays[1] > 0;
    return SLP_OK;
}

slp_err slp_shard_read_solution_manifest(const char *dir, slp_shard_solution_manifest_t *out)
{
    memset(out, 0, sizeof *out);
    slp_err rc = read_json_in(dir, SLP_SOLUTION_MANIFEST, parse_solution, out);
    if (rc != SLP_OK)
        slp_shard_solution_manifest_free(out);
    return rc;
}
