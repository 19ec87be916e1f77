#!/usr/bin/env bash
# Termination forms and polishing against independent references: published optima
# (shared/lp/INDEX.tsv) and the independent checker (`shardlp check`), never the
# solver's own numbers. The detailed form (OR-Tools: --eps-abs/--eps-rel/--gap-rel)
# and the L-infinity norm reach the optimum when tight and stop earlier when loose;
# polishing solves scagr7 under the large-scale PDLP criterion, which the plain
# method does not reach in 10,000 iterations (docs/polishing.md).
# Usage: criteria.sh BUILD/shardlp REPO SHARED
set -uo pipefail
BIN=$(readlink -f "$1"); SHARED=$(readlink -f "$3")
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
AFIRO="$SHARED/lp/netlib/afiro.mps.gz"; AFIRO_OPT=-464.7531428571429
SCAGR7="$SHARED/lp/netlib/scagr7.mps.gz"; SCAGR7_OPT=-2331389.824
PUBLISHED=(--eps-abs 1e-8 --eps-rel 0 --gap-rel 1e-2 --norm linf)

json() { sed -n "s/.*\"$2\": \\([^,]*\\).*/\\1/p" "$1" | head -1; }
close() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; s = b < 0 ? -b : b; exit !(d <= t * (s > 1 ? s : 1)) }'; }
criterion() { sed -n "s/^$2 *\\([^ ]*\\).*/\\1/p" "$1"; }

# 1. detailed form, tight: the published optimum, and the checker passes
"$BIN" solve "$AFIRO" --quiet --eps-abs 1e-9 --eps-rel 0 --gap-rel 1e-10 --norm linf \
    --json "$TMP/tight.json" --sol "$TMP/tight.sol" || bad "tight detailed solve failed"
close "$(json "$TMP/tight.json" objective)" "$AFIRO_OPT" 1e-8 || bad "tight detailed objective $(json "$TMP/tight.json" objective)"
"$BIN" check "$AFIRO" "$TMP/tight.sol" --tol 1e-6 > "$TMP/check" || bad "checker rejects the tight detailed solution: $(tail -1 "$TMP/check")"
# loose: stops earlier and further from the optimum
"$BIN" solve "$AFIRO" --quiet --eps-abs 1e-1 --eps-rel 0 --gap-rel 1e-1 --norm linf --json "$TMP/loose.json" || bad "loose solve"
[ "$(json "$TMP/loose.json" iterations)" -lt "$(json "$TMP/tight.json" iterations)" ] ||
    bad "loose detailed form ran $(json "$TMP/loose.json" iterations) iterations, tight $(json "$TMP/tight.json" iterations)"

# 2. the relative form in both norms: the published optimum, the checker passes
for norm in l2 linf; do
    "$BIN" solve "$AFIRO" --quiet --tol 1e-8 --norm $norm --json "$TMP/$norm.json" --sol "$TMP/$norm.sol" || bad "--norm $norm"
    close "$(json "$TMP/$norm.json" objective)" "$AFIRO_OPT" 1e-6 || bad "--norm $norm objective $(json "$TMP/$norm.json" objective)"
    "$BIN" check "$AFIRO" "$TMP/$norm.sol" --tol 1e-6 > "$TMP/check" || bad "checker rejects --norm $norm: $(tail -1 "$TMP/check")"
done

# 3. polishing: optimal under the published criterion with feasible rows and columns
#    (the checker's normwise criteria) and the objective within the 1e-2 gap
"$BIN" solve "$SCAGR7" "${PUBLISHED[@]}" --polish --time-limit 60 --json "$TMP/p.json" \
    --sol "$TMP/p.sol" > "$TMP/p.log" || bad "polished solve failed"
grep -q "Model status        : Optimal" "$TMP/p.log" || bad "polish: $(grep 'Model status' "$TMP/p.log")"
[ "$(json "$TMP/p.json" polish_iterations)" -gt 0 ] || bad "no polishing iterations reported"
close "$(json "$TMP/p.json" objective)" "$SCAGR7_OPT" 1e-2 || bad "polished objective $(json "$TMP/p.json" objective)"
"$BIN" check "$SCAGR7" "$TMP/p.sol" > "$TMP/check"
for c in primal_row_rel stationarity_rel primal_bound_rel; do
    v=$(criterion "$TMP/check" $c)
    awk -v v="$v" 'BEGIN { exit !(v != "" && v <= 1e-8) }' || bad "polished $c = $v (checker)"
done
"$BIN" solve "$SCAGR7" "${PUBLISHED[@]}" --no-polish --iter-limit 10000 > "$TMP/np.log" || bad "unpolished solve failed"
grep -q "Model status        : Iteration limit reached" "$TMP/np.log" ||
    bad "without polishing scagr7 was expected to need more than 10,000 iterations: $(grep 'Model status' "$TMP/np.log")"

# Under the detailed criterion the verification is the criterion itself on the original
# model (docs/statuses.md step 4): absolute residuals in its norm, the solver's reduced
# costs, and no worst-coordinate demand where the gap's tolerance is loose. Under the
# published criterion (gap 1e-2) nesm's first polished point that meets it is optimal at
# once, at the published optimum to the gap, in a few thousand iterations (verified in
# the checker's relative terms it ran 132,256 iterations, and to a 20 s limit with the
# coordinate demand of 1e-6).
NESM="$SHARED/lp/netlib/nesm.mps.gz"; NESM_OPT=1.4076073035E+07
"$BIN" solve "$NESM" "${PUBLISHED[@]}" --polish --threads 1 --time-limit 20 > "$TMP/nesm.log" 2>&1
grep -q "Model status        : Optimal" "$TMP/nesm.log" || bad "nesm under the published criterion: $(grep 'Model status' "$TMP/nesm.log")"
close "$(sed -n 's/^Objective value *: *//p' "$TMP/nesm.log")" "$NESM_OPT" 1e-2 || bad "nesm objective"
grep "^Verification" "$TMP/nesm.log" | tail -1 | grep -q "(absolute L-inf), .*meets the tolerance" ||
    bad "nesm: the last verification was to meet in absolute L-inf terms: $(grep '^Verification' "$TMP/nesm.log" | tail -1)"
iters=$(sed -n 's/^Iterations *: *\([0-9]*\).*/\1/p' "$TMP/nesm.log")
[ "${iters:-999999}" -le 20000 ] || bad "nesm took ${iters:-?} iterations under the published criterion (at most 20,000 expected)"

[ "$fails" -eq 0 ] && echo "criteria: all checks passed"
exit $((fails > 0))
