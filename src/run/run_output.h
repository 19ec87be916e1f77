/* The outputs of `shardlp solve`: final log block, JSON summary, text and
 * sharded solutions. All collective over the grid. */
#ifndef SLP_RUN_OUTPUT_H
#define SLP_RUN_OUTPUT_H

#include "core/local_problem.h"
#include "presolve/presolve.h"
#include "shard/shard.h"
#include "grid/grid.h"
#include "solver/solver.h"

typedef struct slp_run_info {
    const char *model_path;
    char *model_name;       /* owned, rank 0 only */
    int64_t m, n, nnz;
    int64_t local_nnz;      /* nonzeros of this rank's block as read */
    int R, C;
    const char *comm_mode;
    const char *backend;
    double t_start;         /* wall clock at program start */
    double read_seconds;    /* reading (and distributing) the problem, warm start included */
    int64_t read_peak_rss;  /* this rank's peak resident bytes when the input phase ended */
    /* Names for the text solution, rank 0 only (MPS path: kept from the model;
     * NULL means generated names). Owned. */
    char **row_names, **col_names;
    /* Shard input: names are read block by block from the directory (rank 0). */
    const char *shard_dir;
    const slp_shard_manifest_t *shard_manifest;
    slp_presolve_stats_t presolve; /* what presolve removed (zeros when off) */
    int column_fixing;      /* the solve holds column fixing's copy (the memory model) */
    int block_copies;       /* --block-copies (slp_block_copies; the memory model) */
} slp_run_info_t;

/* Free the owned parts of info. */
void slp_run_info_free(slp_run_info_t *info);

/* Peak resident set size of this process in bytes (-1 when unknown). */
int64_t slp_peak_rss_bytes(void);

slp_err slp_write_outputs(slp_grid_t *grid, const slp_local_problem_t *lp,
                          const slp_result_t *res, const slp_run_info_t *info,
                          const char *sol_path, const char *out_dir, const char *json_path);

#endif
