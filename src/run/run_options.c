/* Setting, reading and copying run options through the option table. */
#include "run/run_options.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/parse.h"
#include "grid/grid.h"
#include "plan/exchange.h"
#include "run/highs_options.h"
#include "run/option_table.h"

void slp_run_options_default(slp_run_options_t *o)
{
    memset(o, 0, sizeof *o);
    slp_settings_default(&o->solver);
    o->backend = SLP_BACKEND_CPU;
    o->verbosity = 1;
    o->log_to_console = 1;
    o->output_flag = 1;
    o->write_solution = 1;
    o->checkpoint_every = 300.0;
}

static char **path_field(slp_run_options_t *o, const slp_option_t *opt)
{
    return (char **)(void *)((char *)o + opt->offset);
}

void slp_run_options_free(slp_run_options_t *o)
{
    int count = 0;
    const slp_option_t *t = slp_option_table(&count);
    for (int k = 0; k < count; k++)
        if (t[k].type == SLP_OPT_PATH) {
            char **p = path_field(o, &t[k]);
            free(*p);
            *p = NULL;
        }
}

slp_err slp_run_options_copy(const slp_run_options_t *src, slp_run_options_t *dst)
{
    *dst = *src;
    int count = 0;
    const slp_option_t *t = slp_option_table(&count);
    slp_err rc = SLP_OK;
    for (int k = 0; k < count; k++) {
        if (t[k].type != SLP_OPT_PATH)
            continue;
        char **p = path_field(dst, &t[k]);
        if (*p && !(*p = slp_strdup(*p)))
            rc = SLP_ERR_NOMEM; /* the rest stay NULL-safe to free */
    }
    if (rc != SLP_OK) {
        slp_run_options_free(dst);
        return slp_error(rc, "out of memory copying the options");
    }
    return SLP_OK;
}

/* The index of `value` among the '|'-separated `choices`, or -1. */
static int choice_index(const char *choices, const char *value)
{
    int index = 0;
    for (const char *p = choices; p; index++) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (strlen(value) == len && !strncmp(p, value, len))
            return index;
        p = bar ? bar + 1 : NULL;
    }
    return -1;
}

static slp_err set_choice(const slp_option_t *opt, const char *label, const char *value, int *out)
{
    int index = choice_index(opt->choices, value);
    if (index < 0) {
        char allowed[128];
        snprintf(allowed, sizeof allowed, "%s", opt->choices);
        for (char *p = allowed; *p; p++)
            if (*p == '|')
                *p = '/';
        return slp_error(SLP_ERR_INPUT, "option %s: '%s' is not one of %s", label, value, allowed);
    }
    *out = index;
    return SLP_OK;
}

static slp_err set_path(char **field, const char *label, const char *value)
{
    if (!value[0])
        return slp_error(SLP_ERR_INPUT, "option %s: empty path", label);
    char *copy = slp_strdup(value);
    if (!copy)
        return slp_error(SLP_ERR_NOMEM, "option %s: out of memory", label);
    free(*field);
    *field = copy;
    return SLP_OK;
}

/* BOOL: HiGHS's words; "choose" leaves the default. */
static slp_err set_bool(const char *label, const char *value, int *out)
{
    if (!strcmp(value, "choose"))
        return SLP_OK;
    return slp_parse_bool(label, value, out);
}

static slp_err set_number(const slp_option_t *opt, const char *label, const char *value,
                          void *field)
{
    if (opt->type == SLP_OPT_REAL) /* a range open to the top takes inf */
        return slp_parse_double(label, value, opt->lo, opt->hi >= SLP_OPT_BIG ? INFINITY : opt->hi,
                                (double *)field);
    int64_t hi = opt->hi >= 9.2e18 ? INT64_MAX : (int64_t)opt->hi, v = 0;
    SLP_CALL(slp_parse_int64(label, value, (int64_t)opt->lo, hi, &v));
    if (opt->type == SLP_OPT_INT)
        *(int *)field = (int)v;
    else
        *(int64_t *)field = v;
    return SLP_OK;
}

/* A FLAG takes no value; the API and files may say true (set) or false (nothing). */
static slp_err flag_wanted(const char *label, const char *value, int *wanted)
{
    *wanted = 1;
    return value ? slp_parse_bool(label, value, wanted) : SLP_OK;
}

static slp_err set_value(slp_run_options_t *o, const slp_option_t *opt, const char *label,
                         const char *value, int *then_imply)
{
    void *field = (char *)o + opt->offset;
    *then_imply = 1;
    if (opt->type == SLP_OPT_FLAG)
        return flag_wanted(label, value, then_imply);
    if (!value)
        return slp_error(SLP_ERR_INPUT, "option %s needs a value", label);
    switch (opt->type) {
    case SLP_OPT_REAL:
    case SLP_OPT_INT:
    case SLP_OPT_INT64:
        return set_number(opt, label, value, field);
    case SLP_OPT_BOOL:
        return set_bool(label, value, (int *)field);
    case SLP_OPT_CHOICE:
        return set_choice(opt, label, value, (int *)field);
    case SLP_OPT_GRID:
        if (!strcmp(value, "0x0") || !strcmp(value, "auto")) { /* auto: -1 x -1 */
            ((int *)field)[0] = ((int *)field)[1] = value[0] == 'a' ? -1 : 0;
            return SLP_OK;
        }
        if (slp_grid_parse(value, &((int *)field)[0], &((int *)field)[1]) != SLP_OK) {
            slp_error_clear();
            return slp_error(SLP_ERR_INPUT, "option %s: '%s' is not RxC with positive R and C "
                             "(e.g. 2x4), 0x0 or auto", label, value);
        }
        return SLP_OK;
    case SLP_OPT_PATH:
        return set_path((char **)field, label, value);
    case SLP_OPT_FILE:
        return slp_options_file_read(value, o);
    case SLP_OPT_FLAG:
        break;
    }
    return slp_error(SLP_ERR_INTERNAL, "option %s: unhandled type", label);
}

/* A HiGHS option shardlp has no use for: nothing to do at its default, else noted
 * for the run's one warning. */
static slp_err ignore_highs_option(slp_run_options_t *o, const char *name, const char *value)
{
    if (!value)
        return slp_error(SLP_ERR_INPUT, "option %s needs a value", name);
    o->highs_style = 1;
    if (slp_highs_is_default(name, value))
        return SLP_OK;
    size_t used = strlen(o->highs_ignored), cap = sizeof o->highs_ignored;
    if (used + strlen(name) + strlen(value) + 8 < cap)
        snprintf(o->highs_ignored + used, cap - used, "%s%s=%s", used ? ", " : "", name, value);
    else if (used + 6 < cap && !strstr(o->highs_ignored, ", ..."))
        snprintf(o->highs_ignored + used, cap - used, ", ...");
    return SLP_OK;
}

slp_err slp_option_set(slp_run_options_t *o, const char *name, const char *value)
{
    const slp_option_t *opt = slp_option_find(name);
    const char *label = name && name[0] == '-' && name[1] == '-' ? name + 2 : name;
    if (!opt && label && slp_highs_default(label))
        return ignore_highs_option(o, label, value);
    if (!opt)
        return slp_error(SLP_ERR_INPUT, "unknown option '%s' (shardlp solve --help lists them)",
                         label ? label : "(null)");
    int then_imply = 0;
    SLP_CALL(set_value(o, opt, label, value, &then_imply));
    if (!strcmp(opt->name, "tol"))
        o->tol_given = 1;
    if (slp_option_is_highs_name(opt, name))
        o->highs_style = 1;
    if (!opt->implies || !then_imply)
        return SLP_OK;
    char implied[64];
    snprintf(implied, sizeof implied, "%s", opt->implies);
    char *eq = strchr(implied, '=');
    *eq = '\0';
    return slp_option_set(o, implied, eq + 1);
}

slp_err slp_option_get(const slp_run_options_t *o, const char *name, char *buf, size_t size)
{
    const slp_option_t *opt = slp_option_find(name);
    if (!opt)
        return slp_error(SLP_ERR_INPUT, "unknown option '%s'", name ? name : "(null)");
    const void *field = (const char *)o + opt->offset;
    buf[0] = '\0';
    switch (opt->type) {
    case SLP_OPT_REAL:
        snprintf(buf, size, "%.17g", *(const double *)field);
        break;
    case SLP_OPT_INT:
        snprintf(buf, size, "%d", *(const int *)field);
        break;
    case SLP_OPT_INT64:
        snprintf(buf, size, "%lld", (long long)*(const int64_t *)field);
        break;
    case SLP_OPT_BOOL:
        snprintf(buf, size, "%s", *(const int *)field ? "on" : "off");
        break;
    case SLP_OPT_CHOICE: {
        int index = *(const int *)field;
        const char *p = opt->choices;
        for (int k = 0; k < index && p; k++)
            p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL;
        size_t len = p ? strcspn(p, "|") : 0;
        snprintf(buf, size, "%.*s", (int)len, p ? p : "");
        break;
    }
    case SLP_OPT_GRID:
        snprintf(buf, size, "%dx%d", ((const int *)field)[0], ((const int *)field)[1]);
        break;
    case SLP_OPT_PATH:
        snprintf(buf, size, "%s", *(char *const *)field ? *(char *const *)field : "");
        break;
    default:
        return slp_error(SLP_ERR_INPUT, "option %s has no value to read", opt->name);
    }
    return SLP_OK;
}

double slp_run_tolerance(const slp_run_options_t *o)
{
    return o->highs_style && !o->tol_given ? SLP_HIGHS_STYLE_TOL : o->solver.tol;
}

slp_err slp_run_options_validate(const slp_run_options_t *o)
{
    if ((o->checkpoint_dir || o->resume_dir) && o->solver.polish)
        return slp_error(SLP_ERR_INPUT,
                         "checkpoint = DIR / resume = DIR do not support polish = on yet");
    if (o->solver.comm_lib == SLP_COMM_LIB_NCCL && o->backend != SLP_BACKEND_CUDA)
        return slp_error(SLP_ERR_INPUT, "comm_lib = nccl needs backend = cuda");
    if (o->crossover)
        return slp_error(SLP_ERR_UNSUPPORTED,
                         "crossover = on: this build has no HiGHS library to run crossover with; "
                         "Python's Model.solve(crossover=True) runs HiGHS's crossover through "
                         "highspy (docs/session.md, \"Vertex solutions\")");
    if (o->solver.precision == SLP_PRECISION_FP32_MATRIX && (o->checkpoint_dir || o->resume_dir))
        return slp_error(SLP_ERR_INPUT,
                         "checkpoint = DIR / resume = DIR do not support precision = fp32-matrix yet");
    return SLP_OK;
}

/* ---------------------------------------------------------- options files */

enum { MAX_OPTIONS_FILE_DEPTH = 8 };

/* One `name = value` line; errors are prefixed with FILE:LINE. */
/* "name = value" with the value possibly empty; both trimmed. 0 if no '=' or no name. */
static int split_line(char *line, char *name, size_t name_size, char *value, size_t value_size)
{
    char *eq = strchr(line, '=');
    if (!eq)
        return 0;
    *eq = '\0';
    char *a = line, *b = eq + 1;
    while (*a == ' ' || *a == '\t')
        a++;
    while (*b == ' ' || *b == '\t')
        b++;
    size_t la = strcspn(a, " \t\r\n"), lb = strlen(b);
    while (lb > 0 && (b[lb - 1] == ' ' || b[lb - 1] == '\t' || b[lb - 1] == '\r' ||
                      b[lb - 1] == '\n'))
        lb--;
    if (la == 0 || la >= name_size || lb >= value_size || a[la + strspn(a + la, " \t")] != '\0')
        return 0;
    memcpy(name, a, la);
    name[la] = '\0';
    memcpy(value, b, lb);
    value[lb] = '\0';
    return 1;
}

static void clear_path(slp_run_options_t *o, const slp_option_t *opt)
{
    char **p = path_field(o, opt);
    free(*p);
    *p = NULL;
}

/* HiGHS's comments: '#' at the start of a line or after white space; a '#' inside a
 * value (out#1.sol) is part of it. */
static void strip_comment(char *line)
{
    for (char *p = line; *p; p++)
        if (*p == '#' && (p == line || p[-1] == ' ' || p[-1] == '\t')) {
            *p = '\0';
            return;
        }
}

/* Whether an options file's HiGHS tolerance (one of --tol's HiGHS names) is passed over,
 * as HiGHS reads such a file (highspy's writeOptions writes every option, most at their
 * defaults): a value at HiGHS's default never overrides one set off it; kkt_tolerance
 * off its default takes precedence over the single tolerances; of several single ones
 * off their defaults the tightest holds (docs/cli.md, "Options files"). */
static int tolerance_passed_over(slp_run_options_t *o, const slp_option_t *opt, const char *name,
                                 const char *value)
{
    if (strcmp(opt->name, "tol") || !slp_option_is_highs_name(opt, name))
        return 0;
    if (slp_highs_is_default(name, value))
        return 1;
    if (!strcmp(name, "kkt_tolerance")) {
        o->file_tol_kkt = 1;
        return 0;
    }
    if (o->file_tol_kkt)
        return 1;
    double v = strtod(value, NULL);
    if (o->file_tol_highs && !(v < o->solver.tol))
        return 1;
    o->file_tol_highs = 1;
    return 0;
}

static slp_err apply_line(slp_run_options_t *o, const char *path, int lineno, char *line)
{
    strip_comment(line);
    char name[256], value[2048], rest[8];
    if (!split_line(line, name, sizeof name, value, sizeof value)) {
        if (sscanf(line, " %7s", rest) == 1)
            return slp_error(SLP_ERR_INPUT, "%s:%d: expected 'name = value'", path, lineno);
        return SLP_OK; /* blank or comment */
    }
    const slp_option_t *opt = slp_option_find(name);
    if (!opt && !slp_highs_default(name)) {
        slp_warn("%s:%d: '%s' is neither a shardlp nor a HiGHS option; ignored\n", path, lineno,
                 name);
        return SLP_OK;
    }
    if (!value[0] && (!opt || opt->type == SLP_OPT_PATH)) { /* HiGHS: "no file", "default" */
        if (opt)
            clear_path(o, opt);
        return SLP_OK;
    }
    if (opt && tolerance_passed_over(o, opt, name, value))
        return SLP_OK;
    slp_err rc = slp_option_set(o, name, value);
    if (rc != SLP_OK) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", slp_error_message());
        slp_error_clear(); /* the first message wins: replace it by the prefixed one */
        rc = slp_error(rc, "%s:%d: %s", path, lineno, msg);
    }
    return rc;
}

slp_err slp_options_file_read(const char *path, slp_run_options_t *o)
{
    if (o->options_file_depth >= MAX_OPTIONS_FILE_DEPTH)
        return slp_error(SLP_ERR_INPUT, "%s: options files nested more than %d deep",
                         path, MAX_OPTIONS_FILE_DEPTH);
    FILE *f = fopen(path, "r");
    if (!f)
        return slp_error(SLP_ERR_IO, "%s: cannot open options file", path);
    o->options_file_depth++;
    o->highs_style = 1;
    char line[4096];
    int lineno = 0;
    slp_err rc = SLP_OK;
    while (rc == SLP_OK && fgets(line, sizeof line, f))
        rc = apply_line(o, path, ++lineno, line);
    fclose(f);
    o->options_file_depth--;
    return rc;
}
