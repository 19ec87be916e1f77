#!/usr/bin/env bash
# Memory test of issue 45 (not in `make test`: it writes ~1 GB of MPS files and shards;
# run with `make test-memory`). Two generated MPS files, one vector-heavy (mcf
# 400/5/100/50, 4.6M nonzeros) and one matrix-heavy (design-match 4000/8000/20/10, 9.3M
# nonzeros), are read by 4 ranks in parallel on the grid 2x2 (the mcf also by 2 ranks on
# 1x2, where a rank holds its columns once: the tighter case): each rank's peak at the
# end of the input phase must be at most 1.3 times its share, the peak it reaches when it
# reads the same model from shards of that grid (its block, slices and rows and nothing
# else; docs/parallel-input.md "Measured"). The run where rank 0 reads the file must exceed the
# bound on rank 0, or the measurement could not tell the two apart. The mcf written as
# an LP file is held to 2.2 times its share: the LP reader's mentions (every use of a
# name, sent to the name's owner) do not yet meet 1.3 (docs/parallel-input.md "LP
# files"); the bound keeps what was won.
set -u
BIN=${1:-build/shardlp}
MPIRUN="mpirun --allow-run-as-root --oversubscribe --mca btl self,vader"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
RUN="--iter-limit 1 --presolve off --threads 1 --quiet"
fail=0
check() { # NAME FORMAT LIMIT GRID GENERATOR...: write F.mps (F.lp: converted), the shards
          # of F.mps for GRID, then compare the read peaks
    local name=$1 format=$2 limit=$3 grid=$4; shift 4
    local np=$(( ${grid%x*} * ${grid#*x} ))
    "$BIN" gen "$@" --mps "$TMP/$name.mps" --quiet >/dev/null || return 1
    "$BIN" shard "$TMP/$name.mps" --grid "$grid" --out "$TMP/$name.shards" --quiet >/dev/null ||
        return 1
    if [ "$format" = lp ]; then
        "$BIN" convert "$TMP/$name.mps" "$TMP/$name.lp" --quiet >/dev/null || return 1
        rm "$TMP/$name.mps"
    fi
    local f="$TMP/$name.$format"
    $MPIRUN -np $np "$BIN" solve "$TMP/$name.shards" $RUN --json "$TMP/$name-share.json" ||
        return 1
    $MPIRUN -np $np "$BIN" solve "$f" --grid "$grid" $RUN --json "$TMP/$name-par.json" || return 1
    $MPIRUN -np $np "$BIN" solve "$f" --grid "$grid" --parallel-read off $RUN \
        --json "$TMP/$name-rank0.json" || return 1
    python3 - "$name ($format, $grid)" "$TMP/$name-share.json" "$TMP/$name-par.json" \
        "$TMP/$name-rank0.json" "$limit" "$np" <<'PY'
import json, sys
name, limit, np = sys.argv[1], float(sys.argv[5]), int(sys.argv[6])
share, par, rank0 = (json.load(open(p))["read_peak_rss_bytes"] for p in sys.argv[2:5])
ratios = [p / s for p, s in zip(par, share)]
mib = lambda v: ", ".join(f"{x / 2**20:.1f}" for x in v)
print(f"{name}: read peaks MiB per rank: parallel {mib(par)}; shares {mib(share)}; "
      f"rank 0 reading {mib(rank0)}")
print(f"{name}: parallel / share = {', '.join(f'{r:.3f}' for r in ratios)} (limit {limit}); "
      f"rank 0 reading / share on rank 0 = {rank0[0] / share[0]:.2f} (must exceed {limit})")
ok = len(par) == np and max(ratios) <= limit and rank0[0] / share[0] > limit
print(f"{name}: " + ("1 passed, 0 failed" if ok else "0 passed, 1 failed"))
sys.exit(0 if ok else 1)
PY
}
MCF="mcf --commodities 400 --factories 5 --warehouses 100 --stores 50"
check mcf mps 1.3 2x2 $MCF || fail=1
rm -rf "$TMP"/mcf*
check mcf mps 1.3 1x2 $MCF || fail=1
rm -rf "$TMP"/mcf*
check mcf lp 2.2 2x2 $MCF || fail=1
rm -rf "$TMP"/mcf*
check design-match mps 1.3 2x2 design-match --treated 4000 --controls 8000 --covariates 20 \
    --neighbors 10 || fail=1
exit $fail
