"""linopy route (docs/modelling-tools.md): `shardlp.linopy.solve(model, **options)` writes
the linopy model as an LP file, solves it with shardlp (any keyword of
shardlp.Model.solve; tol defaults to shardlp.TOOL_TOL, as on every modelling-tool
route), and writes the solution back onto the model by name: variable
values (`model.variables[...].solution`), constraint duals (`model.constraints[...].dual`,
in HiGHS's sign convention, as linopy reports HiGHS's), `model.objective.value`,
`model.status` and `model.termination_condition`. Returns (status, termination_condition)
like linopy's own `Model.solve`."""
import os
import re
import tempfile

import numpy as np

from linopy.constants import Result, Solution, Status

import shardlp

# shardlp status -> linopy (solver status, termination condition)
_STATUS = {
    "optimal": ("ok", "optimal"),
    "primal_infeasible": ("warning", "infeasible"),
    "dual_infeasible": ("warning", "unbounded"),
    "infeasible_or_unbounded": ("warning", "infeasible_or_unbounded"),
    "time_limit": ("warning", "time_limit"),
    "iteration_limit": ("warning", "iteration_limit"),
    "interrupted": ("warning", "user_interrupt"),
    "numerical_error": ("error", "internal_solver_error"),
}
_LABEL = re.compile(r"^[xc](\d+)$")


def _by_label(names, values, size, prefix):
    """Values placed at their linopy labels (names x<label> / c<label>), NaN elsewhere."""
    out = np.full(size, np.nan)
    for name, value in zip(names, values):
        m = _LABEL.match(name)
        if m and name[0] == prefix and int(m.group(1)) < size:
            out[int(m.group(1))] = value
    return out


def solve(model, **options):
    """Solve a linopy Model with shardlp; see the module's description."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.lp")
        model.to_file(path)
        lp = shardlp.read(path)
        res = lp.solve(**{"tol": shardlp.TOOL_TOL, **options})
        col_names, row_names = lp.col_names, lp.row_names
    status, condition = _STATUS.get(res.status, ("unknown", "unknown"))
    n_vars = int(model._xCounter) if hasattr(model, "_xCounter") else len(res.x)
    n_cons = int(model._cCounter) if hasattr(model, "_cCounter") else len(res.y)
    solution = Solution(primal=_by_label(col_names, res.x, n_vars, "x"),
                        dual=_by_label(row_names, res.y, n_cons, "c"),
                        objective=res.objective)
    result = Result(status=Status.process(status, condition), solution=solution,
                    solver_name="shardlp")
    return model.assign_result(result)
