/* shardlp check MODEL SOLUTION [--tol 1e-6] [--json FILE] [--quiet]
 *
 * Independent check of a solution against the nine criteria (docs/checker.md).
 * Exit 0: pass; 1: fail (a criterion above tol, not finite, or entries missing);
 * 2: bad input (options, unreadable or malformed model or solution). */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/check.h"
#include "check/check_shards.h"
#include "io/json_out.h"
#include "cli/cli_args.h"
#include "cli/commands.h"
#include "grid/comm.h"
#include "core/error.h"
#include "core/model.h"
#include "io/input_format.h"
#include "io/solution_text.h"

typedef struct {
    const char *paths[2]; /* MODEL, SOLUTION as given */
    const char *model_path;
    const char *solution_path;
    const char *json_path;
    double tol;
    int quiet;
} check_options_t;

#define OPT(field) offsetof(check_options_t, field)
static const cli_option_t OPTIONS[] = {
    {"--tol", CLI_REAL, OPT(tol), 0, 1e300, NULL, "EPS",
     "pass when all nine values are finite and <= EPS (default 1e-6)"},
    {"--json", CLI_TEXT, OPT(json_path), 0, 0, NULL, "FILE",
     "write the nine values, their maximum and the verdict as JSON"},
    {"--quiet", CLI_FLAG, OPT(quiet), 0, 0, NULL, NULL, "print only the verdict line"},
};

static const cli_command_t COMMAND = {
    .name = "check",
    .usage = "check MODEL SOLUTION [--tol EPS] [--json FILE] [--quiet]",
    .about = "Checks SOLUTION against MODEL in original coordinates (long-double sums):\n"
             "variable-bound and row feasibility, stationarity c - A^T y - z (each normwise\n"
             "and worst coordinatewise-normalised), row-dual and reduced-cost sign\n"
             "admissibility, and the relative primal-dual objective gap (docs/checker.md).\n"
             "\n"
             "  MODEL       an MPS or LP file (any compression), or a shard directory (then\n"
             "              SOLUTION must be a sharded solution: checked block by block)\n"
             "  SOLUTION    a text solution as written by `shardlp solve --sol` (HiGHS raw\n"
             "              style), or a sharded solution directory (`shardlp solve --out DIR`)",
    .options = OPTIONS,
    .option_count = sizeof OPTIONS / sizeof OPTIONS[0],
    .positional_offset = OPT(paths),
    .positional_max = 2,
    .footer = "Exit status: 0 pass, 1 fail, 2 bad input.",
};

/* 0 ok, 2 error (message printed), -1 help printed. */
static int parse_options(int argc, char **argv, check_options_t *o)
{
    *o = (check_options_t){.tol = 1e-6};
    int help = 0;
    slp_err rc = slp_cli_parse(&COMMAND, argc, argv, o, &help);
    if (rc == SLP_OK && help) {
        slp_cli_print_help(&COMMAND, stdout);
        return -1;
    }
    if (rc == SLP_OK && (!o->paths[0] || !o->paths[1]))
        rc = slp_error(SLP_ERR_INPUT, "check: needs MODEL and SOLUTION (see shardlp check --help)");
    if (rc != SLP_OK) {
        slp_cli_error("%s", slp_error_message());
        return 2;
    }
    o->model_path = o->paths[0];
    o->solution_path = o->paths[1];
    return 0;
}

static int is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ---- JSON -------------------------------------------------------------- */

static int write_json(const check_options_t *o, const slp_check_result_t *r,
                      const slp_solution_t *sol, int passed)
{
    FILE *f = fopen(o->json_path, "w");
    if (!f) {
        slp_cli_error("%s: cannot create: %s", o->json_path, strerror(errno));
        return 2;
    }
    fputs("{\n  \"passed\": ", f);
    fputs(passed ? "true" : "false", f);
    fputs(",\n  \"tol\": ", f);
    slp_json_write_number(f, o->tol);
    fputs(",\n  \"max\": ", f);
    slp_json_write_number(f, r->max);
    fputs(",\n  \"criteria\": {", f);
    for (int k = 0; k < SLP_CHECK_COUNT; k++) {
        fprintf(f, "%s\n    \"%s\": ", k ? "," : "", slp_check_criterion_key(k));
        slp_json_write_number(f, r->value[k]);
    }
    fputs("\n  },\n  \"primal_objective\": ", f);
    slp_json_write_number(f, r->primal_objective);
    fputs(",\n  \"dual_objective\": ", f);
    slp_json_write_number(f, r->dual_objective);
    fputs(",\n  \"reported_objective\": ", f);
    slp_json_write_number(f, r->reported_objective);
    fputs(",\n  \"model_status\": ", f);
    slp_json_write_string(f, sol->model_status);
    fputs(",\n  \"missing_entries\": {", f);
    static const char *const keys[SLP_SOL_RAY_COLUMNS] = {"column_values", "row_activities",
                                                          "reduced_costs", "row_duals"};
    for (int k = 0; k < SLP_SOL_RAY_COLUMNS; k++)
        fprintf(f, "%s\"%s\": %lld", k ? ", " : "", keys[k], (long long)sol->missing[k]);
    fputs("},\n  \"model\": ", f);
    slp_json_write_string(f, o->model_path);
    fputs(",\n  \"solution\": ", f);
    slp_json_write_string(f, o->solution_path);
    fputs("\n}\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        slp_cli_error("%s: write failed", o->json_path);
        return 2;
    }
    return 0;
}

/* ---- report ------------------------------------------------------------ */

static const char *worst_name(const slp_model_t *model, int criterion, int64_t at, char *buf)
{
    int rows = criterion == SLP_CHECK_ROW_COORD || criterion == SLP_CHECK_ROW_DUAL_SIGN;
    return rows ? slp_model_row_name(model, at, buf) : slp_model_col_name(model, at, buf);
}

static void print_report(const check_options_t *o, const slp_model_t *model,
                         const slp_solution_t *sol, const slp_check_result_t *r)
{
    printf("check: %s against %s (%lld rows, %lld columns, %lld nonzeros, %s)\n",
           o->solution_path, o->model_path, (long long)model->m, (long long)model->n,
           (long long)model->nnz, model->sense < 0 ? "maximize" : "minimize");
    printf("model status in file: %s\n", *sol->model_status ? sol->model_status : "(none)");
    printf("%-22s %12s  %s\n", "criterion", "value", "worst at");
    for (int k = 0; k < SLP_CHECK_COUNT; k++) {
        char buf[32];
        printf("%-22s %12.3e", slp_check_criterion_key(k), r->value[k]);
        if (r->worst[k] >= 0)
            printf("  %s %s", k == SLP_CHECK_ROW_COORD || k == SLP_CHECK_ROW_DUAL_SIGN ? "row"
                                                                                       : "column",
                   worst_name(model, k, r->worst[k], buf));
        printf("%s\n", isfinite(r->value[k]) && r->value[k] <= o->tol ? "" : "  <-- FAIL");
    }
    printf("%-22s %12.3e\n", "max", r->max);
    printf("%-22s %.17g\n", "primal objective", r->primal_objective);
    printf("%-22s %.17g\n", "dual objective", r->dual_objective);
    if (sol->has_objective)
        printf("%-22s %.17g\n", "reported objective", sol->objective);
    else
        printf("%-22s (none)\n", "reported objective");
}

/* ---- claimed statuses --------------------------------------------------- */

/* What a solution file claims: an optimum (checked by the nine criteria), or an
 * infeasible / unbounded / undecided status (checked through its certificate). */
enum { CLAIM_OPTIMUM, CLAIM_INFEASIBLE, CLAIM_UNBOUNDED, CLAIM_EITHER };

/* HiGHS's words (text solutions) or the JSON names (sharded solutions). */
static int claimed_status(const char *model_status)
{
    if (!strcmp(model_status, "Infeasible") || !strcmp(model_status, "primal_infeasible"))
        return CLAIM_INFEASIBLE;
    if (!strcmp(model_status, "Unbounded") || !strcmp(model_status, "dual_infeasible"))
        return CLAIM_UNBOUNDED;
    if (!strcmp(model_status, "Primal infeasible or unbounded") ||
        !strcmp(model_status, "infeasible_or_unbounded"))
        return CLAIM_EITHER;
    return CLAIM_OPTIMUM;
}

static void print_ray(const slp_model_t *model, const char *what, const slp_ray_result_t *r)
{
    char buf[32];
    printf("%-22s %12.3e\n", "ray objective", r->objective);
    printf("%-22s %12.3e", "ray violation", r->violation);
    if (r->worst >= 0)
        printf("  %s %s", r->worst_is_row ? "row" : "column",
               r->worst_is_row ? slp_model_row_name(model, r->worst, buf)
                               : slp_model_col_name(model, r->worst, buf));
    printf("\n%-22s %12.3e  (%s)\n", "ray quality", r->quality, what);
}

/* The certificate of the claim, with the primal point's feasibility for an unbounded
 * claim. Exit status as for an optimum: 0 verified, 1 not. */
static int check_claim(const check_options_t *o, const slp_model_t *model,
                       const slp_solution_t *sol, const slp_check_result_t *point, int claim)
{
    int dual = claim == CLAIM_INFEASIBLE || (claim == CLAIM_EITHER && sol->has_ray[1]);
    int has = sol->has_ray[dual] && sol->missing[dual ? SLP_SOL_RAY_ROWS : SLP_SOL_RAY_COLUMNS] == 0;
    printf("check: %s against %s: the file claims '%s'\n", o->solution_path, o->model_path,
           sol->model_status);
    if (!has) {
        printf("check FAILED: no complete %s ray in the file: the claim cannot be verified\n",
               dual ? "dual" : "primal");
        return 1;
    }
    slp_ray_result_t ray;
    slp_err rc = dual ? slp_check_dual_ray(model, sol->ray_y, &ray)
                      : slp_check_primal_ray(model, sol->ray_x, &ray);
    if (rc != SLP_OK) {
        slp_cli_error("%s", slp_error_message());
        return 2;
    }
    if (!o->quiet)
        print_ray(model, dual ? "Farkas dual ray: objective > 0" : "primal ray: objective < 0",
                  &ray);
    int passed = ray.quality <= o->tol;
    if (claim == CLAIM_UNBOUNDED) { /* unbounded also needs a feasible point */
        double feas = fmax(fmax(point->value[SLP_CHECK_BOUND_COORD], point->value[SLP_CHECK_ROW_COORD]),
                           fmax(point->value[SLP_CHECK_BOUND_NORM], point->value[SLP_CHECK_ROW_NORM]));
        int feasible = sol->missing[SLP_SOL_PRIMAL_COLUMNS] == 0 && isfinite(feas) && feas <= o->tol;
        printf("%-22s %12.3e%s\n", "primal feasibility", feas, feasible ? "" : "  <-- FAIL");
        passed = passed && feasible;
    }
    if (passed)
        printf("check PASSED: certificate quality %.3e <= tol %.3e\n", ray.quality, o->tol);
    else
        printf("check FAILED: the certificate does not prove the claim (quality %.3e, tol %.3e)\n",
               ray.quality, o->tol);
    return passed ? 0 : 1;
}

/* Shard model + sharded solution: streamed block by block, names generated. */
/* A shard model against a sharded solution: in one process block by block, or under
 * mpirun on the model's grid, each rank reading only its own files (rank 0 reports). */
static int check_sharded(const check_options_t *o)
{
    slp_check_result_t result;
    slp_check_shard_info_t info;
    int distributed = slp_comm_size(slp_comm_world()) > 1;
    slp_err rc = distributed ? slp_check_shards_grid(o->model_path, o->solution_path, &result,
                                                     &info)
                             : slp_check_shards(o->model_path, o->solution_path, &result, &info);
    int root = slp_comm_rank(slp_comm_world()) == 0;
    if (rc != SLP_OK) {
        const char *msg = slp_error_message();
        if (root)
            slp_cli_error("%s", *msg ? msg : slp_err_name(rc));
        return 2;
    }
    if (!root) /* every rank holds the result; rank 0 prints it and writes the JSON */
        return claimed_status(info.status) != CLAIM_OPTIMUM ? 2
               : slp_check_passed(&result, o->tol)         ? 0
                                                            : 1;
    /* The report needs only sizes, sense and status: a model without arrays (names
     * are generated R<i> / C<j>) and a solution without vectors. */
    slp_model_t skeleton = {0};
    skeleton.m = info.m;
    skeleton.n = info.n;
    skeleton.nnz = info.nnz;
    skeleton.sense = info.sense;
    slp_solution_t sol = {0};
    sol.model_status = info.status;
    sol.has_objective = 1;
    sol.objective = info.reported_objective;
    if (claimed_status(info.status) != CLAIM_OPTIMUM) {
        slp_cli_error("%s: claims '%s'; its certificate (ray slices) is verified against the "
                      "MPS model: shardlp check MODEL.mps %s (a shard-directory model is not "
                      "supported for certificates yet)", o->solution_path, info.status,
                      o->solution_path);
        return 2;
    }
    int passed = slp_check_passed(&result, o->tol);
    if (!o->quiet)
        print_report(o, &skeleton, &sol, &result);
    if (passed)
        printf("check PASSED: max %.3e <= tol %.3e\n", result.max, o->tol);
    else
        printf("check FAILED: max %.3e > tol %.3e or not finite\n", result.max, o->tol);
    int status = o->json_path ? write_json(o, &result, &sol, passed) : 0;
    return status ? status : passed ? 0 : 1;
}

int slp_cmd_check(int argc, char **argv)
{
    check_options_t o;
    int status = parse_options(argc, argv, &o);
    if (status)
        return status < 0 ? 0 : status;
    slp_model_t *model = NULL;
    slp_solution_t *sol = NULL;
    slp_check_result_t result;
    slp_error_clear();
    slp_err rc = SLP_OK;
    slp_input_format format = SLP_INPUT_MPS;
    if (slp_input_format_of(o.model_path, &format) != SLP_OK)
        slp_error_clear(); /* slp_model_read below reports it */
    if (format == SLP_INPUT_SHARDS) {
        if (!is_directory(o.solution_path)) {
            slp_cli_error("%s: a shard model is checked against a sharded solution (solve --out DIR)",
                          o.solution_path);
            return 2;
        }
        return check_sharded(&o);
    }
    rc = slp_model_read(o.model_path, &model);
    if (rc == SLP_OK)
        rc = slp_model_validate(model, o.model_path);
    if (rc == SLP_OK && is_directory(o.solution_path))
        rc = slp_check_load_sharded_solution(o.solution_path, model->m, model->n, &sol);
    else if (rc == SLP_OK)
        rc = slp_solution_text_read_model(o.solution_path, model, &sol);
    if (rc == SLP_OK) {
        /* An "Objective nan" line is reported, but not usable: make the gap fail. */
        double reported = !sol->has_objective ? NAN : isnan(sol->objective) ? INFINITY
                                                                            : sol->objective;
        rc = slp_check_model(model, sol->x, sol->y, sol->z, reported, &result);
    }
    if (rc != SLP_OK) {
        const char *msg = slp_error_message();
        slp_cli_error("%s", *msg ? msg : slp_err_name(rc));
        slp_solution_destroy(&sol);
        slp_model_destroy(&model);
        return 2;
    }

    int claim = claimed_status(sol->model_status);
    if (claim != CLAIM_OPTIMUM) {
        status = check_claim(&o, model, sol, &result, claim);
        slp_solution_destroy(&sol);
        slp_model_destroy(&model);
        return status;
    }
    int64_t missing = 0;
    for (int k = 0; k < SLP_SOL_RAY_COLUMNS; k++)
        missing += sol->missing[k];
    int passed = slp_check_passed(&result, o.tol) && missing == 0;

    if (!o.quiet)
        print_report(&o, model, sol, &result);
    for (int k = 0; k < SLP_SOL_RAY_COLUMNS; k++) {
        if (sol->missing[k] == 0)
            continue;
        char buf[32];
        int cols = k == SLP_SOL_PRIMAL_COLUMNS || k == SLP_SOL_DUAL_COLUMNS;
        const char *name = cols ? slp_model_col_name(model, sol->first_missing[k], buf)
                                : slp_model_row_name(model, sol->first_missing[k], buf);
        printf("missing: %lld %s entr%s (first: %s '%s')\n", (long long)sol->missing[k],
               slp_sol_section_label(k), sol->missing[k] == 1 ? "y" : "ies",
               cols ? "column" : "row", name);
    }
    if (passed)
        printf("check PASSED: max %.3e <= tol %.3e\n", result.max, o.tol);
    else if (missing)
        printf("check FAILED: the solution file is incomplete (%lld missing entries)\n",
               (long long)missing);
    else
        printf("check FAILED: max %.3e > tol %.3e or not finite\n", result.max, o.tol);

    if (o.json_path)
        status = write_json(&o, &result, sol, passed);
    slp_solution_destroy(&sol);
    slp_model_destroy(&model);
    if (status)
        return status;
    return passed ? 0 : 1;
}
