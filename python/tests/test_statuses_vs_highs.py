"""Statuses and objectives of 200 random small LPs (random row and bound types, both
senses) through the shardlp binary on 1x1 and 2x2 grids, compared with HiGHS
(highspy, presolve off so that every status is decided) on the same MPS files.
Objectives must agree to 1e-6 at --tol 1e-8 (docs/statuses.md)."""
import os
import random
import shutil
import subprocess

import pytest

highspy = pytest.importorskip("highspy")

BIN = os.environ.get("SHARDLP_BIN")
COUNT = int(os.environ.get("SLP_RANDOM_LPS", "200"))
MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader", "-np", "4"]
pytestmark = pytest.mark.skipif(not BIN, reason="SHARDLP_BIN not set")


def random_lp(rng, path):
    m, n = rng.randint(1, 6), rng.randint(1, 6)
    lines = ["NAME RND", "OBJSENSE", "    " + rng.choice(["MIN", "MAX"]), "ROWS", " N obj"]
    kinds = [rng.choice("LGEER") for _ in range(m)]  # R: a range on a G row
    lines += [" %s r%d" % ("G" if k == "R" else k, i) for i, k in enumerate(kinds)]
    lines.append("COLUMNS")
    for j in range(n):
        c = rng.randint(-4, 4)
        if c:
            lines.append("    x%d obj %d" % (j, c))
        for i in range(m):
            if rng.random() < 0.6:
                a = rng.choice([-3, -2, -1, 1, 1, 2, 3])
                lines.append("    x%d r%d %d" % (j, i, a))
    lines.append("RHS")
    lines += ["    rhs r%d %d" % (i, rng.randint(-6, 6)) for i in range(m)]
    ranges = ["    rng r%d %d" % (i, rng.randint(0, 5)) for i, k in enumerate(kinds) if k == "R"]
    if ranges:
        lines += ["RANGES"] + ranges
    lines.append("BOUNDS")
    for j in range(n):
        kind = rng.choice(["default", "box", "free", "mi", "fx", "lo", "up"])
        lo, hi = sorted((rng.randint(-5, 5), rng.randint(-5, 5)))
        if kind == "box":
            lines += [" LO bnd x%d %d" % (j, lo), " UP bnd x%d %d" % (j, hi)]
        elif kind == "free":
            lines.append(" FR bnd x%d" % j)
        elif kind == "mi":
            lines += [" MI bnd x%d" % j, " UP bnd x%d %d" % (j, hi)]
        elif kind == "fx":
            lines.append(" FX bnd x%d %d" % (j, lo))
        elif kind == "lo":
            lines.append(" LO bnd x%d %d" % (j, lo))
        elif kind == "up":
            lines.append(" UP bnd x%d %d" % (j, max(hi, 0)))
    lines.append("ENDATA")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


HIGHS_TEXT = {"Optimal": "Optimal", "Infeasible": "Infeasible", "Unbounded": "Unbounded"}


def highs_solve(path):
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("presolve", "off")
    h.readModel(path)
    h.run()
    status = h.modelStatusToString(h.getModelStatus())
    return status, h.getInfo().objective_function_value


def shardlp_solve(path, grid):
    cmd = [BIN, "solve", path, "--tol", "1e-8", "--time-limit", "30"]
    if grid != "1x1":
        cmd = MPIRUN + cmd + ["--grid", grid]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    status = objective = None
    for line in out.stdout.splitlines():
        if line.startswith("Model status"):
            status = line.split(":", 1)[1].strip()
        if line.startswith("Objective value"):
            objective = float(line.split(":", 1)[1])
    return status, objective


@pytest.mark.parametrize("grid", ["1x1", "2x2"])
def test_random_statuses_match_highs(tmp_path, grid):
    if grid != "1x1" and not shutil.which("mpirun"):
        pytest.skip("no mpirun")
    rng = random.Random(20261201)
    mismatches, counts = [], {}
    for k in range(COUNT):
        path = str(tmp_path / ("rnd%03d.mps" % k))
        random_lp(rng, path)
        want, want_obj = highs_solve(path)
        if want not in HIGHS_TEXT:
            continue
        counts[want] = counts.get(want, 0) + 1
        got, got_obj = shardlp_solve(path, grid)
        if got != want:
            mismatches.append((k, want, got))
        elif want == "Optimal" and abs(got_obj - want_obj) > 1e-6 * (1 + abs(want_obj)):
            mismatches.append((k, want_obj, got_obj))
    print(grid, counts, mismatches)
    assert sum(counts.values()) >= COUNT * 0.95
    assert len(counts) == 3, "the sample should contain every status: %s" % counts
    assert not mismatches, mismatches
