"""shardlp.Model / shardlp.read against published optima (../shared/lp, Netlib
readme values in INDEX.tsv) and against scipy.optimize.linprog (HiGHS)."""
import csv

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog

import shardlp

# Small Netlib LPs that converge quickly at tol 1e-8 on one process.
NETLIB = ["afiro", "sc50a", "sc50b", "adlittle", "blend", "kb2", "share2b", "sc105"]


def published(shared, name):
    with open(shared / "lp" / "INDEX.tsv") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["name"] == name and row["status"] == "optimal":
                return row["file"], float(row["optimal_objective"])
    pytest.skip(f"{name} not in INDEX.tsv")


@pytest.mark.parametrize("name", NETLIB)
def test_netlib_published_optimum(shared, name):
    rel, optimum = published(shared, name)
    model = shardlp.read(shared / "lp" / rel)
    res = model.solve(tol=1e-8, time_limit=120)
    assert res.status == "optimal", res
    # published values carry 11 significant digits
    assert abs(res.objective - optimum) <= 1e-6 * (1 + abs(optimum)), (res.objective, optimum)
    assert res.x.shape == (model.n,) and res.y.shape == (model.m,)
    assert res.iterations > 0 and res.times["total"] >= res.times["solve"] > 0


def random_lp(seed, m=40, n=60, density=0.2, fmt="csc"):
    """A feasible, bounded LP with equality, inequality and ranged rows."""
    rng = np.random.default_rng(seed)
    A = sp.random(m, n, density=density, random_state=rng, format="coo")
    A.data = rng.uniform(-2, 2, A.nnz)
    xs = rng.uniform(0, 3, n)            # a feasible point
    ax = A @ xs
    kind = rng.integers(0, 4, m)         # 0: <=, 1: >=, 2: ==, 3: ranged
    lc = np.where(kind == 0, -np.inf, ax - rng.uniform(0, 1, m) * (kind != 2))
    uc = np.where(kind == 1, np.inf, ax + rng.uniform(0, 1, m) * (kind != 2))
    lv = np.where(rng.random(n) < 0.1, -np.inf, 0.0)
    uv = np.where(rng.random(n) < 0.5, 5.0, np.inf)
    lv[np.isinf(lv)] = -5.0  # keep bounded in both directions for some columns
    c = rng.normal(size=n)
    uv[c < 0] = np.minimum(uv[c < 0], 6.0)  # bounded objective
    return c, A.asformat(fmt), lc, uc, lv, uv


def linprog_solve(c, A, lc, uc, lv, uv):
    """scipy's HiGHS on the same LP (rows split into <= and ==)."""
    A = sp.csr_matrix(A)
    eq = lc == uc
    ub_rows, ub_rhs = [], []
    fin_u = (~eq) & np.isfinite(uc)
    fin_l = (~eq) & np.isfinite(lc)
    A_ub = sp.vstack([A[fin_u], -A[fin_l]])
    b_ub = np.concatenate([uc[fin_u], -lc[fin_l]])
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A[eq], b_eq=lc[eq],
                  bounds=list(zip(np.where(np.isinf(lv), None, lv), np.where(np.isinf(uv), None, uv))),
                  method="highs")
    assert res.status == 0, res.message
    return res


@pytest.mark.parametrize("fmt", ["csc", "csr", "coo", "lil"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_matches_linprog(seed, fmt):
    c, A, lc, uc, lv, uv = random_lp(seed, fmt=fmt)
    ref = linprog_solve(c, A, lc, uc, lv, uv)
    res = shardlp.Model(c, A, lc, uc, lv, uv).solve(tol=1e-9, time_limit=120)
    assert res.status == "optimal"
    assert abs(res.objective - ref.fun) <= 1e-6 * (1 + abs(ref.fun)), (res.objective, ref.fun)
    ax = sp.csr_matrix(A) @ res.x
    assert np.all(ax >= lc - 1e-6 * (1 + abs(lc))) and np.all(ax <= uc + 1e-6 * (1 + abs(uc)))
    assert np.allclose(res.row_activity, ax, atol=1e-8)
    # reduced costs are c - A^T y (HiGHS convention)
    assert np.allclose(res.reduced_costs, c - sp.csr_matrix(A).T @ res.y, atol=1e-6)


def test_maximize_and_constant_matches_linprog():
    c, A, lc, uc, lv, uv = random_lp(7)
    ref = linprog_solve(-c, A, lc, uc, lv, uv)
    res = shardlp.Model(c, A, lc, uc, lv, uv, c0=2.5, sense="max").solve(tol=1e-9)
    assert res.status == "optimal"
    assert abs(res.objective - (-ref.fun + 2.5)) <= 1e-6 * (1 + abs(ref.fun))


def test_int32_indices_are_not_densified():
    c, A, lc, uc, lv, uv = random_lp(4)
    A = sp.csc_matrix(A)
    assert A.indices.dtype == np.int32
    m = shardlp.Model(c, A, lc, uc, lv, uv)
    assert (m.m, m.n, m.nnz) == (A.shape[0], A.shape[1], A.nnz)


def test_dense_matrix_and_scalar_bounds():
    # min -x - y  s.t. x + 2y <= 4, 3x + y <= 6, 0 <= x, y <= 10: optimum at (1.6, 1.2)
    res = shardlp.Model([-1, -1], np.array([[1, 2], [3, 1]]), uc=[4, 6], uv=10).solve(tol=1e-10)
    assert res.optimal
    assert np.allclose(res.x, [1.6, 1.2], atol=1e-6)
    assert abs(res.objective + 2.8) < 1e-7


def test_duplicates_are_summed():
    A = sp.coo_matrix(([1.0, 1.0, 1.0], ([0, 0, 0], [0, 0, 1])), shape=(1, 2))  # 2x + y
    res = shardlp.Model([-1, -1], A, uc=[4]).solve(tol=1e-10)
    assert res.optimal and abs(res.objective + 4) < 1e-6  # x = 0, y = 4


def test_library_messages_name_options():
    # options named as Python and options files spell them, not as CLI flags
    model = shardlp.Model([1.0], sp.csc_matrix([[1.0]]), lc=[1.0], uc=[2.0])
    with pytest.raises(shardlp.InputError, match="comm_lib = nccl needs backend = cuda"):
        model.solve(comm_lib="nccl")


def test_infeasible_status():
    res = shardlp.Model([1.0], sp.csc_matrix([[1.0]]), lc=[2.0], uc=[3.0], lv=0, uv=1).solve(
        tol=1e-8, time_limit=30)
    assert res.status == "primal_infeasible"


def test_warm_start_from_solution(shared):
    model = shardlp.read(shared / "lp" / "netlib" / "afiro.mps.gz")
    cold = model.solve(tol=1e-8)
    warm = model.solve(tol=1e-8, x0=cold.x, y0=cold.y)
    assert warm.optimal and abs(warm.objective - cold.objective) < 1e-6 * abs(cold.objective)
    if warm.warm_started:  # the solver hook is in this build
        assert warm.iterations <= cold.iterations
    with pytest.raises(ValueError, match="x0"):
        model.solve(x0=np.zeros(model.n + 1))
    # a solve's x0 / y0 apply to that call only; set_warm_start's last
    again = model.solve(tol=1e-8)
    assert not again.warm_started and again.iterations == cold.iterations
    model.set_warm_start(cold.x, cold.y)
    assert model.solve(tol=1e-8).warm_started == warm.warm_started
    model.solve(tol=1e-8, x0=np.zeros(model.n))  # this call's start only
    assert model.solve(tol=1e-8).warm_started == warm.warm_started  # the lasting one again
    model.set_warm_start(None, None)


def test_names_from_mps(shared):
    model = shardlp.read(shared / "lp" / "netlib" / "afiro.mps.gz")
    assert model.col_names[0] == "X01" and len(model.row_names) == model.m


@pytest.mark.parametrize("kwargs, exc, text", [
    (dict(c=[1, 2], A=sp.csc_matrix(np.ones((1, 3)))), ValueError, "columns"),
    (dict(c=[1, np.nan], A=sp.csc_matrix(np.ones((1, 2)))), ValueError, "c"),
    (dict(c=[1, 2], A=sp.csc_matrix(np.ones((1, 2))), lc=[1, 2]), ValueError, "lc"),
    (dict(c=[1, 2], A=sp.csc_matrix(np.ones((1, 2))), lv=[3, 0], uv=[1, 1]), ValueError, "bound"),
    (dict(c=[1, 2], A=sp.csc_matrix(np.ones((1, 2))), sense="up"), ValueError, "sense"),
    (dict(c=[1, 2], A=sp.csc_matrix([[1.0, np.inf]])), ValueError, "not finite"),
    (dict(c="abc", A=None), TypeError, "c"),
])
def test_bad_input_raises(kwargs, exc, text):
    with pytest.raises(exc, match=text):
        shardlp.Model(**kwargs)


def test_bad_settings_and_files(tmp_path):
    m = shardlp.Model([1.0], sp.csc_matrix([[1.0]]), lc=[0], uc=[1])
    with pytest.raises(ValueError, match="tol"):
        m.solve(tol=2.0)
    with pytest.raises(TypeError, match="time_limit"):
        m.solve(time_limit="abc")
    with pytest.raises(FileNotFoundError):
        shardlp.read(tmp_path / "missing.mps")
    bad = tmp_path / "bad.mps"
    bad.write_text("NAME x\nROWS\n N obj\nCOLUMNS\n x obj notanumber\nENDATA\n")
    with pytest.raises(shardlp.InputError, match="bad.mps"):
        shardlp.read(bad)
