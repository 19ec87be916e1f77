#!/usr/bin/env bash
# CPLEX LP files and compressed input (docs/lp-format.md, docs/mps.md "Compressed input"):
#  1. hand-solved LP files (tests/data/lp: every-construct 21.2, spellings 4) solve to
#     their optimum, plain and compressed with gzip, bzip2 and xz;
#  2. afiro as .mps.bz2, .mps.xz, .mps.zst and as two concatenated gzip members solves to the
#     published optimum; the compression is found by content (no extension needed);
#  3. cut and damaged compressed files, and malformed LP files, end with one error line
#     naming FILE:LINE or the file, a non-zero exit and no solution file.
set -u
BIN=$1; ROOT=$2; SHARED=$3
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
D=$ROOT/tests/data/lp
pass=0; fail=0
ok() { echo "ok: $*"; pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
objective_is() { # file expected
    "$BIN" solve "$1" --tol 1e-9 --quiet --json "$T/r.json" 2>"$T/err" || { bad "$1: $(cat "$T/err")"; return; }
    python3 - "$T/r.json" "$2" "$1" <<'PY' && ok "$(basename "$1") objective $2" || bad "$(basename "$1")"
import json, sys
r = json.load(open(sys.argv[1])); ref = float(sys.argv[2])
print(f"{sys.argv[3]}: {r['status']} {r['objective']!r}")
sys.exit(0 if r["status"] == "optimal" and abs(r["objective"] - ref) <= 1e-6 * max(1, abs(ref)) else 1)
PY
}

# 1.
for f in every-construct:21.2 spellings:4; do
    name=${f%%:*}; ref=${f#*:}
    objective_is "$D/$name.lp" "$ref"
    gzip -c "$D/$name.lp" > "$T/$name.lp.gz"; objective_is "$T/$name.lp.gz" "$ref"
    bzip2 -c "$D/$name.lp" > "$T/$name.lp.bz2"; objective_is "$T/$name.lp.bz2" "$ref"
    xz -c "$D/$name.lp" > "$T/$name.noext"; objective_is "$T/$name.noext" "$ref"
done

# anything after End is not read, not even a first token (the parallel reader's
# libFuzzer target found the one-process reader reading one)
{ cat "$D/every-construct.lp"; printf '\330\330 junk *\n'; } >"$T/after-end.lp"
objective_is "$T/after-end.lp" 21.2

# 2.
AFIRO=$ROOT/examples/data/afiro.mps; AFIRO_OPT=-464.7531428571
bzip2 -c "$AFIRO" > "$T/afiro.mps.bz2"; objective_is "$T/afiro.mps.bz2" $AFIRO_OPT
xz -c "$AFIRO" > "$T/afiro.mps.xz"; objective_is "$T/afiro.mps.xz" $AFIRO_OPT
xz -c "$AFIRO" > "$T/afiro-xz-named.mps"; objective_is "$T/afiro-xz-named.mps" $AFIRO_OPT
if command -v zstd >/dev/null 2>&1; then
    zstd -q -c "$AFIRO" > "$T/afiro.mps.zst"; objective_is "$T/afiro.mps.zst" $AFIRO_OPT
    head -c 300 "$T/afiro.mps.zst" > "$T/cut.mps.zst"
else
    echo "skip: zstd not installed (scripts/install-deps.sh installs it)"
fi
half=$(( $(wc -l < "$AFIRO") / 2 ))
{ head -n $half "$AFIRO" | gzip -c; tail -n +$((half + 1)) "$AFIRO" | gzip -c; } > "$T/two-members.mps.gz"
objective_is "$T/two-members.mps.gz" $AFIRO_OPT

# 3.
refused() { # file expected-text
    "$BIN" solve "$1" --quiet --sol "$T/never.sol" >"$T/out" 2>"$T/err"; local rc=$?
    if [ $rc -ne 0 ] && [ "$(wc -l < "$T/err")" = 1 ] && grep -qF -- "$2" "$T/err" && [ ! -e "$T/never.sol" ]; then
        ok "refused: $(cat "$T/err")"
    else
        bad "$(basename "$1"): rc $rc, stderr: $(cat "$T/err")"
    fi
}
head -c 400 "$T/afiro.mps.xz" > "$T/cut.mps.xz"; refused "$T/cut.mps.xz" "unexpected end of compressed data"
head -c 300 "$T/afiro.mps.bz2" > "$T/cut.mps.bz2"; refused "$T/cut.mps.bz2" "unexpected end of compressed data"
[ -e "$T/cut.mps.zst" ] && refused "$T/cut.mps.zst" "unexpected end of compressed data"
python3 - "$T/afiro.mps.bz2" "$T/bad.mps.bz2" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read()); b[len(b) // 2] ^= 0xff
open(sys.argv[2], "wb").write(bytes(b))
PY
refused "$T/bad.mps.bz2" "bad.mps.bz2"
refused "$D/quadratic.lp" "quadratic.lp:2: quadratic terms are not supported"
refused "$D/sos.lp" "sos.lp:5: 'sos' sections are not supported"
refused "$D/no-comparison.lp" "no-comparison.lp:4: constraint without a comparison"
refused "$D/duplicate-row.lp" "duplicate-row.lp:5: constraint name 'c1' used twice"
refused "$D/bad-character.lp" "bad-character.lp:4: unexpected character '*'"
refused "$D/no-objective.lp" "no-objective.lp:1: the file must start with Minimize or Maximize"
# a NUL byte inside a line, here a comment's (once the line after it was read as the
# comment's rest, hiding the objective's keyword; the libFuzzer target of the parallel
# reader found it)
printf '\\ a comment \000 with a NUL\nminimize\n obj: x\nst\n c: x >= 1\nend\n' >"$T/nul.lp"
refused "$T/nul.lp" "nul.lp:1: NUL byte in the line"

echo "lp_compressed: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
