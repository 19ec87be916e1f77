/* The option table: one row per setting (name, type, range or choices, help text,
 * HiGHS names). The defaults are those of slp_run_options_default, read back
 * through the table, so each default value is written once. */
#ifndef SLP_OPTION_TABLE_H
#define SLP_OPTION_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "run/run_options.h"

typedef enum {
    SLP_OPT_REAL,    /* double in [lo, hi] */
    SLP_OPT_INT,     /* int in [lo, hi] */
    SLP_OPT_INT64,   /* int64_t in [lo, hi] */
    SLP_OPT_BOOL,    /* int 0/1: true/false, on/off, 1/0; "choose" = the default */
    SLP_OPT_CHOICE,  /* int: index of the value in `choices` ("l2|linf") */
    SLP_OPT_GRID,    /* int[2]: "RxC" */
    SLP_OPT_PATH,    /* char * (owned copy) */
    SLP_OPT_FLAG,    /* no value: sets `implies` ("verbosity=0") */
    SLP_OPT_FILE     /* an options file to read now */
} slp_opt_type;

/* The top of a REAL range that is open: such an option also takes inf. */
#define SLP_OPT_BIG 1e300

typedef struct slp_option {
    const char *name;     /* shardlp's name (--name on the command line) */
    const char *highs;    /* other names, "a|b" (HiGHS's), or NULL */
    slp_opt_type type;
    size_t offset;        /* field in slp_run_options_t */
    double lo, hi;        /* REAL / INT / INT64 range */
    const char *choices;  /* CHOICE values, "a|b|c" */
    const char *implies;  /* "name=value" set as well, or NULL */
    const char *group;    /* section of --help */
    const char *arg;      /* placeholder of the value in --help */
    const char *help;
} slp_option_t;

/* The rows, in --help order. */
const slp_option_t *slp_option_table(int *count);
/* The row named `name` by any of its names, or NULL. */
const slp_option_t *slp_option_find(const char *name);
/* Whether NAME is one of HiGHS's spellings of OPT (its `highs` list), not shardlp's. */
int slp_option_is_highs_name(const slp_option_t *opt, const char *name);

/* `shardlp solve --help`: the options, grouped, with their defaults. */
void slp_option_print_help(FILE *out);
/* The options section of docs/cli.md (a markdown table), as generated. */
void slp_option_print_markdown(FILE *out);

#endif
