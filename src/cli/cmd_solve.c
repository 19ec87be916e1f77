/* shardlp solve: the command line read through the option table (run/option_table.c),
 * then one run of the run layer (run/run.h). */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/parse.h"
#include "run/highs_options.h"
#include "run/option_table.h"
#include "run/run.h"

static void print_usage(void)
{
    printf("usage: shardlp solve MODEL [options]      (MODEL: file.mps, file.mps.gz, shard directory)\n"
           "\n"
           "Every option is also --name=value; '-' and '_' are the same in names; the HiGHS\n"
           "names in [ ] work on the command line and in --options_file files.\n"
           "\n");
    slp_option_print_help(stdout);
    printf("\nSIGINT/SIGTERM/SIGUSR1 stop at the next check with status 'interrupted' and write outputs\n(and a last checkpoint with --checkpoint).\n");
}

/* HiGHS writes `--presolve off`: a boolean option takes the next argument when it
 * is one of HiGHS's boolean words. */
static int is_bool_word(const char *s)
{
    return slp_bool_word(s) >= 0 || !strcmp(s, "choose");
}

/* One "--name[=value]" argument at argv[*k]; may consume the next argument. */
static slp_err parse_option(int argc, char **argv, int *k, slp_run_options_t *o)
{
    char name[128];
    const char *arg = argv[*k], *eq = strchr(arg, '='), *value = eq ? eq + 1 : NULL;
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    if (len >= sizeof name)
        return slp_error(SLP_ERR_INPUT, "unknown option %s", arg);
    memcpy(name, arg, len);
    name[len] = '\0';
    const slp_option_t *opt = slp_option_find(name);
    if (!opt && !strncmp(name, "--no-", 5) && !value) { /* --no-polish */
        opt = slp_option_find(name + 5);
        if (opt && opt->type == SLP_OPT_BOOL)
            return slp_option_set(o, opt->name, "off");
        opt = NULL;
    }
    int highs_only = !opt && slp_highs_default(name + 2); /* --parallel on: no effect */
    if (!opt && !highs_only)
        return slp_error(SLP_ERR_INPUT, "unknown option %s (see shardlp solve --help)", name);
    if (!value && opt && opt->type == SLP_OPT_BOOL)
        value = *k + 1 < argc && is_bool_word(argv[*k + 1]) ? argv[++*k] : "on";
    else if (!value && (highs_only || opt->type != SLP_OPT_FLAG)) {
        if (*k + 1 >= argc)
            return slp_error(SLP_ERR_INPUT, "option %s needs a value", name + 2);
        value = argv[++*k];
    }
    return slp_option_set(o, name, value);
}

static slp_err parse_args(int argc, char **argv, slp_run_options_t *o, int *help)
{
    slp_run_options_default(o);
    *help = 0;
    for (int k = 1; k < argc; k++) {
        const char *arg = argv[k];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h"))
            *help = 1;
        else if (arg[0] == '-' && arg[1] == '-')
            SLP_CALL(parse_option(argc, argv, &k, o));
        else if (!o->model_path)
            SLP_CALL(slp_option_set(o, "model-file", arg));
        else
            return slp_error(SLP_ERR_INPUT, "unexpected argument '%s' (one model per run)", arg);
    }
    if (!*help && !o->model_path)
        return slp_error(SLP_ERR_INPUT, "no model given (usage: shardlp solve MODEL [options])");
    return SLP_OK;
}

/* `shardlp solve ...`, or with highs_style `shardlp MODEL ...` (the `highs` binary's form). */
static int solve(int argc, char **argv, int highs_style)
{
    slp_interrupt_install();
    slp_interrupt_quiet_exit(slp_comm_size(slp_comm_world()) > 1);
    int rank = slp_comm_rank(slp_comm_world()), help = 0;
    slp_log_set_printing(rank == 0);
    slp_run_options_t o;
    slp_run_output_t out = {0};
    slp_err rc = parse_args(argc, argv, &o, &help); /* the same on every rank */
    o.highs_style |= highs_style;
    int report = rc != SLP_OK && rank == 0;
    if (rc == SLP_OK && help && rank == 0)
        print_usage();
    if (rc == SLP_OK && !help) {
        slp_run_input_t in = {.path = o.model_path};
        rc = slp_run(&o, &in, NULL, &out);
        report = rc != SLP_OK && rank == out.error_rank;
    }
    if (report)
        slp_cli_error("%s", slp_error_message());
    slp_run_output_free(&out);
    slp_run_options_free(&o);
    if (rc == SLP_OK)
        return 0;
    return rc == SLP_ERR_INPUT || rc == SLP_ERR_IO ? 1 : 2;
}

int slp_cmd_solve(int argc, char **argv)
{
    return solve(argc, argv, 0);
}

int slp_cmd_solve_highs_style(int argc, char **argv)
{
    return solve(argc, argv, 1);
}
