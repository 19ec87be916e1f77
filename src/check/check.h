/* Independent solution checker: the nine optimality criteria of the paper
 * (SHARDLP, appendix C.2), evaluated in the model's original coordinates with
 * long-double accumulation. See docs/checker.md for every formula.
 *
 * The checker shares no code with the solver. It consumes the model through
 * slices so that it can stream a shard directory block by block:
 *
 *   slp_check_t chk;
 *   slp_check_init(&chk, sense, obj_const, reported_objective);
 *   -- row side: for each row slice, accumulate A x into long double with
 *      slp_check_csc_ax / slp_check_csr_ax over the blocks of that slice, then
 *      slp_check_rows(&chk, ...);
 *   -- column side: project y with slp_check_project_row_duals, accumulate
 *      A^T y_proj with slp_check_csc_aty / slp_check_csr_aty over the blocks of
 *      the column slice, then slp_check_cols(&chk, ...);
 *   slp_check_finish(&chk, &result);
 *
 * Vectors passed in (c, x, y, z, bounds) are in the USER's sense, exactly as in
 * the model file and the solution file; the checker converts a maximisation
 * to minimisation form internally (c, y, z and objectives times `sense`).
 * Products (ax, aty) are plain sums of a_ij * v and do not depend on the sense,
 * except that aty must be formed from the projected MIN-form row duals returned
 * by slp_check_project_row_duals. */
#ifndef SLP_CHECK_H
#define SLP_CHECK_H

#include <stdint.h>

#include "core/model.h"

/* The nine criteria, in the order they are printed. */
typedef enum {
    SLP_CHECK_BOUND_NORM = 0,  /* variable bounds, normwise relative */
    SLP_CHECK_BOUND_COORD,     /* variable bounds, worst coordinatewise-normalised */
    SLP_CHECK_ROW_NORM,        /* row bounds on A x, normwise relative */
    SLP_CHECK_ROW_COORD,       /* row bounds on A x, worst coordinatewise-normalised */
    SLP_CHECK_STAT_NORM,       /* stationarity c - A^T y - z, normwise relative */
    SLP_CHECK_STAT_COORD,      /* stationarity, worst coordinatewise-normalised */
    SLP_CHECK_ROW_DUAL_SIGN,   /* distance of y from its admissible sign set */
    SLP_CHECK_REDUCED_COST_SIGN, /* distance of z from its admissible sign set */
    SLP_CHECK_GAP,             /* relative primal-dual objective gap */
    SLP_CHECK_COUNT
} slp_check_criterion;

/* Stable key of a criterion (used in the printed table and in --json). */
const char *slp_check_criterion_key(int criterion);

typedef struct slp_check_result {
    double value[SLP_CHECK_COUNT]; /* each criterion; NaN or inf when an input was not finite */
    /* Global row or column index where a coordinatewise / sign criterion is
     * attained (-1 when the value is 0 or the criterion is normwise / gap).
     * Rows for ROW_* and ROW_DUAL_SIGN, columns for the others. */
    int64_t worst[SLP_CHECK_COUNT];
    double max;               /* max of the nine; NaN if any is NaN */
    int all_finite;           /* 1 when all nine values are finite */
    /* The residuals' absolute norms, [0] L2 and [1] L-infinity (for a criterion in the
     * solver's detailed form, docs/statuses.md): primal, the bound and row violations
     * together; dual, the stationarity c - A^T y - z. */
    double abs_primal[2], abs_dual[2];
    double primal_objective;  /* c^T x + c0 from x, user's sense */
    double dual_objective;    /* from projected y, z, user's sense */
    double reported_objective;/* as given to slp_check_init (NaN if none) */
} slp_check_result_t;

/* Pass rule: all nine finite and <= tol. */
int slp_check_passed(const slp_check_result_t *result, double tol);

/* Streaming accumulator. Plain data: initialise with slp_check_init, no destroy. */
typedef struct slp_check {
    int sense;                 /* +1 minimise, -1 maximise */
    long double obj_const;     /* user's sense */
    double reported_objective; /* user's sense, NaN if none */
    long double primal_obj;    /* sum c_j x_j, user's sense */
    long double dual_obj;      /* min form, without the constant */
    /* squared sums for normwise criteria and their normalisers */
    long double bound_viol2, bound_scale2;
    long double row_viol2, row_scale2;
    long double stat2, c2;
    long double c_inf;
    long double bound_viol_max, row_viol_max, stat_max; /* absolute maxima */
    /* worst coordinatewise values and where */
    long double bound_coord, row_coord, stat_coord, ysign, zsign;
    int64_t bound_at, row_at, stat_at, ysign_at, zsign_at;
} slp_check_t;

void slp_check_init(slp_check_t *chk, int sense, double obj_const, double reported_objective);

/* Project user-sense row duals y[0..count) onto their admissible sign sets in
 * MIN form (y_min = sense * y): lc finite only -> [0, inf); uc finite only ->
 * (-inf, 0]; neither -> {0}; both -> free. NaN stays NaN. */
void slp_check_project_row_duals(int sense, int64_t count, const double *lc, const double *uc,
                                 const double *y, double *y_proj_min);

/* ax[i] += sum_j a_ij x[j], ax_abs[i] += sum_j |a_ij x[j]| for a CSC block of
 * `ncols` columns whose row indices are local to the row slice (row_off is
 * subtracted from every stored index; pass 0 for a whole matrix). */
void slp_check_csc_ax(int64_t ncols, const int64_t *col_ptr, const int64_t *row_idx,
                      const double *val, int64_t row_off, const double *x, long double *ax,
                      long double *ax_abs);
/* aty[j] += sum_i a_ij y[i], aty_abs[j] += sum_i |a_ij y[i]| (same block form;
 * y indexed locally to the row slice). */
void slp_check_csc_aty(int64_t ncols, const int64_t *col_ptr, const int64_t *row_idx,
                       const double *val, int64_t row_off, const double *y, long double *aty,
                       long double *aty_abs);
/* The same two products for a CSR block of `nrows` rows (shard blocks);
 * col_off is subtracted from every stored column index. */
void slp_check_csr_ax(int64_t nrows, const int64_t *row_ptr, const int64_t *col_idx,
                      const double *val, int64_t col_off, const double *x, long double *ax,
                      long double *ax_abs);
void slp_check_csr_aty(int64_t nrows, const int64_t *row_ptr, const int64_t *col_idx,
                       const double *val, int64_t col_off, const double *y, long double *aty,
                       long double *aty_abs);

/* Row slice [off, off + count): bounds, user-sense duals y, and the complete
 * activities ax = A x, ax_abs = |A| |x| (summed over all column blocks).
 * Contributes the row-feasibility, row-dual-sign and dual-objective terms. */
void slp_check_rows(slp_check_t *chk, int64_t off, int64_t count, const double *lc,
                    const double *uc, const double *y, const long double *ax,
                    const long double *ax_abs);

/* Column slice [off, off + count): user-sense objective c, bounds, primal x,
 * user-sense reduced costs z, and aty = A^T y_proj_min, aty_abs = |A|^T |y_proj_min|
 * (complete sums over all row blocks, from slp_check_project_row_duals output).
 * Contributes variable-bound, stationarity, reduced-cost-sign, primal and dual
 * objective terms. */
void slp_check_cols(slp_check_t *chk, int64_t off, int64_t count, const double *c,
                    const double *lv, const double *uv, const double *x, const double *z,
                    const long double *aty, const long double *aty_abs);

/* Normalise and fill the result (the accumulator may be discarded afterwards). */
void slp_check_finish(const slp_check_t *chk, slp_check_result_t *result);

/* Whole in-memory model: y[m], z[n], x[n] in the user's sense. Allocates
 * O(m + n) long-double work arrays. */
slp_err slp_check_model(const slp_model_t *model, const double *x, const double *y,
                        const double *z, double reported_objective, slp_check_result_t *result);

/* Certificates (docs/checker.md, "Certificates"). A ray is normalised by its largest
 * entry; `objective` is then its objective term and `violation` its worst breach:
 *   dual ray y (one per row; primal infeasibility): z = -A^T y, objective =
 *     sum_i (y_i > 0 ? y_i lc_i : y_i uc_i) + sum_j (z_j > 0 ? z_j lv_j : z_j uv_j)
 *     over finite bounds, violation = the largest |y_i| or |z_j| that would need an
 *     infinite bound; it proves infeasibility when objective > 0;
 *   primal ray d (one per column; unboundedness): objective = sense * c^T d, violation =
 *     the largest breach of the recession cone (A d within the rows' cones, d within the
 *     columns'); it proves an improving direction when objective < 0.
 * quality = violation / |objective| (inf when the objective has the wrong sign). */
typedef struct slp_ray_result {
    double objective, violation, quality;
    int64_t worst;  /* row or column of the worst breach (-1: none) */
    int worst_is_row;
} slp_ray_result_t;

slp_err slp_check_dual_ray(const slp_model_t *model, const double *ray_y, slp_ray_result_t *out);
slp_err slp_check_primal_ray(const slp_model_t *model, const double *ray_x, slp_ray_result_t *out);

/* The parts both ray checks (and the grid's, check_grid.h) share: the breach of the
 * recession cone of [l, u] by a direction value v, and the normalisation of the sums
 * (objective term, worst breach) by the ray's largest entry `scale` into *out. */
long double slp_ray_cone_breach(long double v, double l, double u);
void slp_ray_finish(slp_ray_result_t *out, long double obj, long double worst, long double scale,
                    int want_positive);

#endif
