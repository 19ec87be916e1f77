/* Termination tests (docs/algorithm.md section 6 and "Termination forms"). The
 * relative (cuPDLPx) form uses strict inequalities; the OR-Tools detailed form
 * uses <= as written there. Order of tests is the caller's: optimal, primal
 * infeasible, dual infeasible, limits. */
#include <float.h>
#include <math.h>

#include "solver/solver_internal.h"

/* Each part of the criterion with every tolerance multiplied by `scale`. */
static int primal_feasible(const slp_pdhg_t *s, const slp_check_scalars_t *chk, double scale)
{
    const slp_settings_t *set = s->set;
    if (!set->detailed)
        return chk->rel_p < scale * set->tol;
    double bc = slp_pdhg_norm(s, s->norms.bc_l2, s->norms.bc_linf);
    return chk->rp <= scale * (set->eps_abs + set->eps_rel * bc);
}

static int dual_feasible(const slp_pdhg_t *s, const slp_check_scalars_t *chk, double scale)
{
    const slp_settings_t *set = s->set;
    if (!set->detailed)
        return chk->rel_d < scale * set->tol;
    double cn = slp_pdhg_norm(s, s->norms.c_l2, s->norms.c_linf);
    return chk->rd <= scale * (set->eps_abs + set->eps_rel * cn);
}

static int gap_small(const slp_pdhg_t *s, const slp_check_scalars_t *chk, double scale)
{
    const slp_settings_t *set = s->set;
    if (!set->detailed)
        return chk->rel_gap < scale * set->tol;
    return chk->gap <= scale * (set->eps_abs + set->gap_rel * (fabs(chk->pobj) + fabs(chk->dobj)));
}

int slp_pdhg_primal_feasible(const slp_pdhg_t *s, const slp_check_scalars_t *chk)
{
    return primal_feasible(s, chk, 1.0);
}

int slp_pdhg_dual_feasible(const slp_pdhg_t *s, const slp_check_scalars_t *chk)
{
    return dual_feasible(s, chk, 1.0);
}

int slp_pdhg_gap_small(const slp_pdhg_t *s, const slp_check_scalars_t *chk)
{
    return gap_small(s, chk, 1.0);
}

int slp_pdhg_is_optimal_scaled(const slp_pdhg_t *s, const slp_check_scalars_t *chk, double scale)
{
    return primal_feasible(s, chk, scale) && dual_feasible(s, chk, scale) &&
           gap_small(s, chk, scale);
}

int slp_pdhg_is_optimal(const slp_pdhg_t *s, const slp_check_scalars_t *chk)
{
    return slp_pdhg_is_optimal_scaled(s, chk, 1.0);
}

/* A ray objective that is only the rounding left of cancelling terms proves nothing
 * (a feasible LP once showed a "Farkas ray" with objective 1e-17 of its terms' size and
 * no violation): it must exceed this fraction (64 ulps) of the sum of its terms'
 * magnitudes. Genuine certificates can cancel heavily (5e-13 of the size on
 * tests/data/statuses/fixed-cancel-infeasible.mps), so the floor stays at rounding level. */
#define SLP_RAY_SIGNIFICANCE (64.0 * DBL_EPSILON)

int slp_pdhg_primal_infeasible(const slp_pdhg_t *s, const slp_check_scalars_t *chk)
{
    return chk->dual_ray_obj > SLP_RAY_SIGNIFICANCE * chk->dual_ray_size &&
           chk->dual_ray_obj > 0.0 && chk->dual_ray_infeas / chk->dual_ray_obj <= s->set->eps_infeas;
}

int slp_pdhg_dual_infeasible(const slp_pdhg_t *s, const slp_check_scalars_t *chk)
{
    return -chk->primal_ray_obj > SLP_RAY_SIGNIFICANCE * chk->primal_ray_size &&
           chk->primal_ray_obj < 0.0 &&
           chk->primal_ray_infeas / -chk->primal_ray_obj <= s->set->eps_infeas;
}

int slp_pdhg_all_finite(const slp_check_scalars_t *chk)
{
    return isfinite(chk->fpe) && isfinite(chk->rp) && isfinite(chk->rd) && isfinite(chk->pobj) &&
           isfinite(chk->dobj);
}
