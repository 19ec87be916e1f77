/* The communication model of a shard directory, for `shardlp info` (one process):
 * the participant sets of the stored matrix (before presolve), read one block at a
 * time. Memory: one block, the row masks of one row block, the column masks of
 * all columns (ceil(R/64) words each). */
#include "plan/plan_model_shards.h"

#include <stdlib.h>
#include <string.h>

slp_err slp_plan_model_shards(const char *dir, const slp_shard_manifest_t *man,
                              slp_plan_model_t *out)
{
    memset(out, 0, sizeof *out);
    out->sync_interval = SLP_PLAN_SYNC_INTERVAL;
    out->row_vectors = SLP_PLAN_ROW_VECTORS;
    out->col_vectors = SLP_PLAN_COL_VECTORS;
    int R = man->R, C = man->C, wr = slp_plan_mask_words(R), wc = slp_plan_mask_words(C);
    int64_t max_m = 0;
    for (int r = 0; r < R; r++)
        if (man->row_off[r + 1] - man->row_off[r] > max_m)
            max_m = man->row_off[r + 1] - man->row_off[r];
    uint64_t *rm = NULL, *cm = NULL;
    SLP_CALL(slp_alloc(&cm, (size_t)(man->n * wr) + 1, sizeof(uint64_t)));
    slp_err rc = slp_alloc(&rm, (size_t)(max_m * wc) + 1, sizeof(uint64_t));
    if (rc == SLP_OK)
        memset(cm, 0, (size_t)(man->n * wr) * sizeof(uint64_t));
    for (int r = 0; r < R && rc == SLP_OK; r++) {
        int64_t m_r = man->row_off[r + 1] - man->row_off[r];
        memset(rm, 0, (size_t)(m_r * wc) * sizeof(uint64_t));
        for (int c = 0; c < C && rc == SLP_OK; c++) {
            slp_local_problem_t lp;
            memset(&lp, 0, sizeof lp);
            rc = slp_shard_read_block(dir, man, r, c, &lp);
            if (rc != SLP_OK)
                break;
            uint64_t *col = cm + man->col_off[c] * wr;
            for (int64_t i = 0; i < lp.A.rows; i++) {
                if (lp.A.row_ptr[i + 1] > lp.A.row_ptr[i])
                    rm[i * wc + c / 64] |= (uint64_t)1 << (c % 64);
                for (int64_t k = lp.A.row_ptr[i]; k < lp.A.row_ptr[i + 1]; k++)
                    col[(int64_t)lp.A.col_idx[k] * wr + r / 64] |= (uint64_t)1 << (r % 64);
            }
            slp_local_problem_free(&lp);
        }
        for (int64_t i = 0; i < m_r && rc == SLP_OK; i++)
            slp_plan_tally_add(&out->rows, rm + i * wc, wc, C);
    }
    for (int64_t j = 0; j < man->n && rc == SLP_OK; j++)
        slp_plan_tally_add(&out->cols, cm + j * wr, wr, R);
    free(rm);
    free(cm);
    return rc;
}
