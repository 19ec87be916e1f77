/* A minimal JSON reader (io/json_read.h): standard JSON (objects, arrays, strings with
 * escapes, numbers, true, false, null); integers written without fraction or exponent
 * are kept exactly as int64. Used for shard manifests and checkpoint manifests. */
#include "io/json_read.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    const char *p;
    const char *start;
    const char *source;
    int depth;
} parser_t;

static slp_err parse_value(parser_t *ps, slp_mjson_t *out);

static void skip_ws(parser_t *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
        ps->p++;
}

static slp_err syntax(parser_t *ps, const char *what)
{
    int64_t line = 1;
    for (const char *q = ps->start; q < ps->p; q++)
        line += *q == '\n';
    return slp_error(SLP_ERR_INPUT, "%s:%lld: malformed JSON: %s", ps->source, (long long)line,
                     what);
}

static slp_err parse_string(parser_t *ps, char **out)
{
    ps->p++; /* opening quote */
    const char *q = ps->p;
    size_t len = 0;
    while (*q && *q != '"') {
        if (*q == '\\' && q[1])
            q++;
        q++;
        len++;
    }
    if (*q != '"')
        return syntax(ps, "unterminated string");
    char *s = slp_malloc(len * 4 + 1);
    if (!s)
        return SLP_ERR_NOMEM;
    size_t k = 0;
    while (*ps->p != '"') {
        char ch = *ps->p++;
        if (ch == '\\') {
            char e = *ps->p++;
            switch (e) {
            case 'n': ch = '\n'; break;
            case 't': ch = '\t'; break;
            case 'r': ch = '\r'; break;
            case 'b': ch = '\b'; break;
            case 'f': ch = '\f'; break;
            case 'u': {
                unsigned code = 0;
                for (int d = 0; d < 4; d++) {
                    char h = *ps->p;
                    if (!isxdigit((unsigned char)h)) {
                        free(s);
                        return syntax(ps, "bad \\u escape");
                    }
                    code = code * 16 + (unsigned)(isdigit((unsigned char)h) ? h - '0'
                                                                             : (tolower(h) - 'a' + 10));
                    ps->p++;
                }
                /* Names are ASCII in practice; encode the BMP code point as UTF-8. */
                if (code < 0x80) {
                    ch = (char)code;
                } else if (code < 0x800) {
                    s[k++] = (char)(0xC0 | (code >> 6));
                    ch = (char)(0x80 | (code & 0x3F));
                } else {
                    s[k++] = (char)(0xE0 | (code >> 12));
                    s[k++] = (char)(0x80 | ((code >> 6) & 0x3F));
                    ch = (char)(0x80 | (code & 0x3F));
                }
                break;
            }
            default: ch = e; break;
            }
        }
        s[k++] = ch;
    }
    s[k] = '\0';
    ps->p++;
    *out = s;
    return SLP_OK;
}

static slp_err parse_number(parser_t *ps, slp_mjson_t *out)
{
    const char *q = ps->p;
    int is_int = 1;
    if (*q == '-')
        q++;
    if (!isdigit((unsigned char)*q))
        return syntax(ps, "unexpected character");
    while (isdigit((unsigned char)*q) || *q == '.' || *q == 'e' || *q == 'E' || *q == '+' ||
           *q == '-') {
        if (*q == '.' || *q == 'e' || *q == 'E')
            is_int = 0;
        q++;
    }
    char *end;
    out->type = SLP_MJSON_NUM;
    errno = 0;
    out->num = strtod(ps->p, &end);
    if (end != q)
        return syntax(ps, "bad number");
    if (is_int) {
        errno = 0;
        long long v = strtoll(ps->p, &end, 10);
        if (errno == 0 && end == q) {
            out->is_int = 1;
            out->ival = (int64_t)v;
        }
    }
    ps->p = q;
    return SLP_OK;
}

static slp_err push(slp_mjson_t *out, int64_t *cap, char *key, slp_mjson_t *item)
{
    if (out->len == *cap) {
        int64_t nc = *cap ? 2 * *cap : 8;
        slp_mjson_t *items = realloc(out->items, (size_t)nc * sizeof *items);
        if (!items)
            return slp_error(SLP_ERR_NOMEM, "out of memory parsing JSON");
        out->items = items;
        if (out->type == SLP_MJSON_OBJ) {
            char **keys = realloc(out->keys, (size_t)nc * sizeof *keys);
            if (!keys)
                return slp_error(SLP_ERR_NOMEM, "out of memory parsing JSON");
            out->keys = keys;
        }
        *cap = nc;
    }
    if (out->type == SLP_MJSON_OBJ)
        out->keys[out->len] = key;
    out->items[out->len++] = *item;
    return SLP_OK;
}

static slp_err parse_container(parser_t *ps, slp_mjson_t *out, char close)
{
    out->type = close == '}' ? SLP_MJSON_OBJ : SLP_MJSON_ARR;
    ps->p++;
    if (++ps->depth > 64)
        return syntax(ps, "nested too deeply");
    int64_t cap = 0;
    skip_ws(ps);
    if (*ps->p == close) {
        ps->p++;
        ps->depth--;
        return SLP_OK;
    }
    for (;;) {
        char *key = NULL;
        skip_ws(ps);
        if (out->type == SLP_MJSON_OBJ) {
            if (*ps->p != '"')
                return syntax(ps, "expected a key");
            SLP_CALL(parse_string(ps, &key));
            skip_ws(ps);
            if (*ps->p != ':') {
                free(key);
                return syntax(ps, "expected ':'");
            }
            ps->p++;
        }
        slp_mjson_t item;
        memset(&item, 0, sizeof item);
        slp_err rc = parse_value(ps, &item);
        if (rc == SLP_OK)
            rc = push(out, &cap, key, &item);
        if (rc != SLP_OK) {
            free(key);
            slp_mjson_free(&item);
            return rc;
        }
        skip_ws(ps);
        if (*ps->p == ',') {
            ps->p++;
            continue;
        }
        if (*ps->p == close) {
            ps->p++;
            ps->depth--;
            return SLP_OK;
        }
        return syntax(ps, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static slp_err parse_value(parser_t *ps, slp_mjson_t *out)
{
    memset(out, 0, sizeof *out);
    skip_ws(ps);
    char ch = *ps->p;
    if (ch == '{')
        return parse_container(ps, out, '}');
    if (ch == '[')
        return parse_container(ps, out, ']');
    if (ch == '"') {
        out->type = SLP_MJSON_STR;
        return parse_string(ps, &out->str);
    }
    if (!strncmp(ps->p, "true", 4) || !strncmp(ps->p, "false", 5)) {
        out->type = SLP_MJSON_BOOL;
        out->is_int = 1;
        out->ival = ch == 't';
        out->num = (double)out->ival;
        ps->p += ch == 't' ? 4 : 5;
        return SLP_OK;
    }
    if (!strncmp(ps->p, "null", 4)) {
        out->type = SLP_MJSON_NULL;
        ps->p += 4;
        return SLP_OK;
    }
    if (ch == '\0')
        return syntax(ps, "unexpected end of text");
    return parse_number(ps, out);
}

slp_err slp_mjson_parse(const char *text, const char *source, slp_mjson_t *out)
{
    parser_t ps = {text, text, source, 0};
    slp_err rc = parse_value(&ps, out);
    if (rc == SLP_OK) {
        skip_ws(&ps);
        if (*ps.p != '\0')
            rc = syntax(&ps, "trailing text after the value");
    }
    if (rc != SLP_OK)
        slp_mjson_free(out);
    return rc;
}

void slp_mjson_free(slp_mjson_t *v)
{
    if (!v)
        return;
    for (int64_t k = 0; k < v->len; k++) {
        slp_mjson_free(&v->items[k]);
        if (v->keys)
            free(v->keys[k]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    memset(v, 0, sizeof *v);
}

const slp_mjson_t *slp_mjson_get(const slp_mjson_t *obj, const char *key)
{
    if (!obj || obj->type != SLP_MJSON_OBJ)
        return NULL;
    for (int64_t k = 0; k < obj->len; k++)
        if (!strcmp(obj->keys[k], key))
            return &obj->items[k];
    return NULL;
}

slp_err slp_read_text_file(const char *path, int64_t max_bytes, char **out)
{
    *out = NULL;
    struct stat st;
    if (stat(path, &st) != 0)
        return slp_error(SLP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode)) /* a FIFO or device would block or never end */
        return slp_error(SLP_ERR_INPUT, "%s: not a regular file", path);
    if ((int64_t)st.st_size > max_bytes)
        return slp_error(SLP_ERR_INPUT, "%s: %lld bytes, more than the %lld a manifest may have",
                         path, (long long)st.st_size, (long long)max_bytes);
    FILE *f = fopen(path, "rb");
    if (!f)
        return slp_error(SLP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 4096, len = 0;
    char *buf = slp_malloc(cap);
    if (!buf) {
        fclose(f);
        return SLP_ERR_NOMEM;
    }
    for (;;) {
        if (len + 1 >= cap) {
            if ((int64_t)cap > max_bytes) {
                free(buf);
                fclose(f);
                return slp_error(SLP_ERR_INPUT, "%s: larger than %lld bytes, not a manifest", path,
                                 (long long)max_bytes);
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                fclose(f);
                return slp_error(SLP_ERR_NOMEM, "out of memory reading %s", path);
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - 1 - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return slp_error(SLP_ERR_IO, "%s: read failed", path);
    }
    if (memchr(buf, '\0', len)) {
        free(buf);
        return slp_error(SLP_ERR_INPUT, "%s: contains NUL bytes, not a JSON manifest", path);
    }
    buf[len] = '\0';
    *out = buf;
    return SLP_OK;
}

slp_err slp_mjson_int(const slp_mjson_t *obj, const char *key, const char *source, int64_t lo,
                     int64_t hi, int64_t *out)
{
    const slp_mjson_t *v = slp_mjson_get(obj, key);
    if (!v)
        return slp_error(SLP_ERR_INPUT, "%s: field '%s' is missing", source, key);
    if (v->type != SLP_MJSON_NUM || !v->is_int)
        return slp_error(SLP_ERR_INPUT, "%s: field '%s' must be an integer", source, key);
    if (v->ival < lo || v->ival > hi)
        return slp_error(SLP_ERR_INPUT, "%s: field '%s' = %lld is out of range [%lld, %lld]",
                         source, key, (long long)v->ival, (long long)lo, (long long)hi);
    *out = v->ival;
    return SLP_OK;
}

slp_err slp_mjson_num(const slp_mjson_t *obj, const char *key, const char *source, double *out)
{
    const slp_mjson_t *v = slp_mjson_get(obj, key);
    if (!v)
        return slp_error(SLP_ERR_INPUT, "%s: field '%s' is missing", source, key);
    if (v->type == SLP_MJSON_NUM) {
        *out = v->is_int ? (double)v->ival : v->num;
        return SLP_OK;
    }
    if (v->type == SLP_MJSON_STR) {
        if (!strcmp(v->str, "inf")) { *out = INFINITY; return SLP_OK; }
        if (!strcmp(v->str, "-inf")) { *out = -INFINITY; return SLP_OK; }
        if (!strcmp(v->str, "nan")) { *out = NAN; return SLP_OK; }
    }
    return slp_error(SLP_ERR_INPUT, "%s: field '%s' must be a number", source, key);
}

slp_err slp_mjson_int_array(const slp_mjson_t *obj, const char *key, const char *source,
                           int64_t len, int64_t *out)
{
    const slp_mjson_t *v = slp_mjson_get(obj, key);
    if (!v)
        return slp_error(SLP_ERR_INPUT, "%s: field '%s' is missing", source, key);
    if (v->type != SLP_MJSON_ARR || v->len != len)
        return slp_error(SLP_ERR_INPUT, "%s: field '%s' must be an array of %lld integers",
                         source, key, (long long)len);
    for (int64_t k = 0; k < len; k++) {
        if (v->items[k].type != SLP_MJSON_NUM || !v->items[k].is_int)
            return slp_error(SLP_ERR_INPUT, "%s: field '%s'[%lld] must be an integer", source, key,
                             (long long)k);
        out[k] = v->items[k].ival;
    }
    return SLP_OK;
}

slp_err slp_mjson_read_file(const char *path, int64_t max_bytes, slp_mjson_t *out)
{
    memset(out, 0, sizeof *out);
    char *text = NULL;
    slp_err rc = slp_read_text_file(path, max_bytes, &text);
    if (rc == SLP_OK)
        rc = slp_mjson_parse(text, path, out);
    free(text);
    return rc;
}
