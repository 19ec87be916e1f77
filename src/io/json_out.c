#include "io/json_out.h"

#include <math.h>

static void separator(slp_json_t *j)
{
    if (j->need_comma[j->depth])
        fputc(',', j->f);
    fputs("\n", j->f);
    for (int k = 0; k < j->depth; k++)
        fputs("  ", j->f);
    j->need_comma[j->depth] = 1;
}

void slp_json_write_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

void slp_json_write_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.17g", v);
    else
        fputs("null", f);
}

void slp_json_begin(slp_json_t *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->need_comma[0] = 0;
    fputc('{', f);
    j->depth = 1;
    j->need_comma[1] = 0;
}

void slp_json_end(slp_json_t *j)
{
    fputs("\n}\n", j->f);
    j->depth = 0;
}

void slp_json_key(slp_json_t *j, const char *key)
{
    separator(j);
    slp_json_write_string(j->f, key);
    fputs(": ", j->f);
}

void slp_json_string(slp_json_t *j, const char *key, const char *value)
{
    slp_json_key(j, key);
    if (value)
        slp_json_write_string(j->f, value);
    else
        fputs("null", j->f);
}

void slp_json_number(slp_json_t *j, const char *key, double value)
{
    slp_json_key(j, key);
    slp_json_write_number(j->f, value);
}

void slp_json_int(slp_json_t *j, const char *key, int64_t value)
{
    slp_json_key(j, key);
    fprintf(j->f, "%lld", (long long)value);
}

void slp_json_null(slp_json_t *j, const char *key)
{
    slp_json_key(j, key);
    fputs("null", j->f);
}

void slp_json_open_object(slp_json_t *j, const char *key)
{
    slp_json_key(j, key);
    fputc('{', j->f);
    j->depth++;
    j->need_comma[j->depth] = 0;
}

void slp_json_close_object(slp_json_t *j)
{
    j->depth--;
    fputc('\n', j->f);
    for (int k = 0; k < j->depth; k++)
        fputs("  ", j->f);
    fputc('}', j->f);
}

void slp_json_int_array(slp_json_t *j, const char *key, const int64_t *values, int64_t count)
{
    slp_json_key(j, key);
    fputc('[', j->f);
    for (int64_t k = 0; k < count; k++)
        fprintf(j->f, "%s%lld", k ? ", " : "", (long long)values[k]);
    fputc(']', j->f);
}

void slp_json_number_array(slp_json_t *j, const char *key, const double *values, int64_t count)
{
    slp_json_key(j, key);
    fputc('[', j->f);
    for (int64_t k = 0; k < count; k++) {
        if (k)
            fputs(", ", j->f);
        slp_json_write_number(j->f, values[k]);
    }
    fputc(']', j->f);
}

void slp_json_write_exact(FILE *f, double v)
{
    if (isnan(v))
        fputs("\"nan\"", f);
    else if (isinf(v))
        fputs(v > 0 ? "\"inf\"" : "\"-inf\"", f);
    else if (v == floor(v) && fabs(v) < 1e15)
        fprintf(f, "%.1f", v); /* keep a '.' so it reads as a real number */
    else
        fprintf(f, "%.17g", v);
}
