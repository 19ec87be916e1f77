/* The default thread count and the thread governor (backend/cpu/cpu_threads.h). */
#define _GNU_SOURCE
#include "backend/cpu/cpu_threads.h"

#include <dirent.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A positive integer at the start of an environment variable, else 0. */
static int env_count(const char *name)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return 0;
    char *end;
    long n = strtol(v, &end, 10);
    return n > 0 && n < 65536 && (*end == '\0' || *end == ',') ? (int)n : 0;
}

/* CPUs a cgroup v2 quota allows ("cpu.max": "QUOTA PERIOD" or "max PERIOD"), 0: none. */
static int quota_in(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char quota[32] = "";
    double period = 0;
    int fields = fscanf(f, "%31s %lf", quota, &period);
    fclose(f);
    if (fields != 2 || !strcmp(quota, "max") || !(period > 0))
        return 0;
    double cpus = ceil(atof(quota) / period);
    return cpus >= 1 && cpus < 65536 ? (int)cpus : 0;
}

/* The quota of this process's cgroup (v2: the path from /proc/self/cgroup), else of
 * the root of the mounted hierarchy (a container's own cgroup). */
static int cgroup_quota(void)
{
    char line[512], path[600];
    FILE *f = fopen("/proc/self/cgroup", "r");
    int cpus = 0;
    while (f && !cpus && fgets(line, sizeof line, f)) {
        if (strncmp(line, "0::", 3))
            continue;
        line[strcspn(line, "\n")] = '\0';
        snprintf(path, sizeof path, "/sys/fs/cgroup%s/cpu.max", line + 3);
        cpus = quota_in(path);
    }
    if (f)
        fclose(f);
    return cpus ? cpus : quota_in("/sys/fs/cgroup/cpu.max");
}

static int affinity_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int slp_cpu_threads_default(char *why, size_t why_len)
{
    int omp = env_count("OMP_NUM_THREADS");
    if (omp) {
        snprintf(why, why_len, "OMP_NUM_THREADS");
        return omp;
    }
    int n = affinity_cpus();
    const char *source = "the CPUs this process may run on";
    int quota = cgroup_quota(), slurm = env_count("SLURM_CPUS_PER_TASK");
    if (quota && quota < n) {
        n = quota;
        source = "the cgroup's CPU quota";
    }
    if (slurm && slurm < n) {
        n = slurm;
        source = "SLURM_CPUS_PER_TASK";
    }
    snprintf(why, why_len, "%s", source);
    return n;
}

/* Runnable tasks on the machine now (/proc/stat's procs_running), -1: unknown. */
static int machine_running(void)
{
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return -1;
    char line[256];
    int running = -1;
    while (running < 0 && fgets(line, sizeof line, f))
        if (!strncmp(line, "procs_running ", 14))
            running = atoi(line + 14);
    fclose(f);
    return running;
}

/* This process's threads that are runnable now (state R in /proc/self/task/T/stat):
 * the reader itself, and OpenMP workers still spinning after a parallel region. */
static int own_running(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return 1;
    int running = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/self/task/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[len] = '\0';
        const char *paren = strrchr(buf, ')'); /* the name may hold spaces and parentheses */
        if (paren && paren[1] == ' ' && paren[2] == 'R')
            running++;
    }
    closedir(d);
    return running > 0 ? running : 1;
}

/* Samples of the count of other processes' runnable tasks, 0.5 ms apart: the least
 * (a process that holds a core shows in every sample; one that starts and ends, in few). */
#define BUSY_SAMPLES 3

int slp_cpu_threads_free(int n, int *busy)
{
    *busy = 0;
    const char *test = getenv("SLP_TEST_BUSY_CPUS"); /* tests: other processes' CPUs */
    if (test && *test) {
        *busy = atoi(test) > 0 ? atoi(test) : 0;
    } else {
        /* procs_running counts the whole machine: it says what our CPUs carry only
         * when the process may run on every CPU */
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        if (n <= 1 || online != affinity_cpus())
            return n;
        int least = -1;
        for (int k = 0; k < BUSY_SAMPLES; k++) {
            if (k > 0)
                nanosleep(&(struct timespec){0, 500000}, NULL);
            int all = machine_running();
            if (all < 0)
                return n;
            int others = all - own_running();
            others = others > 0 ? others : 0;
            least = least < 0 || others < least ? others : least;
        }
        *busy = least;
    }
    int free_cpus = n - *busy;
    return free_cpus < 1 ? 1 : free_cpus > n ? n : free_cpus;
}

/* Windows before the first probe, and the most between probes. */
#define PROBE_FIRST 2
#define PROBE_MAX 256
/* A probe wins when its time per iteration is below this share of the settled one:
 * more threads must win by more, for a false win beside a busy process costs many
 * times what a false win costs on a quiet machine (windows of a few milliseconds are
 * noisy: the scheduler's slices are as long). */
#define PROBE_GAIN_FEWER 0.9
#define PROBE_GAIN_MORE 0.75
/* A lost probe's extra seconds may cost at most this share of the time until the next. */
#define PROBE_BUDGET 0.02
/* Windows before the first probe for more threads after a start below the top: the
 * other processes seen at the start are likely still there. */
#define PROBE_AFTER_BUSY_START 8

void slp_thread_governor_init(slp_thread_governor_t *g, int max_threads)
{
    memset(g, 0, sizeof *g);
    int t = max_threads > 1 ? max_threads : 1;
    for (g->rungs = 0; g->rungs < SLP_GOVERNOR_RUNGS; t /= 2) {
        g->threads[g->rungs++] = t;
        if (t == 1)
            break;
    }
    if (g->threads[g->rungs - 1] != 1) /* a ladder cut short still ends at one thread */
        g->threads[g->rungs - 1] = 1;
    g->interval = 1; /* the first probe follows the first window */
}

static void remember(slp_thread_governor_t *g, double per_iter)
{
    g->per_iter[g->at] = per_iter;
    g->recent[g->at][g->recent_next[g->at]] = per_iter;
    g->recent_next[g->at] = (g->recent_next[g->at] + 1) % SLP_GOVERNOR_RECENT;
}

/* The least of a rung's recent windows (0: none measured). */
static double recent_best(const slp_thread_governor_t *g, int rung)
{
    double best = 0.0;
    for (int k = 0; k < SLP_GOVERNOR_RECENT; k++)
        if (g->recent[rung][k] > 0 && (best == 0.0 || g->recent[rung][k] < best))
            best = g->recent[rung][k];
    return best;
}

/* The probe just measured against the settled rung: keep it or go back. */
static void judge_probe(slp_thread_governor_t *g, double probe_per_iter, int64_t iterations)
{
    double settled = recent_best(g, g->settled);
    g->probing = 0;
    g->windows = 0;
    g->since_probe = 0.0;
    double gain = g->at > g->settled ? PROBE_GAIN_FEWER : PROBE_GAIN_MORE;
    if (settled > 0 && probe_per_iter < gain * settled) {
        g->beaten = g->settled;
        g->settled = g->at;
        memset(g->recent[g->at], 0, sizeof g->recent[g->at]); /* older windows are stale */
        remember(g, probe_per_iter);
        g->interval = PROBE_FIRST;
        g->wait = 0.0;
        g->moves++;
        return;
    }
    g->at = g->settled;
    if (g->interval < PROBE_MAX)
        g->interval *= 2;
    double excess = (probe_per_iter - settled) * (double)iterations;
    g->wait = excess > 0 ? excess / PROBE_BUDGET : 0.0;
}

void slp_thread_governor_start(slp_thread_governor_t *g, int threads)
{
    int rung = 0;
    while (rung < g->rungs - 1 && g->threads[rung] > threads)
        rung++;
    g->at = g->settled = rung;
    if (rung > 0)
        g->interval = PROBE_AFTER_BUSY_START;
}

int slp_thread_governor_probing_up(const slp_thread_governor_t *g)
{
    return g->probing && g->at < g->settled;
}

void slp_thread_governor_skip_probe(slp_thread_governor_t *g)
{
    g->probing = 0;
    g->at = g->settled;
    g->windows = 0;
    g->since_probe = 0.0;
    g->wait = 0.0;
    if (g->interval < PROBE_MAX)
        g->interval *= 2;
}

int slp_thread_governor_step(slp_thread_governor_t *g, int64_t iterations, double seconds)
{
    if (g->rungs == 1 || iterations <= 0 || !(seconds > 0))
        return g->threads[g->at];
    if (g->flip) {
        g->at = (g->at + 1) % g->rungs;
        g->moves++;
        return g->threads[g->at];
    }
    double per_iter = seconds / (double)iterations;
    if (g->probing) {
        g->per_iter[g->at] = per_iter;
        judge_probe(g, per_iter, iterations);
        return g->threads[g->at];
    }
    remember(g, per_iter);
    g->windows++;
    g->since_probe += seconds;
    if (g->windows < g->interval || g->since_probe < g->wait)
        return g->threads[g->at];
    int down = g->at == 0 ? 1 : g->at == g->rungs - 1 ? 0 : g->probe_down;
    g->probe_down = !down;
    g->settled = g->at;
    g->at += down ? 1 : -1;
    g->probing = 1;
    return g->threads[g->at];
}
