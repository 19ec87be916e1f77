/* LP generators that write shards directly (docs/generators.md).
 *
 * Every family is index-addressable: the entries of column j, the bounds of row i and
 * the nonzero counts of any row or column are computed from the index alone (closed-form
 * index arithmetic plus the counter-based generator of gen_rng.h), never from a built
 * matrix. So a rank builds block (r, c) from its row and column ranges only, and the LP
 * is bit-identical whatever the grid and the number of ranks.
 *
 * Families and parameters (params[0..3]):
 *   mcf           K commodities, F factories per commodity, W warehouses, S stores
 *   design-match  N treated, M controls, D covariates, T neighbours
 *   qap           M (size)
 *   transport     S sources, T sinks, K neighbours
 *   heat-source   N grid size, K candidate locations, L sources, M measurements
 *   production-inventory  E factories, T stages (and the real theta, g->theta) */
#ifndef SLP_GEN_H
#define SLP_GEN_H

#include <stdint.h>

#include "core/error.h"
#include "core/local_problem.h"
#include "core/model.h"
#include "grid/comm.h"
#include "shard/shard.h"

typedef enum {
    SLP_GEN_MCF = 0,
    SLP_GEN_DESIGN_MATCH = 1,
    SLP_GEN_QAP = 2,
    SLP_GEN_TRANSPORT = 3,
    SLP_GEN_HEAT_SOURCE = 4,
    SLP_GEN_PRODUCTION_INVENTORY = 5,
    SLP_GEN_KINDS = 6
} slp_gen_kind;

/* heat-source: at most this many candidate and measurement locations. */
#define SLP_GEN_HEAT_MAX_POINTS 4096

/* heat-source's located points: interior grid points ((i-1) N + j-1) N + k-1, sorted,
 * without repeats (docs/generators.md). */
typedef struct slp_gen_heat {
    int64_t ncand, nmeas;
    int64_t cand[SLP_GEN_HEAT_MAX_POINTS];    /* possible source locations */
    int32_t cand_sources[SLP_GEN_HEAT_MAX_POINTS]; /* true sources placed there */
    int64_t meas[SLP_GEN_HEAT_MAX_POINTS];    /* measurement locations */
} slp_gen_heat_t;

typedef enum { SLP_GEN_SCALE_NONE = 0, SLP_GEN_SCALE_BENCHMARK = 1 } slp_gen_scale;

/* A configured generator (plain values: copy freely; nothing to free; about 80 KB with
 * heat-source's point tables, so keep it off small stacks). */
typedef struct slp_gen {
    int kind;            /* slp_gen_kind */
    int64_t p[4];        /* family parameters, in the order listed above */
    uint64_t seed;
    int scale;           /* slp_gen_scale */
    int64_t m, n, nnz;   /* sizes, from the formulas (docs/generators.md) */
    int64_t max_col_nnz; /* longest column: buffer size for slp_gen_column */
    /* design-match derived sizes */
    int64_t dm_moments;  /* d + d(d+1)/2 dense moment rows */
    int64_t dm_excl;     /* floor(2t/5) caliper-excluded candidates per treated unit */
    double theta;        /* production-inventory's uncertainty level (default 0.2) */
    slp_gen_heat_t heat; /* heat-source's located points */
} slp_gen_t;

/* "mcf", "design-match", ..., "production-inventory" -> kind; SLP_ERR_INPUT otherwise. */
slp_err slp_gen_kind_parse(const char *name, int *kind);
const char *slp_gen_kind_name(int kind);
/* Number of parameters of a family and their option names ("--commodities", ...). */
int slp_gen_param_count(int kind);
const char *slp_gen_param_option(int kind, int index);

/* Sizes by formula only (64-bit, overflow-checked); validates the parameters with a
 * one-line message. Works for sizes far too large to generate. */
slp_err slp_gen_sizes(int kind, const int64_t *params, int64_t *m, int64_t *n, int64_t *nnz);

/* Validate and set up; g->m, n, nnz from the formulas. */
slp_err slp_gen_init(slp_gen_t *g, int kind, const int64_t *params, uint64_t seed, int scale);
/* production-inventory's uncertainty level theta in [0, 1) (the option --theta);
 * SLP_ERR_INPUT for another value or another family. */
slp_err slp_gen_set_theta(slp_gen_t *g, double theta);

/* Nonzeros of row i / column j (closed form; O(1) or O(log) time). */
int64_t slp_gen_row_nnz(const slp_gen_t *g, int64_t i);
int64_t slp_gen_col_nnz(const slp_gen_t *g, int64_t j);

/* Column j: its entries in increasing row order into rows[] and (when vals is not
 * NULL) vals[] (room for g->max_col_nnz each); returns the count. With vals == NULL
 * only the pattern is produced (cheap). Values include the --scale rescaling. */
int64_t slp_gen_column(const slp_gen_t *g, int64_t j, int64_t *rows, double *vals);
/* Objective coefficient and bounds of column j; bounds of row i (rescaled). */
void slp_gen_col_data(const slp_gen_t *g, int64_t j, double *obj, double *lv, double *uv);
void slp_gen_row_bounds(const slp_gen_t *g, int64_t i, double *lc, double *uc);

/* Cut points of the rows (is_row = 1, parts = R) or columns (parts = C): exactly what
 * slp_balanced_cuts gives on the per-row / per-column nonzero counts, computed in one
 * streaming pass over the closed-form counts (O(1) memory). off has parts + 1 entries. */
void slp_gen_cuts(const slp_gen_t *g, int is_row, int parts, int64_t *off);

/* Block A[r0:r1, c0:c1] in CSR with block-local indices (two passes over the columns
 * c0..c1: pattern, then values). Memory: the block itself. */
slp_err slp_gen_block(const slp_gen_t *g, int64_t r0, int64_t r1, int64_t c0, int64_t c1,
                      slp_csr_t *out);

/* The whole LP as a model (for --mps and tests; small sizes only). */
slp_err slp_gen_model(const slp_gen_t *g, slp_model_t **out);

/* --grid auto for P ranks (gen_grid.c): every R x C = P scored by the modelled solver
 * peak of its largest block (slp_shard_pick_grid_ranks), from the closed-form counts and
 * one pattern pass per 16 candidates; O(m + n) memory for the counts. */
slp_err slp_gen_pick_grid(const slp_gen_t *g, int P, int *R, int *C,
                          slp_grid_choice_t **choices, int *nchoices);

/* What one rank did in slp_gen_write_shards. */
typedef struct slp_gen_stats {
    int blocks;            /* blocks this rank generated */
    int64_t nnz;           /* their nonzeros */
    double seconds;        /* wall time of this rank's generation and writing */
} slp_gen_stats_t;

/* Collective over `world` (any size P >= 1): write the LP as a shard directory cut
 * into an R x C grid (compact_values: blocks in their compact exact form where one is
 * smaller, as slp_shard_write_model). Block b = r*C + c is generated and written by
 * rank b % P (so rank k owns block k when P = R*C); column slice c by the owner of
 * block (0, c), row slice r by the owner of block (r, 0). Rank 0 creates DIR.tmp.XXXXXX,
 * gathers the O(R*C) sizes and checksums, writes manifest.json and renames the
 * directory to DIR. DIR must be on a file system every rank sees. Fails on every rank
 * when any rank fails (the temporary directory is removed). */
slp_err slp_gen_write_shards(const slp_gen_t *g, int R, int C, int compact_values,
                             const char *dir, slp_comm_t *world, slp_gen_stats_t *stats);

#endif
