/* Generators (src/gen): size formulas against the generated LPs and the three published
 * mcf members (computed in int64, values from the issue / the SHARDLP paper: MCF13.60B has
 * 13,603,420,000 columns and 40,806,820,000 nonzeros); closed-form row and column counts
 * and cuts against counts taken from the built model; shards written on 1x1, 2x2 and 1x3
 * read back block by block and compared exactly with the LP read back from the MPS file;
 * design-match's zero-equality singleton rows; --scale benchmark; bad parameters. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "gen/gen.h"
#include "grid/comm.h"
#include "io/mps.h"
#include "shard/shard.h"

static char base[256];

static void published_sizes(void)
{
    struct { int64_t K, F, W, S, n, nnz; } pub[3] = {
        {5000, 5, 100, 250, 127500100LL, 257500100LL},
        {8303, 1000, 1000, 5, 8344516000LL, 24992031000LL},
        {34, 20000, 20000, 5, 13603420000LL, 40806820000LL},
    };
    for (int k = 0; k < 3; k++) {
        int64_t p[4] = {pub[k].K, pub[k].F, pub[k].W, pub[k].S}, m, n, nnz;
        CHECK(slp_gen_sizes(SLP_GEN_MCF, p, &m, &n, &nnz) == SLP_OK, "sizes %d", k);
        CHECK(n == pub[k].n, "member %d: %lld columns, expected %lld", k, (long long)n,
              (long long)pub[k].n);
        CHECK(nnz == pub[k].nnz, "member %d: %lld nonzeros, expected %lld", k, (long long)nnz,
              (long long)pub[k].nnz);
        int64_t rows = p[0] * p[1] + p[2] + p[0] * p[2] + p[0] * p[3];
        CHECK(m == rows, "member %d rows %lld", k, (long long)m);
    }
    /* Overflow is an error, not a wrap-around. */
    int64_t huge[4] = {1LL << 40, 1LL << 20, 1LL << 20, 5}, m, n, nnz;
    CHECK(slp_gen_sizes(SLP_GEN_MCF, huge, &m, &n, &nnz) == SLP_ERR_INPUT, "overflow accepted");
    slp_error_clear();
}

/* Row / column counts and cuts from the closed forms against the built model. */
static void check_counts(const slp_gen_t *g, const slp_model_t *model)
{
    CHECK(model->m == g->m && model->n == g->n && model->nnz == g->nnz,
          "%s: model %lld x %lld (%lld nnz), formula %lld x %lld (%lld)", slp_gen_kind_name(g->kind),
          (long long)model->m, (long long)model->n, (long long)model->nnz, (long long)g->m,
          (long long)g->n, (long long)g->nnz);
    int64_t *rc = calloc((size_t)model->m, sizeof(int64_t));
    int64_t *cc = calloc((size_t)model->n, sizeof(int64_t));
    for (int64_t j = 0; j < model->n; j++) {
        cc[j] = model->col_ptr[j + 1] - model->col_ptr[j];
        for (int64_t k = model->col_ptr[j]; k < model->col_ptr[j + 1]; k++) {
            rc[model->row_idx[k]]++;
            if (k > model->col_ptr[j])
                CHECK(model->row_idx[k] > model->row_idx[k - 1], "unsorted column %lld", (long long)j);
        }
    }
    int bad_r = 0, bad_c = 0;
    for (int64_t i = 0; i < model->m; i++)
        bad_r += rc[i] != slp_gen_row_nnz(g, i);
    for (int64_t j = 0; j < model->n; j++)
        bad_c += cc[j] != slp_gen_col_nnz(g, j);
    CHECK(bad_r == 0 && bad_c == 0, "%s: %d row and %d column counts differ from the formulas",
          slp_gen_kind_name(g->kind), bad_r, bad_c);
    for (int parts = 1; parts <= 5; parts++) {
        int64_t a[6], b[6];
        slp_balanced_cuts(rc, model->m, parts, a);
        slp_gen_cuts(g, 1, parts, b);
        CHECK(!memcmp(a, b, sizeof(int64_t) * (size_t)(parts + 1)), "row cuts differ, %d parts", parts);
        slp_balanced_cuts(cc, model->n, parts, a);
        slp_gen_cuts(g, 0, parts, b);
        CHECK(!memcmp(a, b, sizeof(int64_t) * (size_t)(parts + 1)), "col cuts differ, %d parts", parts);
    }
    free(rc);
    free(cc);
}

static int same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Every block of DIR against the model (entries, bounds and objective bit-exact). */
static void compare_shards(const char *dir, const slp_model_t *model, int R, int C)
{
    slp_shard_manifest_t man;
    if (slp_shard_read_manifest(dir, &man) != SLP_OK) {
        CHECK(0, "%s: %s", dir, slp_error_message());
        slp_error_clear();
        return;
    }
    CHECK(man.R == R && man.C == C && man.m == model->m && man.n == model->n &&
              man.nnz == model->nnz, "%s: manifest sizes", dir);
    int64_t seen = 0;
    int mismatches = 0;
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            slp_local_problem_t lp;
            memset(&lp, 0, sizeof lp);
            if (slp_shard_read_block(dir, &man, r, c, &lp) != SLP_OK) {
                CHECK(0, "%s block %d,%d: %s", dir, r, c, slp_error_message());
                slp_error_clear();
                continue;
            }
            for (int64_t i = 0; i < lp.m_loc; i++) {
                int64_t gi = lp.row_lo + i;
                mismatches += !same_double(lp.lc[i], model->lc[gi]) || !same_double(lp.uc[i], model->uc[gi]);
                for (int64_t k = lp.A.row_ptr[i]; k < lp.A.row_ptr[i + 1]; k++) {
                    int64_t gj = lp.col_lo + lp.A.col_idx[k];
                    int found = 0;
                    for (int64_t q = model->col_ptr[gj]; q < model->col_ptr[gj + 1]; q++)
                        if (model->row_idx[q] == gi)
                            found = same_double(model->val[q], lp.A.val[k]);
                    mismatches += !found;
                    seen++;
                }
            }
            for (int64_t j = 0; j < lp.n_loc; j++) {
                int64_t gj = lp.col_lo + j;
                mismatches += !same_double(lp.obj[j], model->c[gj]) ||
                              !same_double(lp.lv[j], model->lv[gj]) ||
                              !same_double(lp.uv[j], model->uv[gj]);
            }
            slp_local_problem_free(&lp);
        }
    CHECK(mismatches == 0, "%s: %d entries or bounds differ from the MPS model", dir, mismatches);
    CHECK(seen == model->nnz, "%s: blocks hold %lld entries, MPS %lld", dir, (long long)seen,
          (long long)model->nnz);
    slp_shard_manifest_free(&man);
}

static void family(int kind, const int64_t *params, int scale)
{
    slp_gen_t g;
    if (slp_gen_init(&g, kind, params, 7, scale) != SLP_OK) {
        CHECK(0, "init %d: %s", kind, slp_error_message());
        return;
    }
    slp_model_t *model = NULL, *back = NULL;
    CHECK(slp_gen_model(&g, &model) == SLP_OK, "model: %s", slp_error_message());
    if (!model)
        return;
    check_counts(&g, model);
    char mps[300];
    snprintf(mps, sizeof mps, "%s/%s%d.mps", base, slp_gen_kind_name(kind), scale);
    CHECK(slp_mps_write(model, mps) == SLP_OK, "mps write");
    CHECK(slp_mps_read(mps, &back) == SLP_OK, "mps read: %s", slp_error_message());
    slp_model_destroy(&model);
    if (!back)
        return;
    int grids[3][2] = {{1, 1}, {2, 2}, {1, 3}};
    for (int k = 0; k < 3; k++) {
        char dir[300];
        snprintf(dir, sizeof dir, "%s/%s%d_%dx%d.shards", base, slp_gen_kind_name(kind), scale,
                 grids[k][0], grids[k][1]);
        slp_gen_stats_t st;
        CHECK(slp_gen_write_shards(&g, grids[k][0], grids[k][1], dir, slp_comm_world(), &st) == SLP_OK,
              "write %s: %s", dir, slp_error_message());
        compare_shards(dir, back, grids[k][0], grids[k][1]);
    }
    if (kind == SLP_GEN_DESIGN_MATCH) { /* zero-equality singleton rows: N * floor(2t/5) */
        int64_t *cnt = calloc((size_t)back->m, sizeof(int64_t));
        for (int64_t q = 0; q < back->nnz; q++)
            cnt[back->row_idx[q]]++;
        int64_t singles = 0, dense = 0;
        for (int64_t i = 0; i < back->m; i++) {
            singles += cnt[i] == 1 && back->lc[i] == 0.0 && back->uc[i] == 0.0;
            dense += cnt[i] == params[0] * params[3] + 2;
        }
        CHECK(singles == params[0] * (2 * params[3] / 5), "%lld zero-equality singletons",
              (long long)singles);
        int64_t d = params[2];
        CHECK(dense == d + d * (d + 1) / 2, "%lld dense moment rows", (long long)dense);
        free(cnt);
    }
    if (scale == SLP_GEN_SCALE_BENCHMARK) {
        int bad = 0;
        for (int64_t i = 0; i < back->m; i++) {
            double b[2] = {back->lc[i], back->uc[i]};
            for (int s = 0; s < 2; s++)
                bad += isfinite(b[s]) && b[s] != 0.0 && fabs(b[s]) != 1.0 &&
                       !(b[0] == -b[1] && fabs(b[1]) < 1.0); /* ranged rows: the smaller side */
        }
        for (int64_t j = 0; j < back->n; j++)
            bad += back->c[j] != 0.0 && fabs(back->c[j]) != 1.0;
        CHECK(bad == 0, "benchmark scaling: %d bounds or costs not 0 or +-1", bad);
    }
    slp_model_destroy(&back);
}

static void bad_parameters(void)
{
    slp_gen_t g;
    int64_t dm[4] = {10, 5, 2, 3}; /* fewer controls than treated */
    CHECK(slp_gen_init(&g, SLP_GEN_DESIGN_MATCH, dm, 1, 0) == SLP_ERR_INPUT, "controls < treated");
    CHECK(strstr(slp_error_message(), "--controls") != NULL, "message: %s", slp_error_message());
    slp_error_clear();
    int64_t tr[3] = {2, 10, 3}; /* 2 sources x 3 neighbours cannot reach 10 sinks */
    CHECK(slp_gen_init(&g, SLP_GEN_TRANSPORT, tr, 1, 0) == SLP_ERR_INPUT, "unreachable sinks");
    slp_error_clear();
    int64_t q[1] = {1};
    CHECK(slp_gen_init(&g, SLP_GEN_QAP, q, 1, 0) == SLP_ERR_INPUT, "qap size 1");
    slp_error_clear();
    int64_t z[4] = {1, 0, 1, 1};
    CHECK(slp_gen_init(&g, SLP_GEN_MCF, z, 1, 0) == SLP_ERR_INPUT, "zero factories");
    slp_error_clear();
    int kind;
    CHECK(slp_gen_kind_parse("tsp", &kind) == SLP_ERR_INPUT, "unknown family");
    slp_error_clear();
}

int main(int argc, char **argv)
{
    if (slp_comm_init(&argc, &argv, 0) != SLP_OK)
        return 1;
    snprintf(base, sizeof base, "/tmp/slp_test_gen.%ld", (long)getpid());
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", base, base);
    if (system(cmd) != 0)
        return 1;
    published_sizes();
    int64_t mcf[4] = {2, 2, 3, 4}, dm[4] = {6, 9, 3, 5}, qap[1] = {4}, tr[3] = {5, 11, 3};
    for (int scale = 0; scale <= 1; scale++) {
        family(SLP_GEN_MCF, mcf, scale);
        family(SLP_GEN_DESIGN_MATCH, dm, scale);
        family(SLP_GEN_QAP, qap, scale);
        family(SLP_GEN_TRANSPORT, tr, scale);
    }
    bad_parameters();
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", base);
    slp_comm_finalize();
    return check_summary();
}
