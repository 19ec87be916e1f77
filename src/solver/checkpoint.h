/* Checkpoint and restart of the main loop (--checkpoint DIR --checkpoint-every SEC,
 * --resume DIR), and the per-check collective decisions that go with it (time,
 * SIGINT/SIGTERM, checkpoint due). docs/reliability.md describes the format.
 *
 * Layout of DIR:
 *   checkpoint.json          written by rank 0 last (atomically): format, version, grid,
 *                            ranks, sequence number, generation, iterations, elapsed
 *   g0/rank_<k>.ckpt, g1/... two generations: checkpoint number s writes g<s % 2>, so
 *                            a kill while writing never damages the one the manifest names
 * Each rank file is written to NAME.tmp, fsync'd and renamed; it holds a header (magic,
 * version, byte-order mark, grid, position, sizes, loop counters, PID state, step size,
 * primal weight, scaling factors, a fingerprint of the local scaled problem), every
 * iterate vector of the rank's slices, and a crc32 trailer. Resume checks all of it
 * and refuses a checkpoint for another grid, model, option set or a damaged file. */
#ifndef SLP_CHECKPOINT_H
#define SLP_CHECKPOINT_H

#include "core/error.h"
#include "solver/solver_internal.h"

/* Process-wide configuration, set by the command line before slp_solve (every rank
 * with the same values). dir / resume_dir: NULL = off; every: seconds between
 * checkpoints (<= 0: only at the end of... never). Strings are copied. */
slp_err slp_checkpoint_configure(const char *dir, double every, const char *resume_dir);
void slp_checkpoint_reset(void);
/* Whether checkpoints are written or read in this run. */
int slp_checkpoint_active(void);
/* Whether checkpoints are written (--checkpoint DIR). */
int slp_checkpoint_enabled(void);

/* The collective part of a check (one MPI_Allreduce over the world): agrees on the
 * elapsed time (the maximum over ranks, so time-limit decisions match), whether any
 * rank received SIGINT/SIGTERM or has local_stop set (a progress callback's request),
 * and whether a checkpoint is due now. */
slp_err slp_checkpoint_agree(slp_pdhg_t *s, double local_elapsed, int local_stop, double *elapsed,
                             int *interrupted, int *checkpoint_due);

/* Collective: write the state after a check (all ranks; agreed failure). */
slp_err slp_checkpoint_save(slp_pdhg_t *s, const slp_loop_t *loop, double elapsed);

/* Collective: when --resume is set, load the state into s and *loop (after setup); the
 * saved runs' elapsed time goes on in the checkpoints this run writes (the time limit
 * counts this run's time only, docs/reliability.md). No-op otherwise. */
slp_err slp_checkpoint_resume(slp_pdhg_t *s, slp_loop_t *loop);

#endif
