#define _DEFAULT_SOURCE /* madvise, MADV_DONTNEED */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static char error_text[1024];
static int error_origin = -1;

/* The first failure's message (one line) and whose failure it describes (-1: this
 * process's own); a later message is dropped while one is set. */
static slp_err record(slp_err code, int origin, const char *fmt, va_list ap)
{
    if (error_text[0] != '\0')
        return code;
    vsnprintf(error_text, sizeof error_text, fmt, ap);
    /* Keep the message on one line whatever the caller passed. */
    for (char *p = error_text; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    error_origin = origin;
    return code;
}

slp_err slp_error(slp_err code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    slp_err rc = record(code, -1, fmt, ap);
    va_end(ap);
    return rc;
}

slp_err slp_error_on_rank(slp_err code, int rank, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    slp_err rc = record(code, rank, fmt, ap);
    va_end(ap);
    return rc;
}

int slp_error_origin(void) { return error_text[0] ? error_origin : -1; }

const char *slp_error_message(void) { return error_text; }

static char trace_text[1024];

void slp_error_trace(const char *file, int line)
{
    const char *src = strstr(file, "src/"); /* repository-relative where it can be */
    size_t used = strlen(trace_text);
    if (used + 64 < sizeof trace_text)
        snprintf(trace_text + used, sizeof trace_text - used, "%s%s:%d", used ? " <- " : "",
                 src ? src : file, line);
}

const char *slp_error_trace_text(void) { return trace_text; }

void slp_error_clear(void)
{
    error_text[0] = '\0';
    error_origin = -1;
    trace_text[0] = '\0';
}

const char *slp_err_name(slp_err code)
{
    switch (code) {
    case SLP_OK: return "ok";
    case SLP_ERR_INPUT: return "input error";
    case SLP_ERR_IO: return "I/O error";
    case SLP_ERR_NOMEM: return "out of memory";
    case SLP_ERR_MPI: return "communication error";
    case SLP_ERR_INTERNAL: return "internal error";
    case SLP_ERR_UNSUPPORTED: return "unsupported";
    }
    return "unknown error";
}

void *slp_malloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        slp_error(SLP_ERR_NOMEM, "out of memory allocating %zu bytes", bytes);
    return p;
}

void *slp_calloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        slp_error(SLP_ERR_NOMEM, "out of memory allocating %zu x %zu bytes", count, size);
    return p;
}

slp_err slp_alloc(void *out_ptr, size_t count, size_t size)
{
    void **out = (void **)out_ptr;
    if (size && count > (size_t)-1 / size) {
        *out = NULL;
        return slp_error(SLP_ERR_NOMEM, "allocation of %zu x %zu bytes overflows", count, size);
    }
    *out = slp_malloc(count * size);
    return *out ? SLP_OK : SLP_ERR_NOMEM;
}

void slp_release_pages(const void *begin, const void *end)
{
#ifdef MADV_DONTNEED
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = ((uintptr_t)begin + page - 1) / page * page, hi = (uintptr_t)end / page * page;
    if (hi > lo)
        madvise((void *)lo, hi - lo, MADV_DONTNEED); /* advice: a refusal changes nothing */
#else
    (void)begin, (void)end;
#endif
}

void slp_shrink(void *array_ptr, int64_t *cap, int64_t keep, size_t size)
{
    void **array = (void **)array_ptr;
    if (!*array || keep >= *cap)
        return;
    void *p = realloc(*array, (size_t)(keep > 0 ? keep : 1) * size);
    if (p) {
        *array = p;
        *cap = keep;
    }
}

slp_err slp_grow(void *array_ptr, int64_t *cap, int64_t need, size_t size, int64_t first,
                 const char *what)
{
    if (need <= *cap)
        return SLP_OK;
    int64_t grown = *cap > 0 ? *cap : first;
    while (grown < need)
        grown *= 2;
    void **array = (void **)array_ptr;
    void *p = realloc(*array, (size_t)grown * size);
    if (!p)
        return slp_error(SLP_ERR_NOMEM, "out of memory for %s", what);
    *array = p;
    *cap = grown;
    return SLP_OK;
}

char *slp_strdup(const char *s)
{
    size_t len = strlen(s) + 1;
    char *p = slp_malloc(len);
    if (p)
        memcpy(p, s, len);
    return p;
}
