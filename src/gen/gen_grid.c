/* `shardlp gen --grid auto`: the memory-aware grid of shard/shard.h's
 * slp_shard_pick_grid_ranks, fed from the generator's closed-form counts and column
 * patterns instead of a model (docs/generators.md, docs/memory.md). */
#include "gen.h"

#include <stdlib.h>

/* A shard source whose passes stream the generator's columns (pattern only). */
static slp_err scan_columns(void *ctx, slp_shard_entry_fn entry, void *user, slp_model_t **skeleton)
{
    const slp_gen_t *g = ctx;
    if (skeleton)
        *skeleton = NULL;
    int64_t *rows = slp_malloc((size_t)g->max_col_nnz * sizeof(int64_t));
    if (!rows)
        return SLP_ERR_NOMEM;
    slp_err rc = SLP_OK;
    for (int64_t j = 0; rc == SLP_OK && j < g->n; j++) {
        int64_t count = slp_gen_column(g, j, rows, NULL);
        for (int64_t k = 0; rc == SLP_OK && k < count; k++)
            rc = entry(user, rows[k], j, 1.0);
    }
    free(rows);
    return rc;
}

slp_err slp_gen_pick_grid(const slp_gen_t *g, int P, int *R, int *C,
                          slp_grid_choice_t **choices, int *nchoices)
{
    int64_t *row_nnz = slp_malloc((size_t)(g->m > 0 ? g->m : 1) * sizeof(int64_t));
    int64_t *col_nnz = slp_malloc((size_t)(g->n > 0 ? g->n : 1) * sizeof(int64_t));
    slp_err rc = row_nnz && col_nnz ? SLP_OK : SLP_ERR_NOMEM;
    for (int64_t i = 0; rc == SLP_OK && i < g->m; i++)
        row_nnz[i] = slp_gen_row_nnz(g, i);
    for (int64_t j = 0; rc == SLP_OK && j < g->n; j++)
        col_nnz[j] = slp_gen_col_nnz(g, j);
    slp_shard_source_t src = {(void *)g, scan_columns, slp_gen_kind_name(g->kind), 0};
    if (rc == SLP_OK)
        rc = slp_shard_pick_grid_ranks(&src, g->m, g->n, row_nnz, col_nnz, P, R, C, choices,
                                       nchoices);
    free(row_nnz);
    free(col_nnz);
    return rc;
}
