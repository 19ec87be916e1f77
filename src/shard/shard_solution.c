/* The sharded solution: x / reduced-cost slices per column block, y / row-activity
 * slices per row block, and solution.json listing them (docs/shard-format.md). */
#include "shard_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

slp_err slp_shard_write_solution_slice(const char *dir, int kind, int R, int C, int block,
                                       int64_t lo, int64_t len, int64_t m, int64_t n,
                                       const double *v1, const double *v2,
                                       slp_shard_file_t *info)
{
    if (kind != SLP_SHARD_SOL_X && kind != SLP_SHARD_SOL_Y)
        return slp_error(SLP_ERR_INTERNAL, "solution slice of unknown kind %d", kind);
    int is_x = kind == SLP_SHARD_SOL_X;
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
    slp_shard_header_slice(&h, is_x, lo, len, 2);
    char *path = slp_path_join(dir, e.path);
    slp_err rc = path ? SLP_OK : SLP_ERR_NOMEM;
    slp_fw_t fw;
    if (rc == SLP_OK)
        rc = slp_fw_open_atomic(&fw, path);
    if (rc == SLP_OK) {
        rc = slp_shard_fw_header(&fw, &h);
        if (rc == SLP_OK)
            rc = slp_fw_f64(&fw, v1, len);
        if (rc == SLP_OK)
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

slp_err slp_shard_write_solution(const char *dir, slp_grid_t *grid, const slp_local_problem_t *lp,
                                 const char *status, double objective, double dual_objective,
                                 int64_t iterations, const double *x, const double *rc_vec,
                                 const double *y, const double *ax)
{
    slp_comm_t *world = grid->world;
    int R = grid->R, C = grid->C, rank = slp_comm_rank(world);
    /* 1. Rank 0 creates the temporary directory and tells the others its name. */
    char *tmp = NULL;
    slp_err rc = SLP_OK;
    if (rank == 0)
        rc = slp_dir_begin(dir, SLP_SOLUTION_MANIFEST, &tmp);
    SLP_CALL(slp_comm_agree_named(world, rc, "creating the solution directory"));
    int64_t len = rank == 0 ? (int64_t)strlen(tmp) + 1 : 0;
    rc = slp_comm_bcast(world, &len, sizeof len, 0);
    if (rc == SLP_OK && rank != 0) {
        tmp = slp_malloc((size_t)len);
        rc = tmp ? SLP_OK : SLP_ERR_NOMEM;
    }
    if (rc == SLP_OK)
        rc = slp_comm_bcast(world, tmp, len, 0);
    /* 2. Slices: (0, c) writes x_c, (r, 0) writes y_r. Sizes and checksums are summed
     *    into rank 0's table (each slot has exactly one writer). */
    int64_t *table = slp_calloc(2 * ((size_t)R + (size_t)C), sizeof(int64_t));
    if (rc == SLP_OK && !table)
        rc = SLP_ERR_NOMEM;
    slp_shard_file_t e;
    if (rc == SLP_OK && grid->r == 0) {
        rc = slp_shard_write_solution_slice(tmp, SLP_SHARD_SOL_X, R, C, grid->c, lp->col_lo,
                                            lp->n_loc, lp->m, lp->n, x, rc_vec, &e);
        if (rc == SLP_OK) {
            table[2 * grid->c] = e.bytes;
            table[2 * grid->c + 1] = e.crc32;
        }
    }
    if (rc == SLP_OK && grid->c == 0) {
        rc = slp_shard_write_solution_slice(tmp, SLP_SHARD_SOL_Y, R, C, grid->r, lp->row_lo,
                                            lp->m_loc, lp->m, lp->n, y, ax, &e);
        if (rc == SLP_OK) {
            table[2 * (C + grid->r)] = e.bytes;
            table[2 * (C + grid->r) + 1] = e.crc32;
        }
    }
    rc = slp_comm_agree_named(world, rc, "writing the solution slices");
    if (rc == SLP_OK)
        rc = slp_comm_sum_i64(world, table, 2 * ((int64_t)R + C));
    /* 3. Rank 0 lists the files and renames the directory into place. */
    if (rc == SLP_OK && rank == 0) {
        slp_shard_solution_manifest_t man;
        memset(&man, 0, sizeof man);
        snprintf(man.status, sizeof man.status, "%s", status ? status : "unknown");
        man.objective = objective;
        man.dual_objective = dual_objective;
        man.iterations = iterations;
        man.m = lp->m;
        man.n = lp->n;
        man.R = R;
        man.C = C;
        man.row_off = lp->row_off;
        man.col_off = lp->col_off;
        man.nfiles = (int64_t)R + C;
        man.files = slp_calloc((size_t)man.nfiles, sizeof(slp_shard_file_t));
        rc = man.files ? SLP_OK : SLP_ERR_NOMEM;
        for (int k = 0; rc == SLP_OK && k < R + C; k++) {
            slp_shard_file_t *f = &man.files[k];
            f->role = k < C ? SLP_SHARD_SOL_X : SLP_SHARD_SOL_Y;
            f->r = k < C ? -1 : k - C;
            f->c = k < C ? k : -1;
            slp_shard_file_name(f->role, f->r, f->c, f->path, sizeof f->path);
            f->bytes = table[2 * k];
            f->crc32 = (uint32_t)table[2 * k + 1];
        }
        if (rc == SLP_OK)
            rc = slp_shard_write_solution_manifest(tmp, &man);
        if (rc == SLP_OK)
            rc = slp_dir_commit(tmp, dir, SLP_SOLUTION_MANIFEST);
        free(man.files);
    }
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
    *v1 = *v2 = NULL;
    *len = 0;
    int is_x = kind == SLP_SHARD_SOL_X;
    int parts = is_x ? man->C : man->R;
    if ((kind != SLP_SHARD_SOL_X && kind != SLP_SHARD_SOL_Y) || block < 0 || block >= parts)
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
    if (rc == SLP_OK) rc = slp_shard_fr_expect(&rd, "payload size", h->payload_bytes, 16 * n_loc);
    if (rc == SLP_OK) rc = slp_alloc(v1, (size_t)n_loc, sizeof(double));
    if (rc == SLP_OK) rc = slp_alloc(v2, (size_t)n_loc, sizeof(double));
    if (rc == SLP_OK) rc = slp_fr_f64(&rd.fr, *v1, n_loc);
    if (rc == SLP_OK) rc = slp_fr_f64(&rd.fr, *v2, n_loc);
    if (rc == SLP_OK) rc = slp_shard_fr_finish(&rd);
    slp_shard_fr_close(&rd);
    if (rc != SLP_OK) {
        free(*v1);
        free(*v2);
        *v1 = *v2 = NULL;
        return rc;
    }
    *len = n_loc;
    return SLP_OK;
}
