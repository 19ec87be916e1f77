/* NCCL sums over the grid row and column groups (comm_nccl.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

extern "C" {
#include "backend/backend.h"
#include "grid/grid.h"
}
#include "backend/cuda/backend_cuda.h"
#include "backend/cuda/comm_nccl.h"
#include "backend/cuda/runtime_libs.h"

struct slp_nccl {
    ncclComm_t group[2];  /* owned: [SLP_NCCL_ROWS] grid row, [SLP_NCCL_COLS] grid column; NULL for one rank */
    cudaStream_t stream;  /* borrowed from the backend */
};

static slp_err nccl_ok(ncclResult_t r, const char *what)
{
    if (r == ncclSuccess)
        return SLP_OK;
    const char *hint = r == ncclInvalidUsage
                           ? " (two ranks on one GPU? NCCL needs one rank per GPU; use --comm-lib mpi)"
                           : "";
    return slp_error(SLP_ERR_MPI, "NCCL: %s failed: %s%s", what, slp_nccl()->GetErrorString(r), hint);
}

/* One communicator over `comm` (collective over it). */
static slp_err group_create(slp_comm_t *comm, ncclComm_t *out)
{
    *out = NULL;
    int size = slp_comm_size(comm), rank = slp_comm_rank(comm);
    if (size <= 1)
        return SLP_OK;
    ncclUniqueId id;
    memset(&id, 0, sizeof id);
    slp_err rc = SLP_OK;
    if (rank == 0)
        rc = nccl_ok(slp_nccl()->GetUniqueId(&id), "ncclGetUniqueId");
    /* the root's failure must not leave the others waiting in ncclCommInitRank */
    SLP_CALL(slp_comm_agree(comm, rc));
    SLP_CALL(slp_comm_bcast(comm, &id, (int64_t)sizeof id, 0));
    return nccl_ok(slp_nccl()->CommInitRank(out, size, id, rank), "ncclCommInitRank");
}

extern "C" slp_err slp_nccl_create(slp_grid_t *grid, slp_backend_t *be, slp_nccl_t **out)
{
    *out = NULL;
    slp_err rc = SLP_OK;
    slp_nccl_t *nc = (slp_nccl_t *)slp_calloc(1, sizeof *nc);
    if (!nc)
        rc = SLP_ERR_NOMEM;
    else if (!slp_backend_is_cuda(be))
        rc = slp_error(SLP_ERR_INPUT, "--comm-lib nccl needs --backend cuda");
    const slp_nccl_api_t *api = NULL;
    if (rc == SLP_OK)
        rc = slp_nccl_load(&api); /* the library is mapped only now */
    if (rc == SLP_OK) {
        nc->stream = (cudaStream_t)slp_backend_cuda_stream(be);
        cudaError_t e = cudaSetDevice(slp_backend_cuda_device(be));
        if (e != cudaSuccess)
            rc = slp_error(SLP_ERR_INTERNAL, "NCCL: cudaSetDevice failed: %s", cudaGetErrorString(e));
    }
    rc = slp_comm_agree(grid->world, rc);
    /* Row groups, then column groups: every rank makes the same calls in the
     * same order, so the initialisations cannot interleave into a deadlock. */
    if (rc == SLP_OK)
        rc = slp_comm_agree(grid->world, group_create(grid->row_comm, &nc->group[SLP_NCCL_ROWS]));
    if (rc == SLP_OK)
        rc = slp_comm_agree(grid->world, group_create(grid->col_comm, &nc->group[SLP_NCCL_COLS]));
    if (rc != SLP_OK) {
        slp_nccl_destroy(&nc);
        return rc;
    }
    *out = nc;
    return SLP_OK;
}

extern "C" void slp_nccl_destroy(slp_nccl_t **nc)
{
    if (!nc || !*nc)
        return;
    for (int k = 0; k < 2; k++)
        if ((*nc)->group[k])
            slp_nccl()->CommDestroy((*nc)->group[k]);
    free(*nc);
    *nc = NULL;
}

extern "C" slp_err slp_nccl_sum(slp_nccl_t *nc, double *dev, int64_t n, int dir)
{
    if (dir != SLP_NCCL_ROWS && dir != SLP_NCCL_COLS)
        return slp_error(SLP_ERR_INTERNAL, "NCCL sum: bad direction %d", dir);
    ncclComm_t comm = nc->group[dir];
    if (!comm || n <= 0)
        return SLP_OK;
    return nccl_ok(slp_nccl()->AllReduce(dev, dev, (size_t)n, ncclDouble, ncclSum, comm, nc->stream),
                   "ncclAllReduce");
}
