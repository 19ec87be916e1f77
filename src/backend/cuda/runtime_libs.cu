/* Run-time loading of cuSPARSE and NCCL (runtime_libs.h). */
#include <dlfcn.h>
#include <stdio.h>

extern "C" {
#include "backend/backend.h"
}
#include "backend/cuda/backend_cuda.h"
#include "backend/cuda/runtime_libs.h"

/* One function of a table: its name and where its address goes. */
typedef struct {
    const char *symbol;
    void **slot;
} entry_t;

/* Once per library: dlopen lib<base>.so.<major> and fill every slot; the library stays
 * loaded for the process. */
static slp_err load_once(int *loaded, const char *base, int major, const entry_t *table,
                         size_t count)
{
    if (*loaded)
        return SLP_OK;
    char name[64];
    snprintf(name, sizeof name, "lib%s.so.%d", base, major);
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return slp_error(SLP_ERR_UNSUPPORTED, "cannot load %s (%s); use --backend cpu", name,
                         dlerror());
    for (size_t k = 0; k < count; k++) {
        *table[k].slot = dlsym(lib, table[k].symbol);
        if (!*table[k].slot)
            return slp_error(SLP_ERR_UNSUPPORTED, "%s has no %s; use --backend cpu", name,
                             table[k].symbol);
    }
    *loaded = 1;
    return SLP_OK;
}

#define SLP_FN(api, prefix, f) {#prefix #f, (void **)&api.f}

static slp_cusparse_api_t g_cusparse;
static int g_cusparse_loaded;

const slp_cusparse_api_t *slp_cusparse(void) { return g_cusparse_loaded ? &g_cusparse : NULL; }

slp_err slp_cusparse_load(const slp_cusparse_api_t **out)
{
    const entry_t table[] = {
        SLP_FN(g_cusparse, cusparse, Create),
        SLP_FN(g_cusparse, cusparse, Destroy),
        SLP_FN(g_cusparse, cusparse, SetStream),
        SLP_FN(g_cusparse, cusparse, GetErrorString),
        SLP_FN(g_cusparse, cusparse, Csr2cscEx2_bufferSize),
        SLP_FN(g_cusparse, cusparse, Csr2cscEx2),
    };
    *out = NULL;
    SLP_CALL(load_once(&g_cusparse_loaded, "cusparse", CUSPARSE_VER_MAJOR, table,
                       sizeof table / sizeof table[0]));
    *out = &g_cusparse;
    return SLP_OK;
}

#ifdef SLP_HAVE_NCCL
static slp_nccl_api_t g_nccl;
static int g_nccl_loaded;

const slp_nccl_api_t *slp_nccl(void) { return g_nccl_loaded ? &g_nccl : NULL; }

slp_err slp_nccl_load(const slp_nccl_api_t **out)
{
    const entry_t table[] = {
        SLP_FN(g_nccl, nccl, GetUniqueId),   SLP_FN(g_nccl, nccl, CommInitRank),
        SLP_FN(g_nccl, nccl, CommDestroy),   SLP_FN(g_nccl, nccl, AllReduce),
        SLP_FN(g_nccl, nccl, GetErrorString),
    };
    *out = NULL;
    SLP_CALL(load_once(&g_nccl_loaded, "nccl", NCCL_MAJOR, table, sizeof table / sizeof table[0]));
    *out = &g_nccl;
    return SLP_OK;
}
#endif

extern "C" slp_err slp_backend_cuda_load_libraries(void)
{
    const slp_cusparse_api_t *sparse = NULL;
    SLP_CALL(slp_cusparse_load(&sparse));
#ifdef SLP_HAVE_NCCL
    const slp_nccl_api_t *nccl = NULL;
    SLP_CALL(slp_nccl_load(&nccl));
#endif
    return SLP_OK;
}
