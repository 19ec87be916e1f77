"""The package and the library it loads (docs/python.md, "The library"): a library of
another API version is refused at import with a clear ImportError (a stale library would
misread the structs), statuses are an IntEnum named by the library, and the buffers the
library hands over are released by the library (shardlp_free)."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import shardlp


def _import_with(lib_path, tmp_path):
    """`import shardlp` in a fresh interpreter with SHARDLP_LIB=lib_path: (exit, stderr)."""
    env = dict(os.environ, SHARDLP_LIB=str(lib_path))
    run = subprocess.run([sys.executable, "-c", "import shardlp"], env=env, cwd=tmp_path,
                         capture_output=True, text=True)
    return run.returncode, run.stderr


def _fake_library(tmp_path, version_line):
    src = tmp_path / "fake.c"
    src.write_text(version_line + "\nint shardlp_unused(void) { return 0; }\n")
    out = tmp_path / "libfake.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(out), str(src)], check=True)
    return out


def test_other_api_version_is_refused(tmp_path):
    lib = _fake_library(tmp_path, "int shardlp_api_version(void) { return 3; }")
    code, err = _import_with(lib, tmp_path)
    assert code != 0
    assert "LibraryNotFoundError" in err and "API version 3" in err and \
        f"needs {shardlp.API_VERSION}" in err, err


def test_library_without_version_is_refused(tmp_path):
    lib = _fake_library(tmp_path, "")
    code, err = _import_with(lib, tmp_path)
    assert code != 0 and "older than 4" in err, err


def test_refusal_is_an_import_error():
    assert issubclass(shardlp.LibraryNotFoundError, ImportError)


def test_status_enum_from_the_library():
    S = shardlp.Status
    assert S.NOT_SOLVED == 0 and S.OPTIMAL == 1 and S.INFEASIBLE_OR_UNBOUNDED == 8
    assert shardlp.STATUS_NAMES[S.TIME_LIMIT] == "time_limit"
    res = shardlp.Model(c=[1.0, 1.0], A=np.array([[1.0, 1.0]]), lc=[1.0]).solve(tol=1e-8)
    assert res.status_code is S.OPTIMAL and res.status == "optimal"
    assert abs(res.objective - 1.0) < 1e-6


def test_shard_buffers_released_by_the_library(tmp_path, binary):
    """solve_shards copies each slice and hands the buffer back to shardlp_free; a run
    of many solves must keep its answers (a wrong free would crash or corrupt)."""
    model = tmp_path / "t.shards"
    subprocess.run([binary, "gen", "transport", "--sources", "20", "--sinks", "60",
                    "--neighbors", "4", "--grid", "1x1", "--out", str(model), "--quiet"],
                   check=True)
    objectives = {shardlp.solve_shards(model, tol=1e-6).objective for _ in range(5)}
    assert len(objectives) == 1
