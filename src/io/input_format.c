/* The reader registry (io/input_format.h). */
#include "io/input_format.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "io/lp.h"
#include "io/mps.h"
#include "io/text_in.h"

/* NAME.lp, also with .gz, .bz2 or .xz after it. */
static int has_lp_extension(const char *path)
{
    static const char *const endings[] = {".lp", ".lp.gz", ".lp.bz2", ".lp.xz"};
    size_t len = strlen(path);
    for (size_t k = 0; k < sizeof endings / sizeof endings[0]; k++) {
        size_t e = strlen(endings[k]);
        if (len > e && !strcasecmp(path + len - e, endings[k]))
            return 1;
    }
    return 0;
}

/* LP or MPS from the first line that is not blank or a comment ('\\' in LP, '*' in
 * MPS). LP files start with the objective sense. */
static slp_err sniff_text(const char *path, slp_input_format *out)
{
    slp_text_in_t *t = NULL;
    SLP_CALL(slp_text_in_open(path, &t));
    char line[512];
    *out = SLP_INPUT_MPS;
    int block = 0; /* inside an LP block comment \* ... *\ */
    for (int k = 0; k < 1000 && slp_text_in_gets(t, line, sizeof line, NULL); k++) {
        const char *p = line + strspn(line, " \t\r\n");
        const char *open = strstr(p, "\\*");
        if (block || (p == open)) {
            block = !strstr(block ? p : p + 2, "*\\");
            continue;
        }
        if (!*p || *p == '*' || *p == '\\')
            continue;
        if (slp_lp_starts_objective(p))
            *out = SLP_INPUT_LP;
        break;
    }
    slp_text_in_close(&t);
    if (has_lp_extension(path)) /* then the LP reader says what is wrong */
        *out = SLP_INPUT_LP;
    return SLP_OK;
}

slp_err slp_input_format_of(const char *path, slp_input_format *out)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return slp_error(SLP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode)) {
        *out = SLP_INPUT_SHARDS;
        return SLP_OK;
    }
    if (S_ISFIFO(st.st_mode)) { /* a pipe (`<(zcat m.mps.gz)`): read as it comes, unsniffed */
        *out = SLP_INPUT_MPS;
        return SLP_OK;
    }
    if (!S_ISREG(st.st_mode))
        return slp_error(SLP_ERR_INPUT, "%s: not a regular file or a pipe (a model is a file, "
                         "a pipe or a shard directory)", path);
    return sniff_text(path, out);
}

slp_err slp_model_read(const char *path, slp_model_t **out)
{
    *out = NULL;
    slp_input_format format;
    SLP_CALL(slp_input_format_of(path, &format));
    if (format == SLP_INPUT_SHARDS)
        return slp_error(SLP_ERR_INPUT, "%s: is a shard directory; this needs a model file "
                         "(MPS or LP)", path);
    return format == SLP_INPUT_LP ? slp_lp_read(path, out) : slp_mps_read(path, out);
}

int64_t slp_input_text_bytes(const char *path)
{
    struct stat st;
    slp_input_format format;
    if (stat(path, &st) != 0 || slp_input_format_of(path, &format) != SLP_OK) {
        slp_error_clear();
        return 0;
    }
    /* gzip, bzip2, xz and zstd compress MPS about 5x or more */
    slp_text_in_t *t = NULL;
    if (format == SLP_INPUT_SHARDS || slp_text_in_open(path, &t) != SLP_OK) {
        slp_error_clear();
        return (int64_t)st.st_size;
    }
    int compressed = strcmp(slp_text_in_kind(t), "none") != 0;
    slp_text_in_close(&t);
    return (int64_t)st.st_size * (compressed ? 5 : 1);
}
