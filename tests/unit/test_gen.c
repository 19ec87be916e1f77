/* Generators (src/gen): size formulas against the generated LPs and the three published
 * mcf members (computed in int64, values from the issue / the SHARDLP paper: MCF13.60B has
 * 13,603,420,000 columns and 40,806,820,000 nonzeros); closed-form row and column counts
 * and cuts against counts taken from the built model; shards written on 1x1, 2x2 and 1x3
 * read back block by block and compared exactly with the LP read back from the MPS file;
 * design-match's zero-equality singleton rows; --scale benchmark; bad parameters;
 * heat-source's and production-inventory's published sizes and heat-source's true
 * temperature against the discrete Poisson equation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "gen/gen.h"
#include "gen/gen_family.h"
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

/* The benchmark's heat-source and production-inventory members (create_large_instances.sh
 * of the large-scale PDLP benchmark: grid 400, 500 possible locations, 10 sources, 100 or
 * 50 measurements; 200 factories, 400 stages), counted by hand from the models of
 * docs/generators.md: heat-source n = 402^3 + 400^3, m = 400^3, nnz = 8 * 400^3;
 * production-inventory E = 200, T = 400 by the block counts listed there. */
static void published_sizes_new_families(void)
{
    int64_t hs[4] = {400, 500, 10, 100}, m, n, nnz;
    CHECK(slp_gen_sizes(SLP_GEN_HEAT_SOURCE, hs, &m, &n, &nnz) == SLP_OK, "heat sizes");
    CHECK(m == 64000000LL && n == 402LL * 402 * 402 + 64000000LL && nnz == 512000000LL,
          "heat-source: %lld %lld %lld", (long long)m, (long long)n, (long long)nnz);
    int64_t E = 200, T = 400, pi[2] = {E, T};
    CHECK(slp_gen_sizes(SLP_GEN_PRODUCTION_INVENTORY, pi, &m, &n, &nnz) == SLP_OK, "pi sizes");
    int64_t rows = T + E * T * (T + 1) / 2 + 3 * T * E + E + T * (T - 1) / 2 + 2 * T;
    int64_t cols = T * T * E + 2 * T + E * T * (T + 1) + 2 * T * E + 2 * T * T;
    int64_t ents = (2 * T + E * T * (T + 1) / 2)            /* objective rows */
                   + 3 * E * T * (T + 1) / 2                 /* capacity equalities */
                   + 2 * E * T * (T + 1)                     /* capacity bounds */
                   + E * (T * (T + 1) / 2 + 2 * T) + 2 * T * E /* per-factory rows */
                   + E * (T - 1) * T * (T + 1) / 6 + (T - 1) * T /* inventory equalities */
                   + E * T * (T + 1) + 2 * T * (T - 1);      /* inventory bounds */
    CHECK(m == rows && n == cols && nnz == ents, "production-inventory: %lld %lld %lld, "
          "expected %lld %lld %lld", (long long)m, (long long)n, (long long)nnz, (long long)rows,
          (long long)cols, (long long)ents);
}

/* heat-source's feasible point: the true temperature solves the discrete Poisson equation
 * with the true sources (residual of every interior row, computed here from the stencil). */
static void heat_temperature(void)
{
    int64_t p[4] = {7, 8, 3, 5};
    slp_gen_t g;
    if (slp_gen_init(&g, SLP_GEN_HEAT_SOURCE, p, 5, 0) != SLP_OK) {
        CHECK(0, "init: %s", slp_error_message());
        return;
    }
    int64_t N = p[0];
    double worst = 0.0, qmax = 0.0, h2inv = (double)(N * N);
    for (int64_t i = 1; i <= N; i++)
        for (int64_t j = 1; j <= N; j++)
            for (int64_t k = 1; k <= N; k++) {
                double nb = slp_genf_heat_temperature(&g, i - 1, j, k) +
                            slp_genf_heat_temperature(&g, i + 1, j, k) +
                            slp_genf_heat_temperature(&g, i, j - 1, k) +
                            slp_genf_heat_temperature(&g, i, j + 1, k) +
                            slp_genf_heat_temperature(&g, i, j, k - 1) +
                            slp_genf_heat_temperature(&g, i, j, k + 1);
                double q = slp_genf_heat_source(&g, ((i - 1) * N + j - 1) * N + k - 1);
                double r = h2inv * (nb - 6.0 * slp_genf_heat_temperature(&g, i, j, k)) + q;
                worst = fmax(worst, fabs(r));
                qmax = fmax(qmax, q);
            }
    CHECK(qmax > 0.0 && worst <= 1e-9 * qmax, "Poisson residual %.3g (largest source %.3g)",
          worst, qmax);
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
        CHECK(slp_gen_write_shards(&g, grids[k][0], grids[k][1], 0, dir, slp_comm_world(), &st) == SLP_OK,
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
    int64_t hs[4] = {5, 3, 3, 6}; /* as many sources as candidates */
    CHECK(slp_gen_init(&g, SLP_GEN_HEAT_SOURCE, hs, 1, 0) == SLP_ERR_INPUT, "sources >= candidates");
    slp_error_clear();
    int64_t pi[2] = {2, 12};
    CHECK(slp_gen_init(&g, SLP_GEN_PRODUCTION_INVENTORY, pi, 1, 0) == SLP_OK, "pi init");
    CHECK(slp_gen_set_theta(&g, 1.0) == SLP_ERR_INPUT, "theta 1 accepted");
    slp_error_clear();
    CHECK(slp_gen_init(&g, SLP_GEN_QAP, (int64_t[]){3}, 1, 0) == SLP_OK &&
              slp_gen_set_theta(&g, 0.1) == SLP_ERR_INPUT, "theta for qap accepted");
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
    published_sizes_new_families();
    int64_t mcf[4] = {2, 2, 3, 4}, dm[4] = {6, 9, 3, 5}, qap[1] = {4}, tr[3] = {5, 11, 3};
    int64_t heat[4] = {4, 6, 2, 5}, inv[2] = {3, 5};
    for (int scale = 0; scale <= 1; scale++) {
        family(SLP_GEN_MCF, mcf, scale);
        family(SLP_GEN_DESIGN_MATCH, dm, scale);
        family(SLP_GEN_QAP, qap, scale);
        family(SLP_GEN_TRANSPORT, tr, scale);
        family(SLP_GEN_HEAT_SOURCE, heat, scale);
        family(SLP_GEN_PRODUCTION_INVENTORY, inv, scale);
    }
    heat_temperature();
    bad_parameters();
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", base);
    slp_comm_finalize();
    return check_summary();
}
