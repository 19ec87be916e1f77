#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static slp_log_level current_level = SLP_LOG_NORMAL;
static int this_rank_prints = 1;
static FILE *log_file = NULL;
static slp_log_sink_fn sink_fn = NULL;
static void *sink_user = NULL;

void slp_log_set_sink(slp_log_sink_fn fn, void *user)
{
    sink_fn = fn;
    sink_user = fn ? user : NULL;
}

void slp_log_set_file(FILE *file) { log_file = file; }
FILE *slp_log_file(void) { return log_file; }

void slp_log_set_level(slp_log_level level) { current_level = level; }
slp_log_level slp_log_get_level(void) { return current_level; }
void slp_log_set_printing(int prints) { this_rank_prints = prints; }

void slp_log_write(FILE *stream, const char *prefix, const char *suffix, const char *fmt,
                   va_list ap)
{
    /* One write per line: lines of several ranks sharing a terminal or a file do not
     * interleave (stderr is unbuffered, so pieces would go out one by one). */
    char buf[4096];
    int head = snprintf(buf, sizeof buf, "%s", prefix ? prefix : "");
    va_list copy;
    va_copy(copy, ap);
    int body = vsnprintf(buf + head, sizeof buf - (size_t)head, fmt, copy);
    va_end(copy);
    if (body >= 0 && (size_t)(head + body) + strlen(suffix ? suffix : "") < sizeof buf) {
        snprintf(buf + head + body, sizeof buf - (size_t)(head + body), "%s", suffix ? suffix : "");
        fputs(buf, stream);
    } else { /* too long for one piece: written as it comes */
        fputs(prefix ? prefix : "", stream);
        vfprintf(stream, fmt, ap);
        fputs(suffix ? suffix : "", stream);
    }
    fflush(stream);
}

static void vlog(FILE *stream, const char *prefix, const char *fmt, va_list ap)
{
    slp_log_write(stream, prefix, NULL, fmt, ap);
}

/* A console line: to the sink when one is set, else to stdout. */
static void console(const char *fmt, va_list ap)
{
    if (!sink_fn) {
        vlog(stdout, NULL, fmt, ap);
        return;
    }
    char buf[4096];
    vsnprintf(buf, sizeof buf, fmt, ap);
    sink_fn(buf, sink_user);
}

void slp_log(const char *fmt, ...)
{
    if (!this_rank_prints)
        return;
    va_list ap;
    if (log_file) {
        va_start(ap, fmt);
        vlog(log_file, NULL, fmt, ap);
        va_end(ap);
    }
    if (current_level < SLP_LOG_NORMAL)
        return;
    va_start(ap, fmt);
    console(fmt, ap);
    va_end(ap);
}

void slp_log_verbose(const char *fmt, ...)
{
    if (!this_rank_prints || current_level < SLP_LOG_VERBOSE)
        return;
    va_list ap;
    va_start(ap, fmt);
    console(fmt, ap);
    va_end(ap);
}

static int64_t warnings_issued;

int64_t slp_warn_count(void) { return warnings_issued; }

void slp_warn(const char *fmt, ...)
{
    warnings_issued++;
    if (!this_rank_prints)
        return;
    va_list ap;
    if (log_file) {
        va_start(ap, fmt);
        vlog(log_file, "WARNING: ", fmt, ap);
        va_end(ap);
    }
    va_start(ap, fmt);
    vlog(stderr, "shardlp: warning: ", fmt, ap);
    va_end(ap);
}
