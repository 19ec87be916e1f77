/* shardlp info DIR [--verify]: describe a shard directory (grid, nonzeros per block,
 * imbalance, bytes per rank, modelled communication of the dense and the support-aware
 * plan, from the stored matrix, before presolve; the grids of the same rank count with
 * their modelled peaks). With --verify
 * every file is read and checked, and each block's values surveyed for their cheapest
 * exact form; under MPI each rank reads only its own block and slices (collective read,
 * the same path as the solver's). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "cli/cli_args.h"
#include "cli/commands.h"
#include "core/local_problem.h"
#include "core/values.h"
#include "grid/comm.h"
#include "grid/grid.h"
#include "plan/plan_model.h"
#include "plan/plan_model_shards.h"
#include "shard/shard.h"

typedef struct {
    const char *dir;
    int verify;
} info_options_t;

static const cli_option_t OPTIONS[] = {
    {"--verify", CLI_FLAG, offsetof(info_options_t, verify), 0, 0, NULL, NULL,
     "read every file and check sizes, headers and checksums, and report the\n"
     "cheapest exact form of each block's values; under MPI\n"
     "(mpirun -np R*C) each rank reads only its own block and slices"},
};

static const cli_command_t COMMAND = {
    .name = "info",
    .usage = "info SHARDS [--verify]",
    .about = "Describe a shard directory: grid, nonzeros per block, max/mean imbalance, bytes per\n"
             "rank (matrix, vectors) and the modelled communication per iteration of the dense\n"
             "and the support-aware plan (logical scalar-hops, docs/comm-support.md; from the\n"
             "stored matrix: the solver's --json numbers are after presolve).",
    .options = OPTIONS,
    .option_count = sizeof OPTIONS / sizeof OPTIONS[0],
    .positional_offset = offsetof(info_options_t, dir),
    .positional_max = 1,
    .footer = "Without --verify it also lists every grid of R*C ranks with the modelled peak\n"
              "of its largest rank (docs/memory.md \"The model\"), the one `shard --grid auto\n"
              "--ranks R*C` would pick marked.",
};

/* The block files' bytes against what plain doubles take: a directory written with
 * --compact-values holds some blocks in a compact form (docs/shard-format.md). */
static void print_block_files(const slp_shard_manifest_t *man)
{
    int64_t bytes = 0, plain = 0, compact = 0, blocks = (int64_t)man->R * man->C;
    for (int64_t f = 0; f < man->nfiles; f++) {
        const slp_shard_file_t *e = &man->files[f];
        if (e->role != SLP_SHARD_BLOCK)
            continue;
        int64_t m_loc = man->row_off[e->r + 1] - man->row_off[e->r];
        int64_t want =
            slp_shard_block_plain_bytes(m_loc, man->block_nnz[(int64_t)e->r * man->C + e->c]);
        bytes += e->bytes;
        plain += want;
        compact += e->bytes != want;
    }
    printf("block files      : %lld bytes, %.2f per nonzero; %lld of %lld blocks with compact "
           "values (plain doubles: %lld bytes)\n",
           (long long)bytes, man->nnz > 0 ? (double)bytes / (double)man->nnz : 0.0,
           (long long)compact, (long long)blocks, (long long)plain);
}

static void print_summary(const char *dir, const slp_shard_manifest_t *man,
                          const slp_plan_model_t *model)
{
    int R = man->R, C = man->C;
    int64_t P = (int64_t)R * C;
    printf("shard directory  : %s (format version %d)\n", dir, man->version);
    printf("model            : %s%s%lld rows, %lld columns, %lld nonzeros, %s\n",
           man->name[0] ? man->name : "", man->name[0] ? ": " : "", (long long)man->m,
           (long long)man->n, (long long)man->nnz, man->sense < 0 ? "maximize" : "minimize");
    printf("grid             : %dx%d (%lld ranks)%s\n", R, C, (long long)P,
           man->has_names ? ", with names" : "");
    printf("nonzeros per block (rows: row blocks r, columns: column blocks c)\n");
    int show_r = R <= 16 ? R : 16, show_c = C <= 12 ? C : 12;
    printf("  %-14s", "r \\ c");
    for (int c = 0; c < show_c; c++)
        printf(" %12d", c);
    printf("%s\n", show_c < C ? " ..." : "");
    for (int r = 0; r < show_r; r++) {
        printf("  %-14d", r);
        for (int c = 0; c < show_c; c++)
            printf(" %12lld", (long long)man->block_nnz[(int64_t)r * C + c]);
        printf("%s\n", show_c < C ? " ..." : "");
    }
    if (show_r < R)
        printf("  ...\n");
    int64_t max_nnz = 0, max_mat = 0, max_vec = 0, max_tot = 0, sum_mat = 0, sum_vec = 0;
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            int64_t nnz = man->block_nnz[(int64_t)r * C + c], mat, vec;
            slp_shard_rank_bytes(man, r, c, &mat, &vec);
            if (nnz > max_nnz)
                max_nnz = nnz;
            if (mat > max_mat)
                max_mat = mat;
            if (vec > max_vec)
                max_vec = vec;
            if (mat + vec > max_tot)
                max_tot = mat + vec;
            sum_mat += mat;
            sum_vec += vec;
        }
    double mean = (double)man->nnz / (double)P;
    printf("imbalance        : max/mean = %.3f (max %lld, mean %.1f nonzeros per block)\n",
           mean > 0 ? (double)max_nnz / mean : 1.0, (long long)max_nnz, mean);
    print_block_files(man);
    printf("bytes per rank   : matrix max %lld mean %.0f; vectors max %lld mean %.0f; "
           "total max %lld\n",
           (long long)max_mat, (double)sum_mat / (double)P, (long long)max_vec,
           (double)sum_vec / (double)P, (long long)max_tot);
    int64_t ax, aty;
    slp_shard_dense_hops(man->m, man->n, R, C, &ax, &aty);
    printf("communication    : dense plan %lld logical scalar-hops per iteration "
           "(A x over row_comm %lld, A^T y over col_comm %lld)\n",
           (long long)(ax + aty), (long long)ax, (long long)aty);
    if (model) {
        double dense = slp_plan_model_dense(model), support = slp_plan_model_support(model);
        printf("                   support plan %.6g logical scalar-hops per iteration "
               "(%.2f%% less: legs %lld, plus per synchronisation %lld row hops x %d vectors\n"
               "                   and %lld column hops x %d vectors, every %d iterations)\n",
               support, dense > 0 ? 100.0 * (1.0 - support / dense) : 0.0,
               (long long)(model->rows.support_hops + model->cols.support_hops),
               (long long)model->rows.sync_hops, model->row_vectors,
               (long long)model->cols.sync_hops, model->col_vectors, model->sync_interval);
        slp_plan_model_print(model, "                   ");
    }
}

/* Every grid of this directory's rank count with its modelled peak (the solver's, per
 * rank), the directory's own marked; then the directory's with A_rc alone. */
static slp_err print_grid_choices(const char *dir, const slp_shard_manifest_t *man)
{
    int P = man->R * man->C, R = 0, C = 0, count = 0;
    slp_grid_choice_t *all = NULL;
    SLP_CALL(slp_shard_dir_grid_choices(dir, man, P, &R, &C, &all, &count));
    printf("grids of %d rank%s : modelled solver peak of the largest rank (docs/memory.md)\n", P,
           P == 1 ? " " : "s");
    for (int k = 0; k < count; k++)
        printf("  %dx%-6d %14lld bytes (%.1f MiB)   %lld hops per iteration%s%s\n", all[k].R,
               all[k].C, (long long)all[k].max_rank_bytes,
               (double)all[k].max_rank_bytes / (1024.0 * 1024.0), (long long)all[k].dense_hops,
               all[k].R == man->R && all[k].C == man->C ? "   <- this directory" : "",
               all[k].R == R && all[k].C == C ? "   <- --grid auto" : "");
    int64_t rows = slp_shard_grid_solver_bytes(man->R, man->C, man->row_off, man->col_off,
                                               man->block_nnz, SLP_COPIES_ROWS);
    printf("  %dx%-6d %14lld bytes (%.1f MiB)   with --block-copies rows (A_rc alone, slower "
           "products)\n", man->R, man->C, (long long)rows, (double)rows / (1024.0 * 1024.0));
    free(all);
    return SLP_OK;
}

/* The cheapest exact form of each block's values (core/values.h): blocks per form, and
 * the values' bytes and nonzeros over all blocks (counts[SLP_VALUE_FORMS], [.. + 1]). */
enum { SLP_VALUE_FORMS = 4 };
static slp_err survey_block(const slp_local_problem_t *lp, int64_t counts[SLP_VALUE_FORMS + 2])
{
    slp_values_survey_t sv;
    SLP_CALL(slp_values_survey(lp->A.val, lp->A.nnz, &sv));
    counts[sv.form]++;
    counts[SLP_VALUE_FORMS] += sv.bytes;
    counts[SLP_VALUE_FORMS + 1] += lp->A.nnz;
    return SLP_OK;
}

static void print_value_forms(const int64_t counts[SLP_VALUE_FORMS + 2])
{
    printf("matrix values    :");
    for (int f = 0; f < SLP_VALUE_FORMS; f++)
        printf("%s %s %lld block%s", f ? "," : "", slp_values_form_name((slp_values_form)f),
               (long long)counts[f], counts[f] == 1 ? "" : "s");
    double nnz = (double)counts[SLP_VALUE_FORMS + 1];
    printf("; %.2f bytes per nonzero for values (plain: 8; docs/memory.md \"Compact values\")\n",
           nnz > 0 ? (double)counts[SLP_VALUE_FORMS] / nnz : 0.0);
}

/* Read every block, slice and name file, one block at a time; survey the blocks' values. */
static slp_err verify_serial(const char *dir, const slp_shard_manifest_t *man,
                             int64_t counts[SLP_VALUE_FORMS + 2])
{
    for (int r = 0; r < man->R; r++)
        for (int c = 0; c < man->C; c++) {
            slp_local_problem_t lp;
            SLP_CALL(slp_shard_read_block(dir, man, r, c, &lp));
            slp_err rc = survey_block(&lp, counts);
            slp_local_problem_free(&lp);
            SLP_CALL(rc);
        }
    for (int pass = 0; pass < 2; pass++)
        for (int b = 0; man->has_names && b < (pass ? man->R : man->C); b++) {
            slp_shard_names_t names;
            SLP_CALL(slp_shard_read_names(dir, man, pass, b, &names));
            slp_shard_names_free(&names);
        }
    return SLP_OK;
}

/* Under MPI: the name files of this rank's grid row (rank (r, 0)) and grid column
 * (rank (0, c)), so that every file is read by exactly one rank, as verify_serial reads
 * them all. Collective: every rank returns the same code. */
static slp_err verify_own_names(const char *dir, const slp_shard_manifest_t *man,
                                slp_grid_t *grid)
{
    slp_err rc = SLP_OK;
    slp_shard_names_t names;
    if (man->has_names && grid->c == 0 &&
        (rc = slp_shard_read_names(dir, man, 1, grid->r, &names)) == SLP_OK)
        slp_shard_names_free(&names);
    if (rc == SLP_OK && man->has_names && grid->r == 0 &&
        (rc = slp_shard_read_names(dir, man, 0, grid->c, &names)) == SLP_OK)
        slp_shard_names_free(&names);
    return slp_comm_agree_named(grid->world, rc, "reading the name files");
}

int slp_cmd_info(int argc, char **argv)
{
    info_options_t o = {NULL, 0};
    int help = 0;
    slp_err rc = slp_cli_parse(&COMMAND, argc, argv, &o, &help);
    if (rc == SLP_OK && help) {
        slp_cli_print_help(&COMMAND, stdout);
        return 0;
    }
    if (rc == SLP_OK && !o.dir)
        rc = slp_error(SLP_ERR_INPUT, "info: no shard directory given (usage: shardlp info DIR)");
    if (rc != SLP_OK) {
        slp_cli_error("%s", slp_error_message());
        return 2;
    }
    const char *dir = o.dir;
    int verify = o.verify;
    slp_comm_t *world = slp_comm_world();
    int size = slp_comm_size(world), rank = slp_comm_rank(world);
    slp_shard_manifest_t man;
    memset(&man, 0, sizeof man);
    if (size > 1 && verify) {
        /* The solver's path: manifest on every rank, world size check, grid, own block. */
        slp_grid_t *grid = NULL;
        slp_local_problem_t lp;
        memset(&lp, 0, sizeof lp);
        rc = slp_shard_read_manifest_all(dir, &man);
        if (rc == SLP_OK)
            rc = slp_grid_create(man.R, man.C, &grid);
        if (rc == SLP_OK)
            rc = slp_shard_read_local(dir, grid, &lp);
        if (rc == SLP_OK)
            rc = verify_own_names(dir, &man, grid);
        int64_t checked[2] = {lp.A.nnz, 1}, counts[SLP_VALUE_FORMS + 2] = {0};
        slp_plan_model_t model;
        if (rc == SLP_OK)
            rc = slp_comm_agree(world, survey_block(&lp, counts));
        if (rc == SLP_OK)
            rc = slp_comm_sum_i64(world, counts, SLP_VALUE_FORMS + 2);
        if (rc == SLP_OK)
            rc = slp_comm_sum_i64(world, checked, 2);
        if (rc == SLP_OK)
            rc = slp_plan_model_local(grid, &lp, &model, NULL, NULL);
        if (rc == SLP_OK && rank == 0) {
            print_summary(dir, &man, &model);
            printf("verified         : %lld ranks each read their own block and slices%s "
                   "(%lld nonzeros, checksums ok)\n",
                   (long long)checked[1], man.has_names ? " and name files" : "",
                   (long long)checked[0]);
            print_value_forms(counts);
        }
        slp_local_problem_free(&lp);
        slp_grid_destroy(&grid);
    } else {
        slp_plan_model_t model;
        int64_t counts[SLP_VALUE_FORMS + 2] = {0};
        rc = slp_shard_read_manifest(dir, &man);
        if (rc == SLP_OK && verify)
            rc = verify_serial(dir, &man, counts);
        if (rc == SLP_OK)
            rc = slp_plan_model_shards(dir, &man, &model);
        if (rc == SLP_OK && rank == 0) {
            print_summary(dir, &man, &model);
            if (verify) {
                printf("verified         : every block, slice%s file read (sizes, headers and "
                       "checksums ok)\n",
                       man.has_names ? " and name" : "");
                print_value_forms(counts);
            }
        }
        if (rc == SLP_OK && !verify)
            rc = print_grid_choices(dir, &man);
    }
    slp_shard_manifest_free(&man);
    if (rc != SLP_OK) {
        /* Every rank with a message prints it: the failing rank its own error, the
         * others which rank failed. */
        if (slp_error_message()[0]) {
            if (size > 1)
                slp_cli_error("rank %d: %s", rank, slp_error_message());
            else
                slp_cli_error("%s", slp_error_message());
        }
        return 1;
    }
    fflush(stdout);
    return 0;
}
