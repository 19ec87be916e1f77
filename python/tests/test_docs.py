"""The copy-paste examples of docs/python.md, docs/modelling-tools.md and
docs/c-api.md run as written (the first ```python / ```c block of each page,
with SHARDLP_BIN / the repository paths as the pages say)."""
import os
import re
import shutil
import subprocess
import sys

import pytest


def blocks(path, lang):
    text = path.read_text()
    return re.findall(r"```" + lang + r"\n(.*?)```", text, flags=re.S)


@pytest.mark.parametrize("page", ["python.md", "modelling-tools.md"])
def test_python_examples(repo, binary, page, tmp_path):
    code = blocks(repo / "docs" / page, "python")
    assert code, f"no python example in docs/{page}"
    env = dict(os.environ, SHARDLP_BIN=binary)
    for k, block in enumerate(code):
        script = tmp_path / f"example{k}.py"
        script.write_text(block)
        out = subprocess.run([sys.executable, str(script)], cwd=repo, env=env,
                             capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, f"docs/{page} block {k}:\n{out.stdout}\n{out.stderr}"


def test_c_example(repo, binary, tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        pytest.skip("no C compiler")
    code = blocks(repo / "docs" / "c-api.md", "c")
    assert code
    src = tmp_path / "example.c"
    src.write_text(code[0])
    libdir = os.path.dirname(binary)
    exe = tmp_path / "example"
    subprocess.run([cc, "-std=c11", "-Wall", "-Werror", str(src), "-I", str(repo / "include"),
                    "-L", libdir, "-lshardlp", "-lm", f"-Wl,-rpath,{libdir}", "-o", str(exe)],
                   check=True)
    out = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "optimal" in out.stdout
