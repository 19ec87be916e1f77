/* Preprocessing and diagonal scaling of one rank's local problem, in place, on
 * the host (docs/algorithm.md section 2). All functions are collective over the grid:
 * row maxima and sums are reduced over row_comm, column ones over col_comm. */
#ifndef SLP_SCALING_H
#define SLP_SCALING_H

#include "core/local_problem.h"
#include "grid/grid.h"
#include "solver/settings.h"

/* Norms of the unscaled (preprocessed) problem, for the relative tolerances. */
typedef struct slp_norms {
    double c_l2, c_linf;   /* objective */
    double b_l2, b_linf;   /* row bounds: l if finite and l != u, u if finite */
    double bc_l2, bc_linf; /* OR-Tools b^c: max(|l|, |u|) over finite row bounds */
} slp_norms_t;

typedef struct slp_scaling {
    double *drow;    /* [m_loc] cumulative row factors r_i (A~ = D_row^-1 A D_col^-1) */
    double *dcol;    /* [n_loc] cumulative column factors s_j */
    double theta_b;  /* bound rescaling: bounds multiplied by theta_b */
    double theta_c;  /* objective rescaling: objective multiplied by theta_c */
} slp_scaling_t;

/* Minimisation form (negate objective for max), bounds >= 1e20 to infinity, drop
 * |a_ij| <= 1e-9. Returns the number of dropped local entries in *dropped. */
slp_err slp_preprocess(slp_local_problem_t *lp, int64_t *dropped);
slp_err slp_compute_norms(slp_grid_t *grid, const slp_local_problem_t *lp, slp_norms_t *out);
/* Geometric-mean, Ruiz, Pock-Chambolle and bound/objective rescaling of lp in place;
 * fills *sc (arrays owned by sc). The passes stream the copy with more lines, A_rc's
 * transpose when it has more, and the transpose is returned, scaled like A_rc, in *at
 * (owned by the caller); with at NULL no transpose is built and the passes stream A_rc
 * (--block-copies rows, docs/memory.md). The sweeps are cut
 * into `parts` (the backend's, backend.h): the factors depend on it, not on the
 * threads that run them. */
slp_err slp_scale(slp_grid_t *grid, slp_local_problem_t *lp, const slp_settings_t *settings,
                  int parts, slp_csr_t *at, slp_scaling_t *sc);
void slp_scaling_free(slp_scaling_t *sc);

#endif
