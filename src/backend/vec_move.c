/* Host arrays and backend vectors changing hands (backend.h: slp_vec_take,
 * slp_vec_give): without a copy for host-memory backends, so that a rank never holds
 * the same slice twice (docs/memory.md); and slp_vec_copy_down, a copy that leaves the
 * vector where it is. */
#include <stdlib.h>

#include "backend/backend.h"

slp_err slp_vec_take(slp_backend_t *be, double **host, int64_t len, double **out)
{
    *out = NULL;
    if (be->memory == SLP_MEM_HOST) {
        *out = *host;
        *host = NULL;
        return SLP_OK;
    }
    slp_err rc = be->vec_create(be, len, out);
    if (rc == SLP_OK)
        rc = be->vec_upload(be, *out, *host, len);
    free(*host);
    *host = NULL;
    return rc;
}

slp_err slp_vec_copy_down(slp_backend_t *be, const double *dev, int64_t len, double **out)
{
    SLP_CALL(slp_alloc(out, (size_t)len + 1, sizeof(double)));
    return be->vec_download(be, *out, dev, len);
}

slp_err slp_vec_give(slp_backend_t *be, double **dev, int64_t len, double **out)
{
    *out = NULL;
    if (be->memory == SLP_MEM_HOST) {
        *out = *dev;
        *dev = NULL;
        return SLP_OK;
    }
    slp_err rc = slp_alloc(out, (size_t)len + 1, sizeof(double));
    if (rc == SLP_OK)
        rc = be->vec_download(be, *out, *dev, len);
    be->vec_destroy(be, *dev);
    *dev = NULL;
    return rc;
}
