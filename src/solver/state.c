/* The table of the solver's state vectors (solver/solver_internal.h). */
#include <stddef.h>

#include "solver/solver_internal.h"

typedef struct {
    size_t offset; /* of the double * field in slp_pdhg_t */
    int m_space;   /* 0: column slice (length n), 1: row slice (length m) */
    unsigned flags;
} state_vector_t;

#define VEC(field, space, flags) {offsetof(slp_pdhg_t, field), space, flags}
enum { P = SLP_VEC_PROBLEM, S = SLP_VEC_SCALING, I = SLP_VEC_ITERATE, Y = SLP_VEC_SYNC,
       H = SLP_VEC_PHASE };

/* Order matters for checkpoints (file order of the ITERATE vectors). */
static const state_vector_t TABLE[] = {
    VEC(c, 0, P | H),         VEC(lv, 0, P | H),       VEC(uv, 0, P | H),
    VEC(dcol, 0, S),          VEC(x, 0, I | Y | H),    VEC(x0, 0, I | H),
    VEC(xhat, 0, I | Y | H),  VEC(slack, 0, I | Y | H), VEC(dx, 0, I | Y | H),
    VEC(col_work, 0, H),      VEC(lc, 1, P | H),       VEC(uc, 1, P | H),
    VEC(drow, 1, S),          VEC(y, 1, I | Y | H),    VEC(y0, 1, I | H),
    VEC(yhat, 1, I | Y | H),  VEC(dy, 1, I | Y | H),   VEC(h, 1, H),
    VEC(ax, 1, H),
};

_Static_assert(sizeof TABLE / sizeof TABLE[0] <= SLP_STATE_MAX_VECS, "raise SLP_STATE_MAX_VECS");

int slp_state_vectors(slp_pdhg_t *s, unsigned flags, int space,
                      double **addr[SLP_STATE_MAX_VECS], int64_t len[SLP_STATE_MAX_VECS])
{
    int count = 0;
    for (size_t k = 0; k < sizeof TABLE / sizeof TABLE[0]; k++) {
        if (!(TABLE[k].flags & flags) || (space != SLP_ANY_SPACE && TABLE[k].m_space != space))
            continue;
        addr[count] = (double **)(void *)((char *)s + TABLE[k].offset);
        len[count] = TABLE[k].m_space ? s->m : s->n;
        count++;
    }
    return count;
}

slp_err slp_state_create(slp_pdhg_t *s, unsigned flags, unsigned except)
{
    size_t count = sizeof TABLE / sizeof TABLE[0];
    for (size_t k = 0; k < count; k++)
        if ((TABLE[k].flags & flags) && !(TABLE[k].flags & except)) /* so that a failure */
            *(double **)(void *)((char *)s + TABLE[k].offset) = NULL; /* part-way can be undone */
    for (size_t k = 0; k < count; k++) {
        if (!(TABLE[k].flags & flags) || (TABLE[k].flags & except))
            continue;
        double **field = (double **)(void *)((char *)s + TABLE[k].offset);
        SLP_CALL(s->be->vec_create(s->be, TABLE[k].m_space ? s->m : s->n, field));
    }
    return SLP_OK;
}

void slp_state_destroy(slp_pdhg_t *s, unsigned flags)
{
    double **addr[SLP_STATE_MAX_VECS];
    int64_t len[SLP_STATE_MAX_VECS];
    int count = slp_state_vectors(s, flags, SLP_ANY_SPACE, addr, len);
    for (int k = 0; k < count; k++)
        if (*addr[k]) {
            s->be->vec_destroy(s->be, *addr[k]);
            *addr[k] = NULL;
        }
}
