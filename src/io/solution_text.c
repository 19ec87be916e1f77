/* Text solution file (HiGHS raw style): incremental writer and reader.
 * Format and reader decisions: docs/solution-format.md. */
#include "io/solution_text.h"

#include "io/out_file.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- table of contents ------------------------------------------------- */
static slp_err writer_fail(slp_solution_writer_t *w, slp_err code);
static slp_err writer_check_io(slp_solution_writer_t *w, int printed);
static void format_value(double v, char *buf, size_t size);
static char *trim(char *s);
static int parse_number(const char *s, double *out);
static int parse_count(const char *s, int64_t *out);

static const char *const section_labels[SLP_SOL_SECTION_COUNT] = {
    "column value", "row activity", "reduced cost", "row dual", "primal ray", "dual ray"};

const char *slp_sol_section_label(slp_sol_section kind)
{
    return (unsigned)kind < SLP_SOL_SECTION_COUNT ? section_labels[kind] : "?";
}

/* Shortest text that reads back to the same double; non-finite values as
 * "nan", "inf", "-inf" (what Python's float() and C's strtod accept). */
static void format_value(double v, char *buf, size_t size)
{
    if (isnan(v))
        snprintf(buf, size, "nan");
    else if (isinf(v))
        snprintf(buf, size, v > 0 ? "inf" : "-inf");
    else
        snprintf(buf, size, "%.17g", v);
}

/* ======================================================================== */
/* Writer                                                                   */
/* ======================================================================== */

typedef enum {
    W_OPEN,        /* expect header */
    W_PRIMAL,      /* inside the primal part (sections PRIMAL_COLUMNS, PRIMAL_ROWS) */
    W_AWAIT_DUAL,  /* primal part done; expect dual_header */
    W_DUAL,        /* inside the dual part */
    W_DONE,        /* dual part done; expect close (or a certificate) */
    W_RAY,         /* inside the certificate section */
    W_FAILED
} writer_stage;

struct slp_solution_writer {
    slp_out_file_t out; /* io/out_file.h: replaced atomically on close */
    FILE *file;         /* out.f */
    const char *path;   /* out.path, for messages */
    writer_stage stage;
    int next_section;  /* the section kind section() must be called with next */
    int section;       /* current section kind, -1 when none */
    int64_t declared;  /* entries declared for the current section */
    int64_t written;   /* entries written in the current section */
};

static slp_err writer_fail(slp_solution_writer_t *w, slp_err code)
{
    w->stage = W_FAILED;
    return code;
}

static slp_err writer_check_io(slp_solution_writer_t *w, int printed)
{
    if (printed < 0)
        return writer_fail(w, slp_error(SLP_ERR_IO, "%s: write failed: %s", w->path,
                                        strerror(errno)));
    return SLP_OK;
}

slp_err slp_solution_writer_open(const char *path, slp_solution_writer_t **out)
{
    *out = NULL;
    slp_solution_writer_t *w = slp_calloc(1, sizeof *w);
    if (!w)
        return SLP_ERR_NOMEM;
    slp_err rc = slp_out_open(&w->out, path, "solution", 0);
    if (rc != SLP_OK) {
        free(w);
        return rc;
    }
    w->file = w->out.f;
    w->path = w->out.path;
    w->stage = W_OPEN;
    w->section = -1;
    *out = w;
    return SLP_OK;
}

slp_err slp_solution_writer_header(slp_solution_writer_t *w, const char *model_status,
                                   const char *primal_status, double objective)
{
    if (w->stage != W_OPEN)
        return writer_fail(w, slp_error(SLP_ERR_INTERNAL, "%s: solution header written twice or late",
                                        w->path));
    char obj[40];
    format_value(objective, obj, sizeof obj);
    int rc = fprintf(w->file, "Model status\n%s\n\n# Primal solution values\n", model_status);
    SLP_CALL(writer_check_io(w, rc));
    if (primal_status) {
        SLP_CALL(writer_check_io(w, fprintf(w->file, "%s\nObjective %s\n", primal_status, obj)));
        w->stage = W_PRIMAL;
        w->next_section = SLP_SOL_PRIMAL_COLUMNS;
    } else {
        SLP_CALL(writer_check_io(w, fputs("None\n", w->file)));
        w->stage = W_AWAIT_DUAL;
    }
    return SLP_OK;
}

/* The current section (if any) must be complete before a new part starts. */
static slp_err section_complete(slp_solution_writer_t *w)
{
    if (w->section >= 0 && w->written != w->declared)
        return writer_fail(w, slp_error(SLP_ERR_INTERNAL,
                                        "%s: section '%s' declared %lld entries, %lld written",
                                        w->path, slp_sol_section_label(w->section),
                                        (long long)w->declared, (long long)w->written));
    return SLP_OK;
}

slp_err slp_solution_writer_dual_header(slp_solution_writer_t *w, const char *dual_status)
{
    if (w->stage == W_PRIMAL && w->section == SLP_SOL_PRIMAL_ROWS) {
        SLP_CALL(section_complete(w));
    } else if (w->stage != W_AWAIT_DUAL) {
        return writer_fail(w, slp_error(SLP_ERR_INTERNAL,
                                        "%s: dual part started before the primal part was complete",
                                        w->path));
    }
    w->section = -1;
    SLP_CALL(writer_check_io(w, fprintf(w->file, "\n# Dual solution values\n%s\n",
                                        dual_status ? dual_status : "None")));
    if (dual_status) {
        w->stage = W_DUAL;
        w->next_section = SLP_SOL_DUAL_COLUMNS;
    } else {
        w->stage = W_DONE;
    }
    return SLP_OK;
}

slp_err slp_solution_writer_section(slp_solution_writer_t *w, slp_sol_section kind, int64_t count)
{
    if ((w->stage != W_PRIMAL && w->stage != W_DUAL) || (int)kind != w->next_section ||
        count < 0)
        return writer_fail(w, slp_error(SLP_ERR_INTERNAL, "%s: section '%s' out of order",
                                        w->path, slp_sol_section_label(kind)));
    SLP_CALL(section_complete(w));
    int is_cols = kind == SLP_SOL_PRIMAL_COLUMNS || kind == SLP_SOL_DUAL_COLUMNS;
    SLP_CALL(writer_check_io(
        w, fprintf(w->file, "# %s %lld\n", is_cols ? "Columns" : "Rows", (long long)count)));
    w->section = kind;
    w->declared = count;
    w->written = 0;
    w->next_section = kind == SLP_SOL_PRIMAL_COLUMNS ? SLP_SOL_PRIMAL_ROWS
                    : kind == SLP_SOL_DUAL_COLUMNS   ? SLP_SOL_DUAL_ROWS
                                                     : -1;
    return SLP_OK;
}

slp_err slp_solution_writer_ray(slp_solution_writer_t *w, slp_sol_section kind, int64_t count)
{
    if (w->stage == W_DUAL && w->section == SLP_SOL_DUAL_ROWS)
        SLP_CALL(section_complete(w));
    else if (w->stage != W_DONE)
        return writer_fail(w, slp_error(SLP_ERR_INTERNAL, "%s: certificate before the dual part "
                                        "or twice", w->path));
    if (kind != SLP_SOL_RAY_COLUMNS && kind != SLP_SOL_RAY_ROWS)
        return writer_fail(w, slp_error(SLP_ERR_INTERNAL, "%s: not a certificate section", w->path));
    int cols = kind == SLP_SOL_RAY_COLUMNS;
    SLP_CALL(writer_check_io(w, fprintf(w->file, "\n# %s\n# %s %lld\n",
                                        cols ? "Primal ray" : "Dual ray", cols ? "Columns" : "Rows",
                                        (long long)count)));
    w->stage = W_RAY;
    w->section = kind;
    w->declared = count;
    w->written = 0;
    return SLP_OK;
}

/* Characters a name in a solution file cannot hold as they are. */
#define NAME_SPECIAL " \t\r\n\v\f%"

const char *slp_solution_name(const char *name, char *buf, size_t size)
{
    if (!strpbrk(name, NAME_SPECIAL) && name[0] != '#')
        return name; /* the usual case: written as HiGHS writes it */
    size_t w = 0;
    for (const char *p = name; *p; p++) {
        int escape = strchr(NAME_SPECIAL, *p) || (p == name && *p == '#');
        if (w + (escape ? 3 : 1) >= size)
            return NULL;
        if (escape)
            w += (size_t)snprintf(buf + w, size - w, "%%%02X", (unsigned char)*p);
        else
            buf[w++] = *p;
    }
    buf[w] = '\0';
    return buf;
}

slp_err slp_solution_writer_value(slp_solution_writer_t *w, const char *name, double value)
{
    if (w->stage == W_FAILED)
        return SLP_ERR_INTERNAL;
    if (w->section < 0 || w->written >= w->declared)
        return writer_fail(w, slp_error(SLP_ERR_INTERNAL, "%s: value written outside a section "
                                        "or beyond its declared count", w->path));
    char gen[1024], num[40];
    if (!name) {
        int is_cols = w->section == SLP_SOL_PRIMAL_COLUMNS || w->section == SLP_SOL_DUAL_COLUMNS ||
                      w->section == SLP_SOL_RAY_COLUMNS;
        snprintf(gen, sizeof gen, "%c%lld", is_cols ? 'C' : 'R', (long long)w->written);
        name = gen;
    } else if (!*name) {
        return writer_fail(w, slp_error(SLP_ERR_INPUT, "%s: empty name", w->path));
    } else {
        name = slp_solution_name(name, gen, sizeof gen); /* "DEDO3 11" -> "DEDO3%2011" */
        if (!name)
            return writer_fail(w, slp_error(SLP_ERR_INPUT, "%s: a name is too long to encode",
                                            w->path));
    }
    format_value(value, num, sizeof num);
    SLP_CALL(writer_check_io(w, fprintf(w->file, "%s %s\n", name, num)));
    w->written++;
    return SLP_OK;
}

slp_err slp_solution_writer_values(slp_solution_writer_t *w, int64_t count,
                                   const char *const *names, const double *values)
{
    for (int64_t k = 0; k < count; k++)
        SLP_CALL(slp_solution_writer_value(w, names ? names[k] : NULL, values[k]));
    return SLP_OK;
}

slp_err slp_solution_writer_close(slp_solution_writer_t **wp)
{
    if (!wp || !*wp)
        return SLP_OK;
    slp_solution_writer_t *w = *wp;
    slp_err rc = SLP_OK;
    if ((w->stage == W_DUAL && w->section == SLP_SOL_DUAL_ROWS) || w->stage == W_RAY)
        rc = section_complete(w);
    else if (w->stage != W_DONE)
        rc = slp_error(w->stage == W_FAILED ? SLP_ERR_IO : SLP_ERR_INTERNAL,
                       "%s: solution file closed before it was complete", w->path);
    if (rc == SLP_OK && fputs("\n# Basis\nHiGHS v1\nNone\n", w->file) < 0)
        rc = slp_error(SLP_ERR_IO, "%s: write failed: %s", w->path, strerror(errno));
    if (rc == SLP_OK)
        rc = slp_out_commit(&w->out);
    slp_out_abort(&w->out); /* after a failure: removes the temporary file */
    free(w);
    *wp = NULL;
    return rc;
}

void slp_solution_writer_abort(slp_solution_writer_t **wp)
{
    if (!wp || !*wp)
        return;
    slp_out_abort(&(*wp)->out);
    free(*wp);
    *wp = NULL;
}

/* ======================================================================== */
/* Reader                                                                   */
/* ======================================================================== */

void slp_solution_destroy(slp_solution_t **sol)
{
    if (!sol || !*sol)
        return;
    slp_solution_t *s = *sol;
    free(s->model_status);
    free(s->primal_status);
    free(s->dual_status);
    free(s->x);
    free(s->row_activity);
    free(s->z);
    free(s->y);
    free(s->ray_x);
    free(s->ray_y);
    free(s);
    *sol = NULL;
}

/* Strip leading and trailing whitespace (including '\r') in place. */
static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        s[--len] = '\0';
    return s;
}

/* Whole-token double (strtod spelling, including nan / inf). 1 on success. */
static int parse_number(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0')
        return 0;
    *out = v; /* ERANGE: overflow gives +-HUGE_VAL (inf), underflow a tiny value: both kept */
    return 1;
}

static int parse_count(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end != '\0' || errno || v < 0)
        return 0;
    *out = v;
    return 1;
}

enum { PART_NONE, PART_PRIMAL, PART_DUAL, PART_PRIMAL_RAY, PART_DUAL_RAY };

static int section_is_columns(int kind)
{
    return kind == SLP_SOL_PRIMAL_COLUMNS || kind == SLP_SOL_DUAL_COLUMNS ||
           kind == SLP_SOL_RAY_COLUMNS;
}

typedef struct {
    const char *path;
    int64_t line_no;
    slp_solution_t *sol;
    slp_name_index_t *rows, *cols;
    unsigned char *seen[SLP_SOL_SECTION_COUNT];
    int section_declared[SLP_SOL_SECTION_COUNT];
} reader_t;

static double *section_values(slp_solution_t *s, int kind)
{
    switch (kind) {
    case SLP_SOL_PRIMAL_COLUMNS: return s->x;
    case SLP_SOL_PRIMAL_ROWS: return s->row_activity;
    case SLP_SOL_DUAL_COLUMNS: return s->z;
    case SLP_SOL_RAY_COLUMNS: return s->ray_x;
    case SLP_SOL_RAY_ROWS: return s->ray_y;
    default: return s->y;
    }
}

/* One "<name> <value>" line of section `kind`. */
static slp_err read_entry(reader_t *r, int kind, char *line)
{
    int is_cols = section_is_columns(kind);
    const char *what = is_cols ? "column" : "row";
    char *save = NULL;
    char *name = strtok_r(line, " \t", &save);
    char *num = strtok_r(NULL, " \t", &save);
    char *extra = strtok_r(NULL, " \t", &save);
    if (!name || !num || extra)
        return slp_error(SLP_ERR_INPUT, "%s:%lld: expected '<%s name> <value>', got '%s%s%s'",
                         r->path, (long long)r->line_no, what, name ? name : "",
                         num ? " " : "", num ? num : "");
    int64_t idx = slp_name_index_find(is_cols ? r->cols : r->rows, name);
    if (idx < 0)
        return slp_error(SLP_ERR_INPUT, "%s:%lld: unknown %s '%s'", r->path,
                         (long long)r->line_no, what, name);
    if (r->seen[kind][idx])
        return slp_error(SLP_ERR_INPUT, "%s:%lld: second %s for %s '%s'", r->path,
                         (long long)r->line_no, slp_sol_section_label(kind), what, name);
    double v;
    if (!parse_number(num, &v))
        return slp_error(SLP_ERR_INPUT, "%s:%lld: bad number '%s' for %s '%s'", r->path,
                         (long long)r->line_no, num, what, name);
    r->seen[kind][idx] = 1;
    section_values(r->sol, kind)[idx] = v;
    return SLP_OK;
}

/* "# Columns N" / "# Rows N" inside a part: checks N against the model. */
static slp_err read_section_header(reader_t *r, int part, int is_cols, const char *count_text,
                                   int *section)
{
    int64_t count;
    int64_t expect = is_cols ? r->sol->n : r->sol->m;
    if (part == PART_NONE)
        return slp_error(SLP_ERR_INPUT, "%s:%lld: '# %s' outside a solution part", r->path,
                         (long long)r->line_no, is_cols ? "Columns" : "Rows");
    if (!parse_count(count_text, &count))
        return slp_error(SLP_ERR_INPUT, "%s:%lld: bad count '%s'", r->path,
                         (long long)r->line_no, count_text);
    if (count != expect)
        return slp_error(SLP_ERR_INPUT, "%s:%lld: solution has %lld %s, the model has %lld",
                         r->path, (long long)r->line_no, (long long)count,
                         is_cols ? "columns" : "rows", (long long)expect);
    if ((part == PART_PRIMAL_RAY && !is_cols) || (part == PART_DUAL_RAY && is_cols))
        return slp_error(SLP_ERR_INPUT, "%s:%lld: a %s ray has one value per %s", r->path,
                         (long long)r->line_no, part == PART_PRIMAL_RAY ? "primal" : "dual",
                         part == PART_PRIMAL_RAY ? "column" : "row");
    int kind = part == PART_PRIMAL_RAY ? SLP_SOL_RAY_COLUMNS
             : part == PART_DUAL_RAY   ? SLP_SOL_RAY_ROWS
             : part == PART_PRIMAL ? (is_cols ? SLP_SOL_PRIMAL_COLUMNS : SLP_SOL_PRIMAL_ROWS)
                                   : (is_cols ? SLP_SOL_DUAL_COLUMNS : SLP_SOL_DUAL_ROWS);
    if (r->section_declared[kind])
        return slp_error(SLP_ERR_INPUT, "%s:%lld: second '# %s' section in the %s part",
                         r->path, (long long)r->line_no, is_cols ? "Columns" : "Rows",
                         part == PART_PRIMAL ? "primal" : "dual");
    r->section_declared[kind] = 1;
    *section = kind;
    return SLP_OK;
}

static slp_err read_lines(reader_t *r, FILE *f)
{
    slp_solution_t *s = r->sol;
    char *buf = NULL;
    size_t cap = 0;
    slp_err rc = SLP_OK;
    int part = PART_NONE;
    int section = -1;           /* section whose entries are being read */
    enum { WANT_NOTHING, WANT_MODEL_STATUS, WANT_PART_STATUS } want = WANT_NOTHING;
    while (getline(&buf, &cap, f) != -1) {
        r->line_no++;
        char *line = trim(buf);
        if (!*line)
            continue;
        if (want == WANT_MODEL_STATUS) {
            free(s->model_status);
            if (!(s->model_status = slp_strdup(line))) { rc = SLP_ERR_NOMEM; break; }
            want = WANT_NOTHING;
            continue;
        }
        if (want == WANT_PART_STATUS) {
            if (line[0] == '#') {
                rc = slp_error(SLP_ERR_INPUT, "%s:%lld: expected a solution status "
                               "(Feasible, Infeasible or None), got '%s'",
                               r->path, (long long)r->line_no, line);
                break;
            }
            char **dst = part == PART_PRIMAL ? &s->primal_status : &s->dual_status;
            free(*dst);
            if (!(*dst = slp_strdup(line))) { rc = SLP_ERR_NOMEM; break; }
            want = WANT_NOTHING;
            continue;
        }
        if (!strcmp(line, "Model status")) {
            want = WANT_MODEL_STATUS;
            continue;
        }
        if (line[0] == '#') {
            char *rest = trim(line + 1);
            section = -1;
            if (!strcmp(rest, "Primal solution values") || !strcmp(rest, "Dual solution values")) {
                int new_part = rest[0] == 'P' ? PART_PRIMAL : PART_DUAL;
                if (new_part <= part) {
                    rc = slp_error(SLP_ERR_INPUT, "%s:%lld: repeated or misplaced '%s'", r->path,
                                   (long long)r->line_no, line);
                    break;
                }
                part = new_part;
                want = WANT_PART_STATUS;
            } else if (!strcmp(rest, "Primal ray") || !strcmp(rest, "Dual ray")) {
                int new_part = rest[0] == 'P' ? PART_PRIMAL_RAY : PART_DUAL_RAY;
                if (part < PART_DUAL || part >= PART_PRIMAL_RAY) {
                    rc = slp_error(SLP_ERR_INPUT, "%s:%lld: '%s' must follow the dual part, once",
                                   r->path, (long long)r->line_no, line);
                    break;
                }
                part = new_part;
                s->has_ray[new_part == PART_DUAL_RAY] = 1;
            } else if (!strncmp(rest, "Columns", 7) && isspace((unsigned char)rest[7])) {
                if ((rc = read_section_header(r, part, 1, trim(rest + 8), &section)) != SLP_OK)
                    break;
            } else if (!strncmp(rest, "Rows", 4) && isspace((unsigned char)rest[4])) {
                if ((rc = read_section_header(r, part, 0, trim(rest + 5), &section)) != SLP_OK)
                    break;
            } else if (!strcmp(rest, "Basis")) {
                break; /* the basis part is not needed; everything after it is ignored */
            } else {
                rc = slp_error(SLP_ERR_INPUT, "%s:%lld: unexpected line '%s'", r->path,
                               (long long)r->line_no, line);
                break;
            }
            continue;
        }
        if (part == PART_PRIMAL && section < 0 && !strncmp(line, "Objective", 9) &&
            isspace((unsigned char)line[9])) {
            char *num = trim(line + 10);
            if (s->has_objective) {
                rc = slp_error(SLP_ERR_INPUT, "%s:%lld: second Objective line", r->path,
                               (long long)r->line_no);
                break;
            }
            if (!parse_number(num, &s->objective)) {
                rc = slp_error(SLP_ERR_INPUT, "%s:%lld: bad objective value '%s'", r->path,
                               (long long)r->line_no, num);
                break;
            }
            s->has_objective = 1;
            continue;
        }
        if (section < 0) {
            rc = slp_error(SLP_ERR_INPUT, "%s:%lld: unexpected line '%s'", r->path,
                           (long long)r->line_no, line);
            break;
        }
        if ((rc = read_entry(r, section, line)) != SLP_OK)
            break;
    }
    if (rc == SLP_OK && ferror(f))
        rc = slp_error(SLP_ERR_IO, "%s: read failed: %s", r->path, strerror(errno));
    if (rc == SLP_OK && want == WANT_PART_STATUS)
        rc = slp_error(SLP_ERR_INPUT, "%s:%lld: file ends before the solution status", r->path,
                       (long long)r->line_no);
    free(buf);
    return rc;
}

slp_err slp_solution_text_read(const char *path, int64_t m, int64_t n,
                               slp_name_index_t *row_names,
                               slp_name_index_t *col_names, slp_solution_t **out)
{
    *out = NULL;
    slp_solution_t *s = slp_calloc(1, sizeof *s);
    if (!s)
        return SLP_ERR_NOMEM;
    reader_t r = {.path = path, .sol = s, .rows = row_names, .cols = col_names};
    slp_err rc = SLP_OK;
    s->m = m;
    s->n = n;
    s->objective = NAN;
    s->model_status = slp_strdup("");
    s->primal_status = slp_strdup("");
    s->dual_status = slp_strdup("");
    if (!s->model_status || !s->primal_status || !s->dual_status) {
        rc = SLP_ERR_NOMEM;
        goto done;
    }
    for (int k = 0; k < SLP_SOL_SECTION_COUNT; k++) {
        int64_t len = section_is_columns(k) ? n : m;
        double **dst = k == SLP_SOL_PRIMAL_COLUMNS ? &s->x
                     : k == SLP_SOL_PRIMAL_ROWS    ? &s->row_activity
                     : k == SLP_SOL_DUAL_COLUMNS   ? &s->z
                     : k == SLP_SOL_RAY_COLUMNS    ? &s->ray_x
                     : k == SLP_SOL_RAY_ROWS       ? &s->ray_y
                                                   : &s->y;
        if ((rc = slp_alloc(dst, (size_t)len + 1, sizeof(double))) != SLP_OK)
            goto done;
        if (!(r.seen[k] = slp_calloc((size_t)len + 1, 1))) {
            rc = SLP_ERR_NOMEM;
            goto done;
        }
        for (int64_t i = 0; i < len; i++)
            (*dst)[i] = NAN;
    }

    FILE *f = fopen(path, "r");
    if (!f) {
        rc = slp_error(SLP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        goto done;
    }
    rc = read_lines(&r, f);
    fclose(f);
    if (rc != SLP_OK)
        goto done;

    for (int k = 0; k < SLP_SOL_SECTION_COUNT; k++) {
        int64_t len = section_is_columns(k) ? n : m;
        s->missing[k] = 0;
        s->first_missing[k] = -1;
        if (k >= SLP_SOL_RAY_COLUMNS && !s->has_ray[k == SLP_SOL_RAY_ROWS])
            continue; /* an absent certificate is not missing entries */
        for (int64_t i = 0; i < len; i++) {
            if (!r.seen[k][i]) {
                if (s->first_missing[k] < 0)
                    s->first_missing[k] = i;
                s->missing[k]++;
            }
        }
    }
done:
    for (int k = 0; k < SLP_SOL_SECTION_COUNT; k++)
        free(r.seen[k]);
    if (rc != SLP_OK)
        slp_solution_destroy(&s);
    *out = s;
    return rc;
}

slp_err slp_solution_text_read_model(const char *path, const slp_model_t *model,
                                     slp_solution_t **out)
{
    *out = NULL;
    slp_name_index_t *rows = NULL, *cols = NULL;
    slp_err rc = slp_name_index_create(model->m, &rows);
    if (rc == SLP_OK)
        rc = slp_name_index_create(model->n, &cols);
    char buf[32], spaced[1024];
    for (int64_t i = 0; rc == SLP_OK && i < model->m; i++) {
        int inserted;
        const char *name = slp_solution_name(slp_model_row_name(model, i, buf), spaced, sizeof spaced);
        rc = name ? slp_name_index_insert(rows, name, i, &inserted, NULL)
                  : slp_error(SLP_ERR_INPUT, "row %lld: name too long to encode", (long long)i);
        if (rc == SLP_OK && !inserted)
            rc = slp_error(SLP_ERR_INPUT, "model has two rows named '%s'", name);
    }
    for (int64_t j = 0; rc == SLP_OK && j < model->n; j++) {
        int inserted;
        const char *name = slp_solution_name(slp_model_col_name(model, j, buf), spaced, sizeof spaced);
        rc = name ? slp_name_index_insert(cols, name, j, &inserted, NULL)
                  : slp_error(SLP_ERR_INPUT, "column %lld: name too long to encode", (long long)j);
        if (rc == SLP_OK && !inserted)
            rc = slp_error(SLP_ERR_INPUT, "model has two columns named '%s'", name);
    }
    if (rc == SLP_OK)
        rc = slp_solution_text_read(path, model->m, model->n, rows, cols, out);
    slp_name_index_destroy(&rows);
    slp_name_index_destroy(&cols);
    return rc;
}
