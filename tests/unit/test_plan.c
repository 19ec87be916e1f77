/* The communication plan (src/plan). Expected values are hand-derived:
 *  - the hop model of hand-written participant masks (plan_model.h formulas);
 *  - on a synthetic block pattern whose participant sets are known in closed form
 *    (row i of row block r is present in column block c iff bit c of (i + r) mod 2^C;
 *    so every subset of the grid row occurs, the empty and the full one included),
 *    the dense and the support plan must give, on every participant, exactly the
 *    rank-ordered sum 0.0 + p_0 + p_1 + ... of the partials, and after a sync
 *    every replica must hold the owner's value.
 * Run plainly it uses a 1x1 grid (the single-process layer: every plan is dense);
 * tests/mpi/comm_support.sh also runs it under mpirun -np 4 on 1x4 and 2x2
 * (third argument). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "grid/comm.h"
#include "grid/grid.h"
#include "plan/comm_plan.h"
#include "plan/plan_model.h"

static slp_grid_t *grid;

static void test_model(void)
{
    slp_plan_tally_t t;
    memset(&t, 0, sizeof t);
    uint64_t masks[] = {0x0, 0x1, 0x6, 0xF, 0x8}; /* P = 4: empty, single, {1,2}, full, {3} */
    for (int k = 0; k < 5; k++)
        slp_plan_tally_add(&t, &masks[k], 1, 4);
    CHECK(t.dense_hops == 5 * 6, "dense %lld, expected 30 (5 coordinates x 2 (4-1))",
          (long long)t.dense_hops);
    CHECK(t.support_hops == 0 + 0 + 2 + 6 + 0, "support %lld, expected 8",
          (long long)t.support_hops);
    CHECK(t.sync_hops == 3 + 2 + 3, "sync %lld, expected 8", (long long)t.sync_hops);
    CHECK(t.empty == 1 && t.single == 2 && t.partial == 1 && t.full == 1, "kinds %lld %lld %lld %lld",
          (long long)t.empty, (long long)t.single, (long long)t.partial, (long long)t.full);
    uint64_t wide[2] = {0, (uint64_t)1 << 6}; /* P = 100: only rank 70 */
    CHECK(slp_plan_mask_lowest(wide, 2) == 70, "lowest %d", slp_plan_mask_lowest(wide, 2));
    CHECK(slp_plan_mask_count(wide, 2) == 1, "count %d", slp_plan_mask_count(wide, 2));
    CHECK(slp_plan_mask_words(64) == 1 && slp_plan_mask_words(65) == 2, "words");
    /* the count against one bit at a time, on words that fill every byte differently */
    uint64_t varied[6] = {~(uint64_t)0, (uint64_t)1 << 63, 0x8000000000000001ULL,
                          0x0123456789ABCDEFULL, 0xFF00FF00F0F0CCCCULL, 0x7FFFFFFFFFFFFFFEULL};
    for (int k = 0; k < 6; k++) {
        int bits = 0;
        for (int b = 0; b < 64; b++)
            bits += (int)((varied[k] >> b) & 1);
        CHECK(slp_plan_mask_count(&varied[k], 1) == bits, "count of %016llx: %d, expected %d",
              (unsigned long long)varied[k], slp_plan_mask_count(&varied[k], 1), bits);
    }
    CHECK(slp_plan_mask_count(varied, 6) == 64 + 1 + 2 + 32 + 32 + 62, "count of 6 words %d",
          slp_plan_mask_count(varied, 6));

    slp_plan_model_t m;
    memset(&m, 0, sizeof m);
    m.rows = t;
    m.cols.dense_hops = 10;
    m.cols.support_hops = 4;
    m.cols.sync_hops = 20;
    m.sync_interval = 100;
    m.row_vectors = 7;
    m.col_vectors = 9;
    CHECK_CLOSE(slp_plan_model_dense(&m), 40.0, 0);
    /* 8 + 4 legs, (7 * 8 + 9 * 20) / 100 = 2.36 sync */
    CHECK_CLOSE(slp_plan_model_support(&m), 14.36, 1e-15);
}

/* Row i (local) of row block r is in column block c iff bit c of (i + r) % 2^C;
 * its entry sits at local column (i + c) % n_loc. Columns get their own sets. */
#define M_LOC 19
#define N_LOC 7

static int row_present(int r, int c, int i) { return (((i + r) % (1 << grid->C)) >> c) & 1; }

static void make_block(slp_local_problem_t *lp)
{
    int r = grid->r, c = grid->c;
    int64_t nnz = 0;
    for (int i = 0; i < M_LOC; i++)
        nnz += row_present(r, c, i);
    memset(lp, 0, sizeof *lp);
    slp_local_problem_alloc(lp, grid->R, grid->C, M_LOC, N_LOC, nnz);
    lp->m = (int64_t)M_LOC * grid->R;
    lp->n = (int64_t)N_LOC * grid->C;
    lp->r = r;
    lp->c = c;
    int64_t k = 0;
    lp->A.row_ptr[0] = 0;
    for (int i = 0; i < M_LOC; i++) {
        if (row_present(r, c, i)) {
            lp->A.col_idx[k] = (i + c) % N_LOC;
            lp->A.val[k++] = 1.0;
        }
        lp->A.row_ptr[i + 1] = k;
    }
}

/* Column participation: column j of column block c is in row block r iff some
 * row i with row_present(r, c, i) has (i + c) % N_LOC == j. */
static int col_present(int r, int c, int j)
{
    for (int i = 0; i < M_LOC; i++)
        if (row_present(r, c, i) && (i + c) % N_LOC == j)
            return 1;
    return 0;
}

/* A partial value that depends on the rank and coordinate, inexact in binary. */
static double partial(int rank_in_group, int coord) { return 0.1 * (rank_in_group + 1) + 1e-3 * coord; }

static void test_exchange(const char *mode)
{
    slp_local_problem_t lp;
    make_block(&lp);
    slp_comm_plan_t *plan = NULL;
    slp_err rc = slp_plan_create(grid, &lp, mode, &plan);
    CHECK(rc == SLP_OK, "create %s: %s", mode, slp_error_message());
    if (rc != SLP_OK)
        return;
    int R = grid->R, C = grid->C, r = grid->r, c = grid->c;
    int support = slp_plan_is_support(plan);
    CHECK(support == (!strcmp(mode, "support") && grid->size > 1), "support flag %d", support);

    /* Row sums: participants' partials summed in rank order. */
    double v[M_LOC], expect[M_LOC], w[M_LOC];
    for (int i = 0; i < M_LOC; i++) {
        v[i] = row_present(r, c, i) ? partial(c, i) : 0.0;
        double acc = 0.0;
        for (int q = 0; q < C; q++)
            acc += row_present(r, q, i) ? partial(q, i) : 0.0;
        expect[i] = acc;
    }
    CHECK(slp_plan_sum_rows(plan, grid, v, M_LOC) == SLP_OK, "sum_rows: %s", slp_error_message());
    int bad = 0;
    for (int i = 0; i < M_LOC; i++)
        if ((!support || row_present(r, c, i)) && memcmp(&v[i], &expect[i], sizeof(double)))
            bad++;
    CHECK(bad == 0, "%s: %d row sums differ from the rank-ordered sum on rank (%d,%d)", mode, bad, r, c);

    /* Row sync: every replica gets the owner's value (NaN where not held). */
    for (int i = 0; i < M_LOC; i++) {
        int held = !support || row_present(r, c, i);
        int empty = 1;
        for (int q = 0; q < C; q++)
            empty = empty && !row_present(r, q, i);
        w[i] = held || empty ? 100.0 + i : NAN;
    }
    double *rows[] = {w, v};
    CHECK(slp_plan_sync_rows(plan, grid, rows, 2, M_LOC) == SLP_OK, "sync_rows");
    bad = 0;
    for (int i = 0; i < M_LOC; i++)
        if (w[i] != 100.0 + i || memcmp(&v[i], &expect[i], sizeof(double)))
            bad++;
    CHECK(bad == 0, "%s: %d rows wrong after sync on rank (%d,%d)", mode, bad, r, c);

    /* Column sums over the grid column. */
    double u[N_LOC], cexp[N_LOC];
    for (int j = 0; j < N_LOC; j++) {
        u[j] = col_present(r, c, j) ? partial(r, j) : 0.0;
        double acc = 0.0;
        for (int q = 0; q < R; q++)
            acc += col_present(q, c, j) ? partial(q, j) : 0.0;
        cexp[j] = acc;
    }
    CHECK(slp_plan_sum_cols(plan, grid, u, N_LOC) == SLP_OK, "sum_cols");
    double *cols[] = {u};
    CHECK(slp_plan_sync_cols(plan, grid, cols, 1, N_LOC) == SLP_OK, "sync_cols");
    bad = 0;
    for (int j = 0; j < N_LOC; j++)
        if (memcmp(&u[j], &cexp[j], sizeof(double)))
            bad++;
    CHECK(bad == 0, "%s: %d column sums wrong after sync on rank (%d,%d)", mode, bad, r, c);

    /* The model: dense hops as in shard_plan.c's formula; support from the closed-form sets. */
    double dense = 0, mine = 0;
    CHECK(slp_plan_hops(plan, grid, &lp, &dense, &mine) == SLP_OK, "hops");
    double want_dense = 2.0 * (C - 1) * (double)lp.m + 2.0 * (R - 1) * (double)lp.n;
    CHECK_CLOSE(dense, want_dense, 0);
    const slp_plan_model_t *model = slp_plan_model(plan);
    int64_t legs = 0, sync = 0;
    for (int rb = 0; rb < R; rb++)
        for (int i = 0; i < M_LOC; i++) {
            int k = 0;
            for (int q = 0; q < C; q++)
                k += row_present(rb, q, i);
            legs += k ? 2 * (k - 1) : 0;
            sync += k && k < C ? C - k : 0;
        }
    CHECK(model && model->rows.support_hops == legs && model->rows.sync_hops == sync,
          "row model legs %lld sync %lld, expected %lld %lld",
          model ? (long long)model->rows.support_hops : -1LL,
          model ? (long long)model->rows.sync_hops : -1LL, (long long)legs, (long long)sync);
    if (support)
        CHECK(mine <= dense, "support hops %g > dense %g", mine, dense);
    else
        CHECK(mine == dense, "dense plan hops %g != %g", mine, dense);
    CHECK(slp_plan_sum_calls(plan) == 2 && slp_plan_sync_calls(plan) == 2, "call counts");
    CHECK(slp_plan_comm_seconds(plan) >= 0.0, "comm seconds");
    slp_plan_destroy(&plan);
    CHECK(plan == NULL, "destroy");
    slp_local_problem_free(&lp);
}

int main(int argc, char **argv)
{
    if (slp_comm_init(&argc, &argv, 0) != SLP_OK) {
        fprintf(stderr, "comm init: %s\n", slp_error_message());
        return 2;
    }
    int P = slp_comm_size(slp_comm_world()), R = 1, C = 1;
    if (argc > 3)
        slp_grid_parse(argv[3], &R, &C);
    else
        slp_grid_default_shape(P, &R, &C);
    if (slp_grid_create(R, C, &grid) != SLP_OK) {
        fprintf(stderr, "grid: %s\n", slp_error_message());
        slp_comm_finalize();
        return 2;
    }
    test_model();
    test_exchange("dense");
    test_exchange("support");
    slp_comm_plan_t *plan = NULL;
    slp_local_problem_t lp;
    make_block(&lp);
    CHECK(slp_plan_create(grid, &lp, "sparse", &plan) == SLP_ERR_INPUT && !plan, "bad mode");
    slp_local_problem_free(&lp);
    slp_plan_destroy(NULL);
    /* every rank must agree that it passed */
    int64_t failed = check_failed;
    slp_comm_sum_i64(slp_comm_world(), &failed, 1);
    int rc = grid->rank == 0 ? check_summary() : 0;
    if (failed && !check_failed)
        rc = 1;
    slp_grid_destroy(&grid);
    slp_comm_finalize();
    return failed ? 1 : rc;
}
