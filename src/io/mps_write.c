/* Placeholder: the MPS writer is being written. */
#include "io/mps.h"

slp_err slp_mps_write(const slp_model_t *model, const char *path)
{
    (void)model;
    return slp_error(SLP_ERR_UNSUPPORTED, "%s: MPS writer not built yet", path);
}
