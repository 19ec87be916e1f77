#!/usr/bin/env python3
"""One function per solver: (mps path, tol, time limit, threads) -> dict.

Every function returns a dict with at least
    status      'optimal' | 'time_limit' | 'iteration_limit' | 'infeasible' | 'unknown' | 'error'
    objective   primal objective in the user's sense (float or None)
    seconds     solve time, excluding reading the model file (see README)
    iterations  solver iterations (PDHG iterations, simplex pivots, IPM steps)
and optionally 'trace': a list of (seconds, rel_kkt) pairs for convergence plots,
'native_status' and 'extra'.

Each solver runs in a child process (`python3 solvers.py SOLVER FILE TOL LIMIT THREADS`,
printing one JSON line), so a crash, a hang or a leak in one solver cannot take down the
benchmark, and a hard wall-clock kill backs up every solver's own time limit.

Matched criterion (the cuPDLPx / shardlp form, L2 norms, relative):
    ||A x - proj(A x)||_2        <= tol (1 + ||b||_2)
    ||c - A^T y - z||_2          <= tol (1 + ||c||_2)
    |p - d|                      <= tol (1 + |p| + |d|)
How each solver is set to it is documented in bench/README.md.
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARDLP = os.environ.get("SHARDLP", os.path.join(ROOT, "build", "shardlp"))


def _nan():
    return float("nan")


# --------------------------------------------------------------------------- shardlp
_SLP_LINE = re.compile(
    r"^\s*(\d+)\*?\s+([0-9.]+)s\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)")


def shardlp(path, tol, limit, threads, ranks=1, iter_limit=None, extra_args=()):
    """build/shardlp solve FILE --tol T --time-limit L --threads N --json out.json."""
    with tempfile.TemporaryDirectory() as td:
        js = os.path.join(td, "run.json")
        cmd = [SHARDLP, "solve", path, "--tol", repr(tol), "--time-limit", repr(limit),
               "--threads", str(threads), "--json", js, "--verbose",
               "--relax"]  # integer columns relaxed, as the HiGHS runs below do
        if iter_limit:
            cmd += ["--iter-limit", str(iter_limit)]
        cmd += list(extra_args)
        if ranks > 1:
            # bind to cores only when there are enough of them (OpenMPI refuses to overload)
            bind = "core" if ranks * threads <= (os.cpu_count() or 1) else "none"
            cmd = ["mpirun", "--allow-run-as-root", "--oversubscribe", "--bind-to", bind,
                   "-np", str(ranks)] + cmd
        env = dict(os.environ, OMP_NUM_THREADS=str(threads))
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                           timeout=limit + 120)
        wall = time.perf_counter() - t0
        if p.returncode != 0 or not os.path.exists(js):
            return dict(status="error", objective=None, seconds=wall, iterations=0,
                        native_status=(p.stderr or p.stdout).strip()[-300:])
        d = json.load(open(js))
    trace = []
    for line in p.stdout.splitlines():
        m = _SLP_LINE.match(line)
        if m:
            try:
                rel = max(float(m.group(7)), float(m.group(8)), float(m.group(9)))
                trace.append((float(m.group(2)), rel))
            except ValueError:
                pass
    read = d.get("read_seconds", 0.0) or 0.0
    return dict(status=d["status"], objective=d.get("objective"),
                seconds=d["total_seconds"] - read, iterations=d["iterations"],
                solve_seconds=d["solve_seconds"], native_status=d["status"],
                rel_primal=d.get("rel_primal_residual"), rel_dual=d.get("rel_dual_residual"),
                rel_gap=d.get("rel_gap"), trace=trace,
                extra=dict(rows=d.get("rows"), cols=d.get("cols"), nnz=d.get("nonzeros"),
                           restarts=d.get("restarts"), peak_rss=d.get("peak_rss_bytes")))


# --------------------------------------------------------------------------- HiGHS
def _highs_common(path, limit, threads):
    import highspy
    h = highspy.Highs()
    h.setOptionValue("output_flag", True)
    h.setOptionValue("log_to_console", True)
    st = h.readModel(path)
    if st == highspy.HighsStatus.kError:
        raise RuntimeError("HiGHS could not read " + path)
    lp = h.getLp()
    if len(lp.integrality_):  # LP relaxation: otherwise HiGHS runs its MIP solver
        lp.integrality_ = []
        h.passModel(lp)
    h.setOptionValue("threads", int(threads))
    h.setOptionValue("time_limit", float(limit))
    return h


def _highs_status(h):
    import highspy
    ms = h.getModelStatus()
    return {highspy.HighsModelStatus.kOptimal: "optimal",
            highspy.HighsModelStatus.kTimeLimit: "time_limit",
            highspy.HighsModelStatus.kIterationLimit: "iteration_limit",
            highspy.HighsModelStatus.kInfeasible: "infeasible",
            highspy.HighsModelStatus.kUnboundedOrInfeasible: "infeasible",
            highspy.HighsModelStatus.kUnbounded: "unbounded"}.get(ms, "unknown")


def _highs_first_order(path, tol, limit, threads, solver):
    h = _highs_common(path, limit, threads)
    h.setOptionValue("solver", solver)
    for k in ("primal_feasibility_tolerance", "dual_feasibility_tolerance",
              "pdlp_optimality_tolerance", "kkt_tolerance"):
        h.setOptionValue(k, max(float(tol), 1e-10))
    t0 = time.perf_counter()
    h.run()
    sec = time.perf_counter() - t0
    info = h.getInfo()
    return dict(status=_highs_status(h), objective=info.objective_function_value,
                seconds=sec, iterations=info.pdlp_iteration_count)


def highs_pdlp(path, tol, limit, threads):
    """HiGHS's cuPDLP-C (solver=pdlp). Its native termination is cuPDLP-C's relative L2
    test with D_PRIMAL_TOL = primal_feasibility_tolerance, D_DUAL_TOL =
    dual_feasibility_tolerance, D_GAP_TOL = pdlp_optimality_tolerance; we set all three
    (and kkt_tolerance, which HiGHS's post-solve KKT check uses) to tol."""
    return _highs_first_order(path, tol, limit, threads, "pdlp")


def highs_hipdlp(path, tol, limit, threads):
    """HiGHS's own Halpern PDLP (solver=hipdlp, HiGHS 1.16), with the same tolerance
    options as highs_pdlp."""
    return _highs_first_order(path, tol, limit, threads, "hipdlp")


def highs_simplex(path, tol, limit, threads):
    h = _highs_common(path, limit, threads)
    h.setOptionValue("solver", "simplex")
    t0 = time.perf_counter()
    h.run()
    sec = time.perf_counter() - t0
    info = h.getInfo()
    return dict(status=_highs_status(h), objective=info.objective_function_value,
                seconds=sec, iterations=info.simplex_iteration_count)


def highs_ipm(path, tol, limit, threads):
    h = _highs_common(path, limit, threads)
    h.setOptionValue("solver", "ipm")
    t0 = time.perf_counter()
    h.run()
    sec = time.perf_counter() - t0
    info = h.getInfo()
    return dict(status=_highs_status(h), objective=info.objective_function_value,
                seconds=sec, iterations=info.ipm_iteration_count)


# --------------------------------------------------------------------------- OR-Tools
def _bnorms(path):
    """cuPDLPx norms of the original problem: ||b||_2 over finite row bounds (an equality
    row counts once, variable bounds excluded) and ||c||_2; used only to turn OR-Tools'
    absolute L2 residuals into the relative form for the convergence trace."""
    import highspy
    import numpy as np
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(path)
    lp = h.getLp()
    lo = np.array(lp.row_lower_)
    up = np.array(lp.row_upper_)
    inf = 1e20
    b2 = np.sum(np.where(np.isfinite(lo) & (np.abs(lo) < inf) & (lo != up), lo, 0.0) ** 2)
    b2 += np.sum(np.where(np.isfinite(up) & (np.abs(up) < inf), up, 0.0) ** 2)
    c2 = float(np.sum(np.array(lp.col_cost_) ** 2))
    return math.sqrt(b2), math.sqrt(c2)


def ortools_pdlp(path, tol, limit, threads, trace=True):
    """OR-Tools PDLP with simple_optimality_criteria eps_optimal_absolute =
    eps_optimal_relative = tol and the L2 optimality norm: ||r_p||_2 <= tol + tol*||b||_2
    = tol (1 + ||b||_2), ditto dual, |p - d| <= tol + tol (|p| + |d|)."""
    from ortools.pdlp import solve_log_pb2, solvers_pb2
    from ortools.pdlp.python import pdlp
    qp = pdlp.read_quadratic_program_or_die(path, False)
    params = solvers_pb2.PrimalDualHybridGradientParams()
    tc = params.termination_criteria
    tc.simple_optimality_criteria.eps_optimal_absolute = tol
    tc.simple_optimality_criteria.eps_optimal_relative = tol
    tc.optimality_norm = solvers_pb2.OPTIMALITY_NORM_L2
    tc.time_sec_limit = float(limit)
    params.num_threads = int(threads)
    params.record_iteration_stats = bool(trace)
    params.verbosity_level = 0
    t0 = time.perf_counter()
    res = pdlp.primal_dual_hybrid_gradient(qp, params)
    sec = time.perf_counter() - t0
    log = res.solve_log
    tr = log.termination_reason
    status = {solve_log_pb2.TERMINATION_REASON_OPTIMAL: "optimal",
              solve_log_pb2.TERMINATION_REASON_TIME_LIMIT: "time_limit",
              solve_log_pb2.TERMINATION_REASON_ITERATION_LIMIT: "iteration_limit",
              solve_log_pb2.TERMINATION_REASON_PRIMAL_INFEASIBLE: "infeasible",
              solve_log_pb2.TERMINATION_REASON_DUAL_INFEASIBLE: "dual_infeasible",
              solve_log_pb2.TERMINATION_REASON_NUMERICAL_ERROR: "numerical_error",
              }.get(tr, "unknown")
    obj = None
    ci = list(log.solution_stats.convergence_information)
    pick = [c for c in ci if c.candidate_type == log.solution_type] or ci
    if pick:
        obj = pick[0].primal_objective
    out = dict(status=status, objective=obj, seconds=sec, iterations=log.iteration_count,
               native_status=solve_log_pb2.TerminationReason.Name(tr))
    if trace and log.iteration_stats:
        nb, nc = _bnorms(path)
        pts = []
        for it in log.iteration_stats:
            best = None
            for c in it.convergence_information:
                rel = max(c.l2_primal_residual / (1 + nb), c.l2_dual_residual / (1 + nc),
                          abs(c.primal_objective - c.dual_objective)
                          / (1 + abs(c.primal_objective) + abs(c.dual_objective)))
                best = rel if best is None else min(best, rel)
            if best is not None:
                pts.append((it.cumulative_time_sec, best))
        out["trace"] = pts
    return out


# --------------------------------------------------------------------------- Clp / GLPK
def _run_cli(cmd, limit):
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + 30)
        out = p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        out += "\n__KILLED__"
    return time.perf_counter() - t0, out


def clp(path, tol, limit, threads, method="-dualsimplex"):
    """Clp's command line (exact method; its own absolute 1e-7 tolerances, not tol)."""
    sec, out = _run_cli(["clp", path, "-sec", str(int(math.ceil(limit))), method, "-quit"],
                        limit)
    status, obj, iters = "unknown", None, 0
    m = re.search(r"Optimal objective\s+(\S+)\s+-\s+(\d+)\s+iterations\s+time\s+([0-9.]+)", out)
    if m:
        status, obj, iters = "optimal", float(m.group(1)), int(m.group(2))
    elif re.search(r"Stopped|__KILLED__", out):
        status = "time_limit"
    elif re.search(r"infeasible", out, re.I):
        status = "infeasible"
    mt = re.search(r"Total time \(CPU seconds\):\s+([0-9.]+)\s+\(Wallclock seconds\):\s+([0-9.]+)",
                   out)
    if m and m.group(3):
        sec = float(m.group(3))
    elif mt:
        sec = float(mt.group(2))
    mi = re.search(r"(\d+) iterations", out)
    if not iters and mi:
        iters = int(mi.group(1))
    return dict(status=status, objective=obj, seconds=sec, iterations=iters)


def clp_barrier(path, tol, limit, threads):
    return clp(path, tol, limit, threads, method="-barrier")


def glpk(path, tol, limit, threads):
    with tempfile.TemporaryDirectory() as td:
        mps = path
        if path.endswith(".gz"):
            mps = os.path.join(td, "m.mps")
            subprocess.run("gzip -dc '%s' > '%s'" % (path, mps), shell=True, check=True)
        sec, out = _run_cli(["glpsol", "--freemps", mps, "--nomip", "--tmlim",
                             str(int(math.ceil(limit)))], limit)
    status, obj, iters = "unknown", None, 0
    if "OPTIMAL LP SOLUTION FOUND" in out:
        status = "optimal"
    elif "TIME LIMIT EXCEEDED" in out or "__KILLED__" in out:
        status = "time_limit"
    elif "INFEASIBLE" in out or "NO PRIMAL FEASIBLE" in out:
        status = "infeasible"
    its = re.findall(r"^\*?\s*(\d+): obj =\s+(\S+)", out, re.M)
    if its:
        iters = int(its[-1][0])
        try:
            obj = float(its[-1][1])
        except ValueError:
            pass
    return dict(status=status, objective=obj if status == "optimal" else obj, seconds=sec,
                iterations=iters)


SOLVERS = {
    "shardlp": shardlp,
    "highs-pdlp": highs_pdlp,
    "highs-hipdlp": highs_hipdlp,
    "ortools-pdlp": ortools_pdlp,
    "clp": clp,
    "clp-barrier": clp_barrier,
    "highs-simplex": highs_simplex,
    "highs-ipm": highs_ipm,
    "glpk": glpk,
}
PDLP_SOLVERS = ("shardlp", "highs-pdlp", "highs-hipdlp", "ortools-pdlp")


def versions():
    v = {}
    try:
        import highspy
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        v["highs"] = "%d.%d.%d" % (h.versionMajor(), h.versionMinor(), h.versionPatch())
    except Exception as e:  # noqa: BLE001
        v["highs"] = "unavailable (%s)" % e
    try:
        import ortools
        v["ortools"] = ortools.__version__
    except Exception as e:  # noqa: BLE001
        v["ortools"] = "unavailable (%s)" % e
    for name, cmd in (("clp", "dpkg-query -W -f='${Version}' coinor-clp"),
                      ("glpk", "dpkg-query -W -f='${Version}' glpk-utils"),
                      ("gcc", "gcc -dumpfullversion"),
                      ("openmpi", "dpkg-query -W -f='${Version}' openmpi-bin")):
        try:
            v[name] = subprocess.run(cmd, shell=True, capture_output=True,
                                     text=True).stdout.strip() or "unavailable"
        except Exception:  # noqa: BLE001
            v[name] = "unavailable"
    try:
        v["shardlp"] = subprocess.run([SHARDLP, "--version"], capture_output=True,
                                      text=True).stdout.strip().splitlines()[0]
    except Exception:  # noqa: BLE001
        v["shardlp"] = "unavailable"
    return v


def run_isolated(solver, path, tol, limit, threads, hard_extra=60.0):
    """Run SOLVERS[solver] in a child process; returns its dict (status 'error' on crash,
    'time_limit' on a hard kill). Captured stdout noise from C libraries is discarded."""
    cmd = [sys.executable, os.path.abspath(__file__), solver, path, repr(tol), repr(limit),
           str(threads)]
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + hard_extra,
                           env=env)
    except subprocess.TimeoutExpired:
        return dict(status="time_limit", objective=None, seconds=time.perf_counter() - t0,
                    iterations=0, native_status="killed by the harness")
    for line in reversed(p.stdout.splitlines()):
        if line.startswith("@@RESULT "):
            return json.loads(line[9:])
    return dict(status="error", objective=None, seconds=time.perf_counter() - t0,
                iterations=0, native_status=(p.stderr or p.stdout).strip()[-300:])


def main():
    if len(sys.argv) != 6:
        print("usage: solvers.py SOLVER FILE TOL LIMIT THREADS  (solvers: %s)"
              % ", ".join(SOLVERS), file=sys.stderr)
        return 2
    name, path, tol, limit, threads = sys.argv[1:]
    try:
        r = SOLVERS[name](path, float(tol), float(limit), int(threads))
    except Exception as e:  # noqa: BLE001
        r = dict(status="error", objective=None, seconds=_nan(), iterations=0,
                 native_status="%s: %s" % (type(e).__name__, e))
    sys.stdout.flush()
    print("@@RESULT " + json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
