/* Fixed-size records sent to the ranks their destinations name: ordered by destination
 * (a counting sort), then one personalised exchange (grid/comm.h). Used where records
 * are produced in any order: distributed presolve's joins and verdicts, the parallel LP
 * reader's names and columns. */
#ifndef SLP_ROUTE_H
#define SLP_ROUTE_H

#include <stddef.h>
#include <stdint.h>

#include "grid/comm.h"

/* Records rec[0, count) of `size` bytes, record k to rank dest[k] of comm; *recv becomes a
 * new array (free it) of the records sent to this rank, in sender order, and *recv_count
 * their number. Collective. `local` is the caller's status so far: when it is not
 * SLP_OK, rec and dest are not read; one agreement covers it and the routing's own
 * allocations (whose failure reads "WHAT: out of memory"), so every rank enters the
 * exchange or none does. */
slp_err slp_route_records(slp_comm_t *comm, slp_err local, const void *rec, size_t size,
                          int64_t count, const int *dest, const char *what, void **recv,
                          int64_t *recv_count);

#endif
