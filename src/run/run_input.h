/* Where a run's problem comes from: the grid it runs on, the size check of shard
 * input, and reading (shards: every rank its block) or distributing (an MPS file or
 * a model in memory on rank 0) the problem. Collective over the world. */
#ifndef SLP_RUN_INPUT_H
#define SLP_RUN_INPUT_H

#include "core/local_problem.h"
#include "core/model.h"
#include "grid/grid.h"
#include "run/run_options.h"
#include "run/run_output.h"
#include "shard/shard.h"

/* MPS or in-memory input: the options' grid, else the most square for the ranks; with
 * --grid auto *grid stays NULL (slp_run_distribute makes it). */
slp_err slp_run_grid(const slp_run_options_t *o, slp_grid_t **grid);
/* Shard input: the manifest's grid (an options grid must agree with it). */
slp_err slp_run_shard_grid(const char *dir, const slp_run_options_t *o,
                           slp_shard_manifest_t *man, slp_grid_t **grid);
/* Refuse, before reading, a block that would not fit this rank's memory (with column
 * fixing's copy when `fixing`; the block's copies as --block-copies asks, *copies,
 * which becomes rows on every rank when it was auto and only A_rc alone fits). */
slp_err slp_run_check_memory(const char *dir, double mem_limit, const slp_shard_manifest_t *man,
                             const slp_grid_t *grid, int fixing, int *copies);
slp_err slp_run_read_shards(const char *dir, const slp_shard_manifest_t *man, slp_grid_t *grid,
                            slp_local_problem_t *lp, slp_run_info_t *info);
/* Rank 0 reads `path` (or takes `model` when path is NULL), validates it, applies the
 * integer rule (o->relax), reads the warm start of o->start_path into *start_x /
 * *start_y (whole vectors, owned by the caller; *start_y stays NULL without duals),
 * keeps the names when o->sol_path is set, and sends every rank its block. When *grid
 * is NULL (--grid auto) rank 0 first picks the R x C = P whose largest rank has the
 * smallest modelled peak for this model (docs/memory.md "The model") and logs the
 * candidates; the grid is made on every rank. */
slp_err slp_run_distribute(slp_grid_t **grid, const char *path, const slp_model_t *model,
                           const slp_run_options_t *o, slp_local_problem_t *lp,
                           slp_run_info_t *info, double **start_x, double **start_y);

#endif
