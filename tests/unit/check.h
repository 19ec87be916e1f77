/* A tiny test harness: CHECK(cond, ...) records a failure with a message;
 * the test's main returns check_summary(), which prints "N passed, N failed". */
#ifndef SLP_TEST_CHECK_H
#define SLP_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int check_passed, check_failed;

#define CHECK(cond, ...)                                               \
    do {                                                               \
        if (cond) {                                                    \
            check_passed++;                                            \
        } else {                                                       \
            check_failed++;                                            \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                              \
            fputc('\n', stderr);                                       \
        }                                                              \
    } while (0)

/* |a - b| <= tol * max(1, |b|) */
#define CHECK_CLOSE(a, b, tol)                                                       \
    CHECK(fabs((double)(a) - (double)(b)) <= (tol) * fmax(1.0, fabs((double)(b))),   \
          "%s = %.17g, expected %.17g (tol %g)", #a, (double)(a), (double)(b), (double)(tol))

/* One "skipped: corpus not found (WHAT)" line and a note in $SLP_SKIP_LOG, which make
 * test counts (docs/testing.md; tests/lib/corpus.sh is the scripts' version). */
static inline void check_note_skip(const char *what)
{
    printf("skipped: corpus not found (%s)\n", what);
    const char *log = getenv("SLP_SKIP_LOG");
    FILE *l = log && *log ? fopen(log, "a") : NULL;
    if (l) {
        fprintf(l, "unit: %s\n", what);
        fclose(l);
    }
}

/* Whether a corpus file exists; if not, the skip is noted. */
static inline int check_need_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f) {
        fclose(f);
        return 1;
    }
    check_note_skip(path);
    return 0;
}

static inline int check_summary(void)
{
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif
