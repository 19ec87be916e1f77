/* Shard directories, format version 1 (docs/design.md section 6, docs/shard-format.md).
 *
 * A shard directory holds one model cut into an R x C grid of blocks:
 *   manifest.json           sizes, grid, cut points, sense, and every file with its checksum
 *   block_R_C.bin           CSR of A_rc (block-local indices)
 *   col_C.bin / row_R.bin   column slice (obj, lv, uv) / row slice (lc, uc)
 *   colnames_C.bin / rownames_R.bin   optional names
 * and a sharded solution directory holds
 *   solution.json           status, objective, sizes, grid, files with checksums
 *   x_C.bin / y_R.bin       primal + reduced-cost slice / dual + row-activity slice
 *
 * Readers verify magic, version, header checksum, sizes against the manifest, grid
 * position and the payload checksum, and name the file in every error. Writers
 * write into a temporary directory and rename it into place, so a failure never
 * leaves a partial directory behind. */
#ifndef SLP_SHARD_H
#define SLP_SHARD_H

#include <stdint.h>

#include "core/error.h"
#include "core/local_problem.h"
#include "core/model.h"
#include "grid/grid.h"

#define SLP_SHARD_VERSION 1
#define SLP_SHARD_MANIFEST "manifest.json"
#define SLP_SOLUTION_MANIFEST "solution.json"

/* Role of a file in a shard or solution directory. */
typedef enum {
    SLP_SHARD_BLOCK = 0,     /* block_R_C.bin: CSR of A_rc */
    SLP_SHARD_COL_SLICE = 1, /* col_C.bin: obj, lv, uv of column block c */
    SLP_SHARD_ROW_SLICE = 2, /* row_R.bin: lc, uc of row block r */
    SLP_SHARD_COL_NAMES = 3, /* colnames_C.bin */
    SLP_SHARD_ROW_NAMES = 4, /* rownames_R.bin */
    SLP_SHARD_SOL_X = 5,     /* x_C.bin: x and reduced costs of column block c */
    SLP_SHARD_SOL_Y = 6,     /* y_R.bin: y and row activity A x of row block r */
    SLP_SHARD_SOL_RAY_X = 7, /* rayx_C.bin: the primal ray (unbounded) of column block c */
    SLP_SHARD_SOL_RAY_Y = 8, /* rayy_R.bin: the dual (Farkas) ray of row block r */
    SLP_SHARD_ROLE_COUNT
} slp_shard_role;

/* One file listed in a manifest. */
typedef struct slp_shard_file {
    char path[48];  /* file name inside the directory */
    int role;       /* slp_shard_role */
    int r, c;       /* block coordinates; -1 where not applicable */
    int64_t bytes;  /* whole file size */
    uint32_t crc32; /* zlib crc32 of every byte but the 4-byte trailer (= the trailer) */
} slp_shard_file_t;

/* manifest.json of a shard directory. Owned arrays; free with slp_shard_manifest_free. */
typedef struct slp_shard_manifest {
    int version;
    char *name;             /* model name ("" if none) */
    int64_t m, n, nnz;      /* global sizes */
    int R, C;               /* grid */
    int64_t *row_off;       /* [R+1] */
    int64_t *col_off;       /* [C+1] */
    int64_t *block_nnz;     /* [R*C] row-major: nonzeros of block (r, c) at r*C + c */
    int sense;              /* +1 minimize, -1 maximize */
    double obj_const;
    int has_names;          /* 1 when rownames_* and colnames_* exist */
    uint32_t fingerprint;   /* crc32 over every listed file's role, block, size and checksum:
                             * the model's identity (0 in manifests written before it) */
    int64_t nfiles;
    slp_shard_file_t *files; /* [nfiles] */
} slp_shard_manifest_t;

void slp_shard_manifest_free(slp_shard_manifest_t *man);
/* The manifest's entry for (role, r, c) or NULL. */
const slp_shard_file_t *slp_shard_manifest_find(const slp_shard_manifest_t *man, int role, int r,
                                                int c);

/* ---- Reading ---------------------------------------------------------------------- */

/* Read and validate DIR/manifest.json (not collective). */
slp_err slp_shard_read_manifest(const char *dir, slp_shard_manifest_t *out);

/* Read block (r, c) and its slices as the rank at (r, c) of the manifest's grid would
 * (not collective; this is what each rank does, callable for any (r, c) so one
 * process can simulate a grid). */
slp_err slp_shard_read_block(const char *dir, const slp_shard_manifest_t *man, int r, int c,
                             slp_local_problem_t *out);

/* Collective over grid->world: each rank reads the manifest and only its own block
 * and slices. Fails on every rank when the grid (or world size) does not match the
 * manifest, or when any rank fails; the message on each rank says what went wrong
 * (the failing rank's own error, or which rank failed). */
slp_err slp_shard_read_local(const char *dir, slp_grid_t *grid, slp_local_problem_t *out);
/* The same with the manifest already read on every rank (slp_shard_read_manifest_all). */
slp_err slp_shard_read_local_from(const char *dir, const slp_shard_manifest_t *man,
                                  slp_grid_t *grid, slp_local_problem_t *out);

/* Collective over the world, before a grid exists: read the manifest on every rank and
 * check that the world size equals R * C (same message on every rank otherwise). */
slp_err slp_shard_read_manifest_all(const char *dir, slp_shard_manifest_t *out);

/* The whole shard directory as one model in this process (not collective): for
 * converting a model that fits one machine back to a file (`shardlp convert`). */
slp_err slp_shard_read_model(const char *dir, slp_model_t **out);

/* Names of one row block (is_row = 1, block = r) or column block (is_row = 0, block = c).
 * Without name files, names are generated "R<i>" / "C<j>" with global indices. */
typedef struct slp_shard_names {
    int64_t count;      /* names in the block */
    const char **name;  /* [count], pointing into data */
    char *data;         /* owned storage */
} slp_shard_names_t;
slp_err slp_shard_read_names(const char *dir, const slp_shard_manifest_t *man, int is_row,
                             int block, slp_shard_names_t *out);
void slp_shard_names_free(slp_shard_names_t *names);

/* ---- Writing (converter) ----------------------------------------------------------- */

/* A model streamed in passes, for the bounded-memory converter. One call of scan is one
 * pass over the input: entry(user, i, j, v) is called for every matrix entry (0-based
 * global row i and column j, any order, each (i, j) at most once). When skeleton is not
 * NULL, the pass also returns the model without its matrix (m, n, nnz = 0, vectors,
 * names, sense, constant; col_ptr/row_idx/val unused). */
typedef slp_err (*slp_shard_entry_fn)(void *user, int64_t i, int64_t j, double v);
typedef struct slp_shard_source {
    void *ctx;
    slp_err (*scan)(void *ctx, slp_shard_entry_fn entry, void *user, slp_model_t **skeleton);
    const char *label; /* for messages: the file, or "model" */
    int relax; /* accept integer columns as continuous (slp_integer_rule); set by the caller */
} slp_shard_source_t;

/* A source over an in-memory model (entries in column order). */
void slp_shard_model_source(const slp_model_t *model, slp_shard_source_t *out);

/* A source over an MPS file (plain or gzip) through the streaming parser: each pass
 * re-parses the file; only O(m + n) vectors and names are kept. A (row, column) entry
 * repeated across split runs of a column is an error on this path. */
void slp_shard_mps_source(const char *path, slp_shard_source_t *out);

/* One pass of src: nonzeros per row [m] and per column [n] (malloc'd) and the model's
 * skeleton (sizes, vectors, names; destroy with slp_model_destroy). */
slp_err slp_shard_count(const slp_shard_source_t *src, int64_t **row_nnz, int64_t **col_nnz,
                        slp_model_t **skeleton);

/* Whole-model converter: cut points balanced by nonzeros, one block file per (r, c).
 * Writes DIR atomically (temporary directory renamed into place). compact_values: each
 * block whose values have an exact form of fewer bytes is written in it (a version 2
 * block file, docs/shard-format.md); 0: doubles, version 1. */
slp_err slp_shard_write_model(const slp_model_t *model, int R, int C, int compact_values,
                              const char *dir);

/* The names of a rank's blocks for slp_shard_write_ranks: each ending with its NUL, in
 * index order; rows on the ranks (r, 0), columns on the ranks (0, c). */
typedef struct slp_shard_rank_names {
    const char *rows;
    int64_t rows_bytes;
    const char *cols;
    int64_t cols_bytes;
} slp_shard_rank_names_t;

/* Shards written by the ranks of a grid from their local problems (the parallel MPS
 * reader's, bounds as in the file), each rank its own files, rank 0 the manifest; the
 * same files as slp_shard_write_model writes from the same model (name files when
 * `names` is not NULL). Writes DIR atomically. Collective over world. */
slp_err slp_shard_write_ranks(slp_comm_t *world, const slp_local_problem_t *lp,
                              const char *name, const slp_shard_rank_names_t *names,
                              int compact_values, const char *dir);

/* Bounded-memory converter: two passes over the source (counts and cuts, then the
 * entries through per-block bucket files and chunked CSR assembly). Matrix buffers
 * stay within about mem_budget bytes (floor: 4 KiB per block, one row per chunk);
 * O(m + n) vectors are held. Output is byte-identical to slp_shard_write_model's with
 * the same compact_values (a compact block's form is decided by the count pass). */
slp_err slp_shard_write_stream(const slp_shard_source_t *src, int R, int C, int64_t mem_budget,
                               int compact_values, const char *dir);

/* The size of a block file of m_loc rows and nnz entries with plain doubles (version 1). */
int64_t slp_shard_block_plain_bytes(int64_t m_loc, int64_t nnz);

/* ---- Sizing and the communication model -------------------------------------------- */

/* Bytes a rank reads from its shard: matrix = (m_loc+1)*8 + nnz_rc*12 (row pointers,
 * 32-bit column indices, values); vectors = 3*8*n_loc + 2*8*m_loc (column and row slice). */
void slp_shard_rank_bytes(const slp_shard_manifest_t *man, int r, int c, int64_t *matrix_bytes,
                          int64_t *vector_bytes);

/* Modelled communication of the dense plan, in logical scalar-hops per PDHG iteration:
 * A x summed over each row_comm (C members, m_r values): a reduction to a root moves
 * (C-1)*m_r scalars and the dissemination of the sum (C-1)*m_r more; likewise A^T y
 * over each col_comm: 2*(R-1)*n_c. Total 2*(C-1)*m + 2*(R-1)*n. */
void slp_shard_dense_hops(int64_t m, int64_t n, int R, int C, int64_t *ax_hops,
                          int64_t *aty_hops);

/* Pick the smallest grid (fewest ranks, then the most square, R <= C preferred) whose
 * largest per-rank matrix + vector bytes (slp_shard_rank_bytes) fit in mem_per_rank.
 * Needs the row and column nonzero counts and uses extra passes of src for candidates
 * whose largest block is not bounded from the counts alone. */
slp_err slp_shard_pick_grid(const slp_shard_source_t *src, int64_t m, int64_t n,
                            const int64_t *row_nnz, const int64_t *col_nnz, int64_t mem_per_rank,
                            int *R, int *C, int64_t *max_rank_bytes);

/* The solver's modelled peak on one rank of a block (m_loc x n_loc, nnz_rc entries)
 * solved from shards: A_rc and its transpose (12 bytes per entry each plus row
 * pointers; A_rc alone for copies = SLP_COPIES_ROWS, backend.h) and the column- and
 * row-length vectors the solve holds at its peak, with column fixing's copy of the
 * block when `fixing` (docs/memory.md, "Where the bytes go" and "The model"). */
int64_t slp_shard_solver_bytes(int64_t m_loc, int64_t n_loc, int64_t nnz_rc, int fixing,
                               int copies);
/* The largest of slp_shard_solver_bytes (without column fixing) over the blocks of an
 * R x C grid: cuts row_off [R+1], col_off [C+1], block_nnz [R*C] row-major. */
int64_t slp_shard_grid_solver_bytes(int R, int C, const int64_t *row_off, const int64_t *col_off,
                                    const int64_t *block_nnz, int copies);

/* One candidate of slp_shard_pick_grid_ranks. */
typedef struct slp_grid_choice {
    int R, C;
    int64_t max_rank_bytes;  /* largest slp_shard_solver_bytes over its blocks */
    int64_t dense_hops;      /* slp_shard_dense_hops, both products */
} slp_grid_choice_t;

/* Among the R x C = P factorisations, the one whose largest modelled per-rank peak
 * (slp_shard_solver_bytes of the exact blocks and slices) is smallest; ties to the
 * fewer modelled hops. One pass of src per 16 candidates. choices (when not NULL)
 * receives every candidate considered, in the order tried (caller frees). */
slp_err slp_shard_pick_grid_ranks(const slp_shard_source_t *src, int64_t m, int64_t n,
                                  const int64_t *row_nnz, const int64_t *col_nnz, int P,
                                  int *R, int *C, slp_grid_choice_t **choices, int *nchoices);

/* The candidates as a log block, the pick (R x C) marked. */
void slp_grid_choices_log(const slp_grid_choice_t *all, int count, int ranks, int R, int C);
/* slp_shard_pick_grid_ranks with the candidates logged (slp_grid_choices_log), not kept. */
slp_err slp_shard_pick_grid_ranks_logged(const slp_shard_source_t *src, int64_t m, int64_t n,
                                         const int64_t *row_nnz, const int64_t *col_nnz, int P,
                                         int *R, int *C);
/* The same choice for a shard directory's matrix and its rank count P (the blocks read
 * one at a time, a pass per 16 candidates; for `shardlp info`). */
slp_err slp_shard_dir_grid_choices(const char *dir, const slp_shard_manifest_t *man, int P,
                                   int *R, int *C, slp_grid_choice_t **choices, int *nchoices);

/* ---- Sharded solution ------------------------------------------------------------- */

/* solution.json. */
typedef struct slp_shard_solution_manifest {
    int version;
    char status[32];        /* "optimal", "primal_infeasible", ... */
    double objective;       /* in the user's sense (may be non-finite) */
    double dual_objective;
    int64_t iterations;
    int64_t m, n;
    int R, C;
    int64_t *row_off;       /* [R+1] */
    int64_t *col_off;       /* [C+1] */
    int64_t nfiles;
    slp_shard_file_t *files; /* x_c (role SOL_X) for every c, y_r (SOL_Y) for every r, and
                              * a certificate's rayx_c / rayy_r when the status has one */
    int has_ray_x, has_ray_y; /* every column / row block has its ray slice */
} slp_shard_solution_manifest_t;
void slp_shard_solution_manifest_free(slp_shard_solution_manifest_t *man);

/* Write one solution slice file DIR/x_C.bin (kind SLP_SHARD_SOL_X: v1 = x, v2 = reduced
 * costs, len = n_loc of column block `block`), DIR/y_R.bin (SLP_SHARD_SOL_Y: v1 = y,
 * v2 = row activity, len = m_loc), or a ray slice rayx_C.bin / rayy_R.bin
 * (SLP_SHARD_SOL_RAY_X / _RAY_Y: v1 = the ray, v2 unused). Not collective. On success *info describes the file
 * for the solution manifest. The file is written as NAME.tmp and renamed. */
slp_err slp_shard_write_solution_slice(const char *dir, int kind, int R, int C, int block,
                                       int64_t lo, int64_t len, int64_t m, int64_t n,
                                       const double *v1, const double *v2,
                                       slp_shard_file_t *info);
/* Write DIR/solution.json (rank 0, after all slices; atomically). */
slp_err slp_shard_write_solution_manifest(const char *dir,
                                          const slp_shard_solution_manifest_t *man);

/* Before any work: whether `dir` may receive a shard directory (solution = 0) or a
 * sharded solution (1): absent with a writable parent, empty, or a complete earlier
 * output of that kind holding only the files its manifest lists (docs/reliability.md). */
slp_err slp_shard_check_output_dir(const char *dir, int solution);

/* What a sharded solution holds: this rank's slices (x, rc [n_loc]; y, ax [m_loc]) and
 * the certificate's ray slices when the status has one (ray_x [n_loc] or ray_y [m_loc],
 * else NULL; the same on every rank). */
typedef struct slp_shard_solution_values {
    const char *status;
    double objective, dual_objective;
    int64_t iterations;
    const double *x, *rc, *y, *ax;
    const double *ray_x, *ray_y;
} slp_shard_solution_values_t;

/* Collective over grid->world: the whole sharded solution. Rank (0, c) writes x_c (and
 * rayx_c), rank (r, 0) writes y_r (and rayy_r); rank 0 then writes solution.json
 * listing every file. The directory is built as DIR.tmp.XXXXXX and renamed to DIR at
 * the end (see slp_shard_check_output_dir for when an existing DIR is replaced). Fails
 * on every rank if any rank fails. */
slp_err slp_shard_write_solution(const char *dir, slp_grid_t *grid, const slp_local_problem_t *lp,
                                 const slp_shard_solution_values_t *v);

slp_err slp_shard_read_solution_manifest(const char *dir, slp_shard_solution_manifest_t *out);
/* Read one slice: kind SLP_SHARD_SOL_X (block = c) or SLP_SHARD_SOL_Y (block = r).
 * *v1 and *v2 are allocated with *len entries each. */
slp_err slp_shard_read_solution_slice(const char *dir, const slp_shard_solution_manifest_t *man,
                                      int kind, int block, int64_t *len, double **v1,
                                      double **v2);

#endif
