#include <stdarg.h>
#include <stdio.h>

#include "cli/commands.h"
#include "core/log.h"

void slp_cli_error(const char *fmt, ...)
{
    va_list ap;
    FILE *file = slp_log_file();
    if (file) {
        va_start(ap, fmt);
        fputs("ERROR: ", file);
        vfprintf(file, fmt, ap);
        fputc('\n', file);
        fflush(file);
        va_end(ap);
    }
    va_start(ap, fmt);
    fputs("shardlp: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    fflush(stderr);
    va_end(ap);
}
