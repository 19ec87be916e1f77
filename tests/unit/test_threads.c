/* Threads of the CPU backend (src/backend/cpu/cpu_threads.c, docs/threads.md):
 *
 *  1. the governor's ladder for 1, 2, 6 and 16 threads;
 *  2. the governor on simulated machines, each count's seconds per iteration given:
 *     quiet (2 threads 1.7x faster than 1): it stays on 2 and loses at most 3% to always
 *     running 2; beside a busy process (2 threads 8x slower than 1): it settles on 1
 *     within a few windows and ends within 15% of always running 1 (the 1.5x
 *     bound with room); a load that comes and goes: it follows both ways;
 *  3. the backend's dot product on 1, 2, 3 and 4 threads: the same bits, as the
 *     governor's changes of the count require (the checks' partial sums are cut into
 *     the same parts; tests/cli/threads.sh holds whole solves to it);
 *  4. the default count: at least 1, OMP_NUM_THREADS obeyed;
 *  5-6. the start on the CPUs other processes leave free, and that reading. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef SLP_HAVE_OPENMP
#include <omp.h>
#endif

#include "backend/backend.h"
#include "backend/cpu/cpu_threads.h"
#include "check.h"

static void test_ladder(void)
{
    slp_thread_governor_t g;
    slp_thread_governor_init(&g, 1);
    CHECK(g.rungs == 1 && g.threads[0] == 1, "1 thread: off (%d rungs)", g.rungs);
    CHECK(slp_thread_governor_step(&g, 100, 1.0) == 1, "1 thread stays 1");
    slp_thread_governor_init(&g, 2);
    CHECK(g.rungs == 2 && g.threads[0] == 2 && g.threads[1] == 1, "2: {2, 1}");
    slp_thread_governor_init(&g, 6);
    CHECK(g.rungs == 3 && g.threads[0] == 6 && g.threads[1] == 3 && g.threads[2] == 1,
          "6: {6, 3, 1}");
    slp_thread_governor_init(&g, 16);
    CHECK(g.rungs == 5 && g.threads[4] == 1 && g.threads[2] == 4, "16: {16, 8, 4, 2, 1}");
}

/* Seconds per iteration of `threads` threads at window w on a simulated machine. */
typedef double (*machine_fn)(int threads, int w);

static double quiet(int threads, int w)
{
    (void)w;
    return threads == 2 ? 1.0e-3 : 1.7e-3;
}

static double busy(int threads, int w)
{
    (void)w;
    return threads == 2 ? 8.0e-3 : 1.0e-3;
}

/* Busy from window 300 to 600, quiet before and after. */
static double comes_and_goes(int threads, int w)
{
    return w >= 300 && w < 600 ? busy(threads, w) : quiet(threads, w);
}

/* Runs `windows` windows of 64 iterations from `start` threads (the count the start saw
 * free) on a simulated machine; with `readings`, a probe for more threads is skipped
 * while the machine is busy (the backend's reading of the runnable tasks, here the
 * machine's own: 2 threads slower than 1). Returns the total seconds and the count in
 * use at windows 299, 599 and the end. */
static double simulate_from(machine_fn machine, int windows, int start, int readings, int at[3])
{
    slp_thread_governor_t g;
    slp_thread_governor_init(&g, 2);
    slp_thread_governor_start(&g, start);
    int threads = g.threads[g.at];
    double total = 0.0;
    for (int w = 0; w < windows; w++) {
        double seconds = 64 * machine(threads, w);
        total += seconds;
        threads = slp_thread_governor_step(&g, 64, seconds);
        if (readings && slp_thread_governor_probing_up(&g) && machine(2, w + 1) > machine(1, w + 1)) {
            slp_thread_governor_skip_probe(&g);
            threads = g.threads[g.at];
        }
        if (w == 299)
            at[0] = threads;
        if (w == 599)
            at[1] = threads;
    }
    at[2] = threads;
    return total;
}

/* The governor alone, from 2 threads. */
static double simulate(machine_fn machine, int windows, int at[3])
{
    return simulate_from(machine, windows, 2, 0, at);
}

static void test_governor(void)
{
    int at[3];
    double t = simulate(quiet, 1000, at);
    double best = 1000 * 64 * quiet(2, 0);
    CHECK(t <= 1.03 * best && at[2] == 2, "quiet: %.3f s against %.3f always on 2, ends on %d",
          t, best, at[2]);
    t = simulate(busy, 1000, at);
    best = 1000 * 64 * busy(1, 0);
    CHECK(t <= 1.15 * best && at[0] == 1 && at[2] == 1,
          "busy: %.3f s against %.3f always on 1, on %d at 300", t, best, at[0]);
    t = simulate(busy, 100, at); /* a short run: the first windows weigh most */
    best = 100 * 64 * busy(1, 0);
    CHECK(t <= 1.5 * best, "busy, 100 windows: %.3f s against %.3f always on 1", t, best);
    simulate(comes_and_goes, 1000, at);
    CHECK(at[0] == 2 && at[1] == 1 && at[2] == 2,
          "load from window 300 to 600: on %d, %d, %d at 300, 600, the end", at[0], at[1], at[2]);
}

/* 5. A start on the free CPUs: beside a busy process a short run costs what 1 thread
 *    costs (no window on 2); a busy reading at the start on a quiet machine costs a few
 *    windows; a load that comes and goes is still followed both ways. */
static void test_busy_start(void)
{
    int at[3];
    slp_thread_governor_t g;
    slp_thread_governor_init(&g, 16);
    slp_thread_governor_start(&g, 5);
    CHECK(g.threads[g.at] == 4 && g.threads[g.settled] == 4, "16 with 5 free: starts on %d",
          g.threads[g.at]);
    slp_thread_governor_start(&g, 0);
    CHECK(g.threads[g.at] == 1, "none free: starts on %d", g.threads[g.at]);
    double t = simulate_from(busy, 100, 1, 1, at);
    double best = 100 * 64 * busy(1, 0);
    CHECK(t <= best * (1 + 1e-12) && at[2] == 1, "busy from 1, 100 windows: %.4f s against %.4f",
          t, best);
    t = simulate_from(quiet, 1000, 1, 1, at);
    best = 1000 * 64 * quiet(2, 0);
    CHECK(t <= 1.03 * best && at[0] == 2 && at[2] == 2,
          "quiet from 1: %.3f s against %.3f always on 2, on %d at 300", t, best, at[0]);
    simulate_from(comes_and_goes, 1000, 2, 1, at);
    CHECK(at[0] == 2 && at[1] == 1 && at[2] == 2,
          "load from window 300 to 600, readings on: on %d, %d, %d", at[0], at[1], at[2]);
}

/* 6. The free-CPU reading: a test variable's busy tasks leave n - K (at least 1). */
static void test_free_reading(void)
{
    int busy;
    setenv("SLP_TEST_BUSY_CPUS", "1", 1);
    CHECK(slp_cpu_threads_free(4, &busy) == 3 && busy == 1, "4 CPUs, 1 busy: 3 free");
    setenv("SLP_TEST_BUSY_CPUS", "9", 1);
    CHECK(slp_cpu_threads_free(4, &busy) == 1 && busy == 9, "4 CPUs, 9 busy: 1");
    unsetenv("SLP_TEST_BUSY_CPUS");
    int n = slp_cpu_threads_free(2, &busy);
    CHECK(n >= 1 && n <= 2 && busy >= 0, "a real reading: %d free, %d busy", n, busy);
}

static void set_threads(int t)
{
#ifdef SLP_HAVE_OPENMP
    omp_set_num_threads(t);
#else
    (void)t;
#endif
}

static void test_reductions(void)
{
    const int64_t n = 300001; /* many parts, and a length no count divides */
    double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
    unsigned long long r = 7;
    for (int64_t i = 0; i < n; i++) {
        r = r * 6364136223846793005ULL + 1442695040888963407ULL;
        x[i] = (double)(r >> 11) / 9007199254740992.0 - 0.3;
        y[i] = 1.0 / (double)(i + 1) - x[i] * 1e-3;
    }
    slp_backend_t *be = NULL;
    CHECK(slp_backend_cpu_create(1, &be) == SLP_OK, "cpu backend");
    double first = 0.0;
    for (int t = 1; t <= 4; t++) {
        set_threads(t); /* what the governor changes */
        double d = be->vec_dot(be, x, y, n);
        if (t == 1)
            first = d;
        CHECK(memcmp(&d, &first, sizeof d) == 0, "dot on %d threads %.17g, on 1 %.17g", t, d,
              first);
    }
    be->destroy(be);
    free(x);
    free(y);
}

static void test_default_count(void)
{
    char why[64];
    unsetenv("OMP_NUM_THREADS");
    int n = slp_cpu_threads_default(why, sizeof why);
    CHECK(n >= 1 && why[0], "default %d (%s)", n, why);
    setenv("OMP_NUM_THREADS", "3", 1);
    CHECK(slp_cpu_threads_default(why, sizeof why) == 3 && !strcmp(why, "OMP_NUM_THREADS"),
          "OMP_NUM_THREADS=3 gives 3 (%s)", why);
    unsetenv("OMP_NUM_THREADS");
}

int main(void)
{
    test_ladder();
    test_governor();
    test_reductions();
    test_default_count();
    test_busy_start();
    test_free_reading();
    return check_summary();
}
