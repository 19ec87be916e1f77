/* SIGINT / SIGTERM / SIGUSR1: ask the solver to stop at its next check.
 *
 * The handler only sets a flag (async-signal-safe). The solver's main loop reads it
 * after every check and makes the decision collective (a max-reduction over the
 * world, see solver.c), so every rank stops after the same iteration, reports status
 * `interrupted` and writes its outputs normally. A second signal while the first is
 * pending restores the default action and re-raises it: a stuck run can still be
 * killed with a second Ctrl-C. */
#ifndef SLP_INTERRUPT_H
#define SLP_INTERRUPT_H

/* Install the handler for SIGINT, SIGTERM and SIGUSR1 (not thread-safe; call once at
 * start-up). */
void slp_interrupt_install(void);
/* Phases that poll the flag (the main loop, reading input) turn this on; in every other
 * phase (distribution, presolve, setup, verification, output) the first signal prints
 * one line and exits at once with status 128 + signal (docs/reliability.md). */
void slp_interrupt_graceful(int on);
/* Under MPI (on): that exit prints nothing (mpirun's own job kill sends SIGTERM to every
 * rank after one of them failed; the failing rank has printed why). */
void slp_interrupt_quiet_exit(int on);
/* While reading input (on): a signal interrupts a blocking read (a FIFO, a slow
 * disk) instead of restarting it, so the reader can stop at once; off: restart again
 * (MPI progress). No effect unless slp_interrupt_install ran. */
void slp_interrupt_reads_interruptible(int on);
/* 1 once a signal has arrived (this process only; not collective). */
int slp_interrupt_pending(void);
/* Set or clear the flag by hand (tests; "stop now" from the API). */
void slp_interrupt_set(int pending);
/* Signal number that arrived (0 if none). */
int slp_interrupt_signal(void);

#endif
