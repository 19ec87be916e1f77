"""LP files the way users get them (docs/lp-format.md): written by HiGHS (writeModel) and
by PuLP (writeLP) for corpus LPs, solved by shardlp to the objective of their MPS sources;
and `shardlp convert` output read back by HiGHS to the same objective."""
import json
import subprocess

import highspy
import pulp
import pytest

# Corpus LPs with no objective constant (PuLP's writeLP drops constants).
NAMES = ["afiro", "sc50b", "adlittle", "blend", "share2b", "sc105"]
# PuLP's fromMPS cannot read blend (numeric names), so its route uses the others.
PULP_NAMES = [n for n in NAMES if n != "blend"]


def shardlp_objective(binary, path, tmp_path):
    out = tmp_path / "r.json"
    subprocess.run([binary, "solve", str(path), "--tol", "1e-9", "--quiet", "--json", str(out)],
                   check=True)
    result = json.loads(out.read_text())
    assert result["status"] == "optimal"
    return result["objective"]


def highs_objective(path):
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    assert h.readModel(str(path)) == highspy.HighsStatus.kOk
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    return h.getInfo().objective_function_value


def close(a, b, tol=1e-6):
    return abs(a - b) <= tol * max(1.0, abs(b))


@pytest.mark.parametrize("name", NAMES)
def test_highs_written_lp(binary, shared, tmp_path, name):
    mps = shared / "lp" / "netlib" / f"{name}.mps.gz"
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(str(mps))
    lp_path = tmp_path / f"{name}.lp"
    h.writeModel(str(lp_path))
    assert close(shardlp_objective(binary, lp_path, tmp_path),
                 shardlp_objective(binary, mps, tmp_path))


@pytest.mark.parametrize("name", PULP_NAMES)
def test_pulp_written_lp(binary, shared, tmp_path, name):
    mps = shared / "lp" / "netlib" / f"{name}.mps.gz"
    plain = tmp_path / f"{name}.mps"
    subprocess.run(["sh", "-c", f"gzip -dc {mps} > {plain}"], check=True)
    _, problem = pulp.LpProblem.fromMPS(str(plain))
    lp_path = tmp_path / f"{name}-pulp.lp"
    problem.writeLP(str(lp_path))
    assert close(shardlp_objective(binary, lp_path, tmp_path),
                 shardlp_objective(binary, mps, tmp_path))


@pytest.mark.parametrize("name", ["adlittle", "blend"])
@pytest.mark.parametrize("suffix", [".mps", ".lp"])
def test_convert_read_by_highs(binary, shared, tmp_path, name, suffix):
    mps = shared / "lp" / "netlib" / f"{name}.mps.gz"
    out = tmp_path / f"{name}{suffix}"
    subprocess.run([binary, "convert", str(mps), str(out), "--quiet"], check=True)
    assert close(highs_objective(out), highs_objective(mps), 1e-9)
