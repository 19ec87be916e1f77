"""shardlp.Solver, the session (docs/session.md): 20 changes of costs and bounds of one LP
through one session, each optimum compared with HiGHS's on the same LP (scipy's linprog,
method "highs"); a batch of LPs sharing A, checked the same way; warm and cold starts;
updates refused as a new model's data would be; a session from an MPS path; callbacks."""
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog

import shardlp


def random_lp(seed, m=40, n=60, density=0.15):
    """A feasible, bounded LP: random sparse A, box bounds [0, u], rows two-sided around
    A x* for a random x* inside the box."""
    rng = np.random.default_rng(seed)
    A = sp.random(m, n, density=density, random_state=rng, format="csc")
    A.data = rng.uniform(-1.0, 1.0, A.nnz)
    u = rng.uniform(1.0, 3.0, n)
    x_star = rng.uniform(0.2, 0.8, n) * u
    ax = A @ x_star
    lc = ax - rng.uniform(0.0, 0.5, m)
    uc = ax + rng.uniform(0.0, 0.5, m)
    c = rng.normal(size=n)
    return c, A, lc, uc, np.zeros(n), u


def highs_optimum(c, A, lc, uc, lv, uv):
    A_ub = sp.vstack([A, -A]).tocsc()
    b_ub = np.concatenate([uc, -lc])
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, bounds=list(zip(lv, uv)), method="highs")
    assert res.status == 0, res.message
    return res.fun


def perturbed(rng, c, lc, uc, uv, scale):
    """Costs and bounds moved by a relative `scale` (the rows stay around the same x*)."""
    c2 = c * (1.0 + scale * rng.uniform(-1, 1, c.size))
    widen = scale * rng.uniform(0, 1, lc.size)
    uv2 = uv * (1.0 + scale * rng.uniform(-0.5, 0.5, uv.size))
    return c2, lc - widen, uc + widen, uv2


def close(a, b, tol=1e-5):
    return abs(a - b) <= tol * max(1.0, abs(b))


def test_twenty_changes_match_highs():
    c, A, lc, uc, lv, uv = random_lp(1)
    rng = np.random.default_rng(7)
    model = shardlp.Model(c, A, lc, uc, lv, uv)
    warm_its = cold_its = 0
    with shardlp.Solver(model, tol=1e-8, threads=1) as s:
        first = s.solve()
        assert first.optimal and close(first.objective, highs_optimum(c, A, lc, uc, lv, uv))
        for k in range(20):
            c2, lc2, uc2, uv2 = perturbed(rng, c, lc, uc, uv, 0.05)
            s.update(c=c2, uv=uv2, lc=lc2, uc=uc2)
            ref = highs_optimum(c2, A, lc2, uc2, lv, uv2)
            warm = s.solve()
            cold = s.solve(warm=False)
            assert warm.optimal and warm.warm_started, (k, warm)
            assert cold.optimal and not cold.warm_started, (k, cold)
            assert close(warm.objective, ref), (k, warm.objective, ref)
            assert close(cold.objective, ref), (k, cold.objective, ref)
            assert np.all(warm.x >= lv - 1e-6) and np.all(warm.x <= uv2 + 1e-6)
            warm_its += warm.iterations
            cold_its += cold.iterations
    print(f"20 changes: warm {warm_its} iterations, cold {cold_its}")


def test_batch_of_lps_sharing_A():
    c, A, lc, uc, lv, uv = random_lp(2, m=30, n=45)
    rng = np.random.default_rng(11)
    batch = []
    for _ in range(10):
        c2, lc2, uc2, uv2 = perturbed(rng, c, lc, uc, uv, 0.02)
        batch.append({"c": c2, "lc": lc2, "uc": uc2, "uv": uv2})
    with shardlp.Solver(shardlp.Model(c, A, lc, uc, lv, uv), tol=1e-7, threads=1) as s:
        results = s.solve_batch(batch)
    assert len(results) == len(batch)
    for k, (lp, res) in enumerate(zip(batch, results)):
        ref = highs_optimum(lp["c"], A, lp["lc"], lp["uc"], lv, lp["uv"])
        assert res.optimal and close(res.objective, ref), (k, res.objective, ref)
        assert res.warm_started == (k > 0)


def test_refused_updates_change_nothing():
    c, A, lc, uc, lv, uv = random_lp(3)
    ref = highs_optimum(c, A, lc, uc, lv, uv)
    s = shardlp.Solver(shardlp.Model(c, A, lc, uc, lv, uv), tol=1e-8, threads=1)
    bad_c = c.copy()
    bad_c[4] = np.inf
    with pytest.raises(ValueError, match=r"c\[4\]"):
        s.update(c=bad_c)
    with pytest.raises(ValueError, match="length"):
        s.update(uv=np.ones(3))
    upper = uv.copy()
    upper[6] = -1.0  # below its lower bound 0
    with pytest.raises(shardlp.InputError, match="column 6"):
        s.update(uv=upper)
    with pytest.raises(ValueError, match="unknown keys"):
        s.solve_batch([{"cost": c}])
    res = s.solve()
    assert res.optimal and close(res.objective, ref)
    s.close()
    with pytest.raises(ValueError, match="closed"):
        s.solve()
    s.close()  # twice is harmless


def test_session_from_path_and_maximisation(shared):
    with shardlp.Solver(shared / "lp" / "netlib" / "afiro.mps.gz", tol=1e-8) as s:
        assert (s.m, s.n) == (27, 32)
        assert close(s.solve().objective, -464.7531428571, 1e-6)
    # a maximisation: updates and results in the model's sense
    c, A, lc, uc, lv, uv = random_lp(4)
    with shardlp.Solver(shardlp.Model(c, A, lc, uc, lv, uv, sense="max"), tol=1e-8) as s:
        assert close(s.solve().objective, -highs_optimum(-c, A, lc, uc, lv, uv))
        s.update(c=2.0 * c)
        assert close(s.solve().objective, -2.0 * highs_optimum(-c, A, lc, uc, lv, uv))


def test_callback_stops_a_session_solve():
    c, A, lc, uc, lv, uv = random_lp(5)
    seen = []
    with shardlp.Solver(shardlp.Model(c, A, lc, uc, lv, uv), tol=1e-12, iter_limit=100000) as s:
        res = s.solve(callback=lambda info: seen.append(info["iteration"]) or len(seen) >= 2)
        assert res.status == "interrupted" and len(seen) == 2
        res = s.solve()  # the next solve runs without that callback
        assert res.status != "interrupted" and len(seen) == 2


SESSION_MPI_SCRIPT = """
import sys
import numpy as np
from mpi4py import MPI
import shardlp
grid = tuple(int(v) for v in sys.argv[2].split("x"))
lines = []
with shardlp.Solver(sys.argv[1], tol=1e-9, comm=MPI.COMM_WORLD, grid=grid, threads=1) as s:
    for scale in (1.0, 0.1, 0.05):  # afiro as read, then every column <= 500, then <= 50
        res = s.solve()
        lines.append(f"{res.objective!r} {res.iterations} {res.status} {res.grid[0]}x{res.grid[1]}")
        s.update(uv=np.full(s.n, 500.0 * scale))  # every rank passes it; rank 0's is used
with open(f"{sys.argv[3]}.{MPI.COMM_WORLD.rank}", "w") as f:
    f.write("\\n".join(lines))
"""


def test_session_under_mpi4py_matches_one_rank(repo, tmp_path, mpirun):
    script = tmp_path / "session_mpi.py"
    script.write_text(SESSION_MPI_SCRIPT)
    model = str(repo / "examples" / "data" / "afiro.mps")
    runs = {}
    for np_, grid in ((1, "1x1"), (4, "2x2")):
        prefix = tmp_path / f"out-{grid}"
        out = subprocess.run(mpirun + ["-np", str(np_), sys.executable, str(script), model, grid,
                                       str(prefix)], capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        runs[grid] = [open(f"{prefix}.{r}").read().splitlines() for r in range(np_)]
    one = [line.split() for line in runs["1x1"][0]]
    for rank_lines in runs["2x2"]:
        for (obj, its, status, grid), (obj1, its1, _, _) in zip(
                (line.split() for line in rank_lines), one):
            assert status == "optimal" and grid == "2x2"
            assert abs(float(obj) - float(obj1)) <= 1e-8 * abs(float(obj1)), runs
    assert abs(float(one[0][0]) + 464.7531428571) < 1e-6
