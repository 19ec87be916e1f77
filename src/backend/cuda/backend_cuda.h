/* CUDA backend extras beyond the backend seam (backend.h), for the code that
 * must meet the device directly: the NCCL communication (comm_nccl.h) and the
 * host staging of vectors for MPI. C-callable; only in builds with SLP_HAVE_CUDA. */
#ifndef SLP_BACKEND_CUDA_H
#define SLP_BACKEND_CUDA_H

#include "backend/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if be was made by slp_backend_cuda_create. Not collective. */
int slp_backend_is_cuda(const slp_backend_t *be);
/* The cudaStream_t every operation of be is queued on (as void *), and the
 * device ordinal be runs on. be must be a CUDA backend. */
void *slp_backend_cuda_stream(slp_backend_t *be);
int slp_backend_cuda_device(const slp_backend_t *be);
/* The first CUDA / cuSPARSE failure of an operation that returns void (the seam
 * has no error channel for those), or SLP_OK. The message is already recorded
 * with slp_error. Does not synchronise. */
slp_err slp_backend_cuda_status(const slp_backend_t *be);
/* Wait for every queued operation of be; returns the first failure. */
slp_err slp_backend_cuda_sync(slp_backend_t *be);

/* Load the libraries the backend opens at run time (cuSPARSE, NCCL when built with it;
 * runtime_libs.h) without creating a backend: SLP_OK, or SLP_ERR_UNSUPPORTED with a
 * message. No device needed. */
slp_err slp_backend_cuda_load_libraries(void);

/* The device picked for a rank when none is given: the node-local rank (from
 * OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID, MPI_LOCALRANKID or
 * MV2_COMM_WORLD_LOCAL_RANK; 0 without a launcher) modulo count. Host only. */
int slp_cuda_pick_device(int count);

#ifdef __cplusplus
}
#endif

#endif
