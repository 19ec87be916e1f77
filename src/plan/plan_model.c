/* Participant masks and the logical scalar-hop model (plan_model.h). */
#include "plan/plan_model.h"

#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/comm_mpi.h"
#include "grid/reduce.h"

/* The set bits of a word, inline: without -mpopcnt (not in baseline x86-64)
 * __builtin_popcountll is a call into libgcc: 3% of rank 0's CPU samples in a 2x2 run
 * on the 853.7 MB mcf of docs/parallel-input.md (this model counts a mask per line). */
static int bits_set(uint64_t v)
{
    v = v - ((v >> 1) & 0x5555555555555555ULL);
    v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
    v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((v * 0x0101010101010101ULL) >> 56);
}

int slp_plan_mask_count(const uint64_t *mask, int words)
{
    int k = 0;
    for (int w = 0; w < words; w++)
        k += bits_set(mask[w]);
    return k;
}

int slp_plan_mask_lowest(const uint64_t *mask, int words)
{
    for (int w = 0; w < words; w++)
        if (mask[w])
            return 64 * w + __builtin_ctzll(mask[w]);
    return -1;
}

void slp_plan_tally_add(slp_plan_tally_t *t, const uint64_t *mask, int words, int P)
{
    int k = slp_plan_mask_count(mask, words);
    t->dense_hops += 2 * (int64_t)(P - 1);
    if (k == 0) {
        t->empty++;
        return;
    }
    t->support_hops += 2 * (int64_t)(k - 1);
    if (k < P)
        t->sync_hops += P - k;
    if (k == P)
        t->full++;
    else if (k == 1)
        t->single++;
    else
        t->partial++;
}

static double amortised_sync(const slp_plan_model_t *m)
{
    int interval = m->sync_interval > 0 ? m->sync_interval : SLP_PLAN_SYNC_INTERVAL;
    return ((double)m->row_vectors * (double)m->rows.sync_hops +
            (double)m->col_vectors * (double)m->cols.sync_hops) /
           (double)interval;
}

double slp_plan_model_dense(const slp_plan_model_t *m)
{
    return (double)(m->rows.dense_hops + m->cols.dense_hops);
}

double slp_plan_model_support(const slp_plan_model_t *m)
{
    return (double)(m->rows.support_hops + m->cols.support_hops) + amortised_sync(m);
}

void slp_plan_model_print(const slp_plan_model_t *m, const char *indent)
{
    const slp_plan_tally_t *t[2] = {&m->rows, &m->cols};
    const char *what[2] = {"rows (A x over row_comm)   ", "columns (A^T y over col_comm)"};
    for (int d = 0; d < 2; d++)
    {
        char buckets[48] = "";
        if (t[d]->buckets > 0)
            snprintf(buckets, sizeof buckets, " in %lld buckets", (long long)t[d]->buckets);
        printf("%s%s: dense %lld, support %lld legs + %lld per sync; coordinates empty %lld, "
               "single %lld, partial %lld%s, full %lld\n",
               indent, what[d], (long long)t[d]->dense_hops, (long long)t[d]->support_hops,
               (long long)t[d]->sync_hops, (long long)t[d]->empty, (long long)t[d]->single,
               (long long)t[d]->partial, buckets, (long long)t[d]->full);
    }
}

/* ---------------------------------------------------------------- masks */

static int mask_words_cmp_w; /* words of the masks being sorted (qsort has no context) */

static int mask_cmp(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    for (int w = 0; w < mask_words_cmp_w; w++)
        if (x[w] != y[w])
            return x[w] < y[w] ? -1 : 1;
    return 0;
}

/* Distinct participant sets of the partial buckets (2 <= k < P). */
static slp_err count_buckets(const uint64_t *masks, int64_t len, int words, int P, int64_t *out)
{
    *out = 0;
    uint64_t *copy = NULL;
    int64_t kept = 0;
    SLP_CALL(slp_alloc(&copy, (size_t)(len * words) + 1, sizeof(uint64_t)));
    for (int64_t i = 0; i < len; i++)
        if (slp_plan_mask_count(masks + i * words, words) >= 2 &&
            slp_plan_mask_count(masks + i * words, words) < P)
            memcpy(copy + (kept++) * words, masks + i * words, (size_t)words * sizeof(uint64_t));
    mask_words_cmp_w = words;
    qsort(copy, (size_t)kept, (size_t)words * sizeof(uint64_t), mask_cmp);
    for (int64_t i = 0; i < kept; i++)
        if (i == 0 || mask_cmp(copy + i * words, copy + (i - 1) * words) != 0)
            (*out)++;
    free(copy);
    return SLP_OK;
}

/* Tallies travel as doubles (counts stay far below 2^53, so exactly). */
#define SLP_TALLY_FIELDS 8

static void tally_pack(const slp_plan_tally_t *t, double *v)
{
    const int64_t f[SLP_TALLY_FIELDS] = {t->dense_hops, t->support_hops, t->sync_hops, t->empty,
                                         t->single,     t->partial,      t->full,      t->buckets};
    for (int k = 0; k < SLP_TALLY_FIELDS; k++)
        v[k] = (double)f[k];
}

static void tally_unpack(const double *v, slp_plan_tally_t *t)
{
    int64_t *f[SLP_TALLY_FIELDS] = {&t->dense_hops, &t->support_hops, &t->sync_hops, &t->empty,
                                    &t->single,     &t->partial,      &t->full,      &t->buckets};
    for (int k = 0; k < SLP_TALLY_FIELDS; k++)
        *f[k] = (int64_t)v[k];
}

/* OR the masks over the group (each rank set only its own bit). */
static slp_err or_masks(slp_comm_t *comm, uint64_t *masks, int64_t count)
{
    MPI_Comm mpi = slp_comm_mpi(comm);
    if (mpi == MPI_COMM_NULL || slp_comm_size(comm) == 1)
        return SLP_OK;
    for (int64_t done = 0; done < count;) {
        int chunk = (int)(count - done < (1 << 28) ? count - done : (1 << 28));
        if (MPI_Allreduce(MPI_IN_PLACE, masks + done, chunk, MPI_UINT64_T, MPI_BOR, mpi) !=
            MPI_SUCCESS)
            return slp_error(SLP_ERR_MPI, "MPI_Allreduce(participant masks) failed");
        done += chunk;
    }
    return SLP_OK;
}

slp_err slp_plan_model_local(slp_grid_t *grid, const slp_local_problem_t *lp,
                             slp_plan_model_t *out, uint64_t **masks_rows,
                             uint64_t **masks_cols)
{
    memset(out, 0, sizeof *out);
    out->sync_interval = SLP_PLAN_SYNC_INTERVAL;
    out->row_vectors = SLP_PLAN_ROW_VECTORS;
    out->col_vectors = SLP_PLAN_COL_VECTORS;
    int C = grid->C, R = grid->R;
    int wc = slp_plan_mask_words(C), wr = slp_plan_mask_words(R);
    int64_t m = lp->A.rows, n = lp->A.cols;
    uint64_t *rm = NULL, *cm = NULL;
    slp_err rc = slp_alloc(&rm, (size_t)(m * wc) + 1, sizeof(uint64_t));
    if (rc == SLP_OK)
        rc = slp_alloc(&cm, (size_t)(n * wr) + 1, sizeof(uint64_t));
    if (rc == SLP_OK) {
        memset(rm, 0, (size_t)(m * wc) * sizeof(uint64_t));
        memset(cm, 0, (size_t)(n * wr) * sizeof(uint64_t));
        uint64_t rbit = (uint64_t)1 << (grid->c % 64), cbit = (uint64_t)1 << (grid->r % 64);
        for (int64_t i = 0; i < m; i++) {
            for (int64_t k = lp->A.row_ptr[i]; k < lp->A.row_ptr[i + 1]; k++)
                cm[(int64_t)lp->A.col_idx[k] * wr + grid->r / 64] |= cbit;
            if (lp->A.row_ptr[i + 1] > lp->A.row_ptr[i])
                rm[i * wc + grid->c / 64] |= rbit;
        }
        rc = or_masks(grid->row_comm, rm, m * wc);
    }
    if (rc == SLP_OK)
        rc = or_masks(grid->col_comm, cm, n * wr);
    /* Row masks are replicated across the grid row: grid column 0 tallies them;
     * column masks are tallied by grid row 0. */
    if (rc == SLP_OK && grid->c == 0) {
        for (int64_t i = 0; i < m; i++)
            slp_plan_tally_add(&out->rows, rm + i * wc, wc, C);
        rc = count_buckets(rm, m, wc, C, &out->rows.buckets);
    }
    if (rc == SLP_OK && grid->r == 0) {
        for (int64_t j = 0; j < n; j++)
            slp_plan_tally_add(&out->cols, cm + j * wr, wr, R);
        rc = count_buckets(cm, n, wr, R, &out->cols.buckets);
    }
    rc = slp_comm_agree(grid->world, rc);
    if (rc == SLP_OK) {
        double row[SLP_TALLY_FIELDS], col[SLP_TALLY_FIELDS];
        tally_pack(&out->rows, row);
        tally_pack(&out->cols, col);
        rc = slp_reduce_sums(grid, col, SLP_TALLY_FIELDS, row, SLP_TALLY_FIELDS);
        tally_unpack(row, &out->rows);
        tally_unpack(col, &out->cols);
    }
    if (rc == SLP_OK && masks_rows) {
        *masks_rows = rm;
        rm = NULL;
    }
    if (rc == SLP_OK && masks_cols) {
        *masks_cols = cm;
        cm = NULL;
    }
    free(rm);
    free(cm);
    return rc;
}
