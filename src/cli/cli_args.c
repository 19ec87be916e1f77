/* Subcommand options read through each command's table (cli/cli_args.h). */
#include "cli/cli_args.h"

#include <stdint.h>
#include <string.h>

#include "core/parse.h"

static const cli_option_t *find_row(const cli_command_t *cmd, const char *name, size_t len)
{
    for (int k = 0; k < cmd->option_count; k++)
        if (strlen(cmd->options[k].name) == len && !strncmp(cmd->options[k].name, name, len))
            return &cmd->options[k];
    return NULL;
}

static slp_err set_choice(const cli_command_t *cmd, const cli_option_t *row, const char *value,
                          int *out)
{
    const char *c = row->choices;
    for (int index = 0; c && *c; index++) {
        size_t len = strcspn(c, "|");
        if (strlen(value) == len && !strncmp(c, value, len)) {
            *out = index;
            return SLP_OK;
        }
        c += len + (c[len] == '|');
    }
    return slp_error(SLP_ERR_INPUT, "%s: option %s: '%s' is not one of %s", cmd->name, row->name,
                     value, row->choices);
}

static slp_err set_value(const cli_command_t *cmd, const cli_option_t *row, const char *value,
                         void *opts)
{
    char *field = (char *)opts + row->offset;
    switch (row->type) {
    case CLI_FLAG: *(int *)field = 1; return SLP_OK;
    case CLI_TEXT:
        if (!*value)
            return slp_error(SLP_ERR_INPUT, "%s: option %s needs a value", cmd->name, row->name);
        *(const char **)field = value;
        return SLP_OK;
    case CLI_INT:
        return slp_parse_int64(row->name, value, (int64_t)row->lo,
                               row->hi >= 9.2e18 ? INT64_MAX : (int64_t)row->hi, (int64_t *)field);
    case CLI_REAL: return slp_parse_double(row->name, value, row->lo, row->hi, (double *)field);
    case CLI_BYTES: return slp_parse_bytes(row->name, value, (int64_t *)field);
    case CLI_CHOICE: return set_choice(cmd, row, value, (int *)field);
    }
    return SLP_OK;
}

/* One "--name[=value]" argument at argv[*k]; a value-taking option may consume the next. */
static slp_err read_option(const cli_command_t *cmd, int argc, char **argv, int *k, void *opts)
{
    const char *arg = argv[*k], *eq = strchr(arg, '=');
    const char *value = eq ? eq + 1 : NULL;
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    const cli_option_t *row = find_row(cmd, arg, len);
    if (row && row->type == CLI_FLAG) {
        if (value)
            return slp_error(SLP_ERR_INPUT, "%s: option %.*s takes no value", cmd->name, (int)len,
                             arg);
        return set_value(cmd, row, "", opts);
    }
    if (!row && !cmd->other)
        return slp_error(SLP_ERR_INPUT, "%s: unknown option %.*s (see shardlp %s --help)",
                         cmd->name, (int)len, arg, cmd->name);
    if (!value) {
        if (*k + 1 >= argc)
            return slp_error(SLP_ERR_INPUT, "%s: option %s needs a value", cmd->name, arg);
        value = argv[++*k];
    }
    if (row)
        return set_value(cmd, row, value, opts);
    char name[128];
    if (len >= sizeof name)
        return slp_error(SLP_ERR_INPUT, "%s: unknown option %.40s...", cmd->name, arg);
    memcpy(name, arg, len);
    name[len] = '\0';
    return cmd->other(opts, name, value);
}

slp_err slp_cli_parse(const cli_command_t *cmd, int argc, char **argv, void *opts, int *help)
{
    *help = 0;
    for (int k = 1; k < argc; k++)
        if (!strcmp(argv[k], "--help") || !strcmp(argv[k], "-h")) {
            *help = 1;
            return SLP_OK;
        }
    const char **positional = (const char **)((char *)opts + cmd->positional_offset);
    int given = 0;
    for (int k = 1; k < argc; k++) {
        const char *arg = argv[k];
        if (arg[0] == '-' && arg[1] == '-') {
            SLP_CALL(read_option(cmd, argc, argv, &k, opts));
        } else if (arg[0] == '-' && arg[1]) {
            return slp_error(SLP_ERR_INPUT, "%s: unknown option %s (see shardlp %s --help)",
                             cmd->name, arg, cmd->name);
        } else if (given < cmd->positional_max) {
            positional[given++] = arg;
        } else {
            return slp_error(SLP_ERR_INPUT, "%s: unexpected argument '%s' (usage: shardlp %.*s)",
                             cmd->name, arg, (int)strcspn(cmd->usage, "\n"), cmd->usage);
        }
    }
    return SLP_OK;
}

/* "  --name ARG" padded to the help column; help lines after the first indented. */
static void print_row(const cli_option_t *row, FILE *out)
{
    enum { COLUMN = 24 };
    char head[64];
    snprintf(head, sizeof head, "  %s%s%s", row->name, row->arg ? " " : "",
             row->arg ? row->arg : "");
    fprintf(out, "%-*s", COLUMN, head);
    if (strlen(head) >= COLUMN)
        fprintf(out, "\n%*s", COLUMN, "");
    for (const char *h = row->help; *h; h++) {
        fputc(*h, out);
        if (*h == '\n')
            fprintf(out, "%*s", COLUMN, "");
    }
    fputc('\n', out);
}

void slp_cli_print_help(const cli_command_t *cmd, FILE *out)
{
    const char *u = cmd->usage;
    fprintf(out, "usage: shardlp %.*s\n", (int)strcspn(u, "\n"), u);
    for (u += strcspn(u, "\n"); *u == '\n'; u += strcspn(u, "\n")) {
        u++;
        fprintf(out, "       shardlp %.*s\n", (int)strcspn(u, "\n"), u);
    }
    if (cmd->about)
        fprintf(out, "\n%s\n", cmd->about);
    fprintf(out, "\noptions:\n");
    for (int k = 0; k < cmd->option_count; k++)
        print_row(&cmd->options[k], out);
    if (cmd->footer)
        fprintf(out, "\n%s\n", cmd->footer);
}
