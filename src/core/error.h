/* Error codes and the one-line error message channel.
 *
 * Functions that can fail return slp_err (SLP_OK == 0). The failing function
 * records a one-line human message with slp_error(); callers propagate the code
 * with SLP_CALL, which adds nothing to the message (the first failure's text is
 * what the user sees) but notes its file:line in the failure's trace, printed by the
 * verbose log (as PETSc's error stack; slp_error_trace_text). Nothing inside the
 * library calls exit(). */
#ifndef SLP_ERROR_H
#define SLP_ERROR_H

typedef enum {
    SLP_OK = 0,
    SLP_ERR_INPUT = 1,    /* malformed model, bad option, inconsistent data */
    SLP_ERR_IO = 2,       /* cannot open, read or write a file */
    SLP_ERR_NOMEM = 3,    /* allocation failed */
    SLP_ERR_MPI = 4,      /* communication failure or grid mismatch */
    SLP_ERR_INTERNAL = 5, /* a bug: an invariant did not hold */
    SLP_ERR_UNSUPPORTED = 6 /* feature not built or not available here */
} slp_err;

/* Record the message for the current failure (printf-style, no newline).
 * Returns code so that `return slp_error(SLP_ERR_INPUT, "...")` reads well.
 * A later call overwrites an earlier message only if none is set. */
slp_err slp_error(slp_err code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A message that only points at another process's failure ("failed on rank k (see its
 * message)"): recorded as slp_error does, with that rank kept as a number, so that the
 * run layer picks the rank whose message says what went wrong without reading text. */
slp_err slp_error_on_rank(slp_err code, int rank, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* -1 when the recorded message describes this process's own failure (or none is set),
 * else the rank slp_error_on_rank named. */
int slp_error_origin(void);

/* The recorded message ("" if none) and a reset for the next operation. */
const char *slp_error_message(void);
void slp_error_clear(void);

/* Short name of a code, e.g. "input error". */
const char *slp_err_name(slp_err code);

/* The failure's trace: "file:line" of each SLP_CALL it passed, innermost first ("" if
 * none); cleared with the message. */
void slp_error_trace(const char *file, int line);
const char *slp_error_trace_text(void);

#define SLP_CALL(expr)                               \
    do {                                             \
        slp_err slp_call_rc_ = (expr);               \
        if (slp_call_rc_ != SLP_OK) {                \
            slp_error_trace(__FILE__, __LINE__);     \
            return slp_call_rc_;                     \
        }                                            \
    } while (0)

/* Allocation helpers: on failure they record an SLP_ERR_NOMEM message. */
#include <stddef.h>
#include <stdint.h>
void *slp_malloc(size_t bytes);
void *slp_calloc(size_t count, size_t size);
/* Allocate count elements of `size` bytes into *out; returns SLP_ERR_NOMEM on failure. */
slp_err slp_alloc(void *out_ptr, size_t count, size_t size);
/* Make room for `need` elements of `size` bytes in the growing array *array_ptr (capacity
 * *cap, doubled from `first` as needed); SLP_ERR_NOMEM naming `what` on failure, the
 * array unchanged. */
slp_err slp_grow(void *array_ptr, int64_t *cap, int64_t need, size_t size, int64_t first,
                 const char *what);
/* Give back the memory of the growing array *array_ptr beyond its first `keep` elements
 * (*cap becomes keep; unchanged when realloc declines). */
void slp_shrink(void *array_ptr, int64_t *cap, int64_t keep, size_t size);
/* Give the whole pages inside [begin, end) of a heap block back to the system: they
 * read as zeros if touched again. A reader done with the front of a large block lets it
 * shrink from the front as it goes; free the block as usual. */
void slp_release_pages(const void *begin, const void *end);
char *slp_strdup(const char *s);

#endif
