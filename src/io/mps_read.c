/* Placeholder: the MPS reader is being written. */
#include "io/mps.h"

slp_err slp_mps_read(const char *path, slp_model_t **out)
{
    *out = NULL;
    return slp_error(SLP_ERR_UNSUPPORTED, "%s: MPS reader not built yet", path);
}
