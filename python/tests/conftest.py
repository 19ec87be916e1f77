"""Locations the tests need: the shardlp binary ($SHARDLP_BIN, default
<repo>/build/shardlp), the shared corpus ($SHARDLP_SHARED, default <repo>/../shared)
and the repository root. The library is found by the package ($SHARDLP_LIB)."""
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
    path = Path(os.environ.get("SHARDLP_SHARED", REPO.parent / "shared"))
    if not (path / "lp" / "INDEX.tsv").is_file():
        pytest.fail(f"shared corpus not found at {path} (set SHARDLP_SHARED)")
    return path
