/* The MPI communicator behind a slp_comm_t, for modules that drive MPI directly
 * (the support-aware communication plan's point-to-point groups). Only for code
 * that already depends on MPI; the rest of the program sees comm.h only. */
#ifndef SLP_COMM_MPI_H
#define SLP_COMM_MPI_H

#include <mpi.h>

#include "comm.h"

/* MPI_COMM_NULL in the trivial single-rank layer. Borrowed: do not free. */
MPI_Comm slp_comm_mpi(const slp_comm_t *comm);

/* Use (a duplicate of) `comm` as the world of every later solve, for programs that
 * started MPI themselves and solve on a sub-communicator. Not collective over more
 * than `comm`. slp_comm_finalize frees the duplicate and leaves MPI running. */
slp_err slp_comm_init_with(MPI_Comm comm);

#endif
