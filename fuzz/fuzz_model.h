/* A model reader fed the input bytes as a file (fuzz_mps.c, fuzz_lp.c), and the
 * invariants of its answer: an accepted input gives a valid model with in-range indices
 * (and, where the format names every column, every name); a refused one leaves no model
 * and a message. Aborts when one breaks. */
#ifndef SLP_FUZZ_MODEL_H
#define SLP_FUZZ_MODEL_H

#include <stdlib.h>

#include "core/error.h"
#include "core/log.h"
#include "core/model.h"
#include "fuzz_common.h"

static void slp_fuzz_check_model(slp_err rc, slp_model_t **model, const char *path,
                                 int names_required)
{
    slp_model_t *mo = *model;
    if (rc == SLP_OK) {
        if (!mo || slp_model_validate(mo, path) != SLP_OK)
            abort();
        if (mo->col_ptr[0] != 0 || mo->col_ptr[mo->n] != mo->nnz)
            abort();
        for (int64_t k = 0; k < mo->nnz; k++)
            if (mo->row_idx[k] < 0 || mo->row_idx[k] >= mo->m)
                abort();
        for (int64_t j = 0; names_required && j < mo->n; j++)
            if (!mo->col_names || !mo->col_names[j])
                abort();
    } else if (mo != NULL || slp_error_message()[0] == '\0') {
        abort(); /* a failure leaves no model and always says why */
    }
    slp_model_destroy(model);
    slp_error_clear();
}

/* Write data to FILE in the scratch directory, read it with `read`, check the answer. */
static int slp_fuzz_read_model(const uint8_t *data, size_t size, const char *file,
                               slp_err (*read)(const char *, slp_model_t **),
                               int names_required)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s", slp_fuzz_scratch(), file);
    slp_fuzz_write(path, data, size);
    slp_log_set_level(SLP_LOG_QUIET);
    slp_model_t *model = NULL;
    slp_err rc = read(path, &model);
    slp_fuzz_check_model(rc, &model, path, names_required);
    return 0;
}

#endif
