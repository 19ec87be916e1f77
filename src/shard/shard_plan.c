/* Sizing: bytes per rank, the dense communication model, and the automatic grid. */
#include "shard_internal.h"

#include "backend/cpu/cpu_block.h"
#include "core/log.h"

#include <stdlib.h>
#include <string.h>

static void rank_bytes(int64_t m_loc, int64_t n_loc, int64_t nnz, int64_t *matrix, int64_t *vectors)
{
    *matrix = (m_loc + 1) * 8 + nnz * 12;
    *vectors = 24 * n_loc + 16 * m_loc;
}

void slp_shard_rank_bytes(const slp_shard_manifest_t *man, int r, int c, int64_t *matrix_bytes,
                          int64_t *vector_bytes)
{
    rank_bytes(man->row_off[r + 1] - man->row_off[r], man->col_off[c + 1] - man->col_off[c],
               man->block_nnz[(int64_t)r * man->C + c], matrix_bytes, vector_bytes);
}

void slp_shard_dense_hops(int64_t m, int64_t n, int R, int C, int64_t *ax_hops, int64_t *aty_hops)
{
    /* Sum over the R row_comms of 2 (C-1) m_r = 2 (C-1) m; likewise for the columns. */
    *ax_hops = 2 * (int64_t)(C - 1) * m;
    *aty_hops = 2 * (int64_t)(R - 1) * n;
}

/* Candidates of one pass: block nonzero counts for several grids at once. */
typedef struct cand {
    int R, C;
    int64_t *row_off, *col_off, *nnz; /* [R+1], [C+1], [R*C] */
} cand_t;

typedef struct batch {
    cand_t *cand;
    int count;
} batch_t;

static slp_err batch_entry(void *user, int64_t i, int64_t j, double v)
{
    batch_t *b = user;
    (void)v;
    for (int k = 0; k < b->count; k++) {
        cand_t *cd = &b->cand[k];
        int r = slp_block_of(cd->row_off, cd->R, i), c = slp_block_of(cd->col_off, cd->C, j);
        cd->nnz[(int64_t)r * cd->C + c]++;
    }
    return SLP_OK;
}

/* Largest per-rank bytes of a candidate from its block counts. */
static int64_t cand_max_bytes(const cand_t *cd)
{
    int64_t worst = 0;
    for (int r = 0; r < cd->R; r++)
        for (int c = 0; c < cd->C; c++) {
            int64_t mat, vec;
            rank_bytes(cd->row_off[r + 1] - cd->row_off[r], cd->col_off[c + 1] - cd->col_off[c],
                       cd->nnz[(int64_t)r * cd->C + c], &mat, &vec);
            if (mat + vec > worst)
                worst = mat + vec;
        }
    return worst;
}

/* The solve's peak on one rank from shards (docs/memory.md "The model"): the largest of
 * its phases, each a count of the arrays alive in it (8 bytes per element, 12 per
 * stored entry), plus the process's own memory: 16 MiB for a rank of Open MPI (the
 * binary, its libraries, the runtime's buffers; 7 MiB without a launcher).
 *   presolve  the block as read (A_rc, 3 column and 2 row vectors), presolve's working
 *             arrays and record: 51 bytes per column (4 of them the costs' rounding
 *             scale, presolve_internal.h costmag) and 110 per row;
 *   scaling   A_rc and its transpose, the block's vectors, and the scaling's factors and
 *             statistics: 1 vector of the long side (3 when other ranks share its lines),
 *             5 of the short side;
 *   loop      the block's copies the CPU backend keeps (cpu_block.h) and the state: 10
 *             column and 9 row vectors.
 * Column fixing (verdict/fixing.h) holds a copy of the presolved block and slices from
 * before scaling to the end (12 bytes per entry, 24 per column and 16 per row, and 8
 * for the row pointers) and 10 bytes of its own per column: 12 nnz + 34 n + 24 m more
 * in the scaling and loop phases.
 * With --block-copies rows no transpose exists: A_rc alone in the scaling and the loop.
 * Not in the model: the doubleton pass's 80 bytes more per row when some row is a
 * doubleton equation (and 32 per column while it eliminates), and presolve's removed
 * entries, 12 bytes each (and 16 per run of a row's), held through the solve: the block
 * gives back their room as presolve removes them, and holds that many fewer. */
#define SOLVER_PROCESS_BYTES (16 << 20)
#define SOLVER_STATE_COLS 10
#define SOLVER_STATE_ROWS 9

int64_t slp_shard_solver_bytes(int64_t m_loc, int64_t n_loc, int64_t nnz_rc, int fixing,
                               int copies)
{
    int rows_only = copies == SLP_COPIES_ROWS;
    int64_t fixing_copy = fixing ? 12 * nnz_rc + 34 * n_loc + 24 * m_loc : 0;
    int64_t a = 12 * nnz_rc + 8 * (m_loc + 1);
    int64_t at = rows_only ? 0 : 12 * nnz_rc + 8 * (n_loc + 1);
    int64_t block_vectors = 8 * (3 * n_loc + 2 * m_loc);
    int64_t presolve = a + block_vectors + 51 * n_loc + 110 * m_loc;
    int64_t longer = m_loc > n_loc ? m_loc : n_loc, shorter = m_loc > n_loc ? n_loc : m_loc;
    int64_t scaling = a + at + block_vectors + 8 * (longer + 5 * shorter) + fixing_copy;
    slp_block_layout layout = slp_cpu_block_layout_asked(copies, m_loc, n_loc, nnz_rc, 1);
    int64_t ptr = nnz_rc <= (int64_t)UINT32_MAX ? 4 : 8; /* the block's line pointers */
    int64_t a_kept = 12 * nnz_rc + ptr * (m_loc + 1), at_kept = 12 * nnz_rc + ptr * (n_loc + 1);
    int64_t kept = layout == SLP_BLOCK_BOTH  ? a_kept + at_kept
                   : layout == SLP_BLOCK_COLS ? at_kept
                                              : a_kept;
    int64_t loop = kept + 8 * (SOLVER_STATE_COLS * n_loc + SOLVER_STATE_ROWS * m_loc) +
                   fixing_copy;
    int64_t peak = presolve > scaling ? presolve : scaling;
    return SOLVER_PROCESS_BYTES + (loop > peak ? loop : peak);
}

int64_t slp_shard_grid_solver_bytes(int R, int C, const int64_t *row_off, const int64_t *col_off,
                                    const int64_t *block_nnz, int copies)
{
    int64_t worst = 0;
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            int64_t b = slp_shard_solver_bytes(row_off[r + 1] - row_off[r],
                                               col_off[c + 1] - col_off[c],
                                               block_nnz[(int64_t)r * C + c], 0, copies);
            worst = b > worst ? b : worst;
        }
    return worst;
}

static int64_t cand_solver_bytes(const cand_t *cd)
{
    return slp_shard_grid_solver_bytes(cd->R, cd->C, cd->row_off, cd->col_off, cd->nnz,
                                       SLP_COPIES_AUTO);
}

static void cand_free(cand_t *cd)
{
    free(cd->row_off);
    free(cd->col_off);
    free(cd->nnz);
    memset(cd, 0, sizeof *cd);
}

/* Candidate R x C with balanced cuts and zeroed block counts. */
static slp_err cand_init(cand_t *cd, int R, int C, int64_t m, int64_t n, const int64_t *row_nnz,
                         const int64_t *col_nnz)
{
    memset(cd, 0, sizeof *cd);
    cd->R = R;
    cd->C = C;
    cd->row_off = slp_malloc((size_t)(R + 1) * sizeof(int64_t));
    cd->col_off = slp_malloc((size_t)(C + 1) * sizeof(int64_t));
    cd->nnz = slp_calloc((size_t)R * (size_t)C, sizeof(int64_t));
    if (!cd->row_off || !cd->col_off || !cd->nnz) {
        cand_free(cd);
        return SLP_ERR_NOMEM;
    }
    slp_balanced_cuts(row_nnz, m, R, cd->row_off);
    slp_balanced_cuts(col_nnz, n, C, cd->col_off);
    return SLP_OK;
}

#define SLP_MAX_AUTO_RANKS 65536
#define SLP_BATCH 16

slp_err slp_shard_pick_grid(const slp_shard_source_t *src, int64_t m, int64_t n,
                            const int64_t *row_nnz, const int64_t *col_nnz, int64_t mem_per_rank,
                            int *R_out, int *C_out, int64_t *max_rank_bytes)
{
    int64_t nnz = 0;
    for (int64_t i = 0; i < m; i++)
        nnz += row_nnz[i];
    for (int P = 1; P <= SLP_MAX_AUTO_RANKS; P++) {
        /* Every factorisation, most square first, R <= C before R > C. */
        cand_t cand[SLP_BATCH];
        int count = 0;
        for (int d = 1; d * d <= P; d++) {
            if (P % d)
                continue;
            int pairs[2][2] = {{d, P / d}, {P / d, d}};
            for (int s = 0; s < (d * d == P ? 1 : 2); s++) {
                int R = pairs[s][0], C = pairs[s][1];
                if ((R > 1 && R > m) || (C > 1 && C > n) || count == SLP_BATCH)
                    continue;
                if (cand_init(&cand[count], R, C, m, n, row_nnz, col_nnz) != SLP_OK) {
                    for (int k = 0; k < count; k++)
                        cand_free(&cand[k]);
                    return SLP_ERR_NOMEM;
                }
                count++;
            }
        }
        /* Cheap bounds first: the block of (r, c) has at most min(nnz of row block r,
         * nnz of column block c) entries and the largest has at least nnz / P. */
        int any = 0;
        for (int k = 0; k < count; k++) {
            cand_t *cd = &cand[k];
            int64_t lb_vec = 0;
            for (int r = 0; r < cd->R; r++)
                for (int c = 0; c < cd->C; c++) {
                    int64_t mat, vec;
                    rank_bytes(cd->row_off[r + 1] - cd->row_off[r],
                               cd->col_off[c + 1] - cd->col_off[c], 0, &mat, &vec);
                    if (mat + vec > lb_vec)
                        lb_vec = mat + vec;
                }
            if (lb_vec + (nnz + P - 1) / P * 12 <= mem_per_rank)
                any = 1;
        }
        slp_err rc = SLP_OK;
        if (any) {
            batch_t b = {cand, count};
            rc = src->scan(src->ctx, batch_entry, &b, NULL);
        }
        int pick = -1;
        int64_t pick_bytes = 0;
        for (int k = 0; rc == SLP_OK && any && k < count && pick < 0; k++) {
            int64_t bytes = cand_max_bytes(&cand[k]);
            if (bytes <= mem_per_rank) {
                pick = k;
                pick_bytes = bytes;
            }
        }
        if (pick >= 0) {
            *R_out = cand[pick].R;
            *C_out = cand[pick].C;
            if (max_rank_bytes)
                *max_rank_bytes = pick_bytes;
        }
        for (int k = 0; k < count; k++)
            cand_free(&cand[k]);
        SLP_CALL(rc);
        if (pick >= 0)
            return SLP_OK;
        if (P >= m * n && P > 1)
            break;
    }
    return slp_error(SLP_ERR_INPUT,
                     "no grid of up to %d ranks fits %lld bytes per rank (m = %lld, n = %lld, "
                     "nnz = %lld); raise --mem-per-rank",
                     SLP_MAX_AUTO_RANKS, (long long)mem_per_rank, (long long)m, (long long)n,
                     (long long)nnz);
}

/* Better: smaller largest peak, then fewer hops. */
static int better(const slp_grid_choice_t *a, const slp_grid_choice_t *b)
{
    if (a->max_rank_bytes != b->max_rank_bytes)
        return a->max_rank_bytes < b->max_rank_bytes;
    return a->dense_hops < b->dense_hops;
}

slp_err slp_shard_pick_grid_ranks(const slp_shard_source_t *src, int64_t m, int64_t n,
                                  const int64_t *row_nnz, const int64_t *col_nnz, int P,
                                  int *R_out, int *C_out, slp_grid_choice_t **choices,
                                  int *nchoices)
{
    if (P < 1 || P > SLP_MAX_AUTO_RANKS)
        return slp_error(SLP_ERR_INPUT, "grid auto: %d ranks, the automatic choice takes 1..%d",
                         P, SLP_MAX_AUTO_RANKS);
    int total = 0, pairs[2 * 512][2];
    for (int d = 1; d <= P && total < 2 * 512; d++)
        if (P % d == 0 && (d <= 1 || d <= m) && (P / d <= 1 || P / d <= n)) {
            pairs[total][0] = d;
            pairs[total][1] = P / d;
            total++;
        }
    if (total == 0)
        return slp_error(SLP_ERR_INPUT, "no grid of %d ranks fits a %lld x %lld model", P,
                         (long long)m, (long long)n);
    slp_grid_choice_t *all = slp_calloc((size_t)total, sizeof *all);
    if (!all)
        return SLP_ERR_NOMEM;
    slp_err rc = SLP_OK;
    for (int first = 0; rc == SLP_OK && first < total; first += SLP_BATCH) {
        cand_t cand[SLP_BATCH];
        int count = 0;
        for (int k = first; rc == SLP_OK && k < total && count < SLP_BATCH; k++, count++)
            rc = cand_init(&cand[count], pairs[k][0], pairs[k][1], m, n, row_nnz, col_nnz);
        batch_t b = {cand, count};
        if (rc == SLP_OK)
            rc = src->scan(src->ctx, batch_entry, &b, NULL);
        for (int k = 0; k < count; k++) {
            slp_grid_choice_t *ch = &all[first + k];
            int64_t ax, aty;
            ch->R = cand[k].R;
            ch->C = cand[k].C;
            ch->max_rank_bytes = rc == SLP_OK ? cand_solver_bytes(&cand[k]) : 0;
            slp_shard_dense_hops(m, n, ch->R, ch->C, &ax, &aty);
            ch->dense_hops = ax + aty;
            cand_free(&cand[k]);
        }
    }
    if (rc != SLP_OK) {
        free(all);
        return rc;
    }
    int best = 0;
    for (int k = 1; k < total; k++)
        if (better(&all[k], &all[best]))
            best = k;
    *R_out = all[best].R;
    *C_out = all[best].C;
    if (choices) {
        *choices = all;
        *nchoices = total;
    } else {
        free(all);
    }
    return SLP_OK;
}

void slp_grid_choices_log(const slp_grid_choice_t *all, int count, int ranks, int R, int C)
{
    slp_log("grid auto for %d rank%s (modelled solver peak of the largest rank, docs/memory.md):\n",
            ranks, ranks == 1 ? "" : "s");
    for (int k = 0; k < count; k++)
        slp_log("  %dx%-6d %14lld bytes (%.1f MiB)   %lld hops per iteration%s\n", all[k].R,
                all[k].C, (long long)all[k].max_rank_bytes,
                (double)all[k].max_rank_bytes / (1024.0 * 1024.0), (long long)all[k].dense_hops,
                all[k].R == R && all[k].C == C ? "   <- picked" : "");
}

slp_err slp_shard_pick_grid_ranks_logged(const slp_shard_source_t *src, int64_t m, int64_t n,
                                         const int64_t *row_nnz, const int64_t *col_nnz, int P,
                                         int *R, int *C)
{
    slp_grid_choice_t *all = NULL;
    int count = 0;
    SLP_CALL(slp_shard_pick_grid_ranks(src, m, n, row_nnz, col_nnz, P, R, C, &all, &count));
    slp_grid_choices_log(all, count, P, *R, *C);
    free(all);
    return SLP_OK;
}

/* ---- the alternatives of a shard directory ----------------------------------------- */

typedef struct dir_scan {
    const char *dir;
    const slp_shard_manifest_t *man;
} dir_scan_t;

/* A source over a shard directory's blocks, read one at a time (pattern and values;
 * no skeleton). */
static slp_err scan_blocks(void *ctx, slp_shard_entry_fn entry, void *user, slp_model_t **skeleton)
{
    const dir_scan_t *d = ctx;
    if (skeleton)
        *skeleton = NULL;
    for (int r = 0; r < d->man->R; r++)
        for (int c = 0; c < d->man->C; c++) {
            slp_local_problem_t lp;
            SLP_CALL(slp_shard_read_block(d->dir, d->man, r, c, &lp));
            slp_err rc = SLP_OK;
            for (int64_t i = 0; rc == SLP_OK && i < lp.A.rows; i++)
                for (int64_t k = lp.A.row_ptr[i]; rc == SLP_OK && k < lp.A.row_ptr[i + 1]; k++)
                    rc = entry(user, d->man->row_off[r] + i, d->man->col_off[c] + lp.A.col_idx[k],
                               lp.A.val[k]);
            slp_local_problem_free(&lp);
            SLP_CALL(rc);
        }
    return SLP_OK;
}

static slp_err count_nnz(void *user, int64_t i, int64_t j, double v)
{
    int64_t **counts = user;
    (void)v;
    counts[0][i]++;
    counts[1][j]++;
    return SLP_OK;
}

slp_err slp_shard_dir_grid_choices(const char *dir, const slp_shard_manifest_t *man, int P,
                                   int *R, int *C, slp_grid_choice_t **choices, int *nchoices)
{
    dir_scan_t d = {dir, man};
    slp_shard_source_t src = {&d, scan_blocks, dir, 1};
    int64_t *counts[2] = {slp_calloc((size_t)man->m + 1, sizeof(int64_t)),
                          slp_calloc((size_t)man->n + 1, sizeof(int64_t))};
    slp_err rc = counts[0] && counts[1] ? SLP_OK : SLP_ERR_NOMEM;
    if (rc == SLP_OK)
        rc = scan_blocks(&d, count_nnz, counts, NULL);
    if (rc == SLP_OK)
        rc = slp_shard_pick_grid_ranks(&src, man->m, man->n, counts[0], counts[1], P, R, C,
                                       choices, nchoices);
    free(counts[0]);
    free(counts[1]);
    return rc;
}
