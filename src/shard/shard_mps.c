/* An MPS file as a two-pass model source for the bounded-memory converter, on top of
 * the streaming parser (io/mps_parse.h): every pass re-parses the file and hands the
 * matrix entries on; the first pass also keeps the vectors and names (O(m + n)). */
#include "shard_internal.h"

#include <stdlib.h>
#include <string.h>

#include "io/mps_parse.h"

typedef struct mps_pass {
    slp_shard_entry_fn entry;
    void *user;
} mps_pass_t;

static slp_err on_entry(void *user, int64_t col, int64_t row, double value)
{
    mps_pass_t *pass = user;
    return pass->entry(pass->user, row, col, value);
}

/* The parser's result as a model without its matrix. */
static slp_err skeleton_from_result(const char *path, slp_mps_result_t *res, slp_model_t **out)
{
    slp_model_t *model = NULL;
    SLP_CALL(slp_model_create(0, 0, 0, &model));
    free(model->name), free(model->obj_name), free(model->c), free(model->lv);
    free(model->uv), free(model->lc), free(model->uc), free(model->col_ptr);
    model->name = res->name, res->name = NULL;
    model->obj_name = res->obj_name, res->obj_name = NULL;
    model->m = res->m;
    model->n = res->n;
    model->sense = res->sense;
    model->obj_const = res->obj_const;
    model->c = res->c, res->c = NULL;
    model->lv = res->lv, res->lv = NULL;
    model->uv = res->uv, res->uv = NULL;
    model->lc = res->lc, res->lc = NULL;
    model->uc = res->uc, res->uc = NULL;
    model->row_names = res->row_names, res->row_names = NULL;
    model->col_names = res->col_names, res->col_names = NULL;
    if (res->n_int > 0)
        model->is_int = res->is_int, res->is_int = NULL;
    model->col_ptr = slp_calloc((size_t)model->n + 1, sizeof(int64_t));
    slp_err rc = model->col_ptr ? slp_model_validate(model, path) : SLP_ERR_NOMEM;
    if (rc != SLP_OK) {
        slp_model_destroy(&model);
        return rc;
    }
    *out = model;
    return SLP_OK;
}

static slp_err mps_scan(void *ctx, slp_shard_entry_fn entry, void *user, slp_model_t **skeleton)
{
    const char *path = ctx;
    mps_pass_t pass = {entry, user};
    slp_mps_callbacks_t cb;
    memset(&cb, 0, sizeof cb);
    cb.user = &pass;
    cb.on_entry = on_entry;
    cb.quiet = skeleton == NULL; /* warnings once, on the first pass */
    slp_mps_result_t res;
    SLP_CALL(slp_mps_parse(path, &cb, &res));
    slp_err rc = SLP_OK;
    if (skeleton)
        rc = skeleton_from_result(path, &res, skeleton);
    slp_mps_result_free(&res);
    return rc;
}

void slp_shard_mps_source(const char *path, slp_shard_source_t *out)
{
    out->ctx = (void *)path;
    out->scan = mps_scan;
    out->label = path;
    out->relax = 0;
}
