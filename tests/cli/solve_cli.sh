#!/usr/bin/env bash
# Command-line contract of `shardlp solve` (docs/cli.md): published
# optima through the CLI, stable final lines, HiGHS spellings, the MODEL alias,
# JSON keys, and one-line errors with non-zero exit for bad input.
set -u
BIN=$1; ROOT=$2; SHARED=$3
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
pass=0; fail=0
ok()  { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }

# expect_error DESCRIPTION PATTERN -- command...: non-zero exit, exactly one stderr
# line starting "shardlp: error:" and matching PATTERN, no crash (exit < 128).
expect_error() {
    local what=$1 pattern=$2; shift 3
    "$@" >"$TMP/out" 2>"$TMP/err"; local code=$?
    local lines; lines=$(grep -c . "$TMP/err")
    if [ $code -eq 0 ] || [ $code -ge 128 ] || [ "$lines" -ne 1 ] || ! grep -q "^shardlp: error: .*$pattern" "$TMP/err"; then
        bad "$what (exit $code): $(cat "$TMP/err")"
    else ok; fi
}

# objective_close FILE REF RELTOL: the "Objective value" line matches REF
objective_close() {
    python3 - "$1" "$2" "$3" <<'PY'
import sys, re
text = open(sys.argv[1]).read()
m = re.search(r"^Objective value\s+:\s+(\S+)$", text, re.M)
s = re.search(r"^Model status\s+:\s+Optimal$", text, re.M)
ref, tol = float(sys.argv[2]), float(sys.argv[3])
sys.exit(0 if m and s and abs(float(m.group(1)) - ref) <= tol * max(1, abs(ref)) else 1)
PY
}

# Published optima (INDEX.tsv): afiro, e226 with the objective constant (-RHS convention),
# a maximisation built from afiro below.
"$BIN" solve "$SHARED/lp/netlib/afiro.mps.gz" --tol 1e-8 >"$TMP/afiro.log" 2>&1 \
    && objective_close "$TMP/afiro.log" -464.7531428571 1e-6 && ok || bad "afiro objective"
"$BIN" solve "$SHARED/lp/netlib/e226.mps.gz" --tol 1e-8 >"$TMP/e226.log" 2>&1 \
    && objective_close "$TMP/e226.log" -11.63892907 1e-6 && ok || bad "e226 objective with constant"

# The MODEL alias and HiGHS spellings, with an options file.
printf 'time_limit = 100\nsolution_file = %s\nunused_option = true\n' "$TMP/h.sol" > "$TMP/opts"
"$BIN" --model_file "$SHARED/lp/netlib/afiro.mps.gz" --options_file "$TMP/opts" >"$TMP/h.log" 2>&1 \
    && grep -q "^Model status        : Optimal$" "$TMP/h.log" && [ -s "$TMP/h.sol" ] && ok || bad "HiGHS spellings"
"$BIN" "$SHARED/lp/netlib/afiro.mps.gz" --time_limit 50 --solution_file "$TMP/h2.sol" >/dev/null 2>&1 \
    && head -2 "$TMP/h2.sol" | grep -q "^Optimal$" && ok || bad "alias with --time_limit/--solution_file"
"$BIN" --version | grep -q "^shardlp " && ok || bad "--version"

# Solution written by solve passes the independent checker at 1e-6 (tol 1e-8 solve).
"$BIN" solve "$SHARED/lp/netlib/sc50b.mps.gz" --tol 1e-8 --sol "$TMP/sc.sol" --quiet \
    && "$BIN" check "$SHARED/lp/netlib/sc50b.mps.gz" "$TMP/sc.sol" --tol 1e-6 --quiet && ok || bad "solve + check sc50b"

# JSON summary has the contract keys.
"$BIN" solve "$SHARED/lp/netlib/afiro.mps.gz" --json "$TMP/run.json" --quiet && python3 - "$TMP/run.json" <<'PY' && ok || bad "json keys"
import json, sys
d = json.load(open(sys.argv[1]))
keys = ["status", "objective", "dual_objective", "iterations", "solve_seconds", "total_seconds",
        "rel_primal_residual", "rel_dual_residual", "rel_gap", "grid", "ranks", "comm",
        "peak_rss_bytes", "nnz_per_rank"]
missing = [k for k in keys if k not in d]
assert not missing, missing
assert d["status"] == "optimal" and d["grid"] == [1, 1] and d["ranks"] == 1
assert set(d["comm"]) >= {"mode", "dense_hops_per_iter", "support_hops_per_iter"}
assert len(d["peak_rss_bytes"]) == 1 and d["peak_rss_bytes"][0] > 0 and d["nnz_per_rank"] == [83]
mem, peak = d["memory"], d["peak_rss_bytes"][0]
assert mem["peak_bytes_all_ranks"] == peak == mem["peak_bytes_largest_rank"], mem
assert abs(mem["bytes_per_nonzero"] - peak / 83) <= 1e-9 * peak, mem        # afiro: 83 nonzeros
assert abs(mem["bytes_per_row_and_column"] - peak / (27 + 32)) <= 1e-9 * peak, mem
PY

# Maximisation: afiro's objective negated and OBJSENSE MAX gives +464.75...
zcat "$SHARED/lp/netlib/afiro.mps.gz" | awk '/^ROWS/{print "OBJSENSE"; print "    MAX"} {print}' \
    | sed -E 's/^(    [A-Z0-9]+ +COST +)(-?)/\1\2/' > "$TMP/afiro_max.mps"
python3 - "$TMP/afiro_max.mps" <<'PY'
import sys
# negate every COST coefficient so that max(-c x) = -min(c x) = 464.753...
p = sys.argv[1]; out = []
for line in open(p):
    t = line.split()
    if len(t) >= 3 and t[1] == "COST":
        t[2] = repr(-float(t[2])); line = "    " + "  ".join(t) + "\n"
    elif len(t) >= 5 and t[3] == "COST":
        t[4] = repr(-float(t[4])); line = "    " + "  ".join(t) + "\n"
    out.append(line)
open(p, "w").writelines(out)
PY
"$BIN" solve "$TMP/afiro_max.mps" --tol 1e-8 >"$TMP/max.log" 2>&1 \
    && objective_close "$TMP/max.log" 464.7531428571 1e-6 && ok || bad "maximisation"

# CSV trace: a header and one row per check, the last row at the final iteration count;
# at the default 1e-4 a check every 32 iterations (docs/algorithm.md section 3).
"$BIN" solve "$SHARED/lp/netlib/afiro.mps.gz" --log-csv "$TMP/trace.csv" --json "$TMP/tr.json" --quiet \
    && python3 - "$TMP/trace.csv" "$TMP/tr.json" <<'PY' && ok || bad "--log-csv trace"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
run = json.load(open(sys.argv[2]))
assert rows and int(rows[-1]["iteration"]) == run["iterations"], (len(rows), run["iterations"])
assert [int(r["iteration"]) for r in rows] == list(range(32, run["iterations"] + 1, 32))
assert abs(float(rows[-1]["rel_gap"]) - run["rel_gap"]) <= 1e-12
PY
expect_error "unwritable trace" "trace" -- "$BIN" solve "$SHARED/lp/netlib/afiro.mps.gz" --log-csv "$TMP/no/dir/t.csv"

# Infeasible and unbounded LPs are results (exit 0), never "optimal".
"$BIN" solve "$SHARED/lp/netlib-infeas/itest6.mps.gz" --time-limit 60 --json "$TMP/inf.json" >"$TMP/inf.log" 2>&1 \
    && grep -q '"status": "primal_infeasible"' "$TMP/inf.json" \
    && grep -q "^Model status        : Infeasible$" "$TMP/inf.log" && ok || bad "itest6 primal_infeasible"
# refinery's certificate comes from the epoch's displacement (59,200 iterations; the last
# step's ray alone needs 529,792, docs/infeasibility.md "The two rays").
"$BIN" solve "$SHARED/lp/netlib-infeas/refinery.mps.gz" --iter-limit 200000 --threads 1 --json "$TMP/ref.json" >/dev/null 2>&1 \
    && grep -q '"status": "primal_infeasible"' "$TMP/ref.json" && ok || bad "refinery primal_infeasible by the epoch ray"
# min -x - y s.t. x - y <= 1, x, y >= 0: unbounded along (1, 1) (hand-made).
printf 'NAME UNB\nROWS\n N obj\n L c1\nCOLUMNS\n x obj -1 c1 1\n y obj -1 c1 -1\nRHS\n rhs c1 1\nENDATA\n' > "$TMP/unb.mps"
"$BIN" solve "$TMP/unb.mps" --no-presolve --time-limit 60 --json "$TMP/unb.json" >/dev/null 2>&1 \
    && grep -q '"status": "dual_infeasible"' "$TMP/unb.json" && ok || bad "unbounded LP dual_infeasible"
"$BIN" solve "$TMP/unb.mps" --time-limit 60 --json "$TMP/unb2.json" >/dev/null 2>&1 \
    && grep -q '"status": "dual_infeasible"' "$TMP/unb2.json" && ok || bad "unbounded LP dual_infeasible (presolve on)"

# Bad input: one line, non-zero exit.
expect_error "missing file" "nonexistent" -- "$BIN" solve "$TMP/nonexistent.mps"
expect_error "non-numeric time limit" "time-limit" -- "$BIN" solve "$SHARED/lp/netlib/afiro.mps.gz" --time-limit abc
expect_error "negative tolerance" "tol" -- "$BIN" solve "$SHARED/lp/netlib/afiro.mps.gz" --tol -1
expect_error "unknown option" "unknown option" -- "$BIN" solve "$SHARED/lp/netlib/afiro.mps.gz" --frobnicate 3
expect_error "bad norm" "norm" -- "$BIN" solve "$SHARED/lp/netlib/afiro.mps.gz" --norm l3
expect_error "grid needs more ranks" "ranks" -- "$BIN" solve "$SHARED/lp/netlib/afiro.mps.gz" --grid 2x2
expect_error "bad grid text" "grid" -- "$BIN" solve "$SHARED/lp/netlib/afiro.mps.gz" --grid 2by2
expect_error "garbage MPS" "garbage.mps:[0-9]" -- "$BIN" solve "$SHARED/mps-edge/garbage.mps"
expect_error "NaN in MPS" "nan1.mps:[0-9]" -- "$BIN" solve "$SHARED/mps-edge/nan1.mps"
expect_error "quadratic objective" "qjh_quadobj.mps" -- "$BIN" solve "$SHARED/mps-edge/qjh_quadobj.mps"
expect_error "no model" "no model" -- "$BIN" solve
expect_error "unwritable solution" "cannot" -- "$BIN" solve "$SHARED/lp/netlib/afiro.mps.gz" --sol "$TMP/no/such/dir/x.sol"
[ ! -e "$TMP/no/such/dir/x.sol" ] && ok || bad "partial solution file left behind"
printf 'LP\nROWS\n N obj\n L c1\nCOLUMNS\n x obj 1 c1 1\nRHS\n rhs c1 1\nBOUNDS\n UP bnd x -5\n LO bnd x 3\nENDATA\n' > "$TMP/inconsistent.mps"
expect_error "inconsistent bounds" "inconsistent.mps" -- "$BIN" solve "$TMP/inconsistent.mps"

# The library names options as options files, the C API and Python do (comm_lib = nccl);
# the command line's error line spells them as it takes them (docs/cli.md).
expect_error "nccl without cuda" "--comm-lib nccl needs --backend cuda" -- "$BIN" solve "$SHARED/lp/netlib/afiro.mps.gz" --comm-lib nccl
expect_error "grid named as an option" "--grid 2x2 needs 4 ranks" -- "$BIN" solve "$SHARED/lp/netlib/afiro.mps.gz" --grid 2x2

# The other primal-weight rule (--weight-rule hpr, docs/algorithm.md section 3) reaches
# the published optima at 1e-8 too (afiro; e226 with its objective constant; scagr7).
for inst in afiro:-464.7531428571 e226:-11.63892907 scagr7:-2331389.824; do
    "$BIN" solve "$SHARED/lp/netlib/${inst%%:*}.mps.gz" --tol 1e-8 --weight-rule hpr >"$TMP/hpr.log" 2>&1 \
        && objective_close "$TMP/hpr.log" "${inst#*:}" 1e-6 && ok || bad "--weight-rule hpr: ${inst%%:*}"
done
expect_error "unknown weight rule" "weight-rule" -- "$BIN" solve "$SHARED/lp/netlib/afiro.mps.gz" --weight-rule pdlp

# A warm start from a run's own optimum (--sol, then --start: column values and row
# duals; presolve is off for it, docs/statuses.md "Warm starts") at the same tolerance
# ends in at most 10% of the cold iterations, at the published optimum.
for inst in netlib/25fv47:5501.8458883 netlib/scagr7:-2331389.824 kennington/pds-02:28857862010; do
    name=${inst%%:*} ref=${inst#*:} model="$SHARED/lp/${inst%%:*}.mps.gz"
    "$BIN" solve "$model" --tol 1e-8 --threads 1 --quiet --sol "$TMP/cold.sol" --json "$TMP/cold.json" &&
    "$BIN" solve "$model" --tol 1e-8 --threads 1 --start "$TMP/cold.sol" --json "$TMP/warm.json" \
        > "$TMP/warm.log" 2>&1 &&
    grep -q "^Presolve: off for a warm start with row duals" "$TMP/warm.log" &&
    python3 - "$TMP/cold.json" "$TMP/warm.json" "$ref" "$name" <<'PY' && ok || bad "warm start from the optimum: $name"
import json, sys
cold, warm = (json.load(open(p)) for p in sys.argv[1:3])
ref = float(sys.argv[3])
print(f"{sys.argv[4]}: cold {cold['iterations']}, warm {warm['iterations']} iterations, "
      f"{warm['status']} {warm['objective']!r}")
sys.exit(0 if warm["status"] == "optimal" and warm["iterations"] <= 0.1 * cold["iterations"]
         and abs(warm["objective"] - ref) <= 1e-6 * abs(ref) else 1)
PY
done

# A start whose x is nearly 0 and whose y is right (an mcf's optimum with x times 1e-6)
# gives ||y~0|| / ||x~0|| near 1e6; the initial weight is kept within [1/100, 100]
# (docs/algorithm.md section 3): the first check's weight is at most 100 and the solve
# ends optimal within twice the cold iterations (with the ratio itself it ran into a
# 20 s limit at 97,000 iterations against 12,048 cold).
"$BIN" gen mcf --commodities 30 --factories 3 --warehouses 20 --stores 40 --mps "$TMP/wmcf.mps" \
    --quiet && "$BIN" solve "$TMP/wmcf.mps" --tol 1e-6 --threads 1 --quiet --sol "$TMP/wmcf.sol" \
    --json "$TMP/wcold.json" || bad "tiny-x start: the cold solve"
python3 - "$TMP/wmcf.sol" "$TMP/tiny.sol" <<'PY' || bad "tiny-x start: the start file"
import sys
lines, out, k = open(sys.argv[1]).read().split("\n"), [], 0
while k < len(lines):
    out.append(lines[k])
    if lines[k].startswith("# Columns") and "# Dual" not in "\n".join(out[:-1]):
        n = int(lines[k].split()[2])
        out += ["%s %r" % (c.split()[0], 1e-6 * float(c.split()[1])) for c in lines[k + 1:k + 1 + n]]
        k += n
    k += 1
open(sys.argv[2], "w").write("\n".join(out))
PY
"$BIN" solve "$TMP/wmcf.mps" --tol 1e-6 --threads 1 --start "$TMP/tiny.sol" --time-limit 60 \
    --json "$TMP/tiny.json" > "$TMP/tiny.log" 2>&1 || bad "tiny-x start: exit $?"
python3 - "$TMP/wcold.json" "$TMP/tiny.json" "$TMP/tiny.log" <<'PY' && ok || bad "tiny-x start"
import json, sys
cold, warm = (json.load(open(p)) for p in sys.argv[1:3])
rows = [l.split() for l in open(sys.argv[3]) if l.strip().split(" ")[0].rstrip("*").isdigit()]
first_weight = float(rows[0][-1])
print(f"tiny-x start: first weight {first_weight}, {warm['status']} in {warm['iterations']} "
      f"iterations (cold {cold['iterations']})")
sys.exit(0 if first_weight <= 100 and warm["status"] == "optimal"
         and warm["iterations"] <= 2 * cold["iterations"] else 1)
PY

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
