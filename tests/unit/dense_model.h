/* Test fixture: an slp_model_t from a dense row-major matrix (zeros skipped). */
#ifndef SLP_TEST_DENSE_MODEL_H
#define SLP_TEST_DENSE_MODEL_H

#include <stdint.h>

#include "core/model.h"

static slp_model_t *dense_model(int64_t m, int64_t n, const double *a, const double *c,
                                const double *lv, const double *uv, const double *lc,
                                const double *uc, int sense)
{
    int64_t nnz = 0;
    for (int64_t k = 0; k < m * n; k++)
        nnz += a[k] != 0.0;
    slp_model_t *model = NULL;
    if (slp_model_create(m, n, nnz, &model) != SLP_OK)
        return NULL;
    int64_t pos = 0;
    for (int64_t j = 0; j < n; j++) {
        model->col_ptr[j] = pos;
        for (int64_t i = 0; i < m; i++)
            if (a[i * n + j] != 0.0) {
                model->row_idx[pos] = i;
                model->val[pos++] = a[i * n + j];
            }
        model->c[j] = c[j];
        model->lv[j] = lv[j];
        model->uv[j] = uv[j];
    }
    model->col_ptr[n] = pos;
    for (int64_t i = 0; i < m; i++) {
        model->lc[i] = lc[i];
        model->uc[i] = uc[i];
    }
    model->sense = sense;
    return model;
}

#endif
