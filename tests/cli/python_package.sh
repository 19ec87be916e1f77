#!/usr/bin/env bash
# The Python package as a new user installs it (docs/install.md): in a clean virtual
# environment, `pip install ./python` builds libshardlp.so with the project's CMake
# (scikit-build-core) and bundles it; from `/`, with no SHARDLP_* variable set,
# `import shardlp` finds the bundled library and solves afiro (MPS) and a hand-solved LP
# file to their optima; `pip wheel ./python` gives one py3 wheel that carries the
# library and the program; the `shardlp` command the wheel installs solves afiro from /
# with the venv's bin/ on the PATH as an activated venv has it, and PuLP's
# HiGHS_CMD(path="shardlp") finds and uses it. Needs PyPI (pip downloads
# scikit-build-core, numpy and PuLP), like tests/cli/python_interfaces.sh.
set -u
BIN=$1; ROOT=$2; SHARED=$3
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { echo "ok: $*"; pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
python3 -m venv "$T/venv" || { echo "skip: python3 -m venv unavailable"; exit 0; }
# a copy of the tree, so the build directories pip makes stay out of the repository
mkdir -p "$T/src"
(cd "$ROOT" && tar cf - --exclude=./build --exclude='./build-*' --exclude=./.git .) | (cd "$T/src" && tar xf -)
if timeout 900 "$T/venv/bin/pip" install -q "$T/src/python" > "$T/pip.log" 2>&1; then
    ok "pip install ./python"
else
    if grep -qiE "connection|network|resolve|Could not find a version" "$T/pip.log"; then
        echo "skip: no package index reachable"; tail -3 "$T/pip.log"; exit 0
    fi
    bad "pip install: $(tail -20 "$T/pip.log")"
fi
(cd / && env -u SHARDLP_LIB -u SHARDLP_BIN -u PYTHONPATH "$T/venv/bin/python" - "$ROOT" <<'PY') > "$T/run.log" 2>&1
import os, sys
import shardlp
root = sys.argv[1]
lib = shardlp.find_library()
assert "site-packages" in lib and lib.endswith("libshardlp.so"), lib
a = shardlp.read(os.path.join(root, "examples/data/afiro.mps")).solve(tol=1e-8)
assert a.status == "optimal" and abs(a.objective + 464.7531428571) < 1e-5, (a.status, a.objective)
b = shardlp.read(os.path.join(root, "tests/data/lp/every-construct.lp")).solve(tol=1e-9)
assert b.status == "optimal" and abs(b.objective - 21.2) < 1e-6, (b.status, b.objective)
print("bundled", lib, a.objective, b.objective)
PY
[ $? -eq 0 ] && ok "import from / with the bundled library: $(tail -1 "$T/run.log")" ||
    bad "import and solve: $(tail -8 "$T/run.log")"
# the command, as an activated venv finds it: nothing of the build tree on the PATH
(cd / && env -u SHARDLP_LIB -u SHARDLP_BIN -u PYTHONPATH PATH="$T/venv/bin:/usr/bin:/bin" \
    shardlp "$ROOT/examples/data/afiro.mps" --solution_file "$T/afiro.sol") > "$T/cmd.log" 2>&1
if grep -q "^Model status *: Optimal" "$T/cmd.log" && [ "$(command -v "$T/venv/bin/shardlp")" ] &&
   "$T/venv/bin/python" -c "import shardlp._cli as c; assert 'site-packages' in c.bundled_program()" 2>> "$T/cmd.log"; then
    ok "the shardlp command: $(grep '^Objective value' "$T/cmd.log")"
else
    bad "the shardlp command: $(tail -8 "$T/cmd.log")"
fi
if timeout 600 "$T/venv/bin/pip" install -q "pulp>=2.7,<4" > "$T/pulp.log" 2>&1; then
    (cd / && env -u SHARDLP_LIB -u SHARDLP_BIN -u PYTHONPATH PATH="$T/venv/bin:/usr/bin:/bin" \
        "$T/venv/bin/python" - <<'PY') > "$T/pulp_run.log" 2>&1
import pulp
prob = pulp.LpProblem("p", pulp.LpMaximize)
x, y = pulp.LpVariable("x", 0, 10), pulp.LpVariable("y", 0, 10)
prob += 3 * x + 2 * y
prob += x + y <= 12
prob += x - y == 2
assert prob.solve(pulp.HiGHS_CMD(path="shardlp", msg=False)) == pulp.LpStatusOptimal
assert abs(pulp.value(prob.objective) - 31) < 1e-5, pulp.value(prob.objective)
print("pulp objective", pulp.value(prob.objective))
PY
    [ $? -eq 0 ] && ok "PuLP's HiGHS_CMD(path=\"shardlp\"): $(tail -1 "$T/pulp_run.log")" ||
        bad "PuLP through the command: $(tail -8 "$T/pulp_run.log")"
else
    bad "pip install pulp: $(tail -5 "$T/pulp.log")"
fi
if timeout 900 "$T/venv/bin/pip" wheel -q --no-deps -w "$T/wheels" "$T/src/python" > "$T/wheel.log" 2>&1; then
    w=$(ls "$T"/wheels/*.whl 2>/dev/null | head -1)
    [ -n "$w" ] && python3 -m zipfile -l "$w" | grep -q "shardlp/libshardlp.so" &&
        python3 -m zipfile -l "$w" | grep -q "shardlp/bin/shardlp" &&
        ok "pip wheel: $(basename "$w") carries libshardlp.so and bin/shardlp" || bad "wheel content: $w"
else
    bad "pip wheel: $(tail -10 "$T/wheel.log")"
fi
echo "python_package: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
