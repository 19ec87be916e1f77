/* A fingerprint of a distributed model that does not depend on the grid or on how the
 * model was read (docs/parallel-input.md "Checking"): `--verbose` logs it, and the tests
 * compare the one-process reader, the parallel reader and shard input with it. */
#ifndef SLP_FINGERPRINT_H
#define SLP_FINGERPRINT_H

#include <stdint.h>

#include "core/local_problem.h"
#include "grid/grid.h"

/* Collective over grid->world; the same value on every rank. */
slp_err slp_model_fingerprint(slp_grid_t *grid, const slp_local_problem_t *lp, uint64_t *out);

#endif
