/* NCCL sums of device vectors over the grid's row and column groups (docs/design.md
 * section 5): one NCCL communicator per grid row and per grid column, one rank
 * per GPU. The NCCL unique ids travel over the existing MPI groups
 * (slp_comm_bcast); scalar control reductions stay on MPI (grid/reduce.h).
 *
 * NCCL refuses two ranks on one GPU ("duplicate GPU"): several ranks sharing a
 * device must use the MPI path (--comm-lib mpi). The NCCL sum is NCCL's
 * all-reduce, not the rank-ordered sum of the communication plan, so iterates
 * agree with the MPI path to rounding, not bitwise; the support-aware plan does
 * not apply (every coordinate is summed over the whole group).
 * Only in builds with SLP_HAVE_NCCL. */
#ifndef SLP_COMM_NCCL_H
#define SLP_COMM_NCCL_H

#include <stdint.h>

#include "backend/backend.h"
#include "grid/grid.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct slp_nccl slp_nccl_t;

/* Which group a sum runs over: the grid row (the C partials of A_rc x_c, rows
 * of block r) or the grid column (the R partials of A_rc^T y_r). */
typedef enum { SLP_NCCL_ROWS = 0, SLP_NCCL_COLS = 1 } slp_nccl_dir;

/* Collective over the grid. be must be a CUDA backend (its device and stream are
 * used). Groups of one rank get no communicator (their sums are no-ops). Fails on
 * every rank when any rank fails. */
slp_err slp_nccl_create(slp_grid_t *grid, slp_backend_t *be, slp_nccl_t **out);
/* Not collective; accepts NULL and *nc == NULL. */
void slp_nccl_destroy(slp_nccl_t **nc);

/* In place: dev[0..n) (device memory) becomes the sum over the group of dir.
 * Collective over that group; queued on the backend's stream, no host wait. */
slp_err slp_nccl_sum(slp_nccl_t *nc, double *dev, int64_t n, int dir);

#ifdef __cplusplus
}
#endif

#endif
