/* The reader registry (io/input_format.h). */
#include "io/input_format.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "io/mps.h"

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

/* What the first bytes say: gzip, bzip2, xz, or nothing known (0). */
static int magic_kind(const unsigned char *p, size_t n)
{
    if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
        return 'g';
    if (n >= 3 && !memcmp(p, "BZh", 3))
        return 'b';
    if (n >= 6 && !memcmp(p, "\xfd" "7zXZ\0", 6))
        return 'x';
    return 0;
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
    unsigned char head[8] = {0};
    size_t got = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return slp_error(SLP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    got = fread(head, 1, sizeof head, f);
    fclose(f);
    int kind = magic_kind(head, got);
    if (kind == 'b' || kind == 'x')
        return slp_error(SLP_ERR_UNSUPPORTED, "%s: %s-compressed input is not supported yet; "
                         "decompress it first (%s)", path, kind == 'b' ? "bzip2" : "xz",
                         kind == 'b' ? "bunzip2 -k" : "unxz -k");
    if (!kind && (ends_with(path, ".lp") || ends_with(path, ".LP")))
        return slp_error(SLP_ERR_UNSUPPORTED, "%s: CPLEX LP files are not supported yet; "
                         "write the model as MPS", path);
    *out = kind == 'g' ? SLP_INPUT_MPS_GZ : SLP_INPUT_MPS;
    return SLP_OK;
}

slp_err slp_model_read(const char *path, slp_model_t **out)
{
    *out = NULL;
    slp_input_format format;
    SLP_CALL(slp_input_format_of(path, &format));
    if (format == SLP_INPUT_SHARDS)
        return slp_error(SLP_ERR_INPUT, "%s: is a shard directory; this needs a model file "
                         "(MPS)", path);
    return slp_mps_read(path, out); /* plain and gzip alike */
}

int64_t slp_input_text_bytes(const char *path)
{
    struct stat st;
    slp_input_format format;
    if (stat(path, &st) != 0 || slp_input_format_of(path, &format) != SLP_OK) {
        slp_error_clear();
        return 0;
    }
    /* gzip compresses MPS about 5x */
    return (int64_t)st.st_size * (format == SLP_INPUT_MPS_GZ ? 5 : 1);
}
