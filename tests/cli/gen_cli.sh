#!/usr/bin/env bash
# shardlp gen: for each family at a small size, the MPS written with --mps is solved by
# shardlp (--tol 1e-9; heat-source 1e-6 and production-inventory 1e-8, where tighter
# tolerances take PDHG millions of iterations) and by GLPK (glpsol, reading the same free
# MPS) and Clp (reading the LP file `shardlp convert` writes: Clp 1.17.6 rejects
# free-format MPS COLUMNS lines), and the optima must agree to 1e-6 relative; shards on
# 1x1, 2x2 and 1x3 pass `info --verify` (tests/unit/test_gen.c compares their entries
# with the MPS bit for bit); --sizes gives the published members' sizes (mcf, heat-source,
# production-inventory); a production-inventory member with too few stages is infeasible
# for GLPK and shardlp alike; bad parameters give one line on stderr and exit 2.
# Args: $1 shardlp binary, $2 repository root, $3 shared directory.
BIN=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
close() { # close A B: |A - B| <= 1e-6 max(1, |B|)
    awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b;
        if (m < 1) m = 1; exit !(a != "" && b != "" && d <= 1e-6 * m) }'
}
json_num() { sed -n "s/.*\"$2\": *\([-0-9.eE+]*\).*/\1/p" "$1" | head -1; }

SPECS=("mcf --commodities 3 --factories 2 --warehouses 4 --stores 5"
       "design-match --treated 8 --controls 12 --covariates 2 --neighbors 5"
       "qap --size 4"
       "transport --sources 6 --sinks 14 --neighbors 4"
       "heat-source --grid-size 5 --candidates 6 --sources 2 --measurements 5"
       "production-inventory --factories 2 --stages 12")
declare -A TOL=([heat-source]=1e-6 [production-inventory]=1e-8)
for spec in "${SPECS[@]}"; do
    kind=${spec%% *}
    tol=${TOL[$kind]:-1e-9}
    for scale in none benchmark; do
        tag="$kind/$scale"
        if ! "$BIN" gen $spec --scale $scale --seed 3 --grid 2x2 --out "$T/$kind.shards" \
                --mps "$T/$kind.mps" --quiet 2>"$T/err"; then
            bad "$tag: gen failed: $(cat "$T/err")"; continue
        fi
        for grid in 1x1 1x3; do
            "$BIN" gen $spec --scale $scale --seed 3 --grid $grid --out "$T/$kind-$grid.shards" \
                --quiet || bad "$tag: gen $grid"
            "$BIN" info "$T/$kind-$grid.shards" --verify >/dev/null 2>&1 && ok || bad "$tag: verify $grid"
        done
        "$BIN" info "$T/$kind.shards" --verify >/dev/null 2>&1 && ok || bad "$tag: verify 2x2"
        "$BIN" solve "$T/$kind.mps" --tol $tol --json "$T/s.json" --quiet >/dev/null 2>&1
        ours=$(json_num "$T/s.json" objective)
        grep -q '"status": *"optimal"' "$T/s.json" && ok || bad "$tag: shardlp status not optimal"
        if command -v glpsol >/dev/null 2>&1; then
            glpsol --freemps "$T/$kind.mps" -o "$T/glpk.txt" >/dev/null 2>&1
            ref=$(sed -n 's/^Objective: *[^=]*= *\([-0-9.eE+]*\).*/\1/p' "$T/glpk.txt")
            close "$ours" "$ref" && ok || bad "$tag: shardlp $ours, GLPK $ref"
            if command -v clp >/dev/null 2>&1; then
                "$BIN" convert "$T/$kind.mps" "$T/clp.lp" --quiet >/dev/null 2>&1
                ref=$(clp "$T/clp.lp" -dualsimplex 2>&1 | sed -n 's/^Optimal objective *\([-0-9.eE+]*\).*/\1/p')
                close "$ours" "$ref" && ok || bad "$tag: shardlp $ours, Clp $ref"
            else
                echo "skip: clp not installed"
            fi
        else
            echo "skip: glpsol not installed (no reference solver)"
        fi
        # The shard directory itself, once `solve DIR` is available.
        if "$BIN" solve "$T/$kind.shards" --tol $tol --json "$T/d.json" --quiet >/dev/null 2>&1; then
            close "$(json_num "$T/d.json" objective)" "$ours" && ok || bad "$tag: solve DIR differs"
        fi
    done
done

# Published members: sizes by formula (64-bit), nothing generated; rows = KF + W + KW + KS.
expect_sizes() {
    out=$("$BIN" gen mcf --commodities $1 --factories $2 --warehouses $3 --stores $4 --sizes)
    [ "$out" = "mcf: $5 rows, $6 columns, $7 nonzeros" ] && ok || bad "sizes $*: $out"
}
expect_sizes 5000 5 100 250 1775100 127500100 257500100
expect_sizes 8303 1000 1000 5 16648515 8344516000 24992031000
expect_sizes 34 20000 20000 5 1380170 13603420000 40806820000
# heat-source easy / hard (grid 400, 500 possible locations, 10 sources, 100 / 50
# measurements) and production-inventory (200 factories, 400 stages): counts from
# docs/generators.md, worked by hand there.
for meas in 100 50; do
    out=$("$BIN" gen heat-source --grid-size 400 --candidates 500 --sources 10 --measurements $meas --sizes)
    [ "$out" = "heat-source: 64000000 rows, 128964808 columns, 512000000 nonzeros" ] && ok || bad "heat sizes: $out"
done
out=$("$BIN" gen production-inventory --factories 200 --stages 400 --sizes)
[ "$out" = "production-inventory: 16361200 rows, 64560800 columns, 2310559600 nonzeros" ] && ok \
    || bad "production-inventory sizes: $out"

# --grid auto --ranks 4: gen scores the candidates from its closed-form counts and column
# patterns, shard from the model read back from the MPS; both must print the same
# candidates (bytes, hops) and pick the same grid, which the directory then has.
for spec in "mcf --commodities 6 --factories 3 --warehouses 20 --stores 30" \
            "design-match --treated 40 --controls 400 --covariates 4 --neighbors 10"; do
    kind=${spec%% *}
    "$BIN" gen $spec --grid auto --ranks 4 --out "$T/auto-$kind" --mps "$T/auto-$kind.mps" \
        2>&1 | grep -E '^  [0-9]+x' >"$T/gen-auto"
    "$BIN" shard "$T/auto-$kind.mps" --grid auto --ranks 4 --out "$T/auto-$kind-shard" \
        2>&1 | grep -E '^  [0-9]+x' >"$T/shard-auto"
    picked=$(sed -n 's/^  \([0-9]*x[0-9]*\) .*<- picked$/\1/p' "$T/gen-auto")
    grid=$(python3 -c "import json,sys; g=json.load(open(sys.argv[1]))['grid']; print('%dx%d' % tuple(g))" \
        "$T/auto-$kind/manifest.json" 2>/dev/null)
    [ -s "$T/gen-auto" ] && cmp -s "$T/gen-auto" "$T/shard-auto" && [ "$picked" = "$grid" ] && ok ||
        { bad "$kind grid auto: gen and shard differ (picked '$picked', directory '$grid')"; cat "$T/gen-auto" "$T/shard-auto"; }
done
[ "$(sed -n 's/^  \([0-9]*x[0-9]*\) .*<- picked$/\1/p' "$T/gen-auto")" != "" ] && ok || bad "no pick"

# Too few stages for the inventory band (docs/generators.md): infeasible for both.
"$BIN" gen production-inventory --factories 3 --stages 6 --mps "$T/pi6.mps" --quiet
"$BIN" solve "$T/pi6.mps" --json "$T/pi6.json" --quiet >/dev/null 2>&1
grep -q '"status": *"primal_infeasible"' "$T/pi6.json" && ok || bad "pi T=6: $(grep status "$T/pi6.json")"
if command -v glpsol >/dev/null 2>&1; then
    glpsol --freemps "$T/pi6.mps" 2>&1 | grep -q "NO PRIMAL FEASIBLE" && ok || bad "pi T=6: GLPK feasible"
fi

# Bad parameters: one line on stderr, exit 2, nothing written.
expect_error() { # PATTERN -- args...
    local pattern=$1
    shift 2
    "$BIN" gen "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    if [ $rc -ne 2 ] || [ "$(wc -l <"$T/err")" -ne 1 ] || ! grep -q -- "$pattern" "$T/err"; then
        bad "gen $*: exit $rc, stderr: $(cat "$T/err")"
    else
        ok
    fi
}
expect_error "unknown family 'tsp'" -- tsp --size 3 --out "$T/x"
expect_error "missing --stores" -- mcf --commodities 2 --factories 2 --warehouses 2 --out "$T/x"
expect_error "option --factories" -- mcf --commodities 2 --factories 0 --warehouses 2 --stores 2 --out "$T/x"
expect_error "option --size" -- qap --size abc --out "$T/x"
expect_error "--size must be at least 2" -- qap --size 1 --out "$T/x"
expect_error "unknown option --stores" -- qap --size 3 --stores 4 --out "$T/x"
expect_error "must be at least --treated" -- design-match --treated 9 --controls 4 --covariates 2 --neighbors 2 --out "$T/x"
expect_error "cannot reach 40 sinks" -- transport --sources 3 --sinks 40 --neighbors 4 --out "$T/x"
expect_error "bad grid\|grid" -- qap --size 3 --grid 0x2 --out "$T/x"
expect_error "nothing to write" -- qap --size 3
expect_error "does not fit in 64-bit" -- mcf --commodities 4000000000 --factories 4000000000 --warehouses 9 --stores 2 --sizes
expect_error "--mps is for small sizes" -- mcf --commodities 5000 --factories 5 --warehouses 100 --stores 250 --mps "$T/big.mps"
expect_error "option --scale" -- qap --size 3 --scale huge --out "$T/x"
expect_error "must be below --candidates" -- heat-source --grid-size 5 --candidates 3 --sources 3 --measurements 5 --out "$T/x"
expect_error "must exceed --sources" -- heat-source --grid-size 5 --candidates 6 --sources 2 --measurements 2 --out "$T/x"
expect_error "grid-size must be in" -- heat-source --grid-size 2 --candidates 6 --sources 2 --measurements 5 --out "$T/x"
expect_error "theta must be in" -- production-inventory --factories 2 --stages 12 --theta 1.5 --out "$T/x"
expect_error "theta is production-inventory" -- qap --size 3 --theta 0.1 --out "$T/x"
expect_error "--ranks is for --grid auto" -- qap --size 3 --grid 1x2 --ranks 2 --out "$T/x"
[ ! -e "$T/x" ] && ok || bad "a failed gen left $T/x behind"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
