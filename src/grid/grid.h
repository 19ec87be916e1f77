/* The R x C process grid: rank k sits at (r, c) = (k / C, k % C), row-major.
 * row_comm holds the C ranks of grid row r (ordered by c); col_comm holds the
 * R ranks of grid column c (ordered by r). Created and freed in one place. */
#ifndef SLP_GRID_H
#define SLP_GRID_H

#include "comm.h"

typedef struct slp_grid {
    int R, C;              /* grid shape */
    int r, c;              /* this rank's coordinates */
    int rank, size;        /* world rank and size (size == R * C) */
    slp_comm_t *world;     /* borrowed: slp_comm_world() */
    slp_comm_t *row_comm;  /* owned: ranks (r, 0..C-1) */
    slp_comm_t *col_comm;  /* owned: ranks (0..R-1, c) */
} slp_grid_t;

/* Collective over the world. Fails on every rank (same message) when R * C is not
 * the world size. */
slp_err slp_grid_create(int R, int C, slp_grid_t **out);
void slp_grid_destroy(slp_grid_t **grid);

/* A default shape for P ranks: the most square factorisation R x C = P, with
 * R <= C (columns are usually more numerous than rows). */
void slp_grid_default_shape(int P, int *R, int *C);
/* Parse "RxC" (e.g. "2x4"). Returns SLP_ERR_INPUT with a message on bad text. */
slp_err slp_grid_parse(const char *text, int *R, int *C);

#endif
