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
        slp_log_write(file, "ERROR: ", "\n", fmt, ap);
        va_end(ap);
    }
    va_start(ap, fmt);
    slp_log_write(stderr, "shardlp: error: ", "\n", fmt, ap);
    va_end(ap);
}
