/* Run-time loading of cuSPARSE (cusparse_api.h). */
#include <dlfcn.h>
#include <stdio.h>

extern "C" {
#include "backend/backend.h"
}
#include "backend/cuda/backend_cuda.h"
#include "backend/cuda/cusparse_api.h"

static slp_cusparse_api_t g_api;
static int g_loaded;

const slp_cusparse_api_t *slp_cusparse(void) { return g_loaded ? &g_api : NULL; }

slp_err slp_cusparse_load(const slp_cusparse_api_t **out)
{
    *out = NULL;
    if (g_loaded) {
        *out = &g_api;
        return SLP_OK;
    }
    char name[64];
    snprintf(name, sizeof name, "libcusparse.so.%d", CUSPARSE_VER_MAJOR);
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return slp_error(SLP_ERR_UNSUPPORTED, "cannot load %s (%s); use --backend cpu", name,
                         dlerror());
    struct {
        const char *symbol;
        void **slot;
    } table[] = {
#define SLP_CUSPARSE_FN(f) {"cusparse" #f, (void **)&g_api.f}
        SLP_CUSPARSE_FN(Create),          SLP_CUSPARSE_FN(Destroy),
        SLP_CUSPARSE_FN(SetStream),       SLP_CUSPARSE_FN(GetErrorString),
        SLP_CUSPARSE_FN(CreateCsr),       SLP_CUSPARSE_FN(DestroySpMat),
        SLP_CUSPARSE_FN(CreateDnVec),     SLP_CUSPARSE_FN(DestroyDnVec),
        SLP_CUSPARSE_FN(DnVecSetValues),  SLP_CUSPARSE_FN(Csr2cscEx2_bufferSize),
        SLP_CUSPARSE_FN(Csr2cscEx2),      SLP_CUSPARSE_FN(SpMV_bufferSize),
        SLP_CUSPARSE_FN(SpMV_preprocess), SLP_CUSPARSE_FN(SpMV),
#undef SLP_CUSPARSE_FN
    };
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++) {
        *table[k].slot = dlsym(lib, table[k].symbol);
        if (!*table[k].slot)
            return slp_error(SLP_ERR_UNSUPPORTED, "%s has no %s; use --backend cpu", name,
                             table[k].symbol);
    }
    g_loaded = 1;
    *out = &g_api;
    return SLP_OK;
}

extern "C" slp_err slp_backend_cuda_load_libraries(void)
{
    const slp_cusparse_api_t *api = NULL;
    return slp_cusparse_load(&api);
}
