/* SIGINT / SIGTERM: ask the solver to stop at its next check.
 *
 * The handler only sets a flag (async-signal-safe). The solver's main loop reads it
 * after every check and makes the decision collective (a max-reduction over the
 * world, see solver.c), so every rank stops after the same iteration, reports status
 * `interrupted` and writes its outputs normally. A second signal while the first is
 * pending restores the default action and re-raises it: a stuck run can still be
 * killed with a second Ctrl-C. */
#ifndef SLP_INTERRUPT_H
#define SLP_INTERRUPT_H

/* Install the handler for SIGINT and SIGTERM (not thread-safe; call once at start-up). */
void slp_interrupt_install(void);
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
