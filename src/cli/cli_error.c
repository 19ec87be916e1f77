/* The command line's error line (cli/commands.h). The library names options as an options
 * file, the C API and Python do (`comm_lib = nccl`); here they are spelled as the command
 * line takes them (`--comm-lib nccl`). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "core/log.h"
#include "run/option_table.h"

/* The length of the word at p that an option of the table names ([a-z0-9_-]), 0 if none. */
static size_t option_word(const char *p, const slp_option_t **opt)
{
    size_t len = 0;
    char name[64];
    while ((islower((unsigned char)p[len]) || isdigit((unsigned char)p[len]) || p[len] == '_' ||
            p[len] == '-') && len + 1 < sizeof name) {
        name[len] = p[len];
        len++;
    }
    name[len] = '\0';
    *opt = len ? slp_option_find(name) : NULL;
    return *opt ? len : 0;
}

/* in -> out with every "name = value" of a known option written "--name value" (a
 * switched-on flag: "--name"). */
static void to_command_line(const char *in, char *out, size_t size)
{
    size_t o = 0;
    for (size_t i = 0; in[i] && o + 1 < size;) {
        const slp_option_t *opt = NULL;
        int word_start = i == 0 || !(isalnum((unsigned char)in[i - 1]) || in[i - 1] == '_' ||
                                     in[i - 1] == '-');
        size_t len = word_start ? option_word(in + i, &opt) : 0;
        if (!len || strncmp(in + i + len, " = ", 3) != 0) {
            out[o++] = in[i++];
            continue;
        }
        const char *value = in + i + len + 3;
        size_t vlen = strcspn(value, " ,;)");
        int flag_on = opt->type == SLP_OPT_BOOL &&
                      ((vlen == 2 && !strncmp(value, "on", 2)) ||
                       (vlen == 4 && !strncmp(value, "true", 4)));
        int n = snprintf(out + o, size - o, "--%s%s%.*s", opt->name, flag_on ? "" : " ",
                         flag_on ? 0 : (int)vlen, value);
        o = n > 0 && (size_t)n < size - o ? o + (size_t)n : size - 1;
        i += len + 3 + vlen;
    }
    out[o < size ? o : size - 1] = '\0';
}

/* One line in one write (slp_log_write). */
static void emit(FILE *stream, const char *prefix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    slp_log_write(stream, prefix, "\n", fmt, ap);
    va_end(ap);
}

void slp_cli_error(const char *fmt, ...)
{
    char text[2048], line[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    to_command_line(text, line, sizeof line);
    FILE *file = slp_log_file();
    if (file)
        emit(file, "ERROR: ", "%s", line);
    emit(stderr, "shardlp: error: ", "%s", line);
}
