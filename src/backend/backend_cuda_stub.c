/* Stand-in for the CUDA backend in builds without CUDA. */
#include "backend/backend.h"

#ifndef SLP_HAVE_CUDA
slp_err slp_backend_cuda_create(int device, slp_backend_t **out)
{
    (void)device;
    *out = NULL;
    return slp_error(SLP_ERR_UNSUPPORTED,
                     "this shardlp was built without CUDA; use --backend cpu");
}

int slp_backend_cuda_device_count(void) { return 0; }
#endif
