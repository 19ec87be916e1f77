/* The exchange: the products' sums and the replica synchronisation of backend
 * vectors, wherever those vectors live (docs/gpu.md section 2).
 *
 * host     the backend's vectors are host memory: the communication plan
 *          (comm_plan.h) works on them directly.
 * staged   device vectors (CUDA, guarded): each vector is downloaded into a host
 *          staging buffer (page-locked for CUDA), the plan runs on the buffer, the
 *          result is uploaded. Same summation order as host, so results are
 *          bitwise identical to the CPU backend's. The whole slice is staged; the
 *          plan's ordered sums are computed on the host, so a CUDA-aware MPI
 *          (detected and reported) is not used for them yet.
 * nccl     CUDA backend with one GPU per rank: NCCL all-reduce over the grid row /
 *          column groups (comm_nccl.h), dense plan only. NCCL's summation order is
 *          its own, so iterates agree with MPI's to rounding, not bitwise.
 *
 * --comm-lib auto picks nccl when the backend is CUDA, NCCL is built, the plan is
 * dense and every rank of a node has its own GPU; otherwise mpi (host or staged).
 * Scalar control reductions stay on MPI (grid/reduce.h). All functions are
 * collective over the grid unless they say otherwise. */
#ifndef SLP_EXCHANGE_H
#define SLP_EXCHANGE_H

#include <stdint.h>

#include "backend/backend.h"
#include "grid/grid.h"
#include "plan/comm_plan.h"

typedef enum { SLP_COMM_LIB_AUTO = 0, SLP_COMM_LIB_MPI = 1, SLP_COMM_LIB_NCCL = 2 } slp_comm_lib;

typedef struct slp_exchange slp_exchange_t;

/* plan is borrowed (it must outlive the exchange); m_loc, n_loc are the slice
 * lengths. Fails on every rank when the request cannot be met anywhere (nccl
 * without NCCL, nccl with the support plan, nccl with two ranks on one GPU). */
slp_err slp_exchange_create(slp_grid_t *grid, slp_backend_t *be, slp_comm_plan_t *plan,
                            slp_comm_lib lib, int64_t m_loc, int64_t n_loc,
                            slp_exchange_t **out);
/* Not collective; accepts NULL and *ex == NULL. */
void slp_exchange_destroy(slp_exchange_t **ex);

/* v (a backend vector of m_loc / n_loc values) becomes the sum of the partial
 * products over the grid row / grid column (comm_plan.h for which coordinates
 * are current afterwards under the support plan). */
slp_err slp_exchange_sum_rows(slp_exchange_t *ex, double *v);
slp_err slp_exchange_sum_cols(slp_exchange_t *ex, double *v);
/* Make count backend vectors of the row / column slice whole on every replica. */
slp_err slp_exchange_sync_rows(slp_exchange_t *ex, double **vecs, int count);
slp_err slp_exchange_sync_cols(slp_exchange_t *ex, double **vecs, int count);

/* "host", "staged" or "nccl". Local. */
const char *slp_exchange_kind(const slp_exchange_t *ex);
/* 1 when the MPI library reports CUDA-aware support at run time. Local. */
int slp_exchange_mpi_cuda_aware(void);

#endif
