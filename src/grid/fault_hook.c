#include "grid/fault_hook.h"

#include <stdlib.h>
#include <string.h>

#include "grid/comm.h"

slp_err slp_fault_nomem(const char *site)
{
    static int done, looked; /* one failure a process; the variable read once (a site
                              * may be passed once an entry) */
    static const char *hook;
    if (!looked)
        hook = getenv("SLP_TEST_NOMEM"), looked = 1;
    if (done || !hook)
        return SLP_OK;
    size_t len = strlen(site);
    if (strncmp(hook, site, len) != 0 || hook[len] != ':' ||
        atoi(hook + len + 1) != slp_comm_rank(slp_comm_world()))
        return SLP_OK;
    done = 1;
    return slp_error(SLP_ERR_NOMEM, "out of memory at %s (injected by SLP_TEST_NOMEM)", site);
}
