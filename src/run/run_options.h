/* Every setting of a solve in one struct, and the one table that names them
 * (run/option_table.c, docs/cli.md). The command line, HiGHS options files, the C
 * API's shardlp_set_option and Python's keyword arguments all set options through
 * slp_option_set, so a setting is spelled, typed and range-checked in one place. */
#ifndef SLP_RUN_OPTIONS_H
#define SLP_RUN_OPTIONS_H

#include <stddef.h>

#include "core/error.h"
#include "solver/settings.h"

typedef enum { SLP_BACKEND_CPU = 0, SLP_BACKEND_CUDA = 1, SLP_BACKEND_GUARDED = 2 } slp_backend_kind;
/* The backends' names in the enum's order: the one spelling (the option table's choices,
 * the log and the JSON summary read it). */
#define SLP_BACKEND_CHOICES "cpu|cuda|guarded"

typedef struct slp_run_options {
    slp_settings_t solver;  /* the method's settings (defaults: slp_settings_default) */
    int grid[2];            /* R x C for MPS or in-memory input; 0 x 0 = from the rank count */
    int parallel_read;      /* MPS input under MPI: 0 auto (more than one rank), 1 on, 2 off */
    int backend;            /* slp_backend_kind */
    int relax;              /* integer columns solved as continuous (else refused) */
    int crossover;          /* a vertex solution by HiGHS's crossover (not in this build) */
    int highs_solver;       /* HiGHS's --solver: 0 choose; an LP solver relaxes integers */
    int verbosity;          /* 0 quiet, 1 log, 2 every check */
    int log_to_console;     /* HiGHS's switch: 0 = quiet whatever the verbosity */
    int output_flag;        /* HiGHS's switch: 0 = no log anywhere (console or log file) */
    int write_solution;     /* HiGHS's write_solution_to_file: --sol's file is written */
    int solution_style;     /* HiGHS's write_solution_style (0 raw: the one written) */
    double mem_limit;       /* per-rank bytes for the shard-input size check (0: system) */
    double checkpoint_every; /* seconds between checkpoints */
    /* Paths (owned; NULL = not given). */
    char *model_path;       /* the model (CLI: first argument or --model_file) */
    char *sol_path, *out_dir, *json_path, *trace_path, *log_path;
    char *checkpoint_dir, *resume_dir;
    char *start_path;       /* warm start: a text solution of the model (--start) */
    int options_file_depth; /* options files being read (guards against a file naming itself) */
    /* A HiGHS-style run (started as `shardlp MODEL`, reading an options file, or naming an
     * option by a HiGHS-only spelling) that sets no tolerance gets HiGHS's tolerance
     * (slp_run_tolerance; docs/modelling-tools.md "Tolerance"). */
    int highs_style;
    int tol_given;          /* --tol set, by any of its names */
    int file_tol_kkt;       /* an options file set kkt_tolerance off its default */
    int file_tol_highs;     /* an options file set a HiGHS tolerance off its default */
    /* HiGHS options set to something other than HiGHS's default that shardlp has no use
     * for, "name=value, ..." (one warning per run names them; run.c). */
    char highs_ignored[512];
} slp_run_options_t;

/* The defaults of the table (the command line's: verbosity 1). */
void slp_run_options_default(slp_run_options_t *o);
void slp_run_options_free(slp_run_options_t *o);
slp_err slp_run_options_copy(const slp_run_options_t *src, slp_run_options_t *dst);

/* Set one option by any of its names: shardlp's (`tol`, `time-limit`; '-' and '_'
 * are the same, a leading "--" is allowed) or HiGHS's (`time_limit`,
 * `primal_feasibility_tolerance`, ...). Any other HiGHS option (`mip_rel_gap`) is
 * accepted and has no effect (see highs_ignored). Errors name the option and the
 * allowed values. */
slp_err slp_option_set(slp_run_options_t *o, const char *name, const char *value);
/* The current value as text (what slp_option_set accepts). */
slp_err slp_option_get(const slp_run_options_t *o, const char *name, char *buf, size_t size);
/* The termination tolerance of a run: --tol when given; else SLP_HIGHS_STYLE_TOL for a
 * HiGHS-style run, the method's default (1e-4) otherwise. */
#define SLP_HIGHS_STYLE_TOL 1e-7
double slp_run_tolerance(const slp_run_options_t *o);
/* Cross-option rules checked before a run (e.g. --checkpoint with --polish). */
slp_err slp_run_options_validate(const slp_run_options_t *o);

/* A HiGHS options file: lines `name = value`, '#' comments, values may be empty
 * (a path option is then unset) or inf. Names of the table are applied; HiGHS's other
 * options are ignored (recorded in highs_ignored unless they hold HiGHS's default);
 * any other name gets a warning naming FILE:LINE. */
slp_err slp_options_file_read(const char *path, slp_run_options_t *o);

#endif
