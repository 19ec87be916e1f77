#!/usr/bin/env bash
# The option table (src/run/option_table.c) against its documentation and its
# parser: docs/cli.md carries exactly `shardlp options --markdown`; every option
# name appears in `solve --help`; spellings (--name=value, --name value, HiGHS
# `--presolve off`, --no-name, '_' for '-') give the same run; bad names and values
# are one line naming the option; options files apply the same names.
# Usage: options_table.sh BUILD/shardlp REPO SHARED
set -uo pipefail
BIN=$(readlink -f "$1"); REPO=$(readlink -f "$2")
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
MODEL="$REPO/examples/data/afiro.mps"

# 1. docs/cli.md == the generated table
"$BIN" options --markdown > "$TMP/table.md" || bad "options --markdown"
sed -n '/<!-- options:begin -->/,/<!-- options:end -->/p' "$REPO/docs/cli.md" | sed '1d;$d' > "$TMP/doc.md"
diff -u "$TMP/doc.md" "$TMP/table.md" > "$TMP/diff" ||
    bad "docs/cli.md differs from the option table (run scripts/gen-cli-docs.sh): $(head -20 "$TMP/diff")"
"$BIN" solve --help > "$TMP/help" || bad "solve --help"
for name in $(sed -n 's/^| `--\([a-z-]*\).*/\1/p' "$TMP/table.md"); do
    grep -q -- "--$name" "$TMP/help" || bad "--help does not show --$name"
done

# 2. spellings of one setting give the same run
# the run's iterations and the nonzeros presolve removed (both change with the setting)
iters() { "$BIN" solve "$MODEL" --quiet --json "$TMP/j.json" "$@" > /dev/null 2> "$TMP/err" &&
          echo "$(sed -n 's/.*"iterations": \([0-9]*\).*/\1/p' "$TMP/j.json")/$(sed -n 's/.*"nnz_removed": \([0-9]*\).*/\1/p' "$TMP/j.json")"; }
ref=$(iters --tol 1e-6 --no-presolve)
[ -n "$ref" ] || bad "reference run failed: $(cat "$TMP/err")"
for spelling in "--presolve=off" "--presolve off" "--presolve false" "--presolve=0"; do
    # shellcheck disable=SC2086
    got=$(iters --tol=1e-6 $spelling)
    [ "$got" = "$ref" ] || bad "$spelling: $got iterations, --no-presolve $ref"
done
got=$(iters --tol 1e-6 --presolve choose)
on=$(iters --tol 1e-6)
[ "$got" = "$on" ] || bad "--presolve choose ($got) is not the default ($on)"
[ "$on" != "$ref" ] || bad "presolve on and off gave the same run (iterations/removed $on): the setting did nothing"
got=$(iters --tol 1e-6 --iter_limit 400 --time_limit 100)
[ "${got%%/*}" = 400 ] || bad "--iter_limit 400 (underscores) ran ${got%%/*}"

# 3. bad names and values: one line naming the option
refuse() { # EXPECTED-TEXT ARGS...
    local want="$1"; shift
    "$BIN" solve "$MODEL" "$@" > "$TMP/out" 2> "$TMP/err"
    local rc=$?
    [ "$rc" -ne 0 ] || { bad "$*: accepted"; return; }
    [ "$(wc -l < "$TMP/err")" -eq 1 ] || bad "$*: not one line: $(cat "$TMP/err")"
    grep -qF -- "$want" "$TMP/err" || bad "$*: message '$(cat "$TMP/err")' lacks '$want'"
}
refuse "unknown option --no-such" --no-such 1
refuse "option norm: 'l3' is not one of l2/linf" --norm l3
refuse "option time-limit: 'abc' is not a number" --time-limit abc
refuse "option checkpoint-every: 0 is out of range" --checkpoint-every 0
refuse "option threads: 5000 is out of range [0, 4096]" --threads 5000
refuse "option presolve: 'maybe' is not true or false" --presolve=maybe
refuse "option tol needs a value" --tol
refuse "option grid" --grid 2by2

# 4. options files: the same names (HiGHS's and shardlp's), errors with FILE:LINE
printf '# HiGHS style\npresolve = off\nprimal_feasibility_tolerance = 1e-6\nmip_heuristic_effort = 0.5\n' > "$TMP/a.opt"
got=$(iters --options_file "$TMP/a.opt")
[ "$got" = "$ref" ] || bad "options file (presolve = off, tolerance 1e-6): $got iterations, want $ref"
grep -q "mip_heuristic_effort" "$TMP/err" || bad "no warning for an option shardlp does not use"
printf 'time_limit = soon\n' > "$TMP/b.opt"
refuse "b.opt:1: option time_limit: 'soon' is not a number" --options-file "$TMP/b.opt"
printf 'options_file = %s\n' "$TMP/c.opt" > "$TMP/c.opt"
refuse "nested more than" --options-file "$TMP/c.opt"

[ "$fails" -eq 0 ] && echo "options_table: all checks passed"
exit $((fails > 0))
