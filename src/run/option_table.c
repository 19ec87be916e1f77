/* The option table (run/option_table.h): every setting of a solve, once. */
#include "run/option_table.h"

#include <stdint.h>
#include <string.h>

#define RUN(field) offsetof(slp_run_options_t, field)
#define SOLVER(field) (offsetof(slp_run_options_t, solver) + offsetof(slp_settings_t, field))
#define NOFIELD 0
#define BIG SLP_OPT_BIG
#define I64MAX 9.3e18 /* INT64 range "to the top" (clamped to INT64_MAX when parsed) */

_Static_assert(sizeof(slp_norm) == sizeof(int), "CHOICE options are stored as int");

static const slp_option_t TABLE[] = {
    /* termination */
    {"tol", "primal_feasibility_tolerance|dual_feasibility_tolerance|pdlp_d_gap_tol|kkt_tolerance",
     SLP_OPT_REAL, SOLVER(tol), 1e-300, 1.0, NULL, NULL, "termination", "EPS",
     "relative tolerance: ||rp|| < EPS (1 + ||b||), ||rd|| < EPS (1 + ||c||), "
     "|p - d| < EPS (1 + |p| + |d|); a HiGHS-style run without it uses 1e-7 (docs/cli.md)"},
    {"termination", NULL, SLP_OPT_CHOICE, SOLVER(detailed), 0, 0, "relative|detailed", NULL,
     "termination", "FORM", "criterion: relative (--tol) or detailed (--eps-abs/--eps-rel/--gap-rel)"},
    {"eps-abs", NULL, SLP_OPT_REAL, SOLVER(eps_abs), 0.0, BIG, NULL, "termination=detailed",
     "termination", "A", "detailed form: ||rp|| <= A + R ||b||, ||rd|| <= A + R ||c||"},
    {"eps-rel", NULL, SLP_OPT_REAL, SOLVER(eps_rel), 0.0, 1.0, NULL, "termination=detailed",
     "termination", "R", "detailed form, relative part (see --eps-abs)"},
    {"gap-rel", NULL, SLP_OPT_REAL, SOLVER(gap_rel), 0.0, 1.0, NULL, "termination=detailed",
     "termination", "G", "detailed form: |p - d| <= A + G (|p| + |d|)"},
    {"norm", NULL, SLP_OPT_CHOICE, SOLVER(norm), 0, 0, "l2|linf", NULL, "termination", "NORM",
     "norm of the residuals in both forms"},
    {"time-limit", NULL, SLP_OPT_REAL, SOLVER(time_limit), 0.0, BIG, NULL, NULL, "termination",
     "SEC", "wall-clock seconds from the end of reading to the result: presolve, scaling, step "
     "size, iterations, polishing, postsolve (inf: none)"},
    {"iter-limit", "pdlp_iteration_limit", SLP_OPT_INT64, SOLVER(iter_limit), 1, I64MAX, NULL, NULL, "termination",
     "N", "iteration limit (the last check comes at exactly N)"},
    {"eval-freq", NULL, SLP_OPT_INT, SOLVER(eval_freq), 0, 1000000, NULL, NULL, "termination",
     "K", "iterations between termination checks (0: 32 at tolerances of 1e-5 and looser, "
     "else 64 for the first 10,000 iterations and 200 after; docs/algorithm.md section 3)"},
    {"eps-infeas", NULL, SLP_OPT_REAL, SOLVER(eps_infeas), 0.0, 1.0, NULL, NULL, "termination",
     "E", "tolerance of the infeasibility certificate tests"},
    /* distribution */
    {"grid", NULL, SLP_OPT_GRID, RUN(grid), 0, 0, NULL, NULL, "distribution", "RxC",
     "process grid for MPS or in-memory input (0x0: the most square for the rank count; auto: "
     "the R x C with the smallest modelled peak of the largest rank, docs/memory.md)"},
    {"parallel-read", NULL, SLP_OPT_CHOICE, RUN(parallel_read), 0, 0, "auto|on|off", NULL,
     "distribution", "WHEN",
     "every rank reads its part of an MPS or LP file (auto: with more than one rank; on: also "
     "with one; files it cannot split go through rank 0 as with off; docs/parallel-input.md)"},
    {"comm", NULL, SLP_OPT_CHOICE, SOLVER(comm_support), 0, 0, "dense|support", NULL,
     "distribution", "PLAN", "communication plan of the products (docs/comm-support.md)"},
    {"backend", NULL, SLP_OPT_CHOICE, RUN(backend), 0, 0, SLP_BACKEND_CHOICES, NULL,
     "distribution", "KIND",
     "where each rank computes (guarded: the CPU's arithmetic on memory host code cannot "
     "touch, docs/gpu.md)"},
    {"comm-lib", NULL, SLP_OPT_CHOICE, SOLVER(comm_lib), 0, 0, "auto|mpi|nccl", NULL,
     "distribution", "LIB",
     "library of the products' sums (auto: NCCL for CUDA with one GPU per rank and the dense "
     "plan, else MPI; docs/gpu.md)"},
    {"threads", NULL, SLP_OPT_INT, SOLVER(threads), 0, 4096, NULL, NULL, "distribution", "N",
     "CPU threads per rank (0: for one rank the CPUs the process may use, fewer while other "
     "processes hold the cores; 1 per rank under MPI; docs/threads.md)"},
    {"block-copies", NULL, SLP_OPT_CHOICE, SOLVER(block_copies), 0, 0, "auto|one|two|rows",
     NULL, "distribution", "K",
     "CSR copies of each rank's block on the CPU: one serves both products (auto: when one side "
     "is at most half the other and the copy saved is 8 MiB or more, and rows when shards fit "
     "the memory limit only so); rows: one copy, A_rc itself, and no transpose built at any "
     "point, the lowest peak (docs/memory.md)"},
    {"matrix-values", NULL, SLP_OPT_CHOICE, SOLVER(block_values), 0, 0, "auto|plain|compact",
     NULL, "distribution", "FORM",
     "how the CPU backend holds each block copy's values, bitwise the same products: compact, "
     "the exact form of fewest bytes (signed-unit when all are +-1, a table of at most 65,536 "
     "distinct values, else doubles); auto, compact except a table for a scattering copy of "
     "short lines; plain, doubles (docs/memory.md)"},
    {"mem-limit", NULL, SLP_OPT_REAL, RUN(mem_limit), 0.0, BIG, NULL, NULL, "distribution",
     "BYTES", "per-rank memory for the size check of shard input (0: available memory / ranks "
     "on the node)"},
    /* method */
    {"presolve", NULL, SLP_OPT_BOOL, SOLVER(presolve), 0, 0, NULL, NULL, "method", NULL,
     "distributed presolve (docs/presolve.md)"},
    {"curtis-reid", NULL, SLP_OPT_INT, SOLVER(curtis_reid_iters), 0, 1000, NULL, NULL, "method",
     "N", "Curtis-Reid scaling sweeps (log-magnitudes' row and column means to 0) before the "
     "geometric-mean passes (docs/algorithm.md section 2; 0: none)"},
    {"geo-scaling", NULL, SLP_OPT_INT, SOLVER(geo_iters), 0, 1000, NULL, NULL, "method", "N",
     "geometric-mean scaling passes before Ruiz (docs/algorithm.md section 2; 0: none)"},
    {"weight-ratio-limit", NULL, SLP_OPT_REAL, SOLVER(pid_ratio_limit), 1.0, BIG, NULL, NULL,
     "method", "L", "the primal weight's PID runs while rel. dual / rel. primal residual is "
     "within [1/L, L]; outside it the weight returns to its best value (docs/algorithm.md "
     "section 3)"},
    {"weight-step-limit", NULL, SLP_OPT_REAL, SOLVER(pid_step_limit), 0.0, BIG, NULL, NULL,
     "method", "F", "a restart changes the primal weight by at most the factor F (0: no "
     "limit; docs/algorithm.md section 3)"},
    {"weight-rule", NULL, SLP_OPT_CHOICE, SOLVER(weight_rule), 0, 0, "pid|hpr", NULL, "method",
     "RULE", "the primal weight's update at restarts: pid (cuPDLPx's controller) or hpr "
     "(HPR-LP's blend of the movement ratio and the weight of the best fixed-point residual; "
     "docs/algorithm.md section 3)"},
    {"weight-hold-first", NULL, SLP_OPT_CHOICE, SOLVER(pid_hold_first), 0, 0, "auto|off|on",
     NULL, "method", "WHEN", "the first restart, forced at the first check, keeps the primal "
     "weight (auto: when checks come every 99 iterations or fewer; docs/algorithm.md section "
     "3)"},
    {"step-boost", NULL, SLP_OPT_BOOL, SOLVER(step_boost), 0, 0, NULL, NULL, "method", NULL,
     "active-set step-size boost (docs/algorithm.md section 3)"},
    {"fix-columns", NULL, SLP_OPT_REAL, SOLVER(fix_columns), 0.0, 1.0, NULL, NULL, "method",
     "LEVEL", "column fixing: once the relative residuals and gap are below LEVEL, the columns "
     "at a bound with a clearly signed reduced cost are held there while the rest is solved, "
     "then the whole LP is solved from that point (0: off; docs/algorithm.md section 10)"},
    {"polish", NULL, SLP_OPT_BOOL, SOLVER(polish), 0, 0, NULL, NULL, "method", NULL,
     "feasibility polishing (docs/polishing.md)"},
    {"precision", NULL, SLP_OPT_CHOICE, SOLVER(precision), 0, 0, "fp64|fp32-matrix", NULL,
     "method", "P",
     "fp32-matrix: the iterations read FP32 copies of the plain matrix values until the residuals "
     "reach 1e-5 (vectors, sums, the checks and the verification stay FP64; "
     "docs/memory.md)"},
    {"relax", "solve_relaxation", SLP_OPT_BOOL, RUN(relax), 0, 0, NULL, NULL, "method", NULL,
     "solve the LP relaxation of a model with integer columns; without it such a model is "
     "refused"},
    {"crossover", NULL, SLP_OPT_BOOL, RUN(crossover), 0, 0, NULL, NULL, "method", NULL,
     "a vertex solution by HiGHS's crossover from the solution: needs a build with HiGHS's "
     "library (this one has none: a clear error); Python's Model.solve(crossover=True) uses "
     "highspy"},
    /* output */
    {"sol", "solution_file", SLP_OPT_PATH, RUN(sol_path), 0, 0, NULL, "write-solution-to-file=on",
     "output", "FILE", "text solution (HiGHS raw style, docs/solution-format.md)"},
    {"write-solution-to-file", NULL, SLP_OPT_BOOL, RUN(write_solution), 0, 0, NULL, NULL,
     "output", NULL, "write the text solution to --sol's file (HiGHS; naming the file turns it "
     "on)"},
    {"write-solution-style", NULL, SLP_OPT_INT, RUN(solution_style), -1, 4, NULL, NULL, "output",
     "K", "HiGHS's solution style: 0 (raw) is what shardlp writes; another style is written as "
     "raw with a warning"},
    {"out", NULL, SLP_OPT_PATH, RUN(out_dir), 0, 0, NULL, NULL, "output", "DIR",
     "sharded solution (docs/shard-format.md)"},
    {"json", NULL, SLP_OPT_PATH, RUN(json_path), 0, 0, NULL, NULL, "output", "FILE",
     "run summary (docs/cli.md)"},
    {"log-csv", NULL, SLP_OPT_PATH, RUN(trace_path), 0, 0, NULL, NULL, "output", "FILE",
     "one CSV row per check (iteration, time, objectives, residuals)"},
    {"log-file", NULL, SLP_OPT_PATH, RUN(log_path), 0, 0, NULL, NULL, "output", "FILE",
     "the log is also written there (rank 0)"},
    {"verbosity", NULL, SLP_OPT_INT, RUN(verbosity), 0, 2, NULL, NULL, "output", "V",
     "0 quiet, 1 log, 2 every check"},
    {"log-to-console", NULL, SLP_OPT_BOOL, RUN(log_to_console), 0, 0, NULL, NULL, "output", NULL,
     "print the log (HiGHS: false is the same as --quiet)"},
    {"output-flag", NULL, SLP_OPT_BOOL, RUN(output_flag), 0, 0, NULL, NULL, "output", NULL,
     "any log at all, console and --log-file (HiGHS's switch)"},
    {"quiet", NULL, SLP_OPT_FLAG, NOFIELD, 0, 0, NULL, "verbosity=0", "output",
     NULL, "no log (verbosity 0)"},
    {"verbose", NULL, SLP_OPT_FLAG, NOFIELD, 0, 0, NULL, "verbosity=2", "output", NULL,
     "every check in the log (verbosity 2)"},
    /* reliability */
    {"checkpoint", NULL, SLP_OPT_PATH, RUN(checkpoint_dir), 0, 0, NULL, NULL, "reliability", "DIR",
     "save the solver state to DIR (docs/reliability.md)"},
    {"checkpoint-every", NULL, SLP_OPT_REAL, RUN(checkpoint_every), 1e-300, BIG, NULL, NULL,
     "reliability", "SEC", "seconds between checkpoints"},
    {"resume", NULL, SLP_OPT_PATH, RUN(resume_dir), 0, 0, NULL, NULL, "reliability", "DIR",
     "continue from the checkpoint in DIR (same model, grid, options); none there yet: "
     "a cold start"},
    /* input */
    {"model-file", NULL, SLP_OPT_PATH, RUN(model_path), 0, 0, NULL, NULL, "input", "FILE",
     "the model (the same as the first argument)"},
    {"start", "read_solution_file", SLP_OPT_PATH, RUN(start_path), 0, 0, NULL, NULL, "input",
     "FILE", "warm start from a text solution of this model (HiGHS raw style, as --sol writes "
     "and PuLP's warmStart; model files only)"},
    {"options-file", NULL, SLP_OPT_FILE, NOFIELD, 0, 0, NULL, NULL, "input", "FILE",
     "HiGHS options file: lines `name = value` with the names of this table or HiGHS's; "
     "HiGHS options without use here are ignored (named in one warning unless they hold "
     "HiGHS's default)"},
    {"solver", NULL, SLP_OPT_CHOICE, RUN(highs_solver), 0, 0,
     "choose|simplex|ipm|ipx|hipo|pdlp", NULL, "input", NULL,
     "HiGHS's LP solver choice: shardlp always runs its own method; any choice but choose "
     "means, as in HiGHS, that a model with integer columns is solved as its LP relaxation"},
};

const slp_option_t *slp_option_table(int *count)
{
    *count = (int)(sizeof TABLE / sizeof TABLE[0]);
    return TABLE;
}

/* Names compare with '-' and '_' as the same character; `given` may start with "--". */
static int same_name(const char *given, const char *name, size_t len)
{
    size_t k = 0;
    for (; k < len && given[k]; k++) {
        char a = given[k] == '_' ? '-' : given[k], b = name[k] == '_' ? '-' : name[k];
        if (a != b)
            return 0;
    }
    return k == len && given[k] == '\0';
}

/* Whether `given` is one of the '|'-separated names of `list`. */
static int in_list(const char *given, const char *list)
{
    while (list && *list) {
        const char *bar = strchr(list, '|');
        size_t len = bar ? (size_t)(bar - list) : strlen(list);
        if (same_name(given, list, len))
            return 1;
        list = bar ? bar + 1 : NULL;
    }
    return 0;
}

const slp_option_t *slp_option_find(const char *name)
{
    if (!name)
        return NULL;
    if (name[0] == '-' && name[1] == '-')
        name += 2;
    int count = 0;
    const slp_option_t *t = slp_option_table(&count);
    for (int k = 0; k < count; k++)
        if (in_list(name, t[k].name) || in_list(name, t[k].highs))
            return &t[k];
    return NULL;
}

int slp_option_is_highs_name(const slp_option_t *opt, const char *name)
{
    if (name && name[0] == '-' && name[1] == '-')
        name += 2;
    return name && !in_list(name, opt->name) && in_list(name, opt->highs);
}

/* ------------------------------------------------------------------ help */

static void default_text(const slp_option_t *opt, char *buf, size_t size)
{
    slp_run_options_t d;
    slp_run_options_default(&d);
    buf[0] = '\0';
    if (opt->type == SLP_OPT_INT64 && d.solver.iter_limit == INT64_MAX)
        snprintf(buf, size, "none");
    else if (slp_option_get(&d, opt->name, buf, size) != SLP_OK)
        buf[0] = '\0';
    slp_error_clear();
    slp_run_options_free(&d);
}

/* "--name ARG", "--name / --no-name" or "--name". */
static void usage_text(const slp_option_t *opt, char *buf, size_t size)
{
    if (opt->type == SLP_OPT_BOOL)
        snprintf(buf, size, "--%s / --no-%s", opt->name, opt->name);
    else if (opt->type == SLP_OPT_CHOICE)
        snprintf(buf, size, "--%s %s", opt->name, opt->choices);
    else if (opt->arg)
        snprintf(buf, size, "--%s %s", opt->name, opt->arg);
    else
        snprintf(buf, size, "--%s", opt->name);
}

enum { HELP_INDENT = 33, HELP_WIDTH = 100 };

/* `text` in words from column `col` (the cursor's), wrapped at HELP_WIDTH with
 * continuation lines indented to HELP_INDENT. */
static void print_wrapped(FILE *out, const char *text, int col)
{
    for (const char *p = text; *p;) {
        while (*p == ' ')
            p++;
        int len = (int)strcspn(p, " ");
        if (col > HELP_INDENT && col + 1 + len > HELP_WIDTH) { /* next line */
            fprintf(out, "\n%*s", HELP_INDENT, "");
            col = HELP_INDENT;
        } else if (col > HELP_INDENT) {
            fputc(' ', out);
            col++;
        }
        fprintf(out, "%.*s", len, p);
        col += len;
        p += len;
    }
    fputc('\n', out);
}

void slp_option_print_help(FILE *out)
{
    int count = 0;
    const slp_option_t *t = slp_option_table(&count);
    const char *group = NULL;
    for (int k = 0; k < count; k++) {
        if (!t[k].group)
            continue;
        if (!group || strcmp(group, t[k].group)) /* a new section */
            fprintf(out, "%s:\n", t[k].group);
        group = t[k].group;
        char usage[96], def[64], text[768];
        usage_text(&t[k], usage, sizeof usage);
        default_text(&t[k], def, sizeof def);
        int n = snprintf(text, sizeof text, "%s", t[k].help);
        if (def[0] && t[k].type != SLP_OPT_FLAG && n < (int)sizeof text)
            n += snprintf(text + n, sizeof text - (size_t)n, " (default %s)", def);
        if (t[k].highs && n < (int)sizeof text)
            snprintf(text + n, sizeof text - (size_t)n, " [%s%s]",
                     "HiGHS: ", t[k].highs);
        if (strlen(usage) > HELP_INDENT - 3) /* a long usage: the text starts below */
            fprintf(out, "  %s\n%*s", usage, HELP_INDENT, "");
        else
            fprintf(out, "  %-30s ", usage);
        print_wrapped(out, text, HELP_INDENT);
    }
}

/* One markdown cell: '|' escaped, or, in a list of names ("a|b"), written ", ". */
static void print_cell(FILE *out, const char *text, int is_list)
{
    fputs(" ", out);
    for (const char *p = text; *p; p++) {
        if (*p == '|' && is_list)
            fputs(", ", out);
        else if (*p == '|')
            fputs("\\|", out);
        else
            fputc(*p, out);
    }
    fputs(" |", out);
}

void slp_option_print_markdown(FILE *out)
{
    int count = 0;
    const slp_option_t *t = slp_option_table(&count);
    fprintf(out, "| option | default | other names | meaning |\n|---|---|---|---|\n");
    for (int k = 0; k < count; k++) {
        char usage[96], def[64], cell[128];
        usage_text(&t[k], usage, sizeof usage);
        default_text(&t[k], def, sizeof def);
        fputc('|', out);
        snprintf(cell, sizeof cell, "`%s`", usage);
        print_cell(out, cell, 0);
        print_cell(out, t[k].type == SLP_OPT_FLAG ? "" : def, 0);
        print_cell(out, t[k].highs ? t[k].highs : "", 1);
        print_cell(out, t[k].help, 0);
        fputc('\n', out);
    }
}
