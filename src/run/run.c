/* The run layer (run/run.h): one run is a session (run/session.h) opened for one solve. */
#include "run/run.h"

#include <string.h>

#include "core/timer.h"
#include "run/session.h"

slp_err slp_run(const slp_run_options_t *opt, const slp_run_input_t *in,
                const slp_run_vectors_t *gather, slp_run_output_t *out)
{
    double t0 = slp_wall_seconds();
    memset(out, 0, sizeof *out);
    slp_session_t *s = NULL;
    int error_rank = 0;
    slp_err rc = slp_session_open(opt, in, 0, &s, &error_rank);
    if (rc == SLP_OK)
        rc = slp_session_solve(s, 1, gather, out);
    else
        out->error_rank = error_rank;
    slp_session_close(&s);
    out->total_seconds = slp_wall_seconds() - t0;
    return rc;
}

void slp_run_output_free(slp_run_output_t *out) { slp_result_free(&out->result); }

const char *slp_run_status_name(slp_run_status status) { return slp_status_name(status); }
const char *slp_run_status_highs_name(slp_run_status status)
{
    return slp_status_highs_name(status);
}
