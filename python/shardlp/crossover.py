"""A vertex (basic) solution from a shardlp solution: HiGHS's crossover started at the
first-order point (docs/session.md, "Vertex solutions"). The model must fit one process:
it is written once as an MPS file that HiGHS (highspy) reads."""
from __future__ import annotations

import os
import tempfile
import time
import numpy as np

from ._lib import check, lib


class Vertex:
    """What crossover returned: `status` ("optimal" when HiGHS's crossover ended with
    an optimal basis, else HiGHS's model status in lower case), `x`, `y`,
    `reduced_costs`, `row_activity`, `objective` (the model's sense, HiGHS's sign
    convention as Result's), `col_basis` / `row_basis` (HiGHS's basis statuses: "basic",
    "lower", "upper", "zero", "nonbasic"), `basic` (how many are basic: m for a basis),
    `seconds` (crossover and clean-up), `cleanup_iterations` (simplex iterations from
    the crossover's basis where it was not yet optimal, else 0)."""

    def __init__(self, h, seconds):
        import highspy
        sol, basis, info = h.getSolution(), h.getBasis(), h.getInfo()
        status = h.getModelStatus()
        self.status = ("optimal" if status == highspy.HighsModelStatus.kOptimal
                       else h.modelStatusToString(status).lower())
        self.x = np.array(sol.col_value)
        self.y = np.array(sol.row_dual)
        self.reduced_costs = np.array(sol.col_dual)
        self.row_activity = np.array(sol.row_value)
        self.objective = info.objective_function_value
        name = lambda s: str(s).split(".")[-1].lower().removeprefix("k")
        self.col_basis = [name(s) for s in basis.col_status]
        self.row_basis = [name(s) for s in basis.row_status]
        self.basic = self.col_basis.count("basic") + self.row_basis.count("basic")
        self.valid_basis = bool(basis.valid)
        self.seconds = seconds

    @property
    def optimal(self) -> bool:
        return self.status == "optimal"

    def write_solution(self, path) -> None:
        """The vertex as a HiGHS raw solution file (what `shardlp check` reads)."""
        self._highs.writeSolution(os.fspath(path), 0)

    def __repr__(self):
        return (f"Vertex(status={self.status!r}, objective={self.objective!r}, "
                f"basic={self.basic}, seconds={self.seconds:.3g})")


_highs_started = False


def _start_highs(highspy) -> None:
    """highspy 1.16.0 crashes (SIGSEGV) when crossover is the first solve-like call of
    the process; any run before it, even of an empty model, avoids that (seen 2026-12-05 on
    afiro; python/tests/test_crossover.py runs crossover first in a fresh process). Once per process."""
    global _highs_started
    if not _highs_started:
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        h.run()
        _highs_started = True


def relax(h, highspy) -> None:
    """Integer columns made continuous: shardlp solves a model with integer columns as its
    LP relaxation (relax=True), and the vertex is the relaxation's."""
    n = h.getNumCol()
    if len(h.getLp().integrality_):
        h.changeColsIntegrality(n, np.arange(n, dtype=np.int32),
                                np.full(n, int(highspy.HighsVarType.kContinuous), dtype=np.uint8))


def crossover(model, result) -> Vertex:
    """HiGHS's crossover from `result` (a Result of `model`, in the model's units and
    sense) on `model` (a shardlp.Model). Needs highspy (pip install highspy)."""
    try:
        import highspy
    except ImportError as e:
        raise ImportError("crossover needs highspy (pip install highspy)") from e
    _start_highs(highspy)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.mps")
        check(lib().shardlp_problem_write(model._h, path.encode()), "crossover")
        if h.readModel(path) != highspy.HighsStatus.kOk:
            raise RuntimeError(f"crossover: HiGHS could not read the model written to {path}")
    relax(h, highspy)
    start = highspy.HighsSolution()
    start.col_value = np.asarray(result.x, dtype=float).tolist()
    start.row_value = np.asarray(result.row_activity, dtype=float).tolist()
    start.col_dual = np.asarray(result.reduced_costs, dtype=float).tolist()
    start.row_dual = np.asarray(result.y, dtype=float).tolist()
    start.value_valid = True
    start.dual_valid = True
    t0 = time.perf_counter()
    h.crossover(start)
    # Crossover from a point within the tolerance can end at a basis that is not yet
    # optimal (HiGHS's status "unknown"); the simplex method then finishes from it.
    cleanup = 0
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal and h.getBasis().valid:
        h.run()
        cleanup = max(int(h.getInfo().simplex_iteration_count), 0)
    vertex = Vertex(h, time.perf_counter() - t0)
    vertex.cleanup_iterations = cleanup
    vertex._highs = h
    return vertex
