"""cvxpy solver interface (docs/modelling-tools.md): LPs written in cvxpy solved by shardlp,
primal values and duals included.

    import cvxpy as cp
    from shardlp.cvxpy import SHARDLP
    prob.solve(solver=SHARDLP(), tol=1e-8)       # any keyword of shardlp.Model.solve
                                                 # (tol defaults to shardlp.TOOL_TOL)

cvxpy hands over the problem in conic form, minimize c^T x subject to b - A x in K with
K the zero cone (equalities) times the nonnegative orthant (inequalities A x <= b); shardlp
solves lc <= A x <= uc with free variables. cvxpy's dual of a cone constraint is minus
shardlp's row dual (shardlp uses HiGHS's sign convention)."""
import numpy as np

import cvxpy.settings as s
from cvxpy.reductions.solution import Solution, failure_solution
from cvxpy.reductions.solvers import utilities
from cvxpy.reductions.solvers.conic_solvers.conic_solver import ConicSolver, dims_to_solver_dict

import shardlp


class SHARDLP(ConicSolver):
    """shardlp for cvxpy: LPs only (zero and nonnegative cones)."""

    MIP_CAPABLE = False
    SUPPORTED_CONSTRAINTS = ConicSolver.SUPPORTED_CONSTRAINTS
    STATUS_MAP = {
        "optimal": s.OPTIMAL,
        "primal_infeasible": s.INFEASIBLE,
        "dual_infeasible": s.UNBOUNDED,
        "infeasible_or_unbounded": s.INFEASIBLE_OR_UNBOUNDED,
        "time_limit": s.USER_LIMIT,
        "iteration_limit": s.USER_LIMIT,
        "interrupted": s.USER_LIMIT,
        "numerical_error": s.SOLVER_ERROR,
    }

    def name(self):
        return "SHARDLP"

    def cite(self, data):
        return "shardlp: a distributed first-order LP solver (restarted reflected-Halpern PDHG)."

    def import_solver(self):
        import shardlp  # noqa: F401  (the library is loaded at the first solve)

    def solve_via_data(self, data, warm_start, verbose, solver_opts, solver_cache=None):
        dims = dims_to_solver_dict(data[s.DIMS])
        A = data[s.A].tocsc()
        b = np.asarray(data[s.B], dtype=float)
        n_eq, n_leq = dims[s.EQ_DIM], dims[s.LEQ_DIM]
        lc = np.concatenate([b[:n_eq], np.full(n_leq, -np.inf)])
        n = A.shape[1]
        model = shardlp.Model(c=np.asarray(data[s.C], dtype=float), A=A, lc=lc, uc=b,
                              lv=np.full(n, -np.inf), uv=np.full(n, np.inf))
        options = dict(solver_opts)
        options.setdefault("tol", shardlp.TOOL_TOL)
        return {"result": model.solve(verbose=verbose, **options)}

    def invert(self, results, inverse_data):
        res = results["result"]
        status = self.STATUS_MAP.get(res.status, s.SOLVER_ERROR)
        attr = {s.SOLVE_TIME: res.times["total"], s.NUM_ITERS: res.iterations}
        if status not in s.SOLUTION_PRESENT:
            return failure_solution(status, attr)
        primal = {inverse_data[self.VAR_ID]: res.x}
        duals = utilities.get_dual_values(
            -np.asarray(res.y), utilities.extract_dual_value,
            inverse_data[self.EQ_CONSTR] + inverse_data[self.NEQ_CONSTR])
        return Solution(status, res.objective + inverse_data[s.OFFSET], primal, duals, attr)
