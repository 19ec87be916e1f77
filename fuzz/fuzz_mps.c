/* Fuzz target: the MPS reader (slp_mps_read: streaming parser, compression detection, model
 * assembly and validation). The input bytes are the file, plain or gzip. */
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/log.h"
#include "core/model.h"
#include "fuzz_common.h"
#include "io/mps.h"

#ifndef SLP_FUZZ_ENTRY
#define SLP_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int SLP_FUZZ_ENTRY(const uint8_t *data, size_t size);
int SLP_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    char path[300];
    snprintf(path, sizeof path, "%s/model.mps", slp_fuzz_scratch());
    slp_fuzz_write(path, data, size);
    slp_log_set_level(SLP_LOG_QUIET);
    slp_model_t *model = NULL;
    slp_err rc = slp_mps_read(path, &model);
    if (rc == SLP_OK) {
        /* A model the reader accepts must be consistent. */
        if (!model || slp_model_validate(model, path) != SLP_OK)
            abort();
        if (model->col_ptr[0] != 0 || model->col_ptr[model->n] != model->nnz)
            abort();
        for (int64_t k = 0; k < model->nnz; k++)
            if (model->row_idx[k] < 0 || model->row_idx[k] >= model->m)
                abort();
    } else if (model != NULL || slp_error_message()[0] == '\0') {
        abort(); /* a failure leaves no model and always says why */
    }
    slp_model_destroy(&model);
    slp_error_clear();
    return 0;
}
