/* The sharded solution: x / reduced-cost slices per column block, y / row-activity
 * slices per row block, and solution.json listing them (docs/shard-format.md). */
#include "shard_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Column-block kinds (x, ray_x) and the arrays each file holds. */
static int column_kind(int kind) { return kind == SLP_SHARD_SOL_X || kind == SLP_SHARD_SOL_RAY_X; }
static int kind_arrays(int kind) { return kind == SLP_SHARD_SOL_X || kind == SLP_SHARD_SOL_Y ? 2 : 1; }

slp_err slp_shard_write_solution_slice(const char *dir, int kind, int R, int C, int block,
                                       int64_t lo, int64_t len, int64_t m, int64_t n,
                                       const double *v1, const double *v2,
                                       slp_shard_file_t *info)
{
    if (kind < SLP_SHARD_SOL_X || kind > SLP_SHARD_SOL_RAY_Y)
        return slp_error(SLP_ERR_INTERNAL, "solution slice of unknown kind %d", kind);
    int is_x = column_kind(kind), arrays = kind_arrays(kind);
    slp_shard_file_t e;
    memset(&e, 0, sizeof e);
    e.role = kind;
    e.r = is_x ? -1 : block;
    e.c = is_x ? block : -1;
    slp_shard_file_name(kind, e.r, e.c, e.path, sizeof e.path);
    slp_shard_header_t h;
    slp_shard_header_init(&h, kind);
    h.R = R;
    h.C = C;
    h.r = e.r;
    h.c = e.c;
    h.m = m;
    h.n = n;
    slp_shard_header_slice(&h, is_x, lo, len, arrays);
    char *path = slp_path_join(dir, e.path);
    slp_err rc = path ? SLP_OK : SLP_ERR_NOMEM;
    slp_fw_t fw;
    if (rc == SLP_OK)
        rc = slp_fw_open_atomic(&fw, path);
    if (rc == SLP_OK) {
        rc = slp_shard_fw_header(&fw, &h);
        if (rc == SLP_OK)
            rc = slp_fw_f64(&fw, v1, len);
        if (rc == SLP_OK && arrays == 2)
            rc = slp_fw_f64(&fw, v2, len);
        if (rc == SLP_OK)
            rc = slp_shard_fw_close(&fw, &e);
        else
            slp_fw_discard(&fw);
    }
    free(path);
    if (rc == SLP_OK && info)
        *info = e;
    return rc;
}

/* The slices this rank writes: kind, block, global offset, length, arrays. */
typedef struct {
    int kind, block;
    int64_t lo, len;
    const double *v1, *v2;
} slice_job_t;

static int my_slices(const slp_grid_t *grid, const slp_local_problem_t *lp,
                     const slp_shard_solution_values_t *v, slice_job_t jobs[4])
{
    int count = 0;
    if (grid->r == 0) {
        jobs[count++] = (slice_job_t){SLP_SHARD_SOL_X, grid->c, lp->col_lo, lp->n_loc, v->x, v->rc};
        if (v->ray_x)
            jobs[count++] = (slice_job_t){SLP_SHARD_SOL_RAY_X, grid->c, lp->col_lo, lp->n_loc,
                                          v->ray_x, NULL};
    }
    if (grid->c == 0) {
        jobs[count++] = (slice_job_t){SLP_SHARD_SOL_Y, grid->r, lp->row_lo, lp->m_loc, v->y, v->ax};
        if (v->ray_y)
            jobs[count++] = (slice_job_t){SLP_SHARD_SOL_RAY_Y, grid->r, lp->row_lo, lp->m_loc,
                                          v->ray_y, NULL};
    }
    return count;
}

/* Slot of a file in the size/checksum table: x_c, y_r, rayx_c, rayy_r in that order. */
static int64_t slot_of(int kind, int block, int R, int C)
{
    switch (kind) {
    case SLP_SHARD_SOL_X: return block;
    case SLP_SHARD_SOL_Y: return C + block;
    case SLP_SHARD_SOL_RAY_X: return C + R + block;
    default: return 2 * (int64_t)C + R + block;
    }
}

/* Rank 0: solution.json listing the files of the table. */
static slp_err write_manifest_of(const char *tmp, const slp_local_problem_t *lp, int R, int C,
                                 const slp_shard_solution_values_t *v, const int64_t *table,
                                 const int has_ray[2])
{
    slp_shard_solution_manifest_t man;
    memset(&man, 0, sizeof man);
    snprintf(man.status, sizeof man.status, "%s", v->status ? v->status : "unknown");
    man.objective = v->objective;
    man.dual_objective = v->dual_objective;
    man.iterations = v->iterations;
    man.m = lp->m;
    man.n = lp->n;
    man.R = R;
    man.C = C;
    man.row_off = lp->row_off;
    man.col_off = lp->col_off;
    man.files = slp_calloc(2 * ((size_t)R + (size_t)C), sizeof(slp_shard_file_t));
    if (!man.files)
        return SLP_ERR_NOMEM;
    int kinds[4] = {SLP_SHARD_SOL_X, SLP_SHARD_SOL_Y, SLP_SHARD_SOL_RAY_X, SLP_SHARD_SOL_RAY_Y};
    for (int t = 0; t < 4; t++) {
        int kind = kinds[t], is_x = column_kind(kind);
        if (t >= 2 && !has_ray[t - 2])
            continue;
        for (int b = 0; b < (is_x ? C : R); b++) {
            slp_shard_file_t *f = &man.files[man.nfiles++];
            int64_t slot = slot_of(kind, b, R, C);
            f->role = kind;
            f->r = is_x ? -1 : b;
            f->c = is_x ? b : -1;
            slp_shard_file_name(kind, f->r, f->c, f->path, sizeof f->path);
            f->bytes = table[2 * slot];
            f->crc32 = (uint32_t)table[2 * slot + 1];
        }
    }
    slp_err rc = slp_shard_write_solution_manifest(tmp, &man);
    free(man.files);
    return rc;
}

/* Rank 0 creates the temporary directory; every rank gets its name. */
static slp_err shared_tmp_dir(slp_comm_t *world, const char *dir, char **tmp)
{
    int rank = slp_comm_rank(world);
    slp_err rc = rank == 0 ? slp_dir_begin(dir, SLP_SOLUTION_MANIFEST, tmp) : SLP_OK;
    SLP_CALL(slp_comm_agree_named(world, rc, "creating the solution directory"));
    int64_t len = rank == 0 ? (int64_t)strlen(*tmp) + 1 : 0;
    rc = slp_comm_bcast(world, &len, sizeof len, 0);
    if (rc == SLP_OK && rank != 0)
        rc = (*tmp = slp_malloc((size_t)len)) ? SLP_OK : SLP_ERR_NOMEM;
    if (rc == SLP_OK)
        rc = slp_comm_bcast(world, *tmp, len, 0);
    return rc;
}

slp_err slp_shard_write_solution(const char *dir, slp_grid_t *grid, const slp_local_problem_t *lp,
                                 const slp_shard_solution_values_t *v)
{
    slp_comm_t *world = grid->world;
    int R = grid->R, C = grid->C, rank = slp_comm_rank(world);
    char *tmp = NULL;
    slp_err rc = shared_tmp_dir(world, dir, &tmp);
    /* Slices: (0, c) writes x_c, (r, 0) writes y_r (and their rays). Sizes and checksums
     * are summed into rank 0's table (each slot has exactly one writer). */
    int64_t has[2] = {v->ray_x != NULL, v->ray_y != NULL};
    if (rc == SLP_OK)
        rc = slp_comm_max_i64(world, has, 2);
    int64_t slots = 2 * ((int64_t)R + C);
    int64_t *table = slp_calloc(2 * (size_t)slots, sizeof(int64_t));
    if (rc == SLP_OK && !table)
        rc = SLP_ERR_NOMEM;
    slice_job_t jobs[4];
    int njobs = rc == SLP_OK ? my_slices(grid, lp, v, jobs) : 0;
    for (int k = 0; rc == SLP_OK && k < njobs; k++) {
        slp_shard_file_t e;
        rc = slp_shard_write_solution_slice(tmp, jobs[k].kind, R, C, jobs[k].block, jobs[k].lo,
                                            jobs[k].len, lp->m, lp->n, jobs[k].v1, jobs[k].v2,
                                            &e);
        int64_t slot = slot_of(jobs[k].kind, jobs[k].block, R, C);
        if (rc == SLP_OK) {
            table[2 * slot] = e.bytes;
            table[2 * slot + 1] = e.crc32;
        }
    }
    rc = slp_comm_agree_named(world, rc, "writing the solution slices");
    if (rc == SLP_OK)
        rc = slp_comm_sum_i64(world, table, 2 * slots);
    /* Rank 0 lists the files and renames the directory into place. */
    int has_ray[2] = {(int)has[0], (int)has[1]};
    if (rc == SLP_OK && rank == 0)
        rc = write_manifest_of(tmp, lp, R, C, v, table, has_ray);
    if (rc == SLP_OK && rank == 0)
        rc = slp_dir_commit(tmp, dir, SLP_SOLUTION_MANIFEST);
    rc = slp_comm_agree_named(world, rc, "writing the solution");
    if (rc != SLP_OK && rank == 0 && tmp)
        slp_dir_discard(tmp);
    free(tmp);
    free(table);
    return rc;
}

slp_err slp_shard_read_solution_slice(const char *dir, const slp_shard_solution_manifest_t *man,
                                      int kind, int block, int64_t *len, double **v1,
                                      double **v2)
{
    *v1 = NULL;
    if (v2)
        *v2 = NULL;
    *len = 0;
    int is_x = column_kind(kind), arrays = kind_arrays(kind);
    int parts = is_x ? man->C : man->R;
    if (kind < SLP_SHARD_SOL_X || kind > SLP_SHARD_SOL_RAY_Y || block < 0 || block >= parts ||
        (arrays == 2 && !v2))
        return slp_error(SLP_ERR_INPUT, "%s: no solution slice %d of that kind", dir, block);
    const int64_t *off = is_x ? man->col_off : man->row_off;
    int64_t lo = off[block], n_loc = off[block + 1] - lo;
    const slp_shard_file_t *e = NULL;
    for (int64_t k = 0; k < man->nfiles; k++)
        if (man->files[k].role == kind && (is_x ? man->files[k].c : man->files[k].r) == block)
            e = &man->files[k];
    if (!e)
        return slp_error(SLP_ERR_INPUT, "%s/%s: does not list slice %d", dir,
                         SLP_SOLUTION_MANIFEST, block);
    slp_shard_fr_t rd;
    slp_err rc = slp_shard_fr_open(&rd, dir, e);
    const slp_shard_header_t *h = &rd.h;
    if (rc == SLP_OK) rc = slp_shard_fr_expect(&rd, "R (grid rows)", h->R, man->R);
    if (rc == SLP_OK) rc = slp_shard_fr_expect(&rd, "C (grid columns)", h->C, man->C);
    if (rc == SLP_OK) rc = slp_shard_fr_expect(&rd, "m", h->m, man->m);
    if (rc == SLP_OK) rc = slp_shard_fr_expect(&rd, "n", h->n, man->n);
    if (rc == SLP_OK) rc = slp_shard_fr_expect(&rd, is_x ? "c" : "r", is_x ? h->c : h->r, block);
    if (rc == SLP_OK) rc = slp_shard_fr_expect(&rd, is_x ? "col_lo" : "row_lo", is_x ? h->col_lo : h->row_lo, lo);
    if (rc == SLP_OK) rc = slp_shard_fr_expect(&rd, "count", h->count, n_loc);
    if (rc == SLP_OK) rc = slp_shard_fr_expect(&rd, "payload size", h->payload_bytes, 8 * arrays * n_loc);
    if (rc == SLP_OK) rc = slp_alloc(v1, (size_t)n_loc, sizeof(double));
    if (rc == SLP_OK && arrays == 2) rc = slp_alloc(v2, (size_t)n_loc, sizeof(double));
    if (rc == SLP_OK) rc = slp_fr_f64(&rd.fr, *v1, n_loc);
    if (rc == SLP_OK && arrays == 2) rc = slp_fr_f64(&rd.fr, *v2, n_loc);
    if (rc == SLP_OK) rc = slp_shard_fr_finish(&rd);
    slp_shard_fr_close(&rd);
    if (rc != SLP_OK) {
        free(*v1);
        *v1 = NULL;
        if (v2) {
            free(*v2);
            *v2 = NULL;
        }
        return rc;
    }
    *len = n_loc;
    return SLP_OK;
}
