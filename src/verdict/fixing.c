/* Column fixing (docs/algorithm.md section 10; verdict/fixing.h).
 *
 * Phase 1 solves the LP as given until the solver's offer (solver.h `offer`) finds
 * enough columns to hold: x_j at a finite bound with a reduced cost of the sign that
 * keeps it there, larger than the point's worst relative residual (the margin) times
 * the size of its terms, |c_j| + sum_i |a_ij y_i|. Phase 2 solves the LP without them,
 * warm-started, and releases held columns whose reduced cost turns to the wrong sign
 * (checked at its checks and at its end) or that the Farkas ray of an infeasible
 * reduced LP names, and solves again; phase 3 solves the LP as given from its point.
 *
 * Every decision is per column on values that are identical on the ranks of a grid
 * column (the point's slices and sums over the grid column), and every count is a
 * grid reduction, so all ranks hold the same columns. */
#include "verdict/fixing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "grid/comm.h"
#include "grid/fault_hook.h"
#include "grid/reduce.h"
#include "solver/checkpoint.h"
#include "solver/scaling.h"
#include "verdict/budget.h"

#define FIX_RELEASE 1e-9     /* release: the wrong sign beyond this share of its terms' size */
#define FIX_MIN_SAVING 0.75  /* hold only when this share of the traffic per iteration goes */
#define FIX_ROUNDS 8         /* phase 2 solves at most */
#define FIX_BUDGET 4         /* phase 2 takes at most the time of this times phase 1's iterations */

enum { FREE = 0, AT_LOWER = 1, AT_UPPER = 2 };

typedef struct {
    slp_grid_t *grid;
    slp_local_problem_t *full;       /* the LP as given (a copy: slp_solve consumes its own;
                                      * phase 3's solve takes this one over) */
    unsigned char *side;             /* [n_loc] the bound x_j sat at in phase 1 (or FREE) */
    double *strength;                /* [n_loc] its reduced cost over its terms' size there
                                      * (-inf: not at a bound, or released) */
    unsigned char *held;             /* [n_loc] FREE, AT_LOWER or AT_UPPER */
    double margin;                   /* held: strength above this */
    double held_cols, held_nnz;      /* global */
    double held_upper, held_nonzero; /* of them at an upper bound, at a value other than 0 */
    int taken;                       /* phase 1 took the offer */
    int64_t budget;                  /* phase 2's iterations left */
    int hold_all;                    /* tests: hold every column at a bound */
} fixing_t;

/* t[0..n) = (A^T y)_j and t[n..2n) = sum_i |a_ij y_i| over the whole column, from this
 * rank's block and a sum over the grid column. Collective. */
static slp_err column_terms(slp_grid_t *grid, const slp_local_problem_t *lp, const double *y,
                            double **out)
{
    int64_t n = lp->n_loc;
    double *t = slp_calloc(2 * (size_t)n + 1, sizeof(double));
    SLP_CALL(slp_comm_agree(grid->world, t ? SLP_OK : SLP_ERR_NOMEM));
    const slp_csr_t *a = &lp->A;
    for (int64_t i = 0; i < a->rows; i++)
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            double v = a->val[k] * y[i];
            t[a->col_idx[k]] += v;
            t[n + a->col_idx[k]] += fabs(v);
        }
    slp_err rc = slp_sum_over_col(grid, t, 2 * n);
    if (rc != SLP_OK) {
        free(t);
        return rc;
    }
    *out = t;
    return SLP_OK;
}

static int at_bound(double x, double bound)
{
    return isfinite(bound) && fabs(x - bound) <= 1e-12 * (1.0 + fabs(bound));
}

static double held_value(const slp_local_problem_t *lp, const unsigned char *held, int64_t j)
{
    return held[j] == AT_LOWER ? lp->lv[j] : lp->uv[j];
}

/* The held columns and their entries over the grid. Collective. */
static slp_err count_held(fixing_t *f)
{
    const slp_local_problem_t *lp = f->full;
    double cols[3] = {0.0, 0.0, 0.0}, nnz = 0.0; /* held, at an upper bound, at a value != 0 */
    for (int64_t j = 0; j < lp->n_loc; j++) {
        cols[0] += f->held[j] != FREE;
        cols[1] += f->held[j] == AT_UPPER;
        cols[2] += f->held[j] != FREE && held_value(lp, f->held, j) != 0.0;
    }
    const slp_csr_t *a = &lp->A;
    for (int64_t k = 0; k < a->nnz; k++)
        nnz += f->held[a->col_idx[k]] != FREE;
    SLP_CALL(slp_reduce_sums(f->grid, cols, 3, NULL, 0)); /* once per column slice */
    SLP_CALL(slp_comm_sum(f->grid->world, &nnz, 1));       /* every block */
    f->held_cols = cols[0];
    f->held_upper = cols[1];
    f->held_nonzero = cols[2];
    f->held_nnz = nnz;
    return SLP_OK;
}

/* The share of the bytes an iteration moves (docs/memory.md: 24 nnz + 88 n + 72 m)
 * that the held columns take away. */
static double traffic_saved(const fixing_t *f)
{
    const slp_local_problem_t *lp = f->full;
    double all = 24.0 * (double)lp->nnz + 88.0 * (double)lp->n + 72.0 * (double)lp->m;
    return all > 0.0 ? (24.0 * f->held_nnz + 88.0 * f->held_cols) / all : 0.0;
}

/* held[j] = side[j] where strength[j] > margin; the counts. Collective. */
static slp_err hold(fixing_t *f)
{
    for (int64_t j = 0; j < f->full->n_loc; j++)
        f->held[j] = f->strength[j] > f->margin || f->hold_all ? f->side[j] : FREE;
    return count_held(f);
}

/* The solver's offer (solver.h): hold what the point allows; take it when that saves
 * enough. */
static slp_err offer(slp_result_t *point, void *user, int *take)
{
    fixing_t *f = user;
    const slp_local_problem_t *lp = f->full;
    double *t = NULL;
    SLP_CALL(column_terms(f->grid, lp, point->y, &t));
    double sense = lp->sense < 0 ? -1.0 : 1.0;
    int64_t n = lp->n_loc;
    for (int64_t j = 0; j < n; j++) {
        double d = sense * point->rc[j] / (fabs(lp->obj[j]) + t[n + j]);
        f->side[j] = at_bound(point->x[j], lp->lv[j]) && (d > 0.0 || f->hold_all)   ? AT_LOWER
                     : at_bound(point->x[j], lp->uv[j]) && (d < 0.0 || f->hold_all) ? AT_UPPER
                                                                                    : FREE;
        f->strength[j] = f->side[j] == FREE ? -INFINITY : fabs(d);
    }
    free(t);
    f->margin = fmax(fmax(point->rel_primal_residual, point->rel_dual_residual), point->rel_gap);
    SLP_CALL(hold(f));
    double saved = traffic_saved(f);
    *take = f->held_cols > 0 && (saved >= FIX_MIN_SAVING || f->hold_all);
    f->taken = *take;
    slp_log_verbose("Column fixing: at iteration %lld, %.0f columns could be held (%.0f%% of "
                    "the traffic per iteration): %s\n", (long long)point->iterations,
                    f->held_cols, 100.0 * saved, *take ? "taken" : "not yet");
    return SLP_OK;
}

/* Per grid column c, the columns it keeps; col_off of the reduced LP. Collective. */
static slp_err reduced_cuts(const fixing_t *f, int64_t kept, int64_t *col_off)
{
    int C = f->full->C;
    double *count = slp_calloc((size_t)C, sizeof(double));
    SLP_CALL(slp_comm_agree(f->grid->world, count ? SLP_OK : SLP_ERR_NOMEM));
    count[f->full->c] = (double)kept;
    slp_err rc = slp_sum_over_row(f->grid, count, C); /* the grid row holds every c */
    col_off[0] = 0;
    for (int k = 0; k < C; k++)
        col_off[k + 1] = col_off[k] + (int64_t)count[k];
    free(count);
    return rc;
}

/* shift[i] = sum over held j of a_ij x_j (the whole row) and *obj = sum c_j x_j.
 * Collective. */
static slp_err held_activity(const fixing_t *f, double *shift, double *obj)
{
    const slp_local_problem_t *lp = f->full;
    const slp_csr_t *a = &lp->A;
    for (int64_t i = 0; i < a->rows; i++)
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            if (f->held[a->col_idx[k]])
                shift[i] += a->val[k] * held_value(lp, f->held, a->col_idx[k]);
    *obj = 0.0;
    for (int64_t j = 0; j < lp->n_loc; j++)
        if (f->held[j])
            *obj += lp->obj[j] * held_value(lp, f->held, j);
    SLP_CALL(slp_sum_over_row(f->grid, shift, lp->m_loc));
    return slp_reduce_sums(f->grid, obj, 1, NULL, 0);
}

/* The LP without the held columns: their activity leaves the row bounds, their cost
 * goes into the objective's constant. Collective. */
static slp_err reduced_problem(const fixing_t *f, slp_local_problem_t *red)
{
    const slp_local_problem_t *lp = f->full;
    const slp_csr_t *a = &lp->A;
    int64_t kept = 0;
    double nnz = 0.0;
    memset(red, 0, sizeof *red);
    for (int64_t j = 0; j < lp->n_loc; j++)
        kept += !f->held[j];
    for (int64_t k = 0; k < a->nnz; k++)
        nnz += !f->held[a->col_idx[k]];
    int64_t local_nnz = (int64_t)nnz;
    SLP_CALL(slp_comm_sum(f->grid->world, &nnz, 1));
    int32_t *map = slp_calloc((size_t)lp->n_loc + 1, sizeof(int32_t));
    double *shift = slp_calloc((size_t)lp->m_loc + 1, sizeof(double));
    slp_err rc = map && shift ? slp_fault_nomem("fixing-reduce") /* failures.sh's hook */
                              : SLP_ERR_NOMEM;
    if (rc == SLP_OK)
        rc = slp_local_problem_alloc(red, lp->R, lp->C, lp->m_loc, kept, local_nnz);
    rc = slp_comm_agree(f->grid->world, rc);
    double obj = 0.0;
    if (rc == SLP_OK)
        rc = reduced_cuts(f, kept, red->col_off);
    if (rc == SLP_OK)
        rc = held_activity(f, shift, &obj);
    if (rc == SLP_OK) {
        memcpy(red->row_off, lp->row_off, ((size_t)lp->R + 1) * sizeof(int64_t));
        red->m = lp->m, red->n = red->col_off[lp->C], red->nnz = (int64_t)nnz;
        red->sense = lp->sense, red->obj_const = lp->obj_const + obj;
        red->r = lp->r, red->c = lp->c, red->row_lo = lp->row_lo;
        red->col_lo = red->col_off[lp->c];
        for (int64_t j = 0, k = 0; j < lp->n_loc; j++) {
            if (f->held[j])
                continue;
            map[j] = (int32_t)k;
            red->obj[k] = lp->obj[j], red->lv[k] = lp->lv[j], red->uv[k] = lp->uv[j];
            k++;
        }
        for (int64_t i = 0; i < lp->m_loc; i++) {
            red->lc[i] = lp->lc[i] - shift[i]; /* an infinite bound stays infinite */
            red->uc[i] = lp->uc[i] - shift[i];
        }
        int64_t e = 0;
        for (int64_t i = 0; i < a->rows; i++) {
            red->A.row_ptr[i] = e;
            for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
                if (!f->held[a->col_idx[k]]) {
                    red->A.col_idx[e] = map[a->col_idx[k]];
                    red->A.val[e++] = a->val[k];
                }
        }
        red->A.row_ptr[a->rows] = e;
    }
    free(map);
    free(shift);
    if (rc != SLP_OK)
        slp_local_problem_free(red);
    return rc;
}

/* x of the LP as given from the reduced LP's x (into[n_loc]). */
static void expand(const fixing_t *f, const double *reduced, double *into)
{
    for (int64_t j = 0, k = 0; j < f->full->n_loc; j++)
        into[j] = f->held[j] ? held_value(f->full, f->held, j) : reduced[k++];
}

/* The reduced LP's start: the free columns of x. */
static void restrict_x(const fixing_t *f, const double *x, double *into)
{
    for (int64_t j = 0, k = 0; j < f->full->n_loc; j++)
        if (!f->held[j])
            into[k++] = x[j];
}

/* The held columns' reduced costs at y over the size of their terms, in
 * d[0..n_loc) (0 where not held); for a Farkas ray y (ray set), those of the LP with
 * the objective 0. Collective. */
static slp_err held_strengths(const fixing_t *f, const double *y, int ray, double *d)
{
    const slp_local_problem_t *lp = f->full;
    double *t = NULL;
    SLP_CALL(column_terms(f->grid, lp, y, &t));
    double sense = lp->sense < 0 ? -1.0 : 1.0;
    int64_t n = lp->n_loc;
    for (int64_t j = 0; j < n; j++) {
        double c = ray ? 0.0 : lp->obj[j], size = fabs(c) + t[n + j];
        d[j] = f->held[j] && size > 0.0 ? sense * (c - t[j]) / size : 0.0;
    }
    free(t);
    return SLP_OK;
}

static int wrong_sign(unsigned char held, double d, double beyond)
{
    return (held == AT_LOWER && d < -beyond) || (held == AT_UPPER && d > beyond);
}

/* Frees the held columns whose reduced cost at y (of the LP with the objective 0 for
 * a ray y) has the wrong sign by more than `beyond` times the size of its terms (dry:
 * only counts them); *count: their number over the grid. A ray that proves the reduced
 * LP infeasible stops proving it for the LP as given exactly where a held column's
 * reduced cost for it has the wrong sign. Collective. */
static slp_err wrong_signs(fixing_t *f, const double *y, int ray, double beyond, int dry,
                           double *count)
{
    double *d = slp_calloc((size_t)f->full->n_loc + 1, sizeof(double));
    SLP_CALL(slp_comm_agree(f->grid->world, d ? SLP_OK : SLP_ERR_NOMEM));
    slp_err rc = held_strengths(f, y, ray, d);
    double found = 0.0;
    for (int64_t j = 0; rc == SLP_OK && j < f->full->n_loc; j++) {
        if (!wrong_sign(f->held[j], d[j], beyond))
            continue;
        found += 1.0;
        if (!dry) {
            f->held[j] = FREE;
            f->strength[j] = -INFINITY;
        }
    }
    free(d);
    SLP_CALL(rc);
    SLP_CALL(slp_reduce_sums(f->grid, &found, 1, NULL, 0));
    *count = found;
    return dry ? SLP_OK : count_held(f);
}

/* The reduced solve's offer (solver.h): it stops when a held column's reduced cost
 * has the wrong sign by more than the point's worst relative residual. */
static slp_err check_held(slp_result_t *point, void *user, int *stop)
{
    fixing_t *f = user;
    double worst = fmax(fmax(point->rel_primal_residual, point->rel_dual_residual),
                        point->rel_gap);
    double count = 0.0;
    SLP_CALL(wrong_signs(f, point->y, 0, worst, 1, &count));
    *stop = count > 0.0;
    slp_log_verbose("Column fixing: at iteration %lld of the reduced LP, %.0f held columns "
                    "have a reduced cost of the wrong sign\n", (long long)point->iterations,
                    count);
    return SLP_OK;
}

/* The settings of a phase: the time and iterations left. Collective. */
static slp_err phase_settings(slp_grid_t *grid, const slp_settings_t *settings, double t_start,
                              int64_t used, slp_settings_t *set)
{
    SLP_CALL(slp_budget_left(grid, settings, t_start, set, NULL));
    set->iter_limit = settings->iter_limit > used ? settings->iter_limit - used : 1;
    return SLP_OK;
}

int slp_fixing_enabled(const slp_settings_t *s)
{
    double target = s->detailed ? fmax(s->eps_abs, s->eps_rel) : s->tol;
    return s->fix_columns > 0.0 && target < s->fix_columns && !slp_checkpoint_enabled();
}

/* One reduced solve from x, y (the LP as given's), into *part. Collective. */
static slp_err reduced_solve(fixing_t *f, const slp_settings_t *settings, double t_start,
                             const slp_solve_inputs_t *in, slp_backend_t *be, const double *x,
                             const double *y, const slp_result_t *effort, slp_result_t *part)
{
    slp_local_problem_t red;
    SLP_CALL(reduced_problem(f, &red));
    double *x0 = slp_calloc((size_t)red.n_loc + 1, sizeof(double));
    slp_err rc = slp_comm_agree(f->grid->world, x0 ? SLP_OK : SLP_ERR_NOMEM);
    slp_settings_t set;
    if (rc == SLP_OK) {
        restrict_x(f, x, x0);
        rc = phase_settings(f->grid, settings, t_start, effort->iterations, &set);
        set.iter_limit -= 1; /* one is left for phase 3: a limit is met exactly */
        set.iter_limit = set.iter_limit < f->budget ? set.iter_limit : f->budget;
    }
    /* asked a decade below the residuals where the columns were chosen */
    slp_solve_inputs_t ph = {.x0 = x0, .y0 = y, .norms = in->norms, .trace = in->trace,
                             .progress = in->progress, .progress_user = in->progress_user,
                             .offer = check_held, .offer_user = f, .offer_level = f->margin / 10,
                             .iteration_base = in->iteration_base + effort->iterations};
    if (rc == SLP_OK)
        rc = slp_solve(f->grid, &red, &set, &ph, be, part);
    slp_local_problem_free(&red);
    free(x0);
    return rc;
}

/* After a reduced LP found infeasible: releases the held columns its Farkas ray names
 * (ray: the reduced LP's, NULL when it gave none), else holds fewer (a tenfold margin).
 * *freed: how many columns that freed over the grid. Collective. */
static slp_err release_infeasible(fixing_t *f, const double *ray, double *freed)
{
    double before = f->held_cols, named = 0.0;
    if (ray)
        SLP_CALL(wrong_signs(f, ray, 1, FIX_RELEASE, 0, &named));
    if (named == 0.0 && !f->hold_all) {
        f->margin *= 10.0;
        SLP_CALL(hold(f));
    }
    *freed = before - f->held_cols;
    slp_log("Column fixing: the reduced LP is infeasible; %.0f held columns released%s\n",
            *freed, named > 0.0 ? " (by its Farkas ray)" : "");
    return SLP_OK;
}

/* A round after the first runs only while the held columns still take FIX_MIN_SAVING
 * of the traffic: releases that bring it below mean phase 1 held too much, and the
 * reduced LPs then cost nearly what the whole LP does (docs/algorithm.md section 10). */
static int still_saves(const fixing_t *f, int round)
{
    if (round == 1 || f->hold_all || traffic_saved(f) >= FIX_MIN_SAVING)
        return 1;
    slp_log("Column fixing: the held columns take %.0f%% of the traffic per iteration, "
            "less than %.0f%%: no more rounds\n", 100.0 * traffic_saved(f),
            100.0 * FIX_MIN_SAVING);
    return 0;
}

/* Phase 2's rounds from phase 1's point (x, y: owned, replaced by the last round's
 * point on the LP as given). `effort` counts the iterations. Collective. */
static slp_err reduced_rounds(fixing_t *f, const slp_settings_t *settings, double t_start,
                              const slp_solve_inputs_t *in, slp_backend_t *be, double **x,
                              double **y, slp_result_t *effort)
{
    /* in the time of FIX_BUDGET times phase 1's iterations, at the reduced LP's cost */
    f->budget = (int64_t)(FIX_BUDGET * (double)effort->iterations /
                          fmax(1.0 - traffic_saved(f), 0.05));
    for (int round = 1; round <= FIX_ROUNDS && f->held_cols > 0.0 &&
                        f->held_cols < (double)f->full->n && f->budget > 0 &&
                        settings->iter_limit - effort->iterations > 1 && still_saves(f, round);
         round++) {
        slp_log("Column fixing: %.0f of %lld columns held at a bound (%.0f at an upper bound, "
                "%.0f at a value other than 0; %.0f%% of the traffic per iteration); the other "
                "%lld solved first\n", f->held_cols, (long long)f->full->n, f->held_upper,
                f->held_nonzero, 100.0 * traffic_saved(f),
                (long long)(f->full->n - (int64_t)f->held_cols));
        slp_result_t part = {0};
        SLP_CALL(reduced_solve(f, settings, t_start, in, be, *x, *y, effort, &part));
        effort->reduced_iterations += part.iterations;
        f->budget -= part.iterations;
        slp_result_add_effort(effort, &part);
        effort->fixing_rounds = round;
        effort->fixed_columns = (int64_t)f->held_cols;
        slp_status status = part.status;
        double freed = 0.0;
        slp_err rc = SLP_OK;
        if (status == SLP_STATUS_PRIMAL_INFEASIBLE)
            rc = release_infeasible(f, part.ray_y, &freed);
        if (status == SLP_STATUS_OPTIMAL || status == SLP_STATUS_INTERRUPTED) {
            expand(f, part.x, *x);
            free(*y);
            *y = part.y;
            part.y = NULL;
        }
        slp_result_free(&part);
        SLP_CALL(rc);
        if (status == SLP_STATUS_PRIMAL_INFEASIBLE && freed > 0.0)
            continue; /* from the last point */
        if (status != SLP_STATUS_OPTIMAL && status != SLP_STATUS_INTERRUPTED) {
            slp_log("Column fixing: the reduced LP ended %s; the LP as given goes on from "
                    "the last point\n", slp_status_name(status));
            return SLP_OK;
        }
        SLP_CALL(wrong_signs(f, *y, 0, FIX_RELEASE, 0, &freed));
        if (freed == 0.0 && status == SLP_STATUS_OPTIMAL)
            return SLP_OK;
        slp_log("Column fixing: %.0f held columns have a reduced cost of the wrong sign: "
                "released\n", freed);
    }
    return SLP_OK;
}

/* Phases 2 and 3 after phase 1 took the offer: *result (phase 1's) becomes the
 * result of the LP as given, with every phase's effort. Collective. */
static slp_err reduce_then_whole(fixing_t *f, const slp_settings_t *settings, double t_start,
                                 slp_solve_inputs_t *ph, slp_backend_t *be, slp_result_t *result)
{
    int64_t base = ph->iteration_base;
    double *x = result->x, *y = result->y; /* phase 1's point */
    result->x = result->y = NULL;
    slp_result_t effort = *result;
    memset(result, 0, sizeof *result);
    slp_result_free(&effort);
    slp_settings_t set;
    slp_err rc = reduced_rounds(f, settings, t_start, ph, be, &x, &y, &effort);
    if (rc == SLP_OK)
        rc = phase_settings(f->grid, settings, t_start, effort.iterations, &set);
    if (rc == SLP_OK) {
        slp_log("Column fixing: the whole LP from the reduced LP's point\n");
        ph->x0 = x, ph->y0 = y, ph->offer = NULL;
        ph->iteration_base = base + effort.iterations;
        rc = slp_solve(f->grid, f->full, &set, ph, be, result);
    }
    if (rc == SLP_OK) {
        slp_result_add_effort(result, &effort);
        result->fixing_rounds = effort.fixing_rounds;
        result->fixed_columns = effort.fixed_columns;
    }
    free(x);
    free(y);
    return rc;
}

slp_err slp_solve_fixing(slp_grid_t *grid, slp_local_problem_t *lp, const slp_settings_t *settings,
                         double t_start, const slp_solve_inputs_t *inputs, slp_backend_t *be,
                         slp_result_t *result)
{
    slp_settings_t set;
    SLP_CALL(phase_settings(grid, settings, t_start, 0, &set));
    if (!slp_fixing_enabled(settings) || lp->n == 0)
        return slp_solve(grid, lp, &set, inputs, be, result);
    fixing_t f = {.grid = grid, .hold_all = getenv("SLP_TEST_FIX_ALL") != NULL};
    slp_local_problem_t full;
    memset(&full, 0, sizeof full);
    f.held = slp_calloc((size_t)lp->n_loc + 1, 1);
    f.side = slp_calloc((size_t)lp->n_loc + 1, 1);
    f.strength = slp_calloc((size_t)lp->n_loc + 1, sizeof(double));
    slp_err rc = f.held && f.side && f.strength ? slp_local_problem_copy(lp, &full)
                                                : SLP_ERR_NOMEM;
    rc = slp_comm_agree(grid->world, rc);
    f.full = &full;
    slp_norms_t norms;
    slp_step_memo_t memo = {0};
    slp_solve_inputs_t ph = *inputs;
    ph.offer = offer, ph.offer_user = &f, ph.offer_level = settings->fix_columns;
    if (rc == SLP_OK && !ph.norms && (rc = slp_compute_norms(grid, lp, &norms)) == SLP_OK)
        ph.norms = &norms;
    if (!ph.step_memo)
        ph.step_memo = &memo; /* phase 3 solves the same matrix */
    if (rc == SLP_OK)
        rc = slp_solve(grid, lp, &set, &ph, be, result);
    if (rc == SLP_OK && f.taken && result->status == SLP_STATUS_INTERRUPTED)
        rc = reduce_then_whole(&f, settings, t_start, &ph, be, result);
    slp_local_problem_free(&full);
    free(f.held);
    free(f.side);
    free(f.strength);
    return rc;
}
