/* slp_shard_read_model: a whole shard directory as one model in one process (for
 * `shardlp convert` of models that fit one machine). Every block is read once;
 * the column slices come from grid row 0, the row slices from grid column 0. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/triplets.h"
#include "shard/shard.h"

/* Copy a block's names into model-owned strings at [offset, offset + count). */
static slp_err copy_block_names(const char *dir, const slp_shard_manifest_t *man, int is_row,
                                int block, int64_t offset, char **names)
{
    slp_shard_names_t nm;
    SLP_CALL(slp_shard_read_names(dir, man, is_row, block, &nm));
    slp_err rc = SLP_OK;
    for (int64_t k = 0; k < nm.count && rc == SLP_OK; k++)
        if (!(names[offset + k] = slp_strdup(nm.name[k])))
            rc = SLP_ERR_NOMEM;
    slp_shard_names_free(&nm);
    return rc;
}

/* Block (r, c): its entries as global triplets, and its slices when it is the first
 * block of its grid row / column. */
static slp_err add_block(const char *dir, const slp_shard_manifest_t *man, int r, int c,
                         slp_model_t *model, slp_triplets_t *tri)
{
    slp_local_problem_t lp;
    memset(&lp, 0, sizeof lp);
    SLP_CALL(slp_shard_read_block(dir, man, r, c, &lp));
    slp_err rc = SLP_OK;
    for (int64_t i = 0; i < lp.A.rows && rc == SLP_OK; i++)
        for (int64_t k = lp.A.row_ptr[i]; k < lp.A.row_ptr[i + 1] && rc == SLP_OK; k++)
            rc = slp_triplets_add(tri, lp.col_lo + lp.A.col_idx[k], lp.row_lo + i, lp.A.val[k]);
    if (rc == SLP_OK && r == 0) {
        memcpy(model->c + lp.col_lo, lp.obj, (size_t)lp.n_loc * sizeof(double));
        memcpy(model->lv + lp.col_lo, lp.lv, (size_t)lp.n_loc * sizeof(double));
        memcpy(model->uv + lp.col_lo, lp.uv, (size_t)lp.n_loc * sizeof(double));
        if (man->has_names)
            rc = copy_block_names(dir, man, 0, c, lp.col_lo, model->col_names);
    }
    if (rc == SLP_OK && c == 0) {
        memcpy(model->lc + lp.row_lo, lp.lc, (size_t)lp.m_loc * sizeof(double));
        memcpy(model->uc + lp.row_lo, lp.uc, (size_t)lp.m_loc * sizeof(double));
        if (man->has_names)
            rc = copy_block_names(dir, man, 1, r, lp.row_lo, model->row_names);
    }
    slp_local_problem_free(&lp);
    return rc;
}

slp_err slp_shard_read_model(const char *dir, slp_model_t **out)
{
    *out = NULL;
    slp_shard_manifest_t man;
    SLP_CALL(slp_shard_read_manifest(dir, &man));
    slp_model_t *model = NULL;
    slp_triplets_t tri;
    slp_triplets_init(&tri);
    slp_err rc = slp_model_create(man.m, man.n, 0, &model);
    if (rc == SLP_OK && man.has_names) {
        model->row_names = slp_calloc((size_t)(man.m ? man.m : 1), sizeof(char *));
        model->col_names = slp_calloc((size_t)(man.n ? man.n : 1), sizeof(char *));
        if (!model->row_names || !model->col_names)
            rc = SLP_ERR_NOMEM;
    }
    if (rc == SLP_OK) {
        free(model->name);
        model->name = slp_strdup(man.name ? man.name : "");
        model->sense = man.sense;
        model->obj_const = man.obj_const;
    }
    for (int r = 0; r < man.R && rc == SLP_OK; r++)
        for (int c = 0; c < man.C && rc == SLP_OK; c++)
            rc = add_block(dir, &man, r, c, model, &tri);
    if (rc == SLP_OK) {
        free(model->col_ptr), free(model->row_idx), free(model->val);
        model->col_ptr = NULL, model->row_idx = NULL, model->val = NULL;
        rc = slp_triplets_to_csc(dir, &tri, man.n, &model->col_ptr, &model->row_idx,
                                 &model->val, &model->nnz);
    }
    slp_triplets_free(&tri);
    slp_shard_manifest_free(&man);
    if (rc != SLP_OK) {
        slp_model_destroy(&model);
        return rc;
    }
    *out = model;
    return SLP_OK;
}
