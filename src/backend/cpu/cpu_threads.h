/* How many threads a CPU rank uses (docs/threads.md).
 *
 * The default count is what the process may really run on: the CPUs of its affinity
 * mask, capped by a cgroup CPU quota, SLURM_CPUS_PER_TASK and OMP_NUM_THREADS.
 *
 * With the default, a solve starts on the CPUs that other processes' runnable tasks
 * leave free, and the governor then moves the count between that and 1 by halving
 * steps, from the measured time per iteration: a thread that shares its core with
 * another busy process stalls every parallel loop (issue 47 reports 7-15x slower solves
 * beside one busy process; 1.5-2.9x here, docs/threads.md), and fewer threads are then
 * faster. It probes another count for one window now and then, at intervals that
 * double while the probes lose; a probe for more threads runs only when the cores are
 * free. The kernels' results do not depend on the thread count (backend_cpu.c,
 * cpu_block.c, scaling.c: their work is cut for the most threads), so the governor
 * moves no iterate by a bit. */
#ifndef SLP_CPU_THREADS_H
#define SLP_CPU_THREADS_H

#include <stddef.h>
#include <stdint.h>

/* The default thread count; `why` gets where it came from ("OMP_NUM_THREADS", "the
 * cgroup's CPU quota", ...) for the log. */
int slp_cpu_threads_default(char *why, size_t why_len);

/* Of n CPUs, how many other processes' runnable tasks leave free now (at least 1);
 * *busy gets the count of those tasks. Read from /proc/stat's procs_running less this
 * process's own runnable threads, the least of a few samples 0.5 ms apart; only where
 * the process may run on every CPU of the machine (else n: a machine-wide count says
 * nothing of the CPUs of a mask). SLP_TEST_BUSY_CPUS=K stands for K busy tasks. */
int slp_cpu_threads_free(int n, int *busy);

/* The ladder max, max/2, ..., 1 the governor moves on (at most 16 rungs). */
#define SLP_GOVERNOR_RUNGS 16
#define SLP_GOVERNOR_RECENT 3

typedef struct {
    int rungs;                         /* ladder length; 1: the governor is off */
    int threads[SLP_GOVERNOR_RUNGS];   /* the counts, most first */
    double per_iter[SLP_GOVERNOR_RUNGS]; /* last measured seconds per iteration, 0: none */
    /* the last SLP_GOVERNOR_RECENT windows' seconds per iteration on each rung: a probe
     * is judged against their least (windows differ: restarts, the checks' rays) */
    double recent[SLP_GOVERNOR_RUNGS][SLP_GOVERNOR_RECENT];
    int recent_next[SLP_GOVERNOR_RUNGS];
    int at;                            /* rung now in use */
    int settled;                       /* rung to return to after a probe */
    int probing;                       /* the window now running is a probe */
    int probe_down;                    /* the next probe tries fewer threads */
    int64_t windows;                   /* windows since the last move or probe */
    int64_t interval;                  /* windows between probes */
    double since_probe;                /* seconds since the last probe */
    double wait;                       /* seconds a lost probe's cost asks to wait */
    int64_t moves;                     /* changes of the settled count */
    int beaten;                        /* the rung the last winning probe replaced */
    int flip;                          /* tests: move to the next rung after every window */
} slp_thread_governor_t;

/* A governor over max_threads (off when it is 1). */
void slp_thread_governor_init(slp_thread_governor_t *g, int max_threads);
/* Start on the largest rung with at most `threads` threads (instead of the top); a
 * start below the top waits a few windows before it probes for more. */
void slp_thread_governor_start(slp_thread_governor_t *g, int threads);
/* The window about to run is a probe for more threads. */
int slp_thread_governor_probing_up(const slp_thread_governor_t *g);
/* Back to the settled count without running the probe (the caller saw the cores still
 * busy), as if it had lost at no cost: the interval to the next doubles. */
void slp_thread_governor_skip_probe(slp_thread_governor_t *g);
/* After a window of `iterations` that took `seconds`: the thread count for the next. */
int slp_thread_governor_step(slp_thread_governor_t *g, int64_t iterations, double seconds);

#endif
