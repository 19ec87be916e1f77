/* Active-set step-size boost (docs/algorithm.md section 3, "Active-set step-size
 * boost"): near a solution, rows that stay inactive and columns that stay clamped at a
 * bound do not constrain the step, so eta may grow to about 1 / ||A_{B,F}|| where B
 * and F are the rows and columns that remain. A rise is kept only while the
 * fixed-point error does not grow; otherwise the run rolls back.
 *
 * Every decision is per coordinate on synchronised values (identical on every
 * replica), and every count is a grid reduction, so all grid shapes decide alike. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "grid/comm.h"
#include "grid/reduce.h"
#include "solver/sigma_max.h"
#include "solver/solver_internal.h"

#define BOOST_EPS 1e-8            /* exclusion margins (rows and columns) */
#define BOOST_WINDOW 10000        /* iterations an index must stay excluded */
#define BOOST_ACTIVATION 1e-4     /* relative residuals and gap below this */
#define BOOST_SAFETY 0.9          /* eta+ = SAFETY / ||A_{B,F}|| */
#define BOOST_MIN_RATIO 1.1       /* a rise smaller than this factor is not taken */
#define BOOST_CHANGE 0.01         /* re-estimate after this fraction of |B| + |F| changed */
#define BOOST_DIVERGENCE 0.05     /* roll back when FPE > (1 + this) FPE at the epoch start */
#define BOOST_CEILING 0.7         /* after a rollback, eta stays below this x the rejected eta */
#define BOOST_MAX_ROLLBACKS 2     /* then the boost is off for the rest of the run */

struct slp_boost {
    int64_t *col_since, *row_since; /* iteration where the exclusion streak began; -1: none */
    double *c, *lv, *uv, *lc, *uc;  /* host copies of the scaled data */
    double *slack, *h, *yhat, *y, *y0;   /* host scratch for a check's values */
    double *mask_cols, *mask_rows;  /* host 0/1 masks (1: in F / B) */
    double *dev_cols, *dev_rows;    /* the same on the backend */
    double *save_x, *save_y;        /* restart iterate at the last rise */
    double save_omega;
    slp_pid_t save_pid;
    double eta0, ceiling;
    double changes;                 /* exclusion flips since the last estimate */
    double kept, total;             /* |B| + |F| at the last check; global rows + columns */
    int estimated, saved, rollbacks, off;
    int64_t rises;
};

slp_err slp_boost_create(slp_pdhg_t *s, slp_boost_t **out)
{
    *out = NULL;
    if (!s->set->step_boost)
        return SLP_OK;
    int64_t n = s->n, m = s->m;
    /* the one collective, before anything that can fail on one rank alone */
    double size[2] = {(double)n, (double)m};
    SLP_CALL(slp_reduce_sums(s->grid, size, 1, size + 1, 1));
    slp_boost_t *b = slp_calloc(1, sizeof *b);
    if (!b)
        return SLP_ERR_NOMEM;
    *out = b;
    slp_backend_t *be = s->be;
    b->total = size[0] + size[1];
    b->eta0 = s->eta;
    b->ceiling = INFINITY;
    SLP_CALL(slp_alloc(&b->col_since, (size_t)n + 1, sizeof(int64_t)));
    SLP_CALL(slp_alloc(&b->row_since, (size_t)m + 1, sizeof(int64_t)));
    for (int64_t j = 0; j < n; j++)
        b->col_since[j] = -1;
    for (int64_t i = 0; i < m; i++)
        b->row_since[i] = -1;
    SLP_CALL(slp_vec_copy_down(be, s->c, n, &b->c));
    SLP_CALL(slp_vec_copy_down(be, s->lv, n, &b->lv));
    SLP_CALL(slp_vec_copy_down(be, s->uv, n, &b->uv));
    SLP_CALL(slp_vec_copy_down(be, s->lc, m, &b->lc));
    SLP_CALL(slp_vec_copy_down(be, s->uc, m, &b->uc));
    double **scratch_n[] = {&b->slack, &b->mask_cols};
    double **scratch_m[] = {&b->h, &b->yhat, &b->y, &b->y0, &b->mask_rows};
    for (int k = 0; k < 2; k++)
        SLP_CALL(slp_alloc(scratch_n[k], (size_t)n + 1, sizeof(double)));
    for (int k = 0; k < 5; k++)
        SLP_CALL(slp_alloc(scratch_m[k], (size_t)m + 1, sizeof(double)));
    SLP_CALL(be->vec_create(be, n, &b->dev_cols));
    SLP_CALL(be->vec_create(be, m, &b->dev_rows));
    SLP_CALL(be->vec_create(be, n, &b->save_x));
    return be->vec_create(be, m, &b->save_y);
}

void slp_boost_destroy(slp_pdhg_t *s, slp_boost_t **boost)
{
    slp_boost_t *b = *boost;
    if (!b)
        return;
    free(b->col_since);
    free(b->row_since);
    double *host[] = {b->c, b->lv, b->uv, b->lc, b->uc, b->slack, b->h, b->yhat, b->y, b->y0,
                      b->mask_cols, b->mask_rows};
    for (size_t k = 0; k < sizeof host / sizeof host[0]; k++)
        free(host[k]);
    double *dev[] = {b->dev_cols, b->dev_rows, b->save_x, b->save_y};
    for (int k = 0; k < 4; k++)
        if (dev[k])
            s->be->vec_destroy(s->be, dev[k]);
    free(b);
    *boost = NULL;
}

int64_t slp_boost_rises(const slp_boost_t *b) { return b ? b->rises : 0; }
int64_t slp_boost_rollbacks(const slp_boost_t *b) { return b ? b->rollbacks : 0; }

/* Column j is clamped at a bound by the primal step: the dual slack
 * (xhat - t) / tau = c - A^T y + (xhat - x) / tau points into the bound by a margin. */
static int column_clamped(double slack, double c, double l, double u)
{
    if (l == u)
        return 1;
    double margin = BOOST_EPS * fmax(1.0, fabs(c));
    return (isfinite(l) && slack > margin) || (isfinite(u) && slack < -margin);
}

/* Row i is inactive in the dual step: s = y/sigma - A xbar lies inside [-u, -l] with a
 * margin at each finite end, so yhat_i = 0. Equality rows are never inactive. */
static int row_inactive(double s, double l, double u)
{
    if (!(l < u))
        return 0;
    if (isfinite(u) && !(s + u > BOOST_EPS * fmax(1.0, fmax(fabs(s), fabs(u)))))
        return 0;
    if (isfinite(l) && !(-l - s > BOOST_EPS * fmax(1.0, fmax(fabs(s), fabs(l)))))
        return 0;
    return 1;
}

/* One index's streak: returns whether it is excluded now; counts a flip in *flips. */
static int streak(int64_t *since, int meets, int64_t total, double *flips)
{
    int was = *since >= 0 && total - *since >= BOOST_WINDOW;
    if (!meets)
        *since = -1;
    else if (*since < 0)
        *since = total;
    int now = *since >= 0 && total - *since >= BOOST_WINDOW;
    *flips += now != was;
    return now;
}

/* The exclusion tests at this check, the masks, and the counts of the kept sets. The
 * dual step's y (before the step) is recovered from y_next = w (2 yhat - y) + (1 - w) y0
 * with the last step's w = k / (k + 1), k the epoch's iteration count. */
static slp_err observe(slp_boost_t *b, slp_pdhg_t *s, const slp_loop_t *loop)
{
    slp_backend_t *be = s->be;
    slp_err rc = be->vec_download(be, b->slack, s->slack, s->n);
    double *host[] = {b->h, b->yhat, b->y, b->y0};
    const double *dev[] = {s->h, s->yhat, s->y, s->y0};
    for (int k = 0; rc == SLP_OK && k < 4; k++)
        rc = be->vec_download(be, host[k], dev[k], s->m);
    SLP_CALL(slp_comm_agree(s->grid->world, rc)); /* a failed copy ends every rank */
    double sigma = s->eta * s->omega;
    double w = (double)loop->epoch / (double)(loop->epoch + 1);
    double flips_col[2] = {0}, flips_row[2] = {0}; /* flips, kept */
    for (int64_t j = 0; j < s->n; j++) {
        int out = streak(&b->col_since[j],
                         column_clamped(b->slack[j], b->c[j], b->lv[j], b->uv[j]),
                         loop->total, &flips_col[0]);
        b->mask_cols[j] = out ? 0.0 : 1.0;
        flips_col[1] += !out;
    }
    for (int64_t i = 0; i < s->m; i++) {
        double y_before = 2.0 * b->yhat[i] - (b->y[i] - (1.0 - w) * b->y0[i]) / w;
        double dual_arg = y_before / sigma - b->h[i];
        int out = streak(&b->row_since[i], row_inactive(dual_arg, b->lc[i], b->uc[i]),
                         loop->total, &flips_row[0]);
        b->mask_rows[i] = out ? 0.0 : 1.0;
        flips_row[1] += !out;
    }
    SLP_CALL(slp_reduce_sums(s->grid, flips_col, 2, flips_row, 2));
    b->changes += flips_col[0] + flips_row[0];
    b->kept = flips_col[1] + flips_row[1];
    return SLP_OK;
}

/* Roll back to the iterate saved at the last rise: eta0, a new epoch, and a ceiling
 * below the rejected step. */
static void roll_back(slp_boost_t *b, slp_pdhg_t *s, slp_loop_t *loop)
{
    slp_backend_t *be = s->be;
    be->vec_copy(be, s->x0, b->save_x, s->n);
    be->vec_copy(be, s->x, b->save_x, s->n);
    be->vec_copy(be, s->y0, b->save_y, s->m);
    be->vec_copy(be, s->y, b->save_y, s->m);
    s->omega = b->save_omega;
    loop->pid = b->save_pid;
    b->ceiling = BOOST_CEILING * s->eta;
    slp_log_verbose("step boost: rollback from eta %.6e to %.6e\n", s->eta, b->eta0);
    s->eta = b->eta0;
    b->estimated = 0;
    b->rollbacks++;
    b->off = b->rollbacks >= BOOST_MAX_ROLLBACKS;
    loop->epoch = 0;
    loop->fpe_last = INFINITY;
    loop->restarts++;
    loop->restarted_since_log = 1;
}

slp_err slp_boost_after_check(slp_boost_t *b, slp_pdhg_t *s, slp_loop_t *loop,
                              const slp_check_scalars_t *chk, int *rolled_back)
{
    *rolled_back = 0;
    if (!b || b->off)
        return SLP_OK;
    if (s->eta > b->eta0 && b->saved &&
        (!slp_pdhg_all_finite(chk) || !isfinite(chk->fpe_eta0) ||
         chk->fpe_eta0 > (1.0 + BOOST_DIVERGENCE) * loop->fpe0_eta0)) {
        roll_back(b, s, loop);
        *rolled_back = 1;
        return SLP_OK;
    }
    return observe(b, s, loop);
}

/* Whether the boost should estimate ||A_{B,F}|| at this restart. */
static int estimate_due(const slp_boost_t *b, const slp_pdhg_t *s, const slp_check_scalars_t *chk)
{
    if (b->off || !(chk->rel_p < BOOST_ACTIVATION && chk->rel_d < BOOST_ACTIVATION &&
                    chk->rel_gap < BOOST_ACTIVATION))
        return 0;
    if (b->kept >= b->total || b->ceiling < BOOST_MIN_RATIO * s->eta)
        return 0; /* nothing excluded, or the ceiling rules out a rise */
    return !b->estimated || b->changes >= BOOST_CHANGE * b->kept;
}

slp_err slp_boost_at_restart(slp_boost_t *b, slp_pdhg_t *s, slp_loop_t *loop,
                             const slp_check_scalars_t *chk)
{
    if (!b)
        return SLP_OK;
    if (!estimate_due(b, s, chk))
        return SLP_OK;
    slp_backend_t *be = s->be;
    slp_err rc = be->vec_upload(be, b->dev_cols, b->mask_cols, s->n);
    if (rc == SLP_OK)
        rc = be->vec_upload(be, b->dev_rows, b->mask_rows, s->m);
    SLP_CALL(slp_comm_agree(s->grid->world, rc));
    slp_sigma_mask_t mask = {b->dev_rows, b->dev_cols};
    /* dy, ax (m) and col_work (n) are rewritten before they are read again: free here */
    double sigma = 0.0;
    int steps = 0;
    SLP_CALL(slp_sigma_max_estimate(s->grid, be, s->ex, s->a, &mask, s->m, s->n, s->row_lo,
                                    s->dy, s->ax, s->col_work, INFINITY, &sigma, &steps));
    b->estimated = 1;
    b->changes = 0.0;
    if (!(sigma > 0.0))
        return SLP_OK;
    double proposed = fmax(b->eta0, fmin(BOOST_SAFETY / sigma, b->ceiling));
    slp_log_verbose("step boost: |B|+|F| = %.0f of %.0f, sigma %.6e (%d steps), eta %.6e -> "
                    "%.6e\n", b->kept, b->total, sigma, steps, s->eta, proposed);
    if (!(proposed > s->eta && proposed >= BOOST_MIN_RATIO * s->eta))
        return SLP_OK;
    be->vec_copy(be, b->save_x, s->x0, s->n);
    be->vec_copy(be, b->save_y, s->y0, s->m);
    b->save_omega = s->omega;
    b->save_pid = loop->pid;
    b->saved = 1;
    b->rises++;
    s->eta = proposed;
    return SLP_OK;
}
