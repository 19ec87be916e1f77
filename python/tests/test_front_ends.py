"""One run layer under every front end (docs/design.md): each solve setting given to
the command line (`shardlp solve --json`), to the C API (examples/solve_options.c,
shardlp_set_option) and to Python (Model.solve keywords) must give the same
iterations and the same objective to the last bit, on one rank and on a 1x2 grid
under mpirun, from MPS and (command line and C API) from shards."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import shardlp

MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader"]

# (keywords as Python takes them); the command line and the C API get them as text.
CASES = [
    {},
    {"presolve": False},
    {"polish": True, "presolve": False},
    {"termination": "detailed", "eps_abs": 1e-7, "eps_rel": 1e-7, "gap_rel": 1e-7},
    {"norm": "linf"},
    {"tol": 1e-8, "norm": "linf", "presolve": False},
    {"iter_limit": 400},
    {"time_limit": 0.0},
    {"threads": 1},
    {"threads": 2, "tol": 1e-7},
    {"eval_freq": 64},
    {"comm": "support"},
    {"relax": True},
]


def text(value):
    if isinstance(value, bool):
        return "on" if value else "off"
    return repr(value) if isinstance(value, float) else str(value)


def model_path(repo):
    return repo / "examples" / "data" / "afiro.mps"


def run_cli(binary, model, options, tmp_path, ranks=1):
    out = tmp_path / "run.json"
    args = [binary, "solve", str(model), "--quiet", "--json", str(out)]
    for name, value in options.items():
        args += [f"--{name.replace('_', '-')}={text(value)}"]
    cmd = (MPIRUN + ["-np", str(ranks)] if ranks > 1 else []) + args
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    j = json.loads(out.read_text())
    return j["status"], j["iterations"], j["objective"]


def run_c(binary, model, options, ranks=1):
    exe = Path(binary).parent / "example_solve_options"
    args = [str(exe), str(model)] + [f"{k}={text(v)}" for k, v in options.items()]
    cmd = (MPIRUN + ["-np", str(ranks)] if ranks > 1 else []) + args
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    status, iterations, objective = done.stdout.split()
    return status, int(iterations), float(objective)


def run_python(model, options):
    r = shardlp.read(model).solve(**options)
    return r.status, r.iterations, r.objective


@pytest.mark.parametrize("options", CASES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_same_run_everywhere(repo, binary, tmp_path, options):
    model = model_path(repo)
    cli = run_cli(binary, model, options, tmp_path)
    assert run_c(binary, model, options) == cli
    assert run_python(model, options) == cli


def test_grid_under_mpirun(repo, binary, tmp_path):
    model = model_path(repo)
    options = {"tol": 1e-6, "grid": "1x2", "comm": "support"}
    cli = run_cli(binary, model, options, tmp_path, ranks=2)
    assert run_c(binary, model, options, ranks=2) == cli
    # Python on two ranks: every rank calls solve, rank 0 holds the model.
    script = tmp_path / "two.py"
    script.write_text(
        "import sys, shardlp\n"
        "r = shardlp.read(sys.argv[1]).solve(tol=1e-6, grid=(1, 2), comm='support')\n"
        "if shardlp.rank() == 0:\n"
        "    print(r.status, r.iterations, repr(r.objective))\n")
    done = subprocess.run(MPIRUN + ["-np", "2", sys.executable, str(script), str(model)],
                          capture_output=True, text=True, timeout=300, env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    status, iterations, objective = done.stdout.split()
    assert (status, int(iterations), float(objective)) == cli


def test_shards_through_c_api(repo, binary, tmp_path):
    shards = tmp_path / "afiro.shards"
    subprocess.run([binary, "shard", str(model_path(repo)), "--grid", "1x2", "--out", str(shards)],
                   check=True, capture_output=True)
    options = {"tol": 1e-6, "presolve": False}
    cli = run_cli(binary, shards, options, tmp_path, ranks=2)
    assert run_c(binary, shards, options, ranks=2) == cli
    assert cli[0] == "optimal" and abs(cli[2] - -464.7531428571) < 1e-3


def test_bad_option_is_one_clear_error(repo, binary):
    exe = Path(binary).parent / "example_solve_options"
    done = subprocess.run([str(exe), str(model_path(repo)), "norm=l3"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode != 0
    assert "option norm: 'l3' is not one of l2/linf" in done.stderr
    with pytest.raises(ValueError, match="unknown option 'no_such'"):
        shardlp.read(model_path(repo)).solve(no_such=1)
    with pytest.raises(ValueError, match="time_limit"):
        shardlp.read(model_path(repo)).solve(time_limit=-1.0)


def test_integer_rule_through_python(tmp_path):
    """The integer rule is the run layer's, so Python refuses an integer model without
    relax (one message naming the option) and solves its relaxation with it: max x + y
    with x + 2y <= 3.5, x <= 1.5 has the LP optimum x = 1.5, y = 1 (objective 2.5),
    whatever the integrality of y."""
    path = tmp_path / "int.mps"
    path.write_text("NAME INT\nOBJSENSE\n    MAX\nROWS\n N obj\n L r1\nCOLUMNS\n"
                    "    x obj 1 r1 1\n    MARKER 'MARKER' 'INTORG'\n    y obj 1 r1 2\n"
                    "    MARKER 'MARKER' 'INTEND'\nRHS\n    rhs r1 3.5\nBOUNDS\n UP bnd x 1.5\n"
                    " UP bnd y 10\nENDATA\n")
    model = shardlp.read(path)
    with pytest.raises(shardlp.InputError, match="integer column.*relax"):
        model.solve()
    r = model.solve(relax=True, tol=1e-8)
    assert r.status == "optimal" and abs(r.objective - 2.5) < 1e-6
    r = model.solve(solver="simplex", tol=1e-8)  # HiGHS's way of asking for the relaxation
    assert r.status == "optimal" and abs(r.objective - 2.5) < 1e-6
