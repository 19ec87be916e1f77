"""Pyomo plugin: ``SolverFactory('shardlp')`` runs the shardlp binary as a shell
solver (Pyomo 6 has no shell interface to the HiGHS command line to reuse: its
HiGHS interfaces call the highspy extension).

    import shardlp.pyomo_plugin          # registers 'shardlp' with SolverFactory
    opt = pyomo.environ.SolverFactory('shardlp', executable='build/shardlp')
    opt.options['tol'] = 1e-8            # any `shardlp solve --NAME VALUE` option
    results = opt.solve(model, timelimit=60)

The model is written as free MPS (objective sense included), solved with
``shardlp MODEL.mps --solution_file F``, and the HiGHS-style solution file is read
back: variable values, and with ``model.dual = Suffix(direction=Suffix.IMPORT)`` /
``model.rc = ...`` the row duals and reduced costs (HiGHS's sign convention).
The executable is `executable=`, else $SHARDLP_BIN, else the program an installed
wheel carries, else `shardlp` on the PATH.
"""
import os
import re
import shutil

from pyomo.common.collections import Bunch
from pyomo.common.tempfiles import TempfileManager
from pyomo.opt import (
    ProblemFormat,
    ResultsFormat,
    SolutionStatus,
    SolverFactory,
    SolverResults,
    SolverStatus,
    TerminationCondition,
)
from pyomo.opt.solver import SystemCallSolver

from shardlp._cli import bundled_program

_TERMINATION = {
    "Optimal": (TerminationCondition.optimal, SolutionStatus.optimal),
    "Infeasible": (TerminationCondition.infeasible, SolutionStatus.infeasible),
    "Unbounded": (TerminationCondition.unbounded, SolutionStatus.unbounded),
    "Primal infeasible or unbounded": (TerminationCondition.infeasibleOrUnbounded,
                                       SolutionStatus.unsure),
    "Time limit reached": (TerminationCondition.maxTimeLimit, SolutionStatus.stoppedByLimit),
    "Iteration limit reached": (TerminationCondition.maxIterations,
                                SolutionStatus.stoppedByLimit),
}


def read_highs_solution(path):
    """Parse a HiGHS raw-style solution file (docs/solution-format.md) into
    (model_status, objective, primal_cols, primal_rows, dual_cols, dual_rows); the
    last four are {name: value} dicts (empty when the part is None)."""
    with open(path) as f:
        lines = [ln.rstrip("\n") for ln in f]
    status = lines[1].strip() if len(lines) > 1 else "Unknown"
    objective = None
    parts = {"primal": ({}, {}), "dual": ({}, {})}
    part, target, left = None, None, 0
    for ln in lines[2:]:
        if left > 0:
            name, value = ln.split()
            target[name] = float(value)
            left -= 1
            continue
        if ln.startswith("# Primal solution values"):
            part = "primal"
        elif ln.startswith("# Dual solution values"):
            part = "dual"
        elif ln.startswith("# Basis"):
            part = None
        elif ln.startswith("Objective ") and part == "primal":
            objective = float(ln.split()[1])
        elif part and (ln.startswith("# Columns") or ln.startswith("# Rows")):
            target = parts[part][0 if "Columns" in ln else 1]
            left = int(ln.split()[2])
    return status, objective, parts["primal"][0], parts["primal"][1], parts["dual"][0], \
        parts["dual"][1]


@SolverFactory.register("shardlp", doc="shardlp: distributed first-order LP solver (shell)")
class ShardlpShell(SystemCallSolver):
    """Shell interface to the shardlp binary (LP only)."""

    def __init__(self, **kwds):
        kwds["type"] = "shardlp"
        SystemCallSolver.__init__(self, **kwds)
        self._valid_problem_formats = [ProblemFormat.mps]
        self._valid_result_formats = {ProblemFormat.mps: [ResultsFormat.soln]}
        self.set_problem_format(ProblemFormat.mps)
        self._capabilities = Bunch()
        self._capabilities.linear = True
        self._capabilities.integer = False

    def _default_results_format(self, prob_format):
        return ResultsFormat.soln

    def _default_executable(self):
        path = (os.environ.get("SHARDLP_BIN") or bundled_program()
                or shutil.which("shardlp"))
        if not path:
            self.enable = False
            return None
        return path

    def _get_version(self):
        return (0, 1, 0)

    # Pyomo kills the process 1 s after `timelimit`; shardlp's --time-limit counts the
    # solve, not reading the model and writing the solution, so the kill would come
    # before the solution file of a run that stopped at its limit. The safety net is
    # moved out by this grace period (docs/modelling-tools.md).
    KILL_GRACE_S = 60.0

    def _execute_command(self, command):
        limit = self._timelimit
        if limit is not None and limit > 0:
            self._timelimit = limit + self.KILL_GRACE_S + 0.1 * limit
        try:
            return SystemCallSolver._execute_command(self, command)
        finally:
            self._timelimit = limit

    def create_command_line(self, executable, problem_files):
        if self._log_file is None:
            self._log_file = TempfileManager.create_tempfile(suffix=".shardlp.log")
        self._soln_file = TempfileManager.create_tempfile(suffix=".shardlp.sol")
        cmd = [executable, "solve", problem_files[0], "--solution_file", self._soln_file]
        for key, value in self.options.items():
            key = key if key.startswith("-") else "--" + key.replace("_", "-")
            if value is None or (isinstance(value, str) and not value.strip()):
                cmd.append(key)
            else:
                cmd.extend([key, str(value)])
        if self._timelimit is not None and self._timelimit > 0:
            cmd.extend(["--time-limit", str(self._timelimit)])
        return Bunch(cmd=cmd, log_file=self._log_file, env=None)

    def process_logfile(self):
        results = SolverResults()
        results.solver.name = "shardlp"
        results.solver.termination_condition = TerminationCondition.unknown
        text = self._log if isinstance(getattr(self, "_log", None), str) else ""
        m = re.search(r"Model status\s*:\s*(.+)", text)
        if m:
            tc = _TERMINATION.get(m.group(1).strip(), (TerminationCondition.other, None))[0]
            results.solver.termination_condition = tc
        return results

    def process_soln_file(self, results):
        if not os.path.exists(self._soln_file):
            return
        status, objective, pcols, prows, dcols, drows = read_highs_solution(self._soln_file)
        tc, sol_status = _TERMINATION.get(status, (TerminationCondition.other,
                                                   SolutionStatus.other))
        results.solver.termination_condition = tc
        if tc == TerminationCondition.optimal:
            results.solver.status = SolverStatus.ok
        elif tc in (TerminationCondition.maxTimeLimit, TerminationCondition.maxIterations):
            results.solver.status = SolverStatus.aborted
        else:
            results.solver.status = SolverStatus.warning
        if not pcols:
            return
        want_duals = any(re.match(s, "dual") for s in self._suffixes)
        want_rc = any(re.match(s, "rc") for s in self._suffixes)
        soln = results.solution.add()
        soln.status = sol_status
        if objective is not None:
            soln.objective["__default_objective__"] = {"Value": objective}
            if tc == TerminationCondition.optimal:
                results.problem.lower_bound = results.problem.upper_bound = objective
        for name, value in pcols.items():
            if name == "ONE_VAR_CONSTANT":
                continue
            entry = {"Value": value}
            if want_rc and name in dcols:
                entry["Rc"] = dcols[name]
            soln.variable[name] = entry
        if want_duals:
            ranged = {}
            for name, y in drows.items():
                if name.endswith("ONE_VAR_CONSTANT"):
                    continue
                if name.startswith("r_l_") or name.startswith("r_u_"):
                    # a ranged constraint is written as two rows: report the active one
                    key = "r_l_" + name[4:]
                    if abs(y) >= abs(ranged.get(key, 0.0)):
                        ranged[key] = y
                else:
                    soln.constraint[name] = {"Dual": y}
            for key, y in ranged.items():
                soln.constraint[key] = {"Dual": y}
