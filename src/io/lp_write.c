/* slp_lp_write: a model as a CPLEX LP file (io/lp.h, docs/lp-format.md), written
 * atomically (io/out_file.h). Values with %.17g (exact round trip through
 * slp_lp_read); a two-sided row lo <= a x <= hi as `a x - ~r_<row> = 0` with the range
 * column lo <= ~r_<row> <= hi (the form GLPK writes; HiGHS, GLPK and Clp do not read
 * `lo <= a x <= hi`, docs/lp-format.md); free rows are
 * left out (the LP format has none); bounds only where not [0, +inf); integer
 * columns under General. Names that the format cannot carry (empty, with a
 * reserved character, starting with a digit or '.', or a keyword such as inf or end)
 * are replaced, for the whole namespace, by generated R<i> / C<j>. */
#include "io/lp.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/log.h"
#include "io/out_file.h"

#define TERMS_PER_LINE 8

/* Words a reader takes for something other than a name: numbers' and bounds' words,
 * and the section keywords, which start a section where a name starts a line (bounds,
 * General: a column named "end" would end the file there). */
static const char *const LP_KEYWORDS[] = {
    "inf", "infinity", "free", "st", "st.", "s.t.", "subject", "such", "min", "minimize",
    "minimise", "minimum", "max", "maximize", "maximise", "maximum", "bound", "bounds",
    "gen", "general", "generals", "integer", "integers", "bin", "binary", "binaries",
    "semi", "semis", "semi-continuous", "sos", "end",
};

static int lp_name_ok(const char *s)
{
    if (!s || !*s || isdigit((unsigned char)*s) || *s == '.')
        return 0;
    for (size_t k = 0; k < sizeof LP_KEYWORDS / sizeof LP_KEYWORDS[0]; k++)
        if (!strcasecmp(s, LP_KEYWORDS[k]))
            return 0;
    for (const char *p = s; *p; p++)
        if (!slp_lp_name_char((unsigned char)*p))
            return 0;
    return 1;
}

static int lp_names_ok(char **names, int64_t count)
{
    if (!names)
        return 0;
    for (int64_t k = 0; k < count; k++)
        if (!lp_name_ok(names[k]))
            return 0;
    return 1;
}

typedef struct {
    FILE *f;
    char **cols, **rows; /* NULL: generated */
    char buf[48];
} names_t;

static const char *col_name(names_t *nm, int64_t j)
{
    if (nm->cols)
        return nm->cols[j];
    snprintf(nm->buf, sizeof nm->buf, "C%lld", (long long)j);
    return nm->buf;
}

static const char *row_name(names_t *nm, int64_t i)
{
    if (nm->rows)
        return nm->rows[i];
    snprintf(nm->buf, sizeof nm->buf, "R%lld", (long long)i);
    return nm->buf;
}

/* A row lo <= a x <= hi with lo < hi, both finite: written with a range column. */
static int is_ranged(const slp_model_t *model, int64_t i)
{
    return isfinite(model->lc[i]) && isfinite(model->uc[i]) && model->lc[i] != model->uc[i];
}

#define RANGE_PREFIX "~r_"

static void write_range_column(names_t *nm, int64_t i)
{
    fprintf(nm->f, " %s%s", RANGE_PREFIX, row_name(nm, i));
}

/* Column names that could clash with range columns make the writer generate C<j>. */
static int names_clash_with_ranges(char **cols, int64_t n)
{
    for (int64_t j = 0; cols && j < n; j++)
        if (!strncmp(cols[j], RANGE_PREFIX, strlen(RANGE_PREFIX)))
            return 1;
    return 0;
}

static void term(FILE *f, double coef, const char *name, int64_t *count)
{
    if (*count > 0 && *count % TERMS_PER_LINE == 0)
        fputs("\n   ", f);
    fprintf(f, " %c %.17g %s", coef < 0 ? '-' : '+', fabs(coef), name);
    (*count)++;
}

static void write_number(FILE *f, double v)
{
    if (isinf(v))
        fputs(v > 0 ? "+inf" : "-inf", f);
    else
        fprintf(f, "%.17g", v);
}

/* The rows of a CSC matrix: row pointers and (column, value) pairs. */
static slp_err rows_of(const slp_model_t *model, int64_t **ptr, int64_t **col, double **val)
{
    *ptr = slp_calloc((size_t)model->m + 1, sizeof **ptr);
    *col = slp_malloc((size_t)(model->nnz ? model->nnz : 1) * sizeof **col);
    *val = slp_malloc((size_t)(model->nnz ? model->nnz : 1) * sizeof **val);
    int64_t *next = slp_malloc((size_t)(model->m ? model->m : 1) * sizeof *next);
    if (!*ptr || !*col || !*val || !next) {
        free(next);
        return SLP_ERR_NOMEM;
    }
    for (int64_t k = 0; k < model->nnz; k++)
        (*ptr)[model->row_idx[k] + 1]++;
    for (int64_t i = 0; i < model->m; i++)
        (*ptr)[i + 1] += (*ptr)[i];
    memcpy(next, *ptr, (size_t)model->m * sizeof *next);
    for (int64_t j = 0; j < model->n; j++)
        for (int64_t k = model->col_ptr[j]; k < model->col_ptr[j + 1]; k++) {
            int64_t dst = next[model->row_idx[k]]++;
            (*col)[dst] = j;
            (*val)[dst] = model->val[k];
        }
    free(next);
    return SLP_OK;
}

static void write_objective(names_t *nm, const slp_model_t *model)
{
    FILE *f = nm->f;
    fprintf(f, "%s\n obj:", model->sense < 0 ? "Maximize" : "Minimize");
    int64_t count = 0;
    for (int64_t j = 0; j < model->n; j++)
        if (model->c[j] != 0.0)
            term(f, model->c[j], col_name(nm, j), &count);
    if (model->obj_const != 0.0 || count == 0)
        fprintf(f, " %c %.17g", model->obj_const < 0 ? '-' : '+', fabs(model->obj_const));
    fputc('\n', f);
}

static int64_t write_rows(names_t *nm, const slp_model_t *model, const int64_t *ptr,
                          const int64_t *col, const double *val)
{
    FILE *f = nm->f;
    int64_t free_rows = 0;
    fputs("Subject To\n", f);
    for (int64_t i = 0; i < model->m; i++) {
        double lo = model->lc[i], hi = model->uc[i];
        if (isinf(lo) && isinf(hi)) {
            free_rows++;
            continue;
        }
        fprintf(f, " %s:", row_name(nm, i));
        int64_t count = 0;
        for (int64_t k = ptr[i]; k < ptr[i + 1]; k++)
            term(f, val[k], col_name(nm, col[k]), &count);
        if (count == 0)
            fprintf(f, " 0 %s", col_name(nm, 0)); /* an empty row: keep it, as 0 x = ... */
        if (is_ranged(model, i)) {
            fputs(" -", f);
            write_range_column(nm, i);
            fputs(" = 0", f);
        } else if (lo == hi)
            fputs(" = ", f), write_number(f, lo);
        else if (isfinite(hi))
            fputs(" <= ", f), write_number(f, hi);
        else
            fputs(" >= ", f), write_number(f, lo);
        fputc('\n', f);
    }
    return free_rows;
}

static void write_bounds(names_t *nm, const slp_model_t *model)
{
    FILE *f = nm->f;
    fputs("Bounds\n", f);
    for (int64_t j = 0; j < model->n; j++) {
        double lo = model->lv[j], hi = model->uv[j];
        if (lo == 0.0 && hi == INFINITY)
            continue;
        const char *name = col_name(nm, j);
        if (lo == -INFINITY && hi == INFINITY) {
            fprintf(f, " %s free\n", name);
        } else if (lo == hi) {
            fprintf(f, " %s = ", name);
            write_number(f, lo);
            fputc('\n', f);
        } else {
            fputc(' ', f);
            write_number(f, lo);
            fprintf(f, " <= %s <= ", name);
            write_number(f, hi);
            fputc('\n', f);
        }
    }
    for (int64_t i = 0; i < model->m; i++)
        if (is_ranged(model, i)) {
            fputc(' ', f);
            write_number(f, model->lc[i]);
            fputs(" <=", f);
            write_range_column(nm, i);
            fputs(" <= ", f);
            write_number(f, model->uc[i]);
            fputc('\n', f);
        }
    if (model->is_int) {
        int any = 0;
        for (int64_t j = 0; j < model->n; j++)
            if (model->is_int[j]) {
                fputs(any ? "" : "General\n", f);
                fprintf(f, " %s\n", col_name(nm, j));
                any = 1;
            }
    }
}

slp_err slp_lp_write(const slp_model_t *model, const char *path)
{
    if (model->m > 0 && model->n == 0)
        return slp_error(SLP_ERR_INPUT, "%s: a model with rows but no columns has no LP form",
                         path);
    names_t nm = {0};
    nm.cols = lp_names_ok(model->col_names, model->n) &&
                      !names_clash_with_ranges(model->col_names, model->n)
                  ? model->col_names
                  : NULL;
    nm.rows = lp_names_ok(model->row_names, model->m) ? model->row_names : NULL;
    if ((model->col_names && !nm.cols) || (model->row_names && !nm.rows))
        slp_warn("%s: some names cannot be written in an LP file; writing generated names "
                 "R<i>/C<j> instead\n", path);
    int64_t *ptr = NULL, *col = NULL;
    double *val = NULL;
    slp_err rc = rows_of(model, &ptr, &col, &val);
    slp_out_file_t out;
    if (rc == SLP_OK)
        rc = slp_out_open(&out, path, "LP file", 0);
    if (rc == SLP_OK) {
        nm.f = out.f;
        fprintf(nm.f, "\\ %s, written by shardlp\n", model->name && model->name[0] ? model->name
                                                                               : "model");
        write_objective(&nm, model);
        int64_t free_rows = write_rows(&nm, model, ptr, col, val);
        write_bounds(&nm, model);
        fputs("End\n", nm.f);
        if (free_rows)
            slp_warn("%s: %lld free rows left out (the LP format has none)\n", path,
                     (long long)free_rows);
        rc = ferror(nm.f) ? slp_error(SLP_ERR_IO, "%s: write failed", path) : SLP_OK;
        if (rc == SLP_OK)
            rc = slp_out_commit(&out);
        else
            slp_out_abort(&out);
    }
    free(ptr);
    free(col);
    free(val);
    return rc;
}
