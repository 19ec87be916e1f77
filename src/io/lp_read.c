/* The CPLEX LP reader (io/lp.h, docs/lp-format.md).
 *
 * Table of contents:
 *   lines, tokens   the text, line by line through io/text_in.h; tokens with a
 *                   four-token lookahead; section keywords only at a line's start
 *   model parts     columns by first appearance, rows, the objective, triplets
 *   sections        objective, constraints, bounds, integer markers
 *   slp_lp_read     the whole file into a CSC model
 *   pieces          byte ranges of a section for the parallel reader (io/lp_pieces.h)
 */
#include "io/lp.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/log.h"
#include "core/name_index.h"
#include "io/lp_pieces.h"
#include "io/mps_parse.h"
#include "io/text_in.h"
#include "io/triplets.h"

#define MAX_LINE_BYTES ((size_t)1 << 30)
#define LOOKAHEAD 4
#define RANGE_BUFFER ((size_t)1 << 20) /* a piece's text is read in blocks of this size */

typedef enum { T_END, T_NUM, T_NAME, T_LABEL, T_OP, T_SIGN, T_SECTION } tok_kind;

typedef struct {
    tok_kind kind;
    double num;      /* T_NUM (inf allowed); T_SIGN: +1 / -1 */
    int op;          /* T_OP: '<', '>' or '=' */
    int section;     /* T_SECTION: slp_lp_section */
    char *text;      /* T_NAME, T_LABEL, T_SECTION: owned */
    size_t len;      /* strlen(text) */
    size_t text_cap;
    int64_t line;
} tok_t;

typedef struct {
    const char *path;
    slp_text_in_t *in;     /* the whole file, or: */
    slp_text_at_t *at;     /* a piece's bytes [at_pos, at_end) (pieces) */
    char *at_buf;
    size_t at_len, at_used;
    int64_t at_pos, at_end;
    int at_errno;          /* a failed read of a piece */
    char *line;
    size_t line_cap;
    int64_t lineno;
    const char *pos;       /* next character of the current line; NULL: read a line */
    int line_start;        /* no token yet on this line */
    int mid_line;          /* the next line read is the rest of a keyword's line */
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
    /* pieces (io/lp_pieces.h): every use of a column name is a mention of its own (n
     * counts them; col_names and col_piece per mention), recorded with its term (in tri,
     * row -1 for the objective) or its bound or marker (ops), not applied; unlabelled
     * rows not named here */
    int pieces;
    int32_t piece;
    int32_t *col_piece;
    slp_lp_op_t *ops;
    int64_t n_ops, ops_cap;
    int64_t obj_constants;
} lp_t;

static slp_err lp_error(const lp_t *lp, int64_t line, const char *what)
{
    return slp_error(SLP_ERR_INPUT, "%s:%lld: %s", lp->path, (long long)line, what);
}

/* ---------------------------------------------------------------- lines, tokens */

/* fgets over a piece's bytes: up to size - 1 bytes, stopping after a '\n', *count of
 * them; NULL when nothing is left (or a read failed: at_errno). */
static char *range_gets(lp_t *lp, char *dst, size_t size, size_t *count)
{
    size_t out = 0;
    while (out + 1 < size) {
        if (lp->at_used == lp->at_len) {
            int64_t left = lp->at_end - lp->at_pos;
            if (left <= 0)
                break;
            size_t want = (uint64_t)left < RANGE_BUFFER ? (size_t)left : RANGE_BUFFER;
            ssize_t got = slp_text_at_read(lp->at, lp->at_buf, want, lp->at_pos);
            if (got < (ssize_t)want) { /* a read error, or the file became shorter */
                lp->at_errno = got < 0 ? errno : EIO;
                return NULL;
            }
            lp->at_pos += got;
            lp->at_len = (size_t)got;
            lp->at_used = 0;
        }
        const char *from = lp->at_buf + lp->at_used;
        size_t take = lp->at_len - lp->at_used;
        if (take > size - 1 - out)
            take = size - 1 - out;
        const char *nl = memchr(from, '\n', take);
        if (nl)
            take = (size_t)(nl - from) + 1;
        memcpy(dst + out, from, take);
        out += take;
        lp->at_used += take;
        if (nl)
            break;
    }
    *count = out;
    if (out == 0)
        return NULL;
    dst[out] = '\0';
    return dst;
}

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
        size_t read = 0;
        if (!(lp->at ? range_gets(lp, lp->line + len, lp->line_cap - len, &read)
                     : slp_text_in_gets(lp->in, lp->line + len, lp->line_cap - len, &read)))
            break;
        size_t add = strlen(lp->line + len);
        if (add < read)
            return lp_error(lp, lp->lineno + 1, "NUL byte in the line (not a text file?)");
        len += add;
        if (lp->line[len - 1] == '\n')
            break;
    }
    const char *why = NULL;
    slp_text_status st = lp->at ? (lp->at_errno ? SLP_TEXT_IO : SLP_TEXT_OK)
                                : slp_text_in_status(lp->in, &why);
    if (lp->at_errno)
        why = strerror(lp->at_errno);
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

/* The section a line starts with, or SLP_LP_NONE. *used: the characters of the keyword. */
static int section_at(const char *p, size_t *used)
{
    static const struct {
        const char *word;
        int section;
    } words[] = {
        {"subject to", SLP_LP_CONS}, {"such that", SLP_LP_CONS}, {"s.t.", SLP_LP_CONS},
        {"st.", SLP_LP_CONS}, {"st", SLP_LP_CONS}, {"minimize", SLP_LP_MIN},
        {"minimise", SLP_LP_MIN}, {"minimum", SLP_LP_MIN}, {"min", SLP_LP_MIN},
        {"maximize", SLP_LP_MAX}, {"maximise", SLP_LP_MAX}, {"maximum", SLP_LP_MAX},
        {"max", SLP_LP_MAX}, {"bounds", SLP_LP_BOUNDS}, {"bound", SLP_LP_BOUNDS},
        {"generals", SLP_LP_GEN}, {"general", SLP_LP_GEN}, {"gen", SLP_LP_GEN},
        {"integers", SLP_LP_GEN}, {"integer", SLP_LP_GEN}, {"binaries", SLP_LP_BIN},
        {"binary", SLP_LP_BIN}, {"bin", SLP_LP_BIN}, {"semi-continuous", SLP_LP_SEMI},
        {"semis", SLP_LP_SEMI}, {"semi", SLP_LP_SEMI}, {"sos", SLP_LP_UNSUPPORTED},
        {"end", SLP_LP_END},
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
    return SLP_LP_NONE;
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
            lp->line_start = !lp->mid_line;
            lp->mid_line = 0;
        }
        const char *p = lp->pos;
        if (lp->block_comment) {
            const char *close = strstr(p, "*\\");
            lp->pos = close ? close + 2 : NULL;
            lp->block_comment = !close;
            continue;
        }
        while (slp_lp_space(*p)) /* not isspace, which costs a call a character */
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
        if (lp->line_start && (t->section = section_at(p, &used)) != SLP_LP_NONE) {
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
            while (end != p && slp_lp_name_char((unsigned char)*word_end))
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
        if (!slp_lp_name_char((unsigned char)*p)) {
            char msg[64];
            snprintf(msg, sizeof msg, "unexpected character '%c'", *p);
            return lp_error(lp, lp->lineno, msg);
        }
        const char *start = p;
        while (slp_lp_name_char((unsigned char)*p))
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

/* A piece's mention of `name` (a piece keeps no index of names): its number. */
static slp_err mention(lp_t *lp, const char *name, size_t len, int64_t *out)
{
    if (lp->n == lp->n_cap) {
        int64_t cap = lp->n_cap ? 2 * lp->n_cap : 1024;
        SLP_CALL(grow((void **)&lp->col_names, cap, sizeof *lp->col_names));
        SLP_CALL(grow((void **)&lp->col_piece, cap, sizeof *lp->col_piece));
        lp->n_cap = cap;
    }
    int64_t k = lp->n++;
    lp->col_piece[k] = lp->piece;
    lp->col_names[k] = name ? slp_name_store_add(&lp->col_store, name, len, lp->path)
                            : lp->col_names[k - 1];
    *out = k;
    return lp->col_names[k] ? SLP_OK : SLP_ERR_NOMEM;
}

/* The column named `name`, created (bounds [0, inf), cost 0) on first use. */
static slp_err column(lp_t *lp, const char *name, size_t len, int64_t *out)
{
    if (lp->pieces)
        return mention(lp, name, len, out);
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

/* A free row named `name` (NULL in a piece: named once the rows are numbered). */
static slp_err append_row(lp_t *lp, const char *name, int64_t *out)
{
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
    lp->row_names[i] = NULL;
    if (name && !(lp->row_names[i] = slp_name_store_add(&lp->row_store, name, strlen(name),
                                                        lp->path)))
        return SLP_ERR_NOMEM;
    *out = i;
    return SLP_OK;
}

/* A new row, its name the label or R<i>, each name once in the file (in a piece, the
 * names are checked over all pieces: grid/read_lp.c). */
static slp_err new_row(lp_t *lp, const char *name, int64_t line, int64_t *out)
{
    if (lp->pieces)
        return append_row(lp, name, out);
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
    return append_row(lp, name, out);
}

/* A bound or marker on column j: applied, or recorded in a piece. */
static slp_err column_op(lp_t *lp, int64_t j, int32_t code, double value)
{
    if (!lp->pieces) {
        slp_lp_apply_op(code, value, &lp->lv[j], &lp->uv[j], &lp->is_int[j], &lp->semi[j]);
        return SLP_OK;
    }
    if (lp->n_ops > 0 && lp->ops[lp->n_ops - 1].col == j) /* a double bound's second side */
        SLP_CALL(mention(lp, NULL, 0, &j));
    SLP_CALL(slp_grow(&lp->ops, &lp->ops_cap, lp->n_ops + 1, sizeof *lp->ops, 1024,
                      "the bounds of a piece"));
    lp->ops[lp->n_ops] = (slp_lp_op_t){j, lp->n_ops, lp->piece, code, value};
    lp->n_ops++;
    return SLP_OK;
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
    if (lp->pieces) /* summed where the mentions of the name meet (grid/read_lp.c) */
        return slp_triplets_add(&lp->tri, j, row, coef);
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
    while (slp_lp_name_char((unsigned char)*p))
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
    lp->obj_constants = parts - vars;
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

void slp_lp_apply_op(int32_t code, double value, double *lv, double *uv, unsigned char *is_int,
                     unsigned char *semi)
{
    switch (code) {
    case 'F':
        *lv = -INFINITY;
        *uv = INFINITY;
        break;
    case 'B':
        *is_int = 1;
        *lv = fmax(*lv, 0.0);
        *uv = fmin(*uv, 1.0);
        break;
    case 'S':
        *is_int = 1;
        *semi = 1;
        break;
    case 'I':
        *is_int = 1;
        break;
    default:
        apply_op(code, value, lv, uv);
    }
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
            advance(lp);
            return column_op(lp, j, 'F', 0.0);
        }
        if (t->kind != T_OP)
            return lp_error(lp, t->line, "expected 'free' or a comparison in a bound");
        int op = t->op;
        advance(lp);
        double v = 0.0;
        SLP_CALL(signed_number(lp, &v, "expected a number in a bound"));
        return column_op(lp, j, op, v);
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
    SLP_CALL(column_op(lp, j, rev, v1));
    SLP_CALL(peek(lp, 0, &t));
    if (t->kind == T_OP) {
        int op2 = t->op;
        advance(lp);
        double v2 = 0.0;
        SLP_CALL(signed_number(lp, &v2, "expected a number in a bound"));
        if (op1 != op2 || op1 == '=')
            return lp_error(lp, line, "a double bound needs two '<=' or two '>=' comparisons");
        SLP_CALL(column_op(lp, j, op2, v2));
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
        SLP_CALL(column_op(lp, j, section == SLP_LP_BIN ? 'B' : section == SLP_LP_SEMI ? 'S' : 'I',
                           0.0));
        advance(lp);
    }
}

static slp_err parse(lp_t *lp)
{
    int section = SLP_LP_NONE;
    while (section != SLP_LP_END) { /* nothing after End is read (not even a token) */
        tok_t *t = NULL;
        SLP_CALL(peek(lp, 0, &t));
        if (t->kind == T_END)
            break;
        if (t->kind == T_SECTION) {
            section = t->section;
            int64_t line = t->line;
            char word[64];
            snprintf(word, sizeof word, "%s", t->text);
            advance(lp);
            if (section == SLP_LP_UNSUPPORTED)
                return slp_error(SLP_ERR_UNSUPPORTED, "%s:%lld: '%s' sections are not supported "
                                 "(shardlp solves LPs)", lp->path, (long long)line, word);
            if (section == SLP_LP_MIN || section == SLP_LP_MAX)
                SLP_CALL(objective(lp, section == SLP_LP_MIN ? 1 : -1, line));
            else if (!lp->seen_objective && section != SLP_LP_END)
                return lp_error(lp, line, "the file must start with Minimize or Maximize");
            if (section == SLP_LP_GEN || section == SLP_LP_BIN || section == SLP_LP_SEMI)
                SLP_CALL(markers(lp, section));
            continue;
        }
        if (section == SLP_LP_CONS)
            SLP_CALL(constraint(lp));
        else if (section == SLP_LP_BOUNDS)
            SLP_CALL(bound(lp));
        else
            return lp_error(lp, t->line, section == SLP_LP_NONE
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
    free(lp->col_piece), free(lp->ops), free(lp->at_buf);
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
    return s == SLP_LP_MIN || s == SLP_LP_MAX;
}

int slp_lp_section_at(const char *text, size_t *used)
{
    *used = 0;
    return section_at(text, used);
}

/* ---------------------------------------------------------------- pieces */

struct slp_lp_pieces {
    lp_t lp;
};

slp_err slp_lp_pieces_open(const char *path, slp_text_at_t *src, slp_lp_pieces_t **out)
{
    *out = NULL;
    slp_lp_pieces_t *pc = calloc(1, sizeof *pc);
    if (!pc)
        return slp_error(SLP_ERR_NOMEM, "out of memory");
    lp_t *lp = &pc->lp;
    lp->path = path;
    lp->sense = 1;
    lp->at = src;
    lp->pieces = 1;
    slp_triplets_init(&lp->tri);
    if (!(lp->at_buf = malloc(RANGE_BUFFER))) { /* no index of names: mentions (column()) */
        slp_lp_pieces_close(&pc);
        return slp_error(SLP_ERR_NOMEM, "out of memory");
    }
    *out = pc;
    return SLP_OK;
}

void slp_lp_pieces_close(slp_lp_pieces_t **pc)
{
    if (!*pc)
        return;
    lp_free(&(*pc)->lp);
    free(*pc);
    *pc = NULL;
}

/* The piece ends here: nothing but its end may follow what it parsed. */
static slp_err piece_ends(lp_t *lp)
{
    tok_t *t = NULL;
    SLP_CALL(peek(lp, 0, &t));
    return t->kind == T_END ? SLP_OK : lp_error(lp, t->line, "more text than the piece's section");
}

/* The statements of one section's piece, up to the piece's end. */
static slp_err piece_body(lp_t *lp, slp_lp_section section, int objective_start)
{
    tok_t *t = NULL;
    if (section == SLP_LP_MIN || section == SLP_LP_MAX) {
        if (objective_start)
            SLP_CALL(objective(lp, section == SLP_LP_MIN ? 1 : -1, 0));
        else { /* later pieces: more terms of the same expression */
            double constant = 0.0;
            int vars = 0, parts = 0;
            SLP_CALL(expression(lp, -1, &constant, &vars, &parts));
            lp->obj_const += constant;
            lp->obj_constants += parts - vars;
        }
        return piece_ends(lp);
    }
    if (section == SLP_LP_GEN || section == SLP_LP_BIN || section == SLP_LP_SEMI) {
        SLP_CALL(markers(lp, section));
        return piece_ends(lp);
    }
    if (section == SLP_LP_END) { /* its line read as the one-process reader reads it */
        SLP_CALL(peek(lp, 0, &t));
        return t->kind == T_SECTION && t->section == SLP_LP_END
                   ? SLP_OK : lp_error(lp, t->line, "no End where the layout has it");
    }
    for (;;) {
        SLP_CALL(peek(lp, 0, &t));
        if (t->kind == T_END)
            return SLP_OK;
        if (section == SLP_LP_CONS && t->kind != T_SECTION)
            SLP_CALL(constraint(lp));
        else if (section == SLP_LP_BOUNDS && t->kind != T_SECTION)
            SLP_CALL(bound(lp));
        else
            return lp_error(lp, t->line, "text where the piece's section has none");
    }
}

slp_err slp_lp_pieces_read(slp_lp_pieces_t *pc, int64_t begin, int64_t end, int32_t piece,
                           slp_lp_section section, int mid_line, int objective_start)
{
    lp_t *lp = &pc->lp;
    lp->at_pos = begin;
    lp->at_end = end;
    lp->at_len = lp->at_used = 0;
    lp->at_errno = 0;
    lp->pos = NULL;
    lp->block_comment = 0;
    lp->q_head = lp->q_len = 0;
    lp->mid_line = mid_line;
    lp->piece = piece;
    return piece_body(lp, section, objective_start);
}

void slp_lp_pieces_trim(slp_lp_pieces_t *pc, int64_t mentions, int64_t terms, int64_t ops)
{
    lp_t *lp = &pc->lp;
    lp->n = mentions < lp->n ? mentions : lp->n;
    lp->n_ops = ops < lp->n_ops ? ops : lp->n_ops;
    int64_t cap = lp->n_cap;
    slp_shrink(&lp->col_names, &cap, lp->n, sizeof *lp->col_names);
    cap = lp->n_cap;
    slp_shrink(&lp->col_piece, &cap, lp->n, sizeof *lp->col_piece);
    lp->n_cap = lp->n; /* a declined shrink leaves more room than this, never less */
    slp_shrink(&lp->ops, &lp->ops_cap, lp->n_ops, sizeof *lp->ops);
    slp_triplets_truncate(&lp->tri, terms);
    slp_name_store_drop_after(&lp->col_store, lp->n > 0 ? lp->col_names[lp->n - 1] : NULL);
}

void slp_lp_pieces_view(const slp_lp_pieces_t *pc, slp_lp_piece_view_t *out)
{
    const lp_t *lp = &pc->lp;
    *out = (slp_lp_piece_view_t){lp->n,     lp->col_names, lp->col_piece, lp->m,
                                 lp->row_names, lp->lc,     lp->uc,        &lp->tri,
                                 lp->ops,   lp->n_ops,      lp->obj_const, lp->obj_constants};
}
