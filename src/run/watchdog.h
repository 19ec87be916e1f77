/* The time-limit watchdog (docs/reliability.md): a thread on every rank that ends the
 * process once the solve has overrun its time limit by a grace period, so that a rank
 * that stops answering (SIGSTOP, a hung node) cannot keep the others waiting in a
 * collective forever. Rank 0 prints one line; the exit status is 3. */
#ifndef SLP_WATCHDOG_H
#define SLP_WATCHDOG_H

#include "core/error.h"

typedef struct slp_watchdog slp_watchdog_t;

/* Arm for `limit` seconds from now plus the grace max(10 s, limit / 4); no watchdog for
 * an infinite or huge limit (*out = NULL then). */
slp_err slp_watchdog_start(double limit, int rank, slp_watchdog_t **out);
/* Disarm and join (NULL allowed). */
void slp_watchdog_stop(slp_watchdog_t **dog);

#endif
