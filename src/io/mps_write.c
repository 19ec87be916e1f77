/* slp_mps_write: free-format MPS, compressed in units when the path ends in ".gz" (BGZF)
 * or ".zst" (seekable zstd; io/block_out.h), written atomically (io/out_file.h).
 *
 * Conventions (docs/mps.md): values with %.17g (exact round trip); row types
 * from the bounds (E, L, G; two-sided rows as G or L with a RANGES value chosen
 * so that the reader's rhs +- |R| gives the other bound exactly; free rows as L
 * with RHS 1e+30); OBJSENSE MAX for sense -1; the objective constant as the RHS
 * of the objective row (-obj_const); BOUNDS only where not the default [0, inf).
 * Columns flagged integer are written inside MARKER blocks (and get an explicit
 * PL bound when their upper bound is infinite, since some readers default
 * integer columns to [0, 1]). Names containing blanks, empty names or missing
 * names are replaced by generated R<i> / C<j> names for the whole namespace. The NAME
 * card ends in FREE, which tells CoinMpsIO (Clp, CBC) that the file is free format
 * (its full-precision numbers do not fit fixed fields); GLPK (--freemps) and HiGHS read
 * the card as the model name and ignore the rest. A model without a name is written
 * as "model" (CoinMpsIO needs a name before FREE). */
#include "io/mps.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "io/block_out.h"
#include "io/out_file.h"

#define OUT_BUF (1 << 20)

typedef struct {
    const char *path;
    slp_out_file_t file;
    FILE *plain;
    slp_block_out_t *packed; /* .gz and .zst: compressed in units (io/block_out.h) */
    char *buf;
    size_t used;
    int failed;
} out_t;

static void out_flush(out_t *o)
{
    if (o->used == 0 || o->failed)
        return;
    if (o->packed) {
        if (slp_block_out_write(o->packed, o->buf, o->used) != 0)
            o->failed = 1;
    } else if (fwrite(o->buf, 1, o->used, o->plain) != o->used) {
        o->failed = 1;
    }
    o->used = 0;
}

static void out_printf(out_t *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void out_printf(out_t *o, const char *fmt, ...)
{
    if (OUT_BUF - o->used < 4096)
        out_flush(o);
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(o->buf + o->used, OUT_BUF - o->used, fmt, ap);
    va_end(ap);
    if (len < 0) {
        o->failed = 1;
        return;
    }
    if ((size_t)len >= OUT_BUF - o->used) { /* very long names: write directly */
        out_flush(o);
        char *big = malloc((size_t)len + 1);
        if (!big) {
            o->failed = 1;
            return;
        }
        va_start(ap, fmt);
        vsnprintf(big, (size_t)len + 1, fmt, ap);
        va_end(ap);
        if (o->packed)
            o->failed |= slp_block_out_write(o->packed, big, (size_t)len) != 0;
        else
            o->failed |= fwrite(big, 1, (size_t)len, o->plain) != (size_t)len;
        free(big);
        return;
    }
    o->used += (size_t)len;
}

/* A name the free-format reader reads back unchanged. */
static int name_ok(const char *s)
{
    if (!s || !*s || *s == '$' || *s == '*')
        return 0;
    for (; *s; s++)
        if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\v' || *s == '\f')
            return 0;
    return 1;
}

static int names_ok(char **names, int64_t count)
{
    if (!names)
        return 0;
    for (int64_t k = 0; k < count; k++)
        if (!name_ok(names[k]))
            return 0;
    return 1;
}

/* Range R for a two-sided row lo < hi, with the reader's arithmetic
 * (G: [rhs, rhs + |R|], L: [rhs - |R|, rhs]). Returns 'G' or 'L' and sets
 * *rhs / *range so that the reader gets lo and hi exactly, or 0 if no R within
 * a few ulps works. */
static char pick_range(double lo, double hi, double *rhs, double *range)
{
    double r0 = hi - lo;
    double cand = r0;
    for (int step = 0; step < 8; step++) {
        if (lo + cand == hi) {
            *rhs = lo;
            *range = cand;
            return 'G';
        }
        if (hi - cand == lo) {
            *rhs = hi;
            *range = cand;
            return 'L';
        }
        cand = nextafter(cand, (lo + cand < hi) ? INFINITY : 0.0);
    }
    cand = r0;
    for (int step = 0; step < 8; step++) {
        if (hi - cand == lo) {
            *rhs = hi;
            *range = cand;
            return 'L';
        }
        cand = nextafter(cand, (hi - cand > lo) ? INFINITY : 0.0);
    }
    return 0;
}

/* How row bounds [lo, hi] are written: type, RHS and (when *has_range) RANGES. */
static char row_form(double lo, double hi, double *rhs, int *has_range, double *range)
{
    *has_range = 0;
    *range = 0.0;
    if (lo == hi) {
        *rhs = lo;
        return 'E';
    }
    if (isinf(lo) && isinf(hi)) {
        *rhs = 1e30; /* free row: L with an infinite RHS */
        return 'L';
    }
    if (isinf(lo)) {
        *rhs = hi;
        return 'L';
    }
    if (isinf(hi)) {
        *rhs = lo;
        return 'G';
    }
    *has_range = 1;
    char type = pick_range(lo, hi, rhs, range);
    if (!type) { /* no exactly representable range: off by an ulp at most */
        *rhs = lo;
        *range = hi - lo;
        type = 'G';
    }
    return type;
}

static void write_model(out_t *o, const slp_model_t *model)
{
    int row_named = names_ok(model->row_names, model->m);
    int col_named = names_ok(model->col_names, model->n);
    char rb[32], cb[32];
#define ROWNAME(i) (row_named ? model->row_names[i] : (snprintf(rb, sizeof rb, "R%lld", (long long)(i)), rb))
#define COLNAME(j) (col_named ? model->col_names[j] : (snprintf(cb, sizeof cb, "C%lld", (long long)(j)), cb))

    /* Objective row name: the model's, unless it is unusable or clashes. */
    char objbuf[64];
    const char *obj = name_ok(model->obj_name) ? model->obj_name : "OBJ";
    for (int attempt = 0;; attempt++) {
        int clash = 0;
        for (int64_t i = 0; i < model->m && !clash; i++)
            clash = !strcmp(ROWNAME(i), obj);
        if (!clash)
            break;
        snprintf(objbuf, sizeof objbuf, "OBJ_%d", attempt);
        obj = objbuf;
    }

    /* CoinMpsIO needs a name before FREE ("NAME FREE" is read as the name FREE) */
    const char *name = model->name && model->name[0] && !strpbrk(model->name, "\r\n")
                           ? model->name
                           : "model";
    out_printf(o, "NAME          %s FREE\n", name);
    if (model->sense < 0)
        out_printf(o, "OBJSENSE\n    MAX\n");
    out_printf(o, "ROWS\n N  %s\n", obj);
    for (int64_t i = 0; i < model->m; i++) {
        double rhs, range;
        int has_range;
        char type = row_form(model->lc[i], model->uc[i], &rhs, &has_range, &range);
        out_printf(o, " %c  %s\n", type, ROWNAME(i));
    }

    out_printf(o, "COLUMNS\n");
    int in_int = 0;
    for (int64_t j = 0; j < model->n; j++) {
        int is_int = model->is_int && model->is_int[j];
        if (is_int != in_int) {
            out_printf(o, "    MARKER                 'MARKER'                 '%s'\n",
                       is_int ? "INTORG" : "INTEND");
            in_int = is_int;
        }
        const char *cn = COLNAME(j);
        int64_t a = model->col_ptr[j], b = model->col_ptr[j + 1];
        /* An empty column still needs one line to exist. */
        if (model->c[j] != 0.0 || a == b)
            out_printf(o, "    %s  %s  %.17g\n", cn, obj, model->c[j]);
        for (int64_t k = a; k < b; k++)
            out_printf(o, "    %s  %s  %.17g\n", cn, ROWNAME(model->row_idx[k]), model->val[k]);
    }
    if (in_int)
        out_printf(o, "    MARKER                 'MARKER'                 'INTEND'\n");

    out_printf(o, "RHS\n");
    if (model->obj_const != 0.0)
        out_printf(o, "    RHS  %s  %.17g\n", obj, -model->obj_const);
    for (int64_t i = 0; i < model->m; i++) {
        double rhs, range;
        int has_range;
        row_form(model->lc[i], model->uc[i], &rhs, &has_range, &range);
        if (rhs != 0.0)
            out_printf(o, "    RHS  %s  %.17g\n", ROWNAME(i), rhs);
    }

    int any_range = 0;
    for (int64_t i = 0; i < model->m; i++) {
        double rhs, range;
        int has_range;
        row_form(model->lc[i], model->uc[i], &rhs, &has_range, &range);
        if (!has_range)
            continue;
        if (!any_range) {
            out_printf(o, "RANGES\n");
            any_range = 1;
        }
        out_printf(o, "    RNG  %s  %.17g\n", ROWNAME(i), range);
    }

    int any_bound = 0;
    for (int64_t j = 0; j < model->n; j++) {
        double lo = model->lv[j], hi = model->uv[j];
        int is_int = model->is_int && model->is_int[j];
        if (lo == 0.0 && hi == INFINITY && !is_int)
            continue;
        if (!any_bound) {
            out_printf(o, "BOUNDS\n");
            any_bound = 1;
        }
        const char *cn = COLNAME(j);
        if (lo == hi) {
            out_printf(o, " FX BND  %s  %.17g\n", cn, lo);
            continue;
        }
        if (lo == -INFINITY && hi == INFINITY) {
            out_printf(o, " FR BND  %s\n", cn);
            continue;
        }
        if (lo == -INFINITY)
            out_printf(o, " MI BND  %s\n", cn);
        else if (lo != 0.0)
            out_printf(o, " LO BND  %s  %.17g\n", cn, lo);
        if (hi == INFINITY)
            out_printf(o, " PL BND  %s\n", cn);
        else
            out_printf(o, " UP BND  %s  %.17g\n", cn, hi);
    }
    out_printf(o, "ENDATA\n");
#undef ROWNAME
#undef COLNAME
}

slp_err slp_mps_write(const slp_model_t *model, const char *path)
{
    out_t o;
    memset(&o, 0, sizeof o);
    o.path = path;
    o.buf = slp_malloc(OUT_BUF);
    if (!o.buf)
        return SLP_ERR_NOMEM;
    slp_err rc = slp_out_open(&o.file, path, "MPS file", 1);
    if (rc != SLP_OK) {
        free(o.buf);
        return rc;
    }
    slp_block_out_kind packing = slp_block_out_kind_of(path);
    if (packing != SLP_BLOCK_OUT_NONE) {
        rc = slp_block_out_open(o.file.f, packing, path, &o.packed);
        if (rc != SLP_OK) {
            slp_out_abort(&o.file);
            free(o.buf);
            return rc;
        }
    } else {
        o.plain = o.file.f;
    }
    if ((model->row_names && !names_ok(model->row_names, model->m)) ||
        (model->col_names && !names_ok(model->col_names, model->n)))
        slp_warn("%s: some names are empty or contain blanks; writing generated names R<i>/C<j> "
                 "instead\n", path);
    int64_t huge = 0; /* finite values the MPS convention would read as infinite */
    for (int64_t i = 0; i < model->m; i++)
        huge += (isfinite(model->lc[i]) && fabs(model->lc[i]) >= 1e20) ||
                (isfinite(model->uc[i]) && fabs(model->uc[i]) >= 1e20);
    for (int64_t j = 0; j < model->n; j++)
        huge += (isfinite(model->lv[j]) && fabs(model->lv[j]) >= 1e20) ||
                (isfinite(model->uv[j]) && fabs(model->uv[j]) >= 1e20);
    if (huge > 0)
        slp_warn("%s: %lld finite bounds with |value| >= 1e20 will read back as infinite\n", path,
                 (long long)huge);
    write_model(&o, model);
    out_flush(&o);
    int close_failed = o.packed ? slp_block_out_close(&o.packed) != 0 : 0;
    free(o.buf);
    if (o.failed || close_failed) {
        slp_out_abort(&o.file);
        return slp_error(SLP_ERR_IO, "%s: write failed: %s", path,
                         errno ? strerror(errno) : "I/O error");
    }
    return slp_out_commit(&o.file);
}
