/* The communication seam. A slp_comm_t is a group of ranks (the world, a grid
 * row or a grid column). With MPI it wraps an MPI communicator; without a
 * launcher the program runs as one rank and every operation is a local no-op
 * ("trivial backend"), so `shardlp solve model.mps` does not pay for MPI_Init.
 *
 * Every function here is collective over the group unless it says otherwise. */
#ifndef SLP_COMM_H
#define SLP_COMM_H

#include <stddef.h>
#include <stdint.h>

#include "../core/error.h"

typedef struct slp_comm slp_comm_t;

/* Start the communication layer. Uses MPI when the process was started by a
 * launcher (mpirun/srun: detected from the environment) or when force_mpi is
 * set; otherwise the trivial single-rank layer. Call once, before anything else. */
slp_err slp_comm_init(int *argc, char ***argv, int force_mpi);
/* Finish (MPI_Finalize when MPI was started). */
void slp_comm_finalize(void);
/* Abort every rank of the job with the given exit code (MPI_Abort under MPI). */
void slp_comm_abort(int code);
/* 1 if MPI is in use. */
int slp_comm_uses_mpi(void);

/* The world group. Not owned by the caller. */
slp_comm_t *slp_comm_world(void);
/* Split `parent` by color (ranks with equal color form a group), ordered by key. */
slp_err slp_comm_split(slp_comm_t *parent, int color, int key, slp_comm_t **out);
void slp_comm_free(slp_comm_t **comm);

int slp_comm_rank(const slp_comm_t *comm);
int slp_comm_size(const slp_comm_t *comm);

/* In-place element-wise sum / max / min of count doubles over the group. */
slp_err slp_comm_sum(slp_comm_t *comm, double *buf, int64_t count);
slp_err slp_comm_max(slp_comm_t *comm, double *buf, int64_t count);
slp_err slp_comm_min(slp_comm_t *comm, double *buf, int64_t count);
/* In-place sum / max of 64-bit integers. */
slp_err slp_comm_sum_i64(slp_comm_t *comm, int64_t *buf, int64_t count);
slp_err slp_comm_max_i64(slp_comm_t *comm, int64_t *buf, int64_t count);
/* Broadcast bytes from root. */
slp_err slp_comm_bcast(slp_comm_t *comm, void *buf, int64_t bytes, int root);
/* Point-to-point bytes (blocking). Tags distinguish messages. */
slp_err slp_comm_send(slp_comm_t *comm, const void *buf, int64_t bytes, int dest, int tag);
slp_err slp_comm_recv(slp_comm_t *comm, void *buf, int64_t bytes, int src, int tag);
slp_err slp_comm_barrier(slp_comm_t *comm);
/* Personalised exchange of fixed-size records: `send` holds send_count[d] records
 * for each rank d, in rank order. *recv becomes a new array (free it) of the records
 * sent to this rank, in sender order, and *recv_count their number. Fails when one
 * rank would send or receive 2^31 bytes or more. */
slp_err slp_comm_exchange(slp_comm_t *comm, const void *send, const int64_t *send_count,
                          size_t record, void **recv, int64_t *recv_count);
/* The same, and recv_from[s] the number of records from rank s (an array of the
 * communicator's size). */
slp_err slp_comm_exchange_from(slp_comm_t *comm, const void *send, const int64_t *send_count,
                               size_t record, void **recv, int64_t *recv_count,
                               int64_t *recv_from);
/* The same into a buffer the caller keeps across calls (*buf of *cap bytes, NULL and 0
 * at first): replaced by a larger one when the records do not fit, else reused, so
 * that repeated exchanges touch the same pages. The caller frees *buf, also after a
 * failure. */
slp_err slp_comm_exchange_into(slp_comm_t *comm, const void *send, const int64_t *send_count,
                               size_t record, void **buf, int64_t *cap, int64_t *recv_count,
                               int64_t *recv_from);

/* Every rank's `bytes` bytes at `mine` into all[rank * bytes] (collective). `local` is
 * this rank's status so far: a failure on any rank fails the call on all (nothing is
 * exchanged), so that no rank waits for one that has given up. */
slp_err slp_comm_allgather(slp_comm_t *comm, slp_err local, const void *mine, size_t bytes,
                           void *all);

/* Collective agreement on failure: every rank passes its local status; all
 * ranks get back the worst (non-zero wins). When the failing rank is another
 * one, the local message is set to say which rank failed (the failing rank
 * has already printed its own message... callers print only on the rank that
 * failed). Returns SLP_OK only if every rank passed SLP_OK. */
slp_err slp_comm_agree(slp_comm_t *comm, slp_err local);
/* The same, and the ranks that did not fail get the message "<what> failed on rank k
 * (see its message)" naming the lowest failing rank. */
slp_err slp_comm_agree_named(slp_comm_t *comm, slp_err local, const char *what);

#endif
