/* The checker on sharded input (docs/design.md section 9): a shard model is checked
 * against a sharded solution (`solve --out DIR`) block by block on one process, so
 * memory stays at one block plus one row and one column slice; an MPS model can be
 * checked against a sharded solution by loading its slices into whole vectors. */
#ifndef SLP_CHECK_SHARDS_H
#define SLP_CHECK_SHARDS_H

#include "check/check.h"
#include "io/solution_text.h"

/* What the streaming check learnt about the model (for the report). */
typedef struct slp_check_shard_info {
    int64_t m, n, nnz;
    int sense;
    char status[32]; /* the solution's status ("optimal", ...) */
    double reported_objective;
} slp_check_shard_info_t;

/* Check the sharded solution in sol_dir against the shard model in model_dir. The
 * solution's grid must be the model's. */
slp_err slp_check_shards(const char *model_dir, const char *sol_dir, slp_check_result_t *result,
                         slp_check_shard_info_t *info);

/* The same check under MPI on the model's grid (collective; the world must have R x C
 * ranks): each rank reads only its own block, its column slice of x and reduced costs
 * and its row slice of y, and the criteria are combined over the grid
 * (check/check_grid.h); every rank gets the same result and info. */
slp_err slp_check_shards_grid(const char *model_dir, const char *sol_dir,
                              slp_check_result_t *result, slp_check_shard_info_t *info);

/* Load a sharded solution into whole vectors as an slp_solution_t for a model of m rows
 * and n columns (model_status is the JSON status, e.g. "optimal"). */
slp_err slp_check_load_sharded_solution(const char *sol_dir, int64_t m, int64_t n,
                                        slp_solution_t **out);

#endif
