# The generated LPs of bench/memory.sh and bench/threads.sh (docs/memory.md), defined
# once. Sourced; uses BIN (shardlp), PY (python), HERE (bench/) and WORK (scratch).
#
#   mcf-400       mcf, 400 commodities, 5 factories, 100 warehouses, 50 stores (4.6M nonzeros)
#   mcf-1000      the same with 1000 commodities (11.5M)
#   design-match  9000 treated, 18000 controls, 20 covariates, 10 neighbours (20.9M)
#   random        bench/gen.py's random pattern, 200k x 500k, 8 per column (4M)

# The `shardlp gen` arguments of a named LP ("random": bench/gen.py's pattern instead).
lp_args() {
    case $1 in
    mcf-400) echo "mcf --commodities 400 --factories 5 --warehouses 100 --stores 50" ;;
    mcf-1000) echo "mcf --commodities 1000 --factories 5 --warehouses 100 --stores 50" ;;
    design-match) echo "design-match --treated 9000 --controls 18000 --covariates 20 --neighbors 10" ;;
    random) echo random ;;
    *) echo "lps.sh: unknown LP '$1'" >&2; return 1 ;;
    esac
}

# make_shards NAME GRID-ARGS DIR: the LP written as shards (the random pattern's MPS file
# is kept in WORK for the next call; remove it when done).
make_shards() {
    local args grid=$2 dir=$3
    args=$(lp_args "$1")
    if [ "$args" = random ]; then
        [ -f "$WORK/random.mps" ] || "$PY" "$HERE/gen.py" --rows 200000 --cols 500000 \
            --nnz-per-col 8 --seed 1 --out "$WORK/random.mps" > /dev/null
        # shellcheck disable=SC2086
        "$BIN" shard "$WORK/random.mps" $grid --out "$dir" --quiet > /dev/null
    else
        # shellcheck disable=SC2086
        "$BIN" gen $args $grid --out "$dir" --quiet > /dev/null
    fi
}
