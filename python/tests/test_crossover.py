"""Vertex solutions (docs/session.md, "Vertex solutions"): HiGHS's crossover from a shardlp
solution returns a basis (m basic variables) and a basic solution that `shardlp check`
passes at 1e-9 and that has the published optimum; also as the first HiGHS call of a fresh
process (highspy 1.16.0 crashes there without the package's work-around); a maximisation
whose vertex is solved by hand; the command line's --crossover is a clear error here."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import scipy.sparse as sp

import shardlp

pytest.importorskip("highspy")


def test_afiro_vertex_in_a_fresh_process(repo, binary, tmp_path):
    sol = tmp_path / "afiro.sol"
    script = textwrap.dedent(f"""
        import shardlp
        model = shardlp.read({str(repo / "examples/data/afiro.mps")!r})
        res = model.solve(tol=1e-6, crossover=True)
        v = res.vertex
        assert v.optimal and v.valid_basis and v.basic == model.m, v
        assert abs(v.objective + 464.7531428571) < 1e-8, v.objective
        v.write_solution({str(sol)!r})
        print("vertex", v.basic, v.seconds)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=dict(os.environ))
    assert out.returncode == 0, out.stdout + out.stderr
    check = subprocess.run([binary, "check", str(repo / "examples/data/afiro.mps"), str(sol),
                            "--tol", "1e-9"], capture_output=True, text=True)
    assert check.returncode == 0 and "check PASSED" in check.stdout, check.stdout + check.stderr


def test_maximisation_vertex_by_hand():
    # maximize 3 x0 + 2 x1 + 1 (docs/python.md): the vertex (3, 1), objective 12, both
    # structural columns basic or at their bounds, rows 0 and 2 active
    A = sp.csc_matrix(np.array([[1.0, 1.0], [1.0, 3.0], [1.0, -1.0]]))
    lp = shardlp.Model(c=[3, 2], A=A, lc=[-np.inf, -np.inf, -1], uc=[4, 6, 2],
                       lv=[0, 0], uv=[3, np.inf], c0=1.0, sense="max")
    res = lp.solve(tol=1e-6, crossover=True)
    v = res.vertex
    assert v.optimal and v.basic == 3
    assert np.allclose(v.x, [3, 1], atol=1e-12) and abs(v.objective - 12.0) < 1e-12
    assert np.allclose(v.row_activity, [4, 6, 2], atol=1e-12)


def test_command_line_crossover_is_a_clear_error(binary, repo):
    out = subprocess.run([binary, "solve", str(repo / "examples/data/afiro.mps"),
                          "--crossover"], capture_output=True, text=True)
    assert out.returncode != 0 and "crossover" in out.stderr and "highspy" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
