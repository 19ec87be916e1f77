"""Locations the tests need: the shardlp binary ($SHARDLP_BIN, default
<repo>/build/shardlp), the corpus ($SHARDLP_SHARED, default <repo>/../shared where it
exists, else the suite's own tests/data/corpus) and the repository root. The library is found by the package ($SHARDLP_LIB)."""
import os
from pathlib import Path

import pytest

REPO = Path(os.environ.get("SHARDLP_REPO", Path(__file__).resolve().parents[2]))


@pytest.fixture(scope="session")
def repo():
    return REPO


@pytest.fixture(scope="session")
def binary():
    path = Path(os.environ.get("SHARDLP_BIN", REPO / "build" / "shardlp"))
    if not path.is_file():
        pytest.fail(f"shardlp binary not found at {path} (run make build or set SHARDLP_BIN)")
    return str(path)


@pytest.fixture(scope="session")
def shared():
    full = REPO.parent / "shared"
    default = full if (full / "lp" / "INDEX.tsv").is_file() else REPO / "tests" / "data" / "corpus"
    path = Path(os.environ.get("SHARDLP_SHARED", default))
    if not (path / "lp" / "INDEX.tsv").is_file():
        pytest.fail(f"shared corpus not found at {path} (set SHARDLP_SHARED)")
    return path


@pytest.fixture
def mpirun():
    """The launch prefix for an mpi4py script on this machine (`+ ["-np", "P", ...]`);
    skips without mpirun or mpi4py. mpi4py is looked for in a child process: importing it
    here would let other packages (Pyomo) start MPI in the test process, after which
    mpirun fails from it."""
    import shutil
    import subprocess
    import sys
    if subprocess.run([sys.executable, "-c", "import mpi4py"], capture_output=True).returncode:
        pytest.skip("mpi4py not installed")
    path = shutil.which("mpirun")
    if not path:
        pytest.skip("mpirun not installed")
    return [path, "--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader"]
