/* slp_mps_read: the streaming parser (mps_parse.h) plus the CSC builder of
 * io/triplets.h. */
#include "io/mps.h"

#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "io/mps_parse.h"
#include "io/triplets.h"

static slp_err on_entry(void *user, int64_t col, int64_t row, double value)
{
    return slp_triplets_add(user, col, row, value);
}

slp_err slp_mps_read(const char *path, slp_model_t **out)
{
    *out = NULL;
    slp_triplets_t t;
    slp_triplets_init(&t);
    slp_mps_callbacks_t cb;
    memset(&cb, 0, sizeof cb);
    cb.user = &t;
    cb.on_entry = on_entry;

    slp_mps_result_t res;
    slp_err err = slp_mps_parse(path, &cb, &res);
    slp_model_t *model = NULL;
    if (!err)
        err = slp_model_create(0, 0, 0, &model);
    if (!err) {
        int64_t *col_ptr = NULL, *row = NULL;
        double *val = NULL;
        int64_t nnz = 0;
        err = slp_triplets_to_csc(path, &t, res.n, &col_ptr, &row, &val, &nnz);
        if (!err) {
            /* Replace the empty arrays by the parsed ones. */
            free(model->name), free(model->obj_name), free(model->c), free(model->lv);
            free(model->uv), free(model->lc), free(model->uc), free(model->col_ptr);
            free(model->row_idx), free(model->val);
            model->name = res.name, res.name = NULL;
            model->obj_name = res.obj_name, res.obj_name = NULL;
            model->m = res.m;
            model->n = res.n;
            model->nnz = nnz;
            model->sense = res.sense;
            model->obj_const = res.obj_const;
            model->c = res.c, res.c = NULL;
            model->lv = res.lv, res.lv = NULL;
            model->uv = res.uv, res.uv = NULL;
            model->lc = res.lc, res.lc = NULL;
            model->uc = res.uc, res.uc = NULL;
            model->col_ptr = col_ptr;
            model->row_idx = row;
            model->val = val;
            model->row_names = res.row_names, res.row_names = NULL;
            model->col_names = res.col_names, res.col_names = NULL;
            if (res.n_int > 0) {
                model->is_int = res.is_int;
                res.is_int = NULL;
            }
        }
    }
    slp_triplets_free(&t);
    slp_mps_result_free(&res);
    if (!err)
        err = slp_model_validate(model, path);
    if (err) {
        slp_model_destroy(&model);
        return err;
    }
    *out = model;
    return SLP_OK;
}
