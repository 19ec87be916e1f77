/* The exchange of backend vectors (exchange.h): host, staged and NCCL. */
#include "plan/exchange.h"

#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif
#include <stdlib.h>

#include "core/log.h"
#include "grid/comm_mpi.h"
#ifdef SLP_HAVE_NCCL
#include "backend/cuda/comm_nccl.h"
#endif

typedef enum { EX_HOST, EX_STAGED, EX_NCCL } ex_kind;

struct slp_exchange {
    ex_kind kind;
    slp_grid_t *grid;      /* borrowed */
    slp_backend_t *be;     /* borrowed */
    slp_comm_plan_t *plan; /* borrowed */
    int64_t m, n;
    double *stage;         /* staged: host buffer of stage_len doubles (be->host_alloc) */
    int64_t stage_len;
#ifdef SLP_HAVE_NCCL
    slp_nccl_t *nccl;
#endif
};

int slp_exchange_mpi_cuda_aware(void)
{
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    return MPIX_Query_cuda_support() == 1;
#else
    return 0;
#endif
}

/* Ranks of the world on this node (1 without MPI). Collective over the world. */
static slp_err node_local_size(slp_grid_t *grid, int *size)
{
    *size = 1;
    MPI_Comm world = slp_comm_mpi(grid->world);
    if (world == MPI_COMM_NULL)
        return SLP_OK;
    MPI_Comm node;
    if (MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) != MPI_SUCCESS)
        return slp_error(SLP_ERR_MPI, "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) failed");
    MPI_Comm_size(node, size);
    MPI_Comm_free(&node);
    return SLP_OK;
}

/* The kind for this rank from the request; the decision's inputs are the same on
 * every rank of a homogeneous machine, and the caller agrees on failures. */
static slp_err choose_kind(slp_grid_t *grid, slp_backend_t *be, slp_comm_plan_t *plan,
                           slp_comm_lib lib, ex_kind *kind)
{
    int local = 1;
    SLP_CALL(node_local_size(grid, &local));
    int devices = be->memory == SLP_MEM_DEVICE ? slp_backend_cuda_device_count() : 0;
    int cuda = be->memory == SLP_MEM_DEVICE && devices > 0;
    int own_gpu = cuda && local <= devices;
#ifdef SLP_HAVE_NCCL
    int nccl_built = 1;
#else
    int nccl_built = 0;
#endif
    *kind = be->memory == SLP_MEM_HOST ? EX_HOST : EX_STAGED;
    if (lib == SLP_COMM_LIB_MPI || grid->size == 1)
        return SLP_OK;
    if (lib == SLP_COMM_LIB_AUTO) {
        if (cuda && nccl_built && own_gpu && !slp_plan_is_support(plan))
            *kind = EX_NCCL;
        return SLP_OK;
    }
    if (!nccl_built)
        return slp_error(SLP_ERR_UNSUPPORTED,
                         "comm_lib = nccl: this shardlp was built without NCCL; use comm_lib = mpi");
    if (!cuda)
        return slp_error(SLP_ERR_INPUT, "comm_lib = nccl needs backend = cuda");
    if (slp_plan_is_support(plan))
        return slp_error(SLP_ERR_UNSUPPORTED, "comm_lib = nccl runs the dense plan only; use "
                                              "comm = dense, or comm_lib = mpi for comm = support");
    if (!own_gpu)
        return slp_error(SLP_ERR_INPUT,
                         "--comm-lib nccl needs one GPU per rank (%d ranks on this node, %d "
                         "GPU%s); use --comm-lib mpi to share a GPU",
                         local, devices, devices == 1 ? "" : "s");
    *kind = EX_NCCL;
    return SLP_OK;
}

static const char *kind_name(ex_kind kind)
{
    return kind == EX_HOST ? "host" : kind == EX_STAGED ? "staged" : "nccl";
}

slp_err slp_exchange_create(slp_grid_t *grid, slp_backend_t *be, slp_comm_plan_t *plan,
                            slp_comm_lib lib, int64_t m_loc, int64_t n_loc,
                            slp_exchange_t **out)
{
    *out = NULL;
    slp_exchange_t *ex = slp_calloc(1, sizeof *ex);
    slp_err rc = ex ? SLP_OK : SLP_ERR_NOMEM;
    if (rc == SLP_OK) {
        ex->grid = grid;
        ex->be = be;
        ex->plan = plan;
        ex->m = m_loc;
        ex->n = n_loc;
        rc = choose_kind(grid, be, plan, lib, &ex->kind);
    }
    rc = slp_comm_agree(grid->world, rc);
#ifdef SLP_HAVE_NCCL
    if (rc == SLP_OK && ex->kind == EX_NCCL)
        rc = slp_nccl_create(grid, be, &ex->nccl); /* agrees itself */
#endif
    if (rc != SLP_OK) {
        slp_exchange_destroy(&ex);
        return rc;
    }
    if (be->memory == SLP_MEM_DEVICE)
        slp_log_verbose("exchange: %s (CUDA-aware MPI reported: %s)\n", kind_name(ex->kind),
                        slp_exchange_mpi_cuda_aware() ? "yes" : "no");
    *out = ex;
    return SLP_OK;
}

void slp_exchange_destroy(slp_exchange_t **ex)
{
    if (!ex || !*ex)
        return;
    if ((*ex)->stage)
        (*ex)->be->host_free((*ex)->be, (*ex)->stage);
#ifdef SLP_HAVE_NCCL
    slp_nccl_destroy(&(*ex)->nccl);
#endif
    free(*ex);
    *ex = NULL;
}

const char *slp_exchange_kind(const slp_exchange_t *ex) { return kind_name(ex->kind); }

/* A staging buffer of at least len doubles (grown, never shrunk). */
static slp_err stage_reserve(slp_exchange_t *ex, int64_t len)
{
    if (len <= ex->stage_len)
        return SLP_OK;
    if (ex->stage)
        ex->be->host_free(ex->be, ex->stage);
    ex->stage = NULL;
    ex->stage_len = 0;
    void *p = NULL;
    SLP_CALL(ex->be->host_alloc(ex->be, (size_t)len * sizeof(double), &p));
    ex->stage = p;
    ex->stage_len = len;
    return SLP_OK;
}

/* Download count vectors of len values into consecutive staging slots. */
static slp_err stage_down(slp_exchange_t *ex, double **vecs, int count, int64_t len,
                          double **host)
{
    SLP_CALL(stage_reserve(ex, (int64_t)count * len));
    for (int k = 0; k < count; k++) {
        host[k] = ex->stage + (int64_t)k * len;
        SLP_CALL(ex->be->vec_download(ex->be, host[k], vecs[k], len));
    }
    return SLP_OK;
}

static slp_err stage_up(slp_exchange_t *ex, double **vecs, int count, int64_t len, double **host)
{
    for (int k = 0; k < count; k++)
        SLP_CALL(ex->be->vec_upload(ex->be, vecs[k], host[k], len));
    return SLP_OK;
}

typedef slp_err (*plan_sum_fn)(slp_comm_plan_t *, slp_grid_t *, double *, int64_t);
typedef slp_err (*plan_sync_fn)(slp_comm_plan_t *, slp_grid_t *, double **, int, int64_t);

static slp_err exchange_sum(slp_exchange_t *ex, double *v, int64_t len, plan_sum_fn sum, int dir)
{
    if (ex->kind == EX_HOST)
        return sum(ex->plan, ex->grid, v, len);
#ifdef SLP_HAVE_NCCL
    if (ex->kind == EX_NCCL)
        return slp_nccl_sum(ex->nccl, v, len, dir);
#else
    (void)dir;
#endif
    double *host = NULL;
    SLP_CALL(stage_down(ex, &v, 1, len, &host));
    SLP_CALL(sum(ex->plan, ex->grid, host, len));
    return stage_up(ex, &v, 1, len, &host);
}

static slp_err exchange_sync(slp_exchange_t *ex, double **vecs, int count, int64_t len,
                             plan_sync_fn sync)
{
    if (ex->kind == EX_HOST)
        return sync(ex->plan, ex->grid, vecs, count, len);
    if (ex->kind == EX_NCCL || !slp_plan_is_support(ex->plan) || count <= 0)
        return SLP_OK; /* the dense plan leaves every replica whole */
    double *host[64];
    if (count > 64)
        return slp_error(SLP_ERR_INTERNAL, "synchronisation of %d vectors at once", count);
    SLP_CALL(stage_down(ex, vecs, count, len, host));
    SLP_CALL(sync(ex->plan, ex->grid, host, count, len));
    return stage_up(ex, vecs, count, len, host);
}

/* dir: 0 for the grid row, 1 for the grid column (SLP_NCCL_ROWS / SLP_NCCL_COLS). */
slp_err slp_exchange_sum_rows(slp_exchange_t *ex, double *v)
{
    return exchange_sum(ex, v, ex->m, slp_plan_sum_rows, 0);
}

slp_err slp_exchange_sum_cols(slp_exchange_t *ex, double *v)
{
    return exchange_sum(ex, v, ex->n, slp_plan_sum_cols, 1);
}

slp_err slp_exchange_sync_rows(slp_exchange_t *ex, double **vecs, int count)
{
    return exchange_sync(ex, vecs, count, ex->m, slp_plan_sync_rows);
}

slp_err slp_exchange_sync_cols(slp_exchange_t *ex, double **vecs, int count)
{
    return exchange_sync(ex, vecs, count, ex->n, slp_plan_sync_cols);
}
