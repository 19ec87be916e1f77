#include "core/parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

slp_err slp_parse_double(const char *option, const char *text, double lo, double hi, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (!text[0] || *end != '\0' || errno == ERANGE || isnan(v))
        return slp_error(SLP_ERR_INPUT, "option %s: '%s' is not a number", option, text);
    if ((v < lo || v > hi) && hi >= 1e300) /* open at the top; a tiny lo means "> 0" */
        return slp_error(SLP_ERR_INPUT, "option %s: %s is out of range %s%g, inf)", option, text,
                         lo > 0 && lo < 1e-200 ? "(" : "[", lo > 0 && lo < 1e-200 ? 0.0 : lo);
    if (v < lo || v > hi)
        return slp_error(SLP_ERR_INPUT, "option %s: %s is out of range [%g, %g]", option, text, lo, hi);
    *out = v;
    return SLP_OK;
}

slp_err slp_parse_int64(const char *option, const char *text, int64_t lo, int64_t hi, int64_t *out)
{
    char *end = NULL;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (!text[0] || *end != '\0' || errno == ERANGE)
        return slp_error(SLP_ERR_INPUT, "option %s: '%s' is not an integer", option, text);
    if (v < lo || v > hi)
        return slp_error(SLP_ERR_INPUT, "option %s: %s is out of range [%lld, %lld]", option, text,
                         (long long)lo, (long long)hi);
    *out = (int64_t)v;
    return SLP_OK;
}

slp_err slp_parse_bytes(const char *option, const char *text, int64_t *out)
{
    char *end;
    double v = strtod(text, &end);
    double mult = 1;
    if (end != text && *end) {
        switch (toupper((unsigned char)*end)) {
        case 'K': mult = 1024.0; break;
        case 'M': mult = 1024.0 * 1024; break;
        case 'G': mult = 1024.0 * 1024 * 1024; break;
        case 'T': mult = 1024.0 * 1024 * 1024 * 1024; break;
        default: mult = 0; break;
        }
        end++;
        if (*end == 'i' || *end == 'I')
            end++;
        if (*end == 'B' || *end == 'b')
            end++;
    }
    if (end == text || *end || mult == 0 || !(v >= 1) || v * mult > 9e18)
        return slp_error(SLP_ERR_INPUT, "option %s: '%s' is not a positive byte count (e.g. 512M)",
                         option, text);
    *out = (int64_t)(v * mult);
    return SLP_OK;
}

int slp_bool_word(const char *text)
{
    if (!strcmp(text, "true") || !strcmp(text, "on") || !strcmp(text, "1"))
        return 1;
    if (!strcmp(text, "false") || !strcmp(text, "off") || !strcmp(text, "0"))
        return 0;
    return -1;
}

slp_err slp_parse_bool(const char *option, const char *text, int *out)
{
    int v = slp_bool_word(text);
    if (v < 0)
        return slp_error(SLP_ERR_INPUT, "option %s: '%s' is not true or false (on/off, 1/0)",
                         option, text);
    *out = v;
    return SLP_OK;
}
