#include "grid.h"

#include <stdio.h>
#include <stdlib.h>

slp_err slp_grid_create(int R, int C, slp_grid_t **out)
{
    *out = NULL;
    slp_comm_t *world = slp_comm_world();
    int size = slp_comm_size(world);
    if (R < 1 || C < 1 || (long)R * C != size)
        return slp_error(SLP_ERR_MPI, "grid %dx%d needs %ld ranks but the job has %d", R, C,
                         (long)R * C, size);
    slp_grid_t *grid = slp_calloc(1, sizeof *grid);
    if (!grid)
        return SLP_ERR_NOMEM;
    grid->R = R;
    grid->C = C;
    grid->world = world;
    grid->rank = slp_comm_rank(world);
    grid->size = size;
    grid->r = grid->rank / C;
    grid->c = grid->rank % C;
    slp_err rc = slp_comm_split(world, grid->r, grid->c, &grid->row_comm);
    if (rc == SLP_OK)
        rc = slp_comm_split(world, grid->c, grid->r, &grid->col_comm);
    if (rc != SLP_OK) {
        slp_grid_destroy(&grid);
        return rc;
    }
    *out = grid;
    return SLP_OK;
}

void slp_grid_destroy(slp_grid_t **grid)
{
    if (!grid || !*grid)
        return;
    slp_comm_free(&(*grid)->row_comm);
    slp_comm_free(&(*grid)->col_comm);
    free(*grid);
    *grid = NULL;
}

void slp_grid_default_shape(int P, int *R, int *C)
{
    int best = 1;
    for (int d = 1; d * d <= P; d++)
        if (P % d == 0)
            best = d;
    *R = best;
    *C = P / best;
}

slp_err slp_grid_parse(const char *text, int *R, int *C)
{
    char tail;
    int r = 0, c = 0;
    if (!text || sscanf(text, "%dx%d%c", &r, &c, &tail) != 2 || r < 1 || c < 1 || r > 65536 ||
        c > 65536)
        return slp_error(SLP_ERR_INPUT, "bad grid '%s': expected RxC with positive R and C, e.g. 2x4",
                         text ? text : "");
    *R = r;
    *C = c;
    return SLP_OK;
}
