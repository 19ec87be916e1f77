/* SIGINT / SIGTERM flag (see interrupt.h). */
#include "core/interrupt.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t pending_signal;

static void on_signal(int sig)
{
    if (pending_signal) {
        /* Second signal: give up on a clean stop. */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    pending_signal = sig;
}

static int installed;

static void install(int restart)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = restart ? SA_RESTART : 0;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void slp_interrupt_install(void)
{
    install(1); /* blocking reads and MPI progress go on */
    installed = 1;
}

void slp_interrupt_reads_interruptible(int on)
{
    if (installed)
        install(!on);
}

int slp_interrupt_pending(void)
{
    return pending_signal != 0;
}

void slp_interrupt_set(int pending)
{
    pending_signal = pending ? SIGINT : 0;
}

int slp_interrupt_signal(void)
{
    return (int)pending_signal;
}
