/* cuSPARSE and NCCL, loaded at run time (runtime_libs.cu): a library is mapped only
 * when a CUDA backend (or NCCL communication) is created, so that CPU runs do not
 * carry it (linking them costs every process about 40 MB of resident memory, almost
 * all of it cuSPARSE's; docs/memory.md "The process"). */
#ifndef SLP_RUNTIME_LIBS_H
#define SLP_RUNTIME_LIBS_H

#include <cusparse.h>
#ifdef SLP_HAVE_NCCL
#include <nccl.h>
#endif

extern "C" {
#include "core/error.h"
}

/* The cuSPARSE functions the backend calls, with their declared types. */
typedef struct {
    decltype(&cusparseCreate) Create;
    decltype(&cusparseDestroy) Destroy;
    decltype(&cusparseSetStream) SetStream;
    decltype(&cusparseGetErrorString) GetErrorString;
    decltype(&cusparseCsr2cscEx2_bufferSize) Csr2cscEx2_bufferSize;
    decltype(&cusparseCsr2cscEx2) Csr2cscEx2;
} slp_cusparse_api_t;

/* Load cuSPARSE once (later calls return the same table); SLP_ERR_UNSUPPORTED with a
 * message naming the library when it or a function is missing. */
slp_err slp_cusparse_load(const slp_cusparse_api_t **out);
/* The table after a successful slp_cusparse_load (NULL before). */
const slp_cusparse_api_t *slp_cusparse(void);

#ifdef SLP_HAVE_NCCL
/* The NCCL functions the exchange calls. */
typedef struct {
    decltype(&ncclGetUniqueId) GetUniqueId;
    decltype(&ncclCommInitRank) CommInitRank;
    decltype(&ncclCommDestroy) CommDestroy;
    decltype(&ncclAllReduce) AllReduce;
    decltype(&ncclGetErrorString) GetErrorString;
} slp_nccl_api_t;

slp_err slp_nccl_load(const slp_nccl_api_t **out);
const slp_nccl_api_t *slp_nccl(void);
#endif

#endif
