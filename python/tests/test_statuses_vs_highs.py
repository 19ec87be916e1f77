"""Statuses and objectives of random small LPs with decimal coefficients and planted
structure (tests/differential/lpgen.py: parallel and scaled lines, doubletons,
singletons, dominated, free, empty and fixed lines, ranges, both senses) through the
shardlp package on 1x1 (this process) and 2x2 (one mpirun driving every LP through
mpi4py), compared with HiGHS's simplex (presolve off) on the same MPS files: the same
status, objectives within 1e-6 at --tol 1e-8, and every certificate written accepted by
`shardlp check` (docs/reliability.md, "Differential testing"; the 5000-LP run is
bench/differential.sh)."""
import json
import os
import shutil
import subprocess
import sys

import pytest

highspy = pytest.importorskip("highspy")

BIN = os.environ.get("SHARDLP_BIN")
REPO = os.environ.get("SHARDLP_REPO", os.path.join(os.path.dirname(__file__), "..", ".."))
COUNT = int(os.environ.get("SLP_RANDOM_LPS", "400"))
MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader", "-np", "4"]
DIFF = os.path.join(REPO, "tests", "differential", "differential.py")
pytestmark = pytest.mark.skipif(not BIN, reason="SHARDLP_BIN not set")


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    d = tmp_path_factory.mktemp("random_lps")
    subprocess.run([sys.executable, DIFF, "gen", str(d), str(COUNT), "20261203"], check=True)
    subprocess.run([sys.executable, DIFF, "highs", str(d), str(d / "ref.json")], check=True,
                   capture_output=True)
    return d


@pytest.mark.parametrize("grid", ["1x1", "2x2"])
def test_random_statuses_match_highs(batch, grid):
    out = batch / ("out-%s.json" % grid)
    cmd = [sys.executable, DIFF, "solve", str(batch), str(out), "--grid", grid, "--sol"]
    if grid != "1x1":
        if not shutil.which("mpirun"):
            pytest.skip("no mpirun")
        env = [a for v in ("SHARDLP_LIB", "PYTHONPATH") if v in os.environ for a in ("-x", v)]
        cmd = MPIRUN + env + cmd
    subprocess.run(cmd, check=True, timeout=900)
    cmp = subprocess.run([sys.executable, DIFF, "compare", str(batch / "ref.json"), str(out),
                          "--check", BIN], capture_output=True, text=True)
    print(cmp.stdout)
    counts = json.loads(cmp.stdout.splitlines()[0])
    assert counts["counts"]["lps"] >= COUNT * 0.95
    assert len(counts["highs_statuses"]) == 3, "the sample should contain every status"
    assert cmp.returncode == 0, cmp.stdout
