/* Shards written by the ranks of a grid, each its own files (shard.h,
 * docs/parallel-input.md "Shards from P ranks"): rank (r, c) writes block (r, c), the
 * ranks (0, c) column slice c and its names, the ranks (r, 0) row slice r and its names;
 * rank 0 makes the temporary directory, gathers the sizes and checksums and writes the
 * manifest. The files are those the one-process converter writes from the same model. */
#include <stdlib.h>
#include <string.h>

#include "shard_writer.h"

/* Rank 0's temporary directory on every rank. Collective. */
static slp_err share_directory(slp_comm_t *world, char **tmp)
{
    int64_t len = *tmp ? (int64_t)strlen(*tmp) + 1 : 0;
    SLP_CALL(slp_comm_bcast(world, &len, sizeof len, 0));
    if (!*tmp)
        *tmp = slp_malloc((size_t)len);
    SLP_CALL(slp_comm_agree(world, *tmp ? SLP_OK : SLP_ERR_NOMEM));
    return slp_comm_bcast(world, *tmp, len, 0);
}

static slp_err write_own(writer_t *w, const slp_local_problem_t *lp,
                         const slp_shard_rank_names_t *names)
{
    SLP_CALL(slp_shard_writer_block(w, lp->r, lp->c, lp->A.row_ptr, lp->A.col_idx, lp->A.val));
    if (lp->r == 0) {
        SLP_CALL(slp_shard_writer_col_slice(w, lp->c, lp->obj, lp->lv, lp->uv));
        if (names)
            SLP_CALL(slp_shard_writer_names(w, 0, lp->c, names->cols, names->cols_bytes));
    }
    if (lp->c == 0) {
        SLP_CALL(slp_shard_writer_row_slice(w, lp->r, lp->lc, lp->uc));
        if (names)
            SLP_CALL(slp_shard_writer_names(w, 1, lp->r, names->rows, names->rows_bytes));
    }
    return SLP_OK;
}

/* Each file's size and checksum and each block's nonzeros (set by the one rank that
 * wrote it) on rank 0. Collective. */
static slp_err gather_files(slp_comm_t *world, writer_t *w)
{
    slp_shard_manifest_t *man = &w->man;
    int64_t nf = man->nfiles, RC = (int64_t)man->R * man->C;
    int64_t *all = slp_calloc((size_t)(2 * nf + RC), sizeof *all);
    SLP_CALL(slp_comm_agree(world, all ? SLP_OK : SLP_ERR_NOMEM));
    for (int64_t s = 0; s < nf; s++) {
        all[s] = man->files[s].bytes;
        all[nf + s] = man->files[s].crc32;
    }
    memcpy(all + 2 * nf, man->block_nnz, sizeof *all * (size_t)RC);
    slp_err rc = slp_comm_sum_i64(world, all, 2 * nf + RC); /* each set once: a gather */
    slp_shard_writer_list_files(w);
    for (int64_t s = 0; rc == SLP_OK && s < nf; s++) {
        man->files[s].bytes = all[s];
        man->files[s].crc32 = (uint32_t)all[nf + s];
    }
    if (rc == SLP_OK)
        memcpy(man->block_nnz, all + 2 * nf, sizeof *all * (size_t)RC);
    free(all);
    return rc;
}

slp_err slp_shard_write_ranks(slp_comm_t *world, const slp_local_problem_t *lp,
                              const char *name, const slp_shard_rank_names_t *names,
                              int compact_values, const char *dir)
{
    int rank = slp_comm_rank(world);
    writer_t w;
    slp_err rc = slp_shard_writer_frame(&w, name, lp->m, lp->n, lp->R, lp->C, lp->sense,
                                        lp->obj_const, names != NULL);
    w.compact_values = compact_values;
    if (rc == SLP_OK) {
        memcpy(w.man.row_off, lp->row_off, sizeof(int64_t) * (size_t)(lp->R + 1));
        memcpy(w.man.col_off, lp->col_off, sizeof(int64_t) * (size_t)(lp->C + 1));
        w.man.nnz = lp->nnz;
        rc = slp_shard_writer_check_cuts(&w);
    }
    if (rc == SLP_OK && rank == 0)
        rc = slp_dir_begin(dir, SLP_SHARD_MANIFEST, &w.tmp);
    rc = slp_comm_agree(world, rc);
    if (rc == SLP_OK)
        rc = share_directory(world, &w.tmp);
    if (rc == SLP_OK)
        rc = slp_comm_agree(world, write_own(&w, lp, names));
    if (rc == SLP_OK)
        rc = gather_files(world, &w);
    if (rc == SLP_OK && rank == 0)
        rc = slp_shard_writer_commit(&w, dir);
    rc = slp_comm_agree(world, rc);
    if (rank != 0) { /* the directory is rank 0's to remove */
        free(w.tmp);
        w.tmp = NULL;
    }
    slp_shard_writer_abort(&w); /* after a commit: nothing left to free */
    return rc;
}
