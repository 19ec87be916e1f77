/* The time-limit watchdog (run/watchdog.h). */
#include "run/watchdog.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

struct slp_watchdog {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    struct timespec deadline; /* CLOCK_MONOTONIC: a clock step (NTP, date) moves no deadline */
    int disarmed;
    int rank;
    double limit, grace;
};

/* The deadline passed with the solve still running: end this process. Only
 * async-signal-safe calls: other threads may hold any lock. */
static void fire(const struct slp_watchdog *w)
{
    char msg[256];
    int len = snprintf(msg, sizeof msg,
                       "shardlp: error: the solve overran --time-limit %g s by the %g s grace "
                       "(a rank stopped answering?); ending the job\n", w->limit, w->grace);
    if (w->rank == 0 && len > 0)
        (void)!write(2, msg, (size_t)len);
    else
        sleep(1); /* let rank 0 print first when it is alive */
    _exit(3);
}

static void *watch(void *arg)
{
    struct slp_watchdog *w = arg;
    pthread_mutex_lock(&w->lock);
    int rc = 0;
    while (!w->disarmed && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&w->wake, &w->lock, &w->deadline);
    int fired = !w->disarmed;
    pthread_mutex_unlock(&w->lock);
    if (fired)
        fire(w);
    return NULL;
}

slp_err slp_watchdog_start(double limit, int rank, slp_watchdog_t **out)
{
    *out = NULL;
    if (!(limit >= 0.0) || limit > 1e8) /* no finite limit worth watching */
        return SLP_OK;
    struct slp_watchdog *w = slp_calloc(1, sizeof *w);
    if (!w)
        return SLP_ERR_NOMEM;
    w->rank = rank;
    w->limit = limit;
    w->grace = fmax(10.0, 0.25 * limit);
    clock_gettime(CLOCK_MONOTONIC, &w->deadline);
    double total = limit + w->grace;
    w->deadline.tv_sec += (time_t)total;
    w->deadline.tv_nsec += (long)((total - floor(total)) * 1e9);
    if (w->deadline.tv_nsec >= 1000000000L) {
        w->deadline.tv_sec++;
        w->deadline.tv_nsec -= 1000000000L;
    }
    pthread_mutex_init(&w->lock, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC); /* the deadline's clock */
    pthread_cond_init(&w->wake, &attr);
    pthread_condattr_destroy(&attr);
    if (pthread_create(&w->thread, NULL, watch, w) != 0) {
        pthread_cond_destroy(&w->wake);
        pthread_mutex_destroy(&w->lock);
        free(w);
        return slp_error(SLP_ERR_INTERNAL, "cannot start the time-limit watchdog thread");
    }
    *out = w;
    return SLP_OK;
}

void slp_watchdog_stop(slp_watchdog_t **dog)
{
    struct slp_watchdog *w = dog ? *dog : NULL;
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->disarmed = 1;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    free(w);
    *dog = NULL;
}
