"""Python that feels native (docs/python.md, "Log, callbacks, Ctrl-C", "MPI"): the log
through sys.stdout, log and progress callbacks, stopping from a callback, Ctrl-C in
solve(), mpi4py, and the plot command."""
import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import shardlp


@pytest.fixture
def afiro(repo):
    return shardlp.read(str(repo / "examples" / "data" / "afiro.mps"))


def test_log_goes_through_sys_stdout(afiro):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        res = afiro.solve(tol=1e-8, verbose=True)
    text = buf.getvalue()
    assert res.status == "optimal"
    assert "primal_obj" in text and "Model status" in text  # the iteration table, the summary
    quiet = io.StringIO()
    with contextlib.redirect_stdout(quiet):
        afiro.solve(tol=1e-8)
    assert quiet.getvalue() == ""  # verbose=False prints nothing


def test_log_callback_receives_lines(afiro):
    lines = []
    afiro.solve(tol=1e-8, log_callback=lines.append)
    assert any("primal_obj" in line for line in lines)


def test_callback_stops_after_three_checks(afiro):
    seen = []

    def stop_at_third(info):
        seen.append(info)
        return len(seen) >= 3

    res = afiro.solve(tol=1e-12, callback=stop_at_third)
    assert res.status == "interrupted"
    assert len(seen) == 3
    # 1e-12: a check every 64 iterations up to 10,000 (docs/algorithm.md section 3)
    assert [d["iteration"] for d in seen] == [64, 128, 192] and res.iterations == 192
    assert set(seen[0]) >= {"iteration", "seconds", "objective", "dual_objective",
                            "rel_primal_residual", "rel_dual_residual", "rel_gap",
                            "primal_weight", "restarted"}


def test_callback_exception_propagates(afiro):
    def broken(info):
        raise ValueError("from the callback")

    with pytest.raises(ValueError, match="from the callback"):
        afiro.solve(tol=1e-12, callback=broken)


def test_sigint_stops_solve_quickly(repo, tmp_path):
    script = textwrap.dedent(f"""
        import sys, shardlp
        m = shardlp.read({str(repo / "examples" / "data" / "afiro.mps")!r})
        print("solving", flush=True)
        try:
            m.solve(tol=1e-300, iter_limit=10**12)
        except KeyboardInterrupt as e:
            print("interrupted", e.result.status, e.result.iterations, flush=True)
            sys.exit(3)
        print("not interrupted", flush=True)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=os.environ.copy())
    try:
        assert proc.stdout.readline().strip() == "solving"
        time.sleep(0.5)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:  # never leave a solver running (it would run forever)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 3, (out, err)
    assert out.startswith("interrupted interrupted"), out
    assert took < 2.0, f"solve() ended {took:.2f} s after SIGINT"


MPI_SCRIPT = """
import sys
from mpi4py import MPI
import shardlp
m = shardlp.read(sys.argv[1])
grid = tuple(int(v) for v in sys.argv[2].split("x"))
res = m.solve(tol=1e-9, comm=MPI.COMM_WORLD, grid=grid)
rank = MPI.COMM_WORLD.rank
with open(f"{sys.argv[3]}.{rank}", "w") as f:  # one file per rank: no interleaving
    f.write(f"{res.objective!r} {res.status} {res.grid[0]}x{res.grid[1]} {len(res.x)}")
"""


def test_mpi4py_grid_matches_one_rank(repo, tmp_path, mpirun):
    script = tmp_path / "solve_mpi.py"
    script.write_text(MPI_SCRIPT)
    model = str(repo / "examples" / "data" / "afiro.mps")
    runs = {}
    for np_, grid in ((1, "1x1"), (4, "2x2")):
        prefix = tmp_path / f"out-{grid}"
        out = subprocess.run(mpirun + ["-np", str(np_), sys.executable, str(script), model,
                                       grid, str(prefix)], capture_output=True, text=True,
                             timeout=300)
        assert out.returncode == 0, out.stderr
        runs[grid] = [open(f"{prefix}.{r}").read().split() for r in range(np_)]
    one = float(runs["1x1"][0][0])
    for objective, status, grid, n in runs["2x2"]:
        assert status == "optimal" and grid == "2x2" and int(n) == 32  # vectors on every rank
        assert abs(float(objective) - one) <= 1e-8 * abs(one), runs


def test_plot_writes_png(binary, repo, tmp_path):
    pytest.importorskip("matplotlib")
    traces = []
    for name, extra in (("plain", []), ("polish", ["--polish"])):
        trace = tmp_path / f"{name}.csv"
        subprocess.run([binary, "solve", str(repo / "examples" / "data" / "afiro.mps"),
                        "--tol", "1e-8", "--quiet", "--log-csv", str(trace), *extra], check=True)
        traces.append(str(trace))
    out = tmp_path / "conv.png"
    done = subprocess.run([sys.executable, "-m", "shardlp.plot", *traces, "-o", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = subprocess.run([sys.executable, "-m", "shardlp.plot", str(repo / "README.md"), "-o",
                          str(tmp_path / "x.png")], capture_output=True, text=True)
    assert bad.returncode == 1 and "not a --log-csv trace" in bad.stderr


SHARD_SCRIPT = """
import sys
from mpi4py import MPI
import shardlp
res = shardlp.solve_shards(sys.argv[1], tol=1e-9, comm=MPI.COMM_WORLD)
with open(f"{sys.argv[2]}.{MPI.COMM_WORLD.rank}", "w") as f:
    f.write(f"{res.objective!r} {res.status} {res.col_lo} {len(res.x)} {res.row_lo} {len(res.y)}")
"""


def test_mpi4py_shard_directory(binary, tmp_path, mpirun):
    launch = mpirun + ["-np", "4"]
    shards = tmp_path / "q.shards"
    subprocess.run([binary, "gen", "qap", "--size", "6", "--grid", "2x2", "--out", str(shards),
                    "--quiet"], check=True)
    ref_json = tmp_path / "ref.json"
    subprocess.run(launch + [binary, "solve", str(shards), "--tol", "1e-9", "--quiet", "--json",
                             str(ref_json)], check=True, timeout=300)
    ref = json.loads(ref_json.read_text())
    script = tmp_path / "solve_shards.py"
    script.write_text(SHARD_SCRIPT)
    prefix = tmp_path / "slices"
    out = subprocess.run(launch + [sys.executable, str(script), str(shards), str(prefix)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    ranks = [open(f"{prefix}.{r}").read().split() for r in range(4)]
    for objective, status, *_ in ranks:
        assert status == ref["status"] == "optimal"
        assert float(objective) == ref["objective"]  # the same run as the command line's
    # grid row 0 (ranks 0, 1) holds every column once, grid column 0 (ranks 0, 2) every row
    cols = sorted((int(r[2]), int(r[3])) for r in ranks[:2])
    rows = sorted((int(r[4]), int(r[5])) for r in (ranks[0], ranks[2]))
    assert cols[0][0] == 0 and cols[0][0] + cols[0][1] == cols[1][0]
    assert cols[1][0] + cols[1][1] == ref["cols"]
    assert rows[0][0] == 0 and rows[0][1] + rows[1][1] == ref["rows"]
