/* The CPLEX LP reader (io/lp.h, docs/lp-format.md).
 *
 * Table of contents:
 *   lines, tokens   the text, line by line through io/text_in.h; tokens with a
 *                   four-token lookahead; section keywords only at a line's start
 *   model parts     columns by first appearance, rows, the objective, triplets
 *   sections        objective, constraints, bounds, integer markers
 *   slp_lp_read     the whole file into a CSC model
 */
#include "io/lp.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/log.h"
#include "core/name_index.h"
#include "io/mps_parse.h"
#include "io/text_in.h"
#include "io/triplets.h"

#define MAX_LINE_BYTES ((size_t)1 << 30)
#define LOOKAHEAD 4

typedef enum { T_END, T_NUM, T_NAME, T_LABEL, T_OP, T_SIGN, T_SECTION } tok_kind;
typedef enum {
    S_NONE, S_MIN, S_MAX, S_CONS, S_BOUNDS, S_GEN, S_BIN, S_SEMI, S_END, S_UNSUPPORTED
} section_t;

typedef struct {
    tok_kind kind;
    double num;      /* T_NUM (inf allowed); T_SIGN: +1 / -1 */
    int op;          /* T_OP: '<', '>' or '=' */
    int section;     /* T_SECTION: section_t */
    char *text;      /* T_NAME, T_LABEL, T_SECTION: owned */
    size_t len;      /* strlen(text) */
    size_t text_cap;
    int64_t line;
} tok_t;

typedef struct {
    const char *path;
    slp_text_in_t *in;
    char *line;
    size_t line_cap;
    int64_t lineno;
    const char *pos;       /* next character of the current line; NULL: read a line */
    int line_start;        /* no token yet on this line */
    int block_comment;     /* inside \* ... *\ */
    tok_t q[LOOKAHEAD];    /* lookahead ring */
    int q_head, q_len;
    /* the model as it grows */
    slp_name_index_t *cols, *rows;
    int64_t n, n_cap, m, m_cap;
    double *c, *lv, *uv, *lc, *uc;
    unsigned char *is_int, *semi;
    char **col_names, **row_names; /* pointing into the stores (packed for the model) */
    slp_name_store_t col_store, row_store;
    slp_triplets_t tri;
    int64_t *stamp, *slot; /* per column: the row that last used it, its term's index */
    int64_t *term_col;     /* one row's merged terms */
    double *term_val;
    int64_t terms, terms_cap;
    int sense;
    double obj_const;
    char *obj_name;
    int seen_objective;
} lp_t;

static slp_err lp_error(const lp_t *lp, int64_t line, const char *what)
{
    return slp_error(SLP_ERR_INPUT, "%s:%lld: %s", lp->path, (long long)line, what);
}

/* ---------------------------------------------------------------- lines, tokens */

static slp_err read_line(lp_t *lp, int *got)
{
    size_t len = 0;
    *got = 0;
    for (;;) {
        if (lp->line_cap - len < 2) {
            if (lp->line_cap >= MAX_LINE_BYTES)
                return lp_error(lp, lp->lineno + 1, "line longer than 1 GiB");
            size_t cap = lp->line_cap ? lp->line_cap * 2 : 1 << 16;
            char *bigger = realloc(lp->line, cap);
            if (!bigger)
                return slp_error(SLP_ERR_NOMEM, "out of memory reading %s", lp->path);
            lp->line = bigger;
            lp->line_cap = cap;
        }
        if (!slp_text_in_gets(lp->in, lp->line + len, lp->line_cap - len))
            break;
        size_t add = strlen(lp->line + len);
        if (add == 0)
            return lp_error(lp, lp->lineno + 1, "NUL byte in the line (not a text file?)");
        len += add;
        if (lp->line[len - 1] == '\n')
            break;
    }
    const char *why = NULL;
    slp_text_status st = slp_text_in_status(lp->in, &why);
    if (st == SLP_TEXT_TRUNCATED)
        return slp_error(SLP_ERR_IO, "%s:%lld: unexpected end of compressed data (truncated "
                         "file?)", lp->path, (long long)lp->lineno + 1);
    if (st != SLP_TEXT_OK)
        return slp_error(SLP_ERR_IO, "%s:%lld: read error: %s", lp->path,
                         (long long)lp->lineno + 1, why);
    if (len == 0)
        return SLP_OK;
    lp->lineno++;
    lp->line[len] = '\0';
    *got = 1;
    return SLP_OK;
}

/* isspace's characters in the C locale. */
static int is_space(char ch)
{
    return ch == ' ' || (ch >= '\t' && ch <= '\r');
}

/* p past the blanks and tabs (what separates the tokens of a line). */
static const char *skip_blanks(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* The word is inf or infinity (any case): a number, not a name. */
static int is_infinity_word(const char *s, size_t len)
{
    return (len == 3 && !strncasecmp(s, "inf", 3)) || (len == 8 && !strncasecmp(s, "infinity", 8));
}

static int is_name_char(int ch)
{
    return ch > ' ' && ch < 127 && !slp_lp_reserved(ch);
}

static slp_err set_text(tok_t *t, const char *s, size_t len)
{
    if (t->text_cap < len + 1) {
        char *p = realloc(t->text, len + 1);
        if (!p)
            return SLP_ERR_NOMEM;
        t->text = p;
        t->text_cap = len + 1;
    }
    memcpy(t->text, s, len);
    t->text[len] = '\0';
    t->len = len;
    return SLP_OK;
}

/* The section a line starts with, or S_NONE. *used: the characters of the keyword. */
static int section_at(const char *p, size_t *used)
{
    static const struct {
        const char *word;
        int section;
    } words[] = {
        {"subject to", S_CONS}, {"such that", S_CONS}, {"s.t.", S_CONS}, {"st.", S_CONS},
        {"st", S_CONS},         {"minimize", S_MIN},   {"minimise", S_MIN}, {"minimum", S_MIN},
        {"min", S_MIN},         {"maximize", S_MAX},   {"maximise", S_MAX}, {"maximum", S_MAX},
        {"max", S_MAX},         {"bounds", S_BOUNDS},  {"bound", S_BOUNDS}, {"generals", S_GEN},
        {"general", S_GEN},     {"gen", S_GEN},        {"integers", S_GEN}, {"integer", S_GEN},
        {"binaries", S_BIN},    {"binary", S_BIN},     {"bin", S_BIN},
        {"semi-continuous", S_SEMI}, {"semis", S_SEMI}, {"semi", S_SEMI}, {"sos", S_UNSUPPORTED},
        {"end", S_END},
    };
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
        if (words[k].word[0] != tolower((unsigned char)p[0])) /* most lines: no keyword */
            continue;
        size_t len = strlen(words[k].word);
        int next = (unsigned char)p[len];
        if (!strncasecmp(p, words[k].word, len) && (!next || isspace(next))) {
            *used = len;
            return words[k].section;
        }
    }
    return S_NONE;
}

/* The next token into *t (T_END at the end of the file). */
static slp_err next_token(lp_t *lp, tok_t *t)
{
    for (;;) {
        if (!lp->pos) {
            int got = 0;
            SLP_CALL(read_line(lp, &got));
            if (!got) {
                t->kind = T_END;
                t->line = lp->lineno;
                return SLP_OK;
            }
            lp->pos = lp->line;
            lp->line_start = 1;
        }
        const char *p = lp->pos;
        if (lp->block_comment) {
            const char *close = strstr(p, "*\\");
            lp->pos = close ? close + 2 : NULL;
            lp->block_comment = !close;
            continue;
        }
        while (is_space(*p)) /* not isspace, which costs a call a character */
            p++;
        if (!*p || (*p == '\\' && p[1] != '*')) { /* end of line or a comment */
            lp->pos = NULL;
            continue;
        }
        if (*p == '\\') { /* \* block comment *\ */
            lp->block_comment = 1;
            lp->pos = p + 2;
            continue;
        }
        t->line = lp->lineno;
        size_t used = 0;
        if (lp->line_start && (t->section = section_at(p, &used)) != S_NONE) {
            t->kind = T_SECTION;
            SLP_CALL(set_text(t, p, used));
            lp->pos = p + used;
            lp->line_start = 0;
            return SLP_OK;
        }
        lp->line_start = 0;
        if (*p == '<' || *p == '>' || *p == '=') {
            t->kind = T_OP;
            t->op = *p == '=' && (p[1] == '<' || p[1] == '>') ? p[1] : *p;
            p += (p[1] == '=' || (*p == '=' && (p[1] == '<' || p[1] == '>'))) ? 2 : 1;
            lp->pos = p;
            return SLP_OK;
        }
        if (*p == '+' || *p == '-') {
            t->kind = T_SIGN;
            t->num = *p == '-' ? -1.0 : 1.0;
            lp->pos = p + 1;
            return SLP_OK;
        }
        if (*p == '[' || *p == '^')
            return slp_error(SLP_ERR_UNSUPPORTED, "%s:%lld: quadratic terms are not supported "
                             "(shardlp solves LPs)", lp->path, (long long)lp->lineno);
        if (isdigit((unsigned char)*p) || *p == '.') {
            /* A number. Name characters glued to it ("2x") are a second token, the
             * variable, as HiGHS reads them (a name cannot start with a digit or '.'),
             * except in a label ("2x:" names a row) and in digits with a leading zero
             * ("010120"), which are a name: no writer prints a number so, and PuLP
             * writes such names without a coefficient. A word that is no number
             * ("...100") is a name. */
            char *end = NULL;
            double v = slp_parse_number_prefix(p, &end);
            int zero_led = p[0] == '0' && isdigit((unsigned char)p[1]) &&
                           strspn(p, "0123456789") == (size_t)(end - p);
            const char *word_end = end;
            while (end != p && is_name_char((unsigned char)*word_end))
                word_end++;
            const char *after = skip_blanks(word_end);
            int label = *after == ':';
            if (end != p && !zero_led && (word_end == end || !label)) {
                t->kind = label ? T_LABEL : T_NUM; /* "1:" labels row 1 */
                t->num = v;
                lp->pos = label ? after + 1 : end;
                return set_text(t, p, (size_t)(end - p)); /* a name too ("+1 4") */
            }
        }
        if (!is_name_char((unsigned char)*p)) {
            char msg[64];
            snprintf(msg, sizeof msg, "unexpected character '%c'", *p);
            return lp_error(lp, lp->lineno, msg);
        }
        const char *start = p;
        while (is_name_char((unsigned char)*p))
            p++;
        size_t len = (size_t)(p - start);
        const char *after = skip_blanks(p);
        if (*after == ':') {
            t->kind = T_LABEL;
            lp->pos = after + 1;
        } else if (is_infinity_word(start, len)) {
            t->kind = T_NUM;
            t->num = INFINITY;
            lp->pos = p;
            return set_text(t, start, len);
        } else {
            t->kind = T_NAME;
            lp->pos = p;
        }
        return set_text(t, start, len);
    }
}

/* The k-th token ahead (0: the current one). */
static slp_err peek(lp_t *lp, int k, tok_t **out)
{
    while (lp->q_len <= k) {
        SLP_CALL(next_token(lp, &lp->q[(lp->q_head + lp->q_len) % LOOKAHEAD]));
        lp->q_len++;
    }
    *out = &lp->q[(lp->q_head + k) % LOOKAHEAD];
    return SLP_OK;
}

static void advance(lp_t *lp)
{
    lp->q_head = (lp->q_head + 1) % LOOKAHEAD;
    lp->q_len--;
}

/* ---------------------------------------------------------------- model parts */

static slp_err grow(void **p, int64_t cap, size_t elem)
{
    void *q = realloc(*p, (size_t)cap * elem);
    if (!q)
        return SLP_ERR_NOMEM;
    *p = q;
    return SLP_OK;
}

/* The column named `name`, created (bounds [0, inf), cost 0) on first use. */
static slp_err column(lp_t *lp, const char *name, size_t len, int64_t *out)
{
    int inserted = 0;
    SLP_CALL(slp_name_index_insert_n(lp->cols, name, len, lp->n, &inserted, out));
    if (!inserted)
        return SLP_OK;
    if (lp->n == lp->n_cap) {
        int64_t cap = lp->n_cap ? 2 * lp->n_cap : 1024;
        SLP_CALL(grow((void **)&lp->c, cap, sizeof *lp->c));
        SLP_CALL(grow((void **)&lp->lv, cap, sizeof *lp->lv));
        SLP_CALL(grow((void **)&lp->uv, cap, sizeof *lp->uv));
        SLP_CALL(grow((void **)&lp->is_int, cap, 1));
        SLP_CALL(grow((void **)&lp->semi, cap, 1));
        SLP_CALL(grow((void **)&lp->col_names, cap, sizeof *lp->col_names));
        SLP_CALL(grow((void **)&lp->stamp, cap, sizeof *lp->stamp));
        SLP_CALL(grow((void **)&lp->slot, cap, sizeof *lp->slot));
        lp->n_cap = cap;
    }
    int64_t j = lp->n++;
    lp->c[j] = 0.0;
    lp->lv[j] = 0.0;
    lp->uv[j] = INFINITY;
    lp->is_int[j] = lp->semi[j] = 0;
    lp->stamp[j] = -1;
    lp->col_names[j] = slp_name_store_add(&lp->col_store, name, len, lp->path);
    *out = j;
    return lp->col_names[j] ? SLP_OK : SLP_ERR_NOMEM;
}

/* Add coef * column to the current row's terms (repeated columns summed). */
static slp_err add_term(lp_t *lp, int64_t row, int64_t j, double coef)
{
    if (lp->stamp[j] == row) {
        lp->term_val[lp->slot[j]] += coef;
        return SLP_OK;
    }
    if (lp->terms == lp->terms_cap) {
        int64_t cap = lp->terms_cap ? 2 * lp->terms_cap : 256;
        SLP_CALL(grow((void **)&lp->term_col, cap, sizeof *lp->term_col));
        SLP_CALL(grow((void **)&lp->term_val, cap, sizeof *lp->term_val));
        lp->terms_cap = cap;
    }
    lp->stamp[j] = row;
    lp->slot[j] = lp->terms;
    lp->term_col[lp->terms] = j;
    lp->term_val[lp->terms++] = coef;
    return SLP_OK;
}

static slp_err new_row(lp_t *lp, const char *name, int64_t line, int64_t *out)
{
    char generated[32];
    if (!name) {
        snprintf(generated, sizeof generated, "R%lld", (long long)lp->m);
        name = generated;
    }
    int inserted = 0;
    int64_t existing = 0;
    SLP_CALL(slp_name_index_insert(lp->rows, name, lp->m, &inserted, &existing));
    if (!inserted) {
        char msg[300];
        snprintf(msg, sizeof msg, "constraint name '%.200s' used twice", name);
        return lp_error(lp, line, msg);
    }
    if (lp->m == lp->m_cap) {
        int64_t cap = lp->m_cap ? 2 * lp->m_cap : 1024;
        SLP_CALL(grow((void **)&lp->lc, cap, sizeof *lp->lc));
        SLP_CALL(grow((void **)&lp->uc, cap, sizeof *lp->uc));
        SLP_CALL(grow((void **)&lp->row_names, cap, sizeof *lp->row_names));
        lp->m_cap = cap;
    }
    int64_t i = lp->m++;
    lp->lc[i] = -INFINITY;
    lp->uc[i] = INFINITY;
    lp->row_names[i] = slp_name_store_add(&lp->row_store, name, strlen(name), lp->path);
    *out = i;
    return lp->row_names[i] ? SLP_OK : SLP_ERR_NOMEM;
}

/* ---------------------------------------------------------------- sections */

/* Stop tokens of an expression: a comparison, a label, a section, the end. */
static int ends_expression(const tok_t *t)
{
    return t->kind == T_OP || t->kind == T_LABEL || t->kind == T_SECTION || t->kind == T_END;
}

/* coef * column j into `row`'s terms, or into the objective (row -1). */
static slp_err term_into(lp_t *lp, int64_t row, int64_t j, double coef)
{
    if (row < 0) {
        lp->c[j] += coef;
        return SLP_OK;
    }
    return add_term(lp, row, j, coef);
}

/* A term read straight from the line (docs/lp-format.md "Reading speed"): one sign, an
 * optional number followed by a blank, a name, all on this line, with nothing the
 * tokenizer would read another way (a number glued to a name or led by a zero, a label,
 * inf, a comment, a second sign, a line break inside the term). Returns 1 with the
 * signed coefficient, the name and *end after it; 0 for anything else, which the tokens
 * then read as before. */
static int plain_term(const char *p, double *coef, const char **name, size_t *len,
                      const char **end)
{
    if (*p != '+' && *p != '-')
        return 0;
    double sign = *p == '-' ? -1.0 : 1.0, value = 1.0;
    p = skip_blanks(p + 1);
    if ((*p >= '0' && *p <= '9') || *p == '.') {
        char *after = NULL;
        if (*p >= '1' && *p <= '9' && (p[1] == ' ' || p[1] == '\t')) { /* 1: no parse */
            value = *p - '0';
            after = (char *)p + 1;
        } else {
            if (p[0] == '0' && p[1] >= '0' && p[1] <= '9')
                return 0;
            value = slp_parse_number_prefix(p, &after);
            if (after == p || !isfinite(value))
                return 0;
        }
        if (*after != ' ' && *after != '\t')
            return 0;
        p = skip_blanks(after);
    }
    const char *start = p;
    if ((*p >= '0' && *p <= '9') || *p == '.')
        return 0;
    while (is_name_char((unsigned char)*p))
        p++;
    size_t n = (size_t)(p - start);
    if (n == 0 || *skip_blanks(p) == ':' || is_infinity_word(start, n))
        return 0;
    *coef = sign * value;
    *name = start;
    *len = n;
    *end = p;
    return 1;
}

/* A linear expression: terms (into lp->terms for `row`; -1: the objective, into c)
 * and constants (summed into *constant). *vars: terms seen. Terms of the plain form
 * (plain_term) are read from the line while no token is waiting. */
static slp_err expression(lp_t *lp, int64_t row, double *constant, int *vars, int *parts)
{
    *constant = 0.0;
    *vars = 0;
    *parts = 0;
    for (;;) {
        double coef_now;
        const char *name, *end;
        size_t len;
        if (lp->q_len == 0 && lp->pos && !lp->block_comment &&
            plain_term(skip_blanks(lp->pos), &coef_now, &name, &len, &end)) {
            int64_t j = 0;
            SLP_CALL(column(lp, name, len, &j));
            lp->pos = end;
            lp->line_start = 0;
            SLP_CALL(term_into(lp, row, j, coef_now));
            (*vars)++;
            (*parts)++;
            continue;
        }
        tok_t *t = NULL;
        SLP_CALL(peek(lp, 0, &t));
        if (ends_expression(t))
            return SLP_OK;
        double sign = 1.0;
        while (t->kind == T_SIGN) {
            sign *= t->num;
            advance(lp);
            SLP_CALL(peek(lp, 0, &t));
        }
        double coef = 1.0;
        int has_number = 0;
        if (t->kind == T_NUM) {
            coef = t->num;
            has_number = 1;
            advance(lp);
            SLP_CALL(peek(lp, 0, &t));
        }
        if (has_number && t->kind == T_NUM && isfinite(t->num) && !ends_expression(t)) {
            t->kind = T_NAME; /* "+1 4": a coefficient, then a column named "4" */
        }
        if (t->kind != T_NAME) {
            if (!has_number)
                return lp_error(lp, t->line, "expected a term (coefficient and variable)");
            if (!isfinite(coef))
                return lp_error(lp, t->line, "infinite constant in an expression");
            *constant += sign * coef;
            (*parts)++;
            continue;
        }
        if (!isfinite(coef))
            return lp_error(lp, t->line, "infinite coefficient");
        int64_t j = 0;
        SLP_CALL(column(lp, t->text, t->len, &j));
        advance(lp);
        SLP_CALL(term_into(lp, row, j, sign * coef));
        (*vars)++;
        (*parts)++;
    }
}

/* [sign...] number, inf allowed. */
static slp_err signed_number(lp_t *lp, double *out, const char *what)
{
    tok_t *t = NULL;
    double sign = 1.0;
    SLP_CALL(peek(lp, 0, &t));
    while (t->kind == T_SIGN) {
        sign *= t->num;
        advance(lp);
        SLP_CALL(peek(lp, 0, &t));
    }
    if (t->kind != T_NUM)
        return lp_error(lp, t->line, what);
    *out = sign * t->num;
    advance(lp);
    return SLP_OK;
}

static slp_err objective(lp_t *lp, int sense, int64_t line)
{
    if (lp->seen_objective)
        return slp_error(SLP_ERR_UNSUPPORTED, "%s:%lld: a second objective section (multiple "
                         "objectives are not supported)", lp->path, (long long)line);
    lp->seen_objective = 1;
    lp->sense = sense;
    tok_t *t = NULL;
    SLP_CALL(peek(lp, 0, &t));
    if (t->kind == T_LABEL) {
        free(lp->obj_name);
        lp->obj_name = slp_strdup(t->text);
        advance(lp);
    }
    int vars = 0, parts = 0;
    SLP_CALL(expression(lp, -1, &lp->obj_const, &vars, &parts));
    SLP_CALL(peek(lp, 0, &t));
    if (t->kind == T_OP || t->kind == T_LABEL)
        return lp_error(lp, t->line, "unexpected comparison or label in the objective (a "
                        "'Subject To' line missing?)");
    return SLP_OK;
}

/* The row's merged terms as triplets. */
static slp_err emit_row(lp_t *lp, int64_t row)
{
    for (int64_t k = 0; k < lp->terms; k++)
        SLP_CALL(slp_triplets_add(&lp->tri, lp->term_col[k], row, lp->term_val[k]));
    lp->terms = 0;
    return SLP_OK;
}

/* lo <= expression <= hi from one comparison "expression op value". */
static void apply_op(int op, double value, double *lo, double *hi)
{
    if (op == '<' || op == '=')
        *hi = value;
    if (op == '>' || op == '=')
        *lo = value;
}

/* One constraint: [label:] expr op rhs, or number op expr [op number] (a range). */
static slp_err constraint(lp_t *lp)
{
    tok_t *t = NULL;
    SLP_CALL(peek(lp, 0, &t));
    int64_t line = t->line;
    const char *name = NULL;
    char *label = NULL;
    if (t->kind == T_LABEL) {
        label = slp_strdup(t->text);
        if (!label)
            return SLP_ERR_NOMEM;
        name = label;
        advance(lp);
    }
    int64_t row = 0;
    slp_err rc = new_row(lp, name, line, &row);
    free(label);
    SLP_CALL(rc);
    double k1 = 0.0, lo = -INFINITY, hi = INFINITY;
    int vars = 0, parts = 0;
    SLP_CALL(expression(lp, row, &k1, &vars, &parts));
    SLP_CALL(peek(lp, 0, &t));
    if (t->kind != T_OP)
        return lp_error(lp, line, "constraint without a comparison (<=, >= or =)");
    int op1 = t->op;
    advance(lp);
    if (vars > 0 || parts == 0) { /* expr op rhs (also an empty row, as HiGHS writes it) */
        double rhs = 0.0;
        SLP_CALL(signed_number(lp, &rhs, "expected a number after the comparison"));
        apply_op(op1, rhs - k1, &lo, &hi);
    } else { /* k1 op1 expr [op2 k2] */
        double k2 = 0.0, k3 = 0.0;
        SLP_CALL(expression(lp, row, &k2, &vars, &parts));
        if (vars == 0)
            return lp_error(lp, line, "constraint without variables");
        /* k1 op1 expr + k2  <=>  expr op1' k1 - k2 with the comparison reversed */
        int rev = op1 == '<' ? '>' : op1 == '>' ? '<' : '=';
        apply_op(rev, k1 - k2, &lo, &hi);
        SLP_CALL(peek(lp, 0, &t));
        if (t->kind == T_OP) {
            int op2 = t->op;
            advance(lp);
            if (op1 == '=' || op2 == '=' || op1 != op2)
                return lp_error(lp, t->line, "a range needs two '<=' or two '>=' comparisons");
            SLP_CALL(signed_number(lp, &k3, "expected a number after the comparison"));
            apply_op(op2, k3 - k2, &lo, &hi);
        }
    }
    if (lo == INFINITY || hi == -INFINITY || isnan(lo) || isnan(hi))
        return lp_error(lp, line, "infinite or invalid right-hand side");
    lp->lc[row] = lo;
    lp->uc[row] = hi;
    return emit_row(lp, row);
}

/* One bound: name free | name op value | value op name [op value]. */
static slp_err bound(lp_t *lp)
{
    tok_t *t = NULL;
    SLP_CALL(peek(lp, 0, &t));
    int64_t line = t->line, j = 0;
    if (t->kind == T_NAME) {
        SLP_CALL(column(lp, t->text, t->len, &j));
        advance(lp);
        SLP_CALL(peek(lp, 0, &t));
        if (t->kind == T_NAME && !strcasecmp(t->text, "free")) {
            lp->lv[j] = -INFINITY;
            lp->uv[j] = INFINITY;
            advance(lp);
            return SLP_OK;
        }
        if (t->kind != T_OP)
            return lp_error(lp, t->line, "expected 'free' or a comparison in a bound");
        int op = t->op;
        advance(lp);
        double v = 0.0;
        SLP_CALL(signed_number(lp, &v, "expected a number in a bound"));
        apply_op(op, v, &lp->lv[j], &lp->uv[j]);
        return SLP_OK;
    }
    if (t->kind == T_NUM && isfinite(t->num)) { /* "010101 <= 4": a numeric name first */
        tok_t *t1 = NULL, *t2 = NULL;
        SLP_CALL(peek(lp, 1, &t1));
        SLP_CALL(peek(lp, 2, &t2));
        if (t1->kind == T_OP && (t2->kind == T_NUM || t2->kind == T_SIGN)) {
            tok_t *t3 = NULL;
            SLP_CALL(peek(lp, 3, &t3));
            int number_after = t2->kind == T_SIGN ? t3->kind == T_NUM : 1;
            int named_after = t2->kind == T_NUM && t3->kind == T_OP; /* "1 <= 2 <= 3" */
            if (number_after && !named_after) {
                t->kind = T_NAME;
                return bound(lp);
            }
        }
    }
    double v1 = 0.0;
    SLP_CALL(signed_number(lp, &v1, "expected a variable or a number in a bound"));
    SLP_CALL(peek(lp, 0, &t));
    if (t->kind != T_OP)
        return lp_error(lp, t->line, "expected a comparison in a bound");
    int op1 = t->op;
    advance(lp);
    SLP_CALL(peek(lp, 0, &t));
    if (t->kind == T_NUM && isfinite(t->num))
        t->kind = T_NAME; /* "-inf <= 4 <= 7": the column named "4" */
    if (t->kind != T_NAME)
        return lp_error(lp, t->line, "expected a variable in a bound");
    SLP_CALL(column(lp, t->text, t->len, &j));
    advance(lp);
    int rev = op1 == '<' ? '>' : op1 == '>' ? '<' : '=';
    apply_op(rev, v1, &lp->lv[j], &lp->uv[j]);
    SLP_CALL(peek(lp, 0, &t));
    if (t->kind == T_OP) {
        int op2 = t->op;
        advance(lp);
        double v2 = 0.0;
        SLP_CALL(signed_number(lp, &v2, "expected a number in a bound"));
        if (op1 != op2 || op1 == '=')
            return lp_error(lp, line, "a double bound needs two '<=' or two '>=' comparisons");
        apply_op(op2, v2, &lp->lv[j], &lp->uv[j]);
    }
    return SLP_OK;
}

/* Names of a General / Binary / Semi-continuous section. */
static slp_err markers(lp_t *lp, int section)
{
    for (;;) {
        tok_t *t = NULL;
        SLP_CALL(peek(lp, 0, &t));
        if (t->kind == T_SECTION || t->kind == T_END)
            return SLP_OK;
        if (t->kind == T_NUM && isfinite(t->num))
            t->kind = T_NAME; /* a numeric name */
        if (t->kind != T_NAME)
            return lp_error(lp, t->line, "expected a variable name");
        int64_t j = 0;
        SLP_CALL(column(lp, t->text, t->len, &j));
        lp->is_int[j] = 1;
        if (section == S_BIN) {
            lp->lv[j] = fmax(lp->lv[j], 0.0);
            lp->uv[j] = fmin(lp->uv[j], 1.0);
        }
        if (section == S_SEMI)
            lp->semi[j] = 1;
        advance(lp);
    }
}

static slp_err parse(lp_t *lp)
{
    int section = S_NONE;
    for (;;) {
        tok_t *t = NULL;
        SLP_CALL(peek(lp, 0, &t));
        if (t->kind == T_END || section == S_END)
            break;
        if (t->kind == T_SECTION) {
            section = t->section;
            int64_t line = t->line;
            char word[64];
            snprintf(word, sizeof word, "%s", t->text);
            advance(lp);
            if (section == S_UNSUPPORTED)
                return slp_error(SLP_ERR_UNSUPPORTED, "%s:%lld: '%s' sections are not supported "
                                 "(shardlp solves LPs)", lp->path, (long long)line, word);
            if (section == S_MIN || section == S_MAX)
                SLP_CALL(objective(lp, section == S_MIN ? 1 : -1, line));
            else if (!lp->seen_objective && section != S_END)
                return lp_error(lp, line, "the file must start with Minimize or Maximize");
            if (section == S_GEN || section == S_BIN || section == S_SEMI)
                SLP_CALL(markers(lp, section));
            continue;
        }
        if (section == S_CONS)
            SLP_CALL(constraint(lp));
        else if (section == S_BOUNDS)
            SLP_CALL(bound(lp));
        else
            return lp_error(lp, t->line, section == S_NONE
                                             ? "the file must start with Minimize or Maximize"
                                             : "unexpected text after the objective");
    }
    if (!lp->seen_objective)
        return lp_error(lp, lp->lineno, "no objective section (Minimize or Maximize)");
    return SLP_OK;
}

/* ---------------------------------------------------------------- slp_lp_read */

static void lp_free(lp_t *lp)
{
    slp_text_in_close(&lp->in);
    free(lp->line);
    for (int k = 0; k < LOOKAHEAD; k++)
        free(lp->q[k].text);
    slp_name_index_destroy(&lp->cols);
    slp_name_index_destroy(&lp->rows);
    free(lp->c), free(lp->lv), free(lp->uv), free(lp->lc), free(lp->uc);
    free(lp->is_int), free(lp->semi), free(lp->stamp), free(lp->slot);
    free(lp->term_col), free(lp->term_val);
    free(lp->col_names); /* the names are in the stores */
    free(lp->row_names);
    slp_name_store_free(&lp->col_store);
    slp_name_store_free(&lp->row_store);
    free(lp->obj_name);
    slp_triplets_free(&lp->tri);
}

/* Hand the grown arrays to a model (semi-continuous lower bounds relaxed to 0). */
static slp_err to_model(lp_t *lp, slp_model_t **out)
{
    slp_model_t *model = NULL;
    SLP_CALL(slp_model_create(0, 0, 0, &model));
    int64_t *col_ptr = NULL, *row = NULL, nnz = 0;
    double *val = NULL;
    char **col_names = NULL, **row_names = NULL;
    slp_err rc = slp_triplets_to_csc(lp->path, &lp->tri, lp->n, &col_ptr, &row, &val, &nnz);
    if (rc == SLP_OK)
        rc = slp_names_pack(lp->col_names, lp->n, lp->col_store.bytes, &col_names);
    if (rc == SLP_OK)
        rc = slp_names_pack(lp->row_names, lp->m, lp->row_store.bytes, &row_names);
    if (rc != SLP_OK) {
        free(col_ptr), free(row), free(val);
        slp_names_free(col_names, lp->n);
        slp_model_destroy(&model);
        return rc;
    }
    free(model->c), free(model->lv), free(model->uv), free(model->lc), free(model->uc);
    free(model->col_ptr), free(model->row_idx), free(model->val), free(model->obj_name);
    int64_t integers = 0;
    for (int64_t j = 0; j < lp->n; j++) {
        integers += lp->is_int[j];
        if (lp->semi[j]) /* x in {0} u [l, u]: its relaxation is [min(0, l), u] */
            lp->lv[j] = fmin(lp->lv[j], 0.0);
    }
    model->m = lp->m, model->n = lp->n, model->nnz = nnz;
    model->sense = lp->sense;
    model->obj_const = lp->obj_const;
    model->obj_name = lp->obj_name ? lp->obj_name : slp_strdup("obj");
    lp->obj_name = NULL;
    model->c = lp->c, model->lv = lp->lv, model->uv = lp->uv;
    model->lc = lp->lc, model->uc = lp->uc;
    lp->c = lp->lv = lp->uv = lp->lc = lp->uc = NULL;
    model->col_ptr = col_ptr, model->row_idx = row, model->val = val;
    model->col_names = col_names, model->row_names = row_names;
    if (integers) {
        model->is_int = lp->is_int;
        lp->is_int = NULL;
    }
    /* empty arrays for a model with no rows or columns */
    if (!model->c || !model->lc || !model->col_names || !model->row_names) {
        int64_t n = model->n > 0 ? model->n : 1, m = model->m > 0 ? model->m : 1;
        if (!model->c) model->c = slp_calloc((size_t)n, sizeof(double));
        if (!model->lv) model->lv = slp_calloc((size_t)n, sizeof(double));
        if (!model->uv) model->uv = slp_calloc((size_t)n, sizeof(double));
        if (!model->col_names) model->col_names = slp_calloc((size_t)n, sizeof(char *));
        if (!model->lc) model->lc = slp_calloc((size_t)m, sizeof(double));
        if (!model->uc) model->uc = slp_calloc((size_t)m, sizeof(double));
        if (!model->row_names) model->row_names = slp_calloc((size_t)m, sizeof(char *));
    }
    *out = model;
    return SLP_OK;
}

slp_err slp_lp_read(const char *path, slp_model_t **out)
{
    *out = NULL;
    lp_t lp;
    memset(&lp, 0, sizeof lp);
    lp.path = path;
    lp.sense = 1;
    slp_triplets_init(&lp.tri);
    slp_err rc = slp_text_in_open(path, &lp.in);
    if (rc == SLP_OK)
        rc = slp_name_index_create(1024, &lp.cols);
    if (rc == SLP_OK)
        rc = slp_name_index_create(1024, &lp.rows);
    if (rc == SLP_OK)
        rc = parse(&lp);
    slp_model_t *model = NULL;
    if (rc == SLP_OK)
        rc = to_model(&lp, &model);
    lp_free(&lp);
    if (rc == SLP_OK)
        rc = slp_model_validate(model, path);
    if (rc != SLP_OK) {
        slp_model_destroy(&model);
        return rc == SLP_ERR_NOMEM && !slp_error_message()[0]
                   ? slp_error(SLP_ERR_NOMEM, "%s: out of memory", path)
                   : rc;
    }
    *out = model;
    return SLP_OK;
}

int slp_lp_starts_objective(const char *text)
{
    size_t used = 0;
    int s = section_at(text, &used);
    return s == S_MIN || s == S_MAX;
}
