/* The command line of the subcommands other than solve (shard, gen, check, info,
 * convert): each describes its options once, as a table of rows, and this file reads
 * argv through it and prints the command's --help from it. (`shardlp solve` reads the
 * run layer's option table, run/option_table.h, which the options files and the C API
 * share.) Values are "--name VALUE" or "--name=VALUE"; errors name the command. */
#ifndef SLP_CLI_ARGS_H
#define SLP_CLI_ARGS_H

#include <stddef.h>
#include <stdio.h>

#include "core/error.h"

typedef enum {
    CLI_FLAG,   /* no value: the int field becomes 1 */
    CLI_TEXT,   /* const char * into argv */
    CLI_INT,    /* int64_t in [lo, hi] */
    CLI_REAL,   /* double in [lo, hi] */
    CLI_BYTES,  /* int64_t byte count: 512M, 2G (powers of 1024) */
    CLI_CHOICE  /* int: index of the value in `choices` ("none|benchmark") */
} cli_arg_type;

typedef struct {
    const char *name;    /* "--grid" */
    cli_arg_type type;
    size_t offset;       /* field in the command's options struct */
    double lo, hi;       /* INT / REAL range */
    const char *choices; /* CHOICE values */
    const char *arg;     /* placeholder of the value in --help ("RxC") */
    const char *help;    /* --help text; lines after the first start with '\n' */
} cli_option_t;

typedef struct {
    const char *name;       /* "check": errors read "check: ..." */
    const char *usage;      /* the usage lines, without "usage: " */
    const char *about;      /* paragraph(s) after the usage, or NULL */
    const cli_option_t *options;
    int option_count;
    size_t positional_offset; /* const char *[] field that takes the arguments */
    int positional_max;       /* how many it has room for */
    const char *footer;       /* text after the options in --help, or NULL */
    /* An option no row names ("--commodities 10" of a gen family): called with its name
     * and value (the next argument), or NULL to refuse unknown options. */
    slp_err (*other)(void *opts, const char *name, const char *value);
} cli_command_t;

/* Read argv[1..argc) into `opts` (already holding the defaults). *help is set when
 * --help or -h is given (then nothing else is checked). */
slp_err slp_cli_parse(const cli_command_t *cmd, int argc, char **argv, void *opts, int *help);
/* The command's --help, from its rows. */
void slp_cli_print_help(const cli_command_t *cmd, FILE *out);

#endif
