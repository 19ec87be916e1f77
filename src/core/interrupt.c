/* SIGINT / SIGTERM / SIGUSR1 flag (see interrupt.h). */
#include "core/interrupt.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t pending_signal;
static volatile sig_atomic_t graceful; /* a phase that polls the flag (main loop, reading) */
static volatile sig_atomic_t quiet_exit; /* under mpirun: its job kill needs no line per rank */

/* Outside the phases that poll the flag: one line and exit at once, as a shell would
 * report it (128 + signal). Only async-signal-safe calls. */
static void exit_now(int sig)
{
    static const char msg[] = "shardlp: error: interrupted by a signal outside the main loop; "
                              "exiting (no output written)\n";
    if (!quiet_exit)
        (void)!write(2, msg, sizeof msg - 1);
    _exit(128 + sig);
}

static void on_signal(int sig)
{
    if (pending_signal) {
        /* Second signal: give up on a clean stop. */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    if (!graceful)
        exit_now(sig);
    pending_signal = sig;
}

void slp_interrupt_graceful(int on) { graceful = on ? 1 : 0; }
void slp_interrupt_quiet_exit(int on) { quiet_exit = on ? 1 : 0; }

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
    sigaction(SIGUSR1, &sa, NULL); /* Slurm's --signal=USR1@T: a warning before the end */
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
