/* A tiny test harness: CHECK(cond, ...) records a failure with a message;
 * the test's main returns check_summary(), which prints "N passed, N failed". */
#ifndef SLP_TEST_CHECK_H
#define SLP_TEST_CHECK_H

#include <math.h>
#include <stdio.h>

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

static inline int check_summary(void)
{
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif
