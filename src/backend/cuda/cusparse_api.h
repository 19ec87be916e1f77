/* cuSPARSE, loaded at run time (cusparse_api.cu): the library is mapped only when a
 * CUDA backend is created, so that CPU runs do not carry it (linking it costs every
 * process about 37 MB of resident memory, docs/memory.md). */
#ifndef SLP_CUSPARSE_API_H
#define SLP_CUSPARSE_API_H

#include <cusparse.h>

extern "C" {
#include "core/error.h"
}

/* The cuSPARSE functions the backend calls, with their declared types. */
typedef struct {
    decltype(&cusparseCreate) Create;
    decltype(&cusparseDestroy) Destroy;
    decltype(&cusparseSetStream) SetStream;
    decltype(&cusparseGetErrorString) GetErrorString;
    decltype(&cusparseCreateCsr) CreateCsr;
    decltype(&cusparseDestroySpMat) DestroySpMat;
    decltype(&cusparseCreateDnVec) CreateDnVec;
    decltype(&cusparseDestroyDnVec) DestroyDnVec;
    decltype(&cusparseDnVecSetValues) DnVecSetValues;
    decltype(&cusparseCsr2cscEx2_bufferSize) Csr2cscEx2_bufferSize;
    decltype(&cusparseCsr2cscEx2) Csr2cscEx2;
    decltype(&cusparseSpMV_bufferSize) SpMV_bufferSize;
    decltype(&cusparseSpMV_preprocess) SpMV_preprocess;
    decltype(&cusparseSpMV) SpMV;
} slp_cusparse_api_t;

/* Load the library once (later calls return the same table); SLP_ERR_UNSUPPORTED with
 * a message naming the library when it or a function is missing. */
slp_err slp_cusparse_load(const slp_cusparse_api_t **out);
/* The table after a successful slp_cusparse_load (NULL before). */
const slp_cusparse_api_t *slp_cusparse(void);

#endif
