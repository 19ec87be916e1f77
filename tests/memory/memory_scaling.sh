#!/usr/bin/env bash
# Memory test of issue 4 (not in `make test`: it writes ~0.5 GB of shards and runs for
# about a minute; run it with `make test-memory`). A generated design-match LP of
# about 21 million nonzeros is written as 1x1 and 2x2 shards and solved for a fixed
# 200 iterations on 1 rank and on 4 ranks (2x2): the largest per-rank peak RSS on 4
# ranks must be at most 0.35 of the 1-rank peak.
set -u
BIN=${1:-build/shardlp}
MPIRUN="mpirun --allow-run-as-root --oversubscribe --mca btl self,vader"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
GEN="design-match --treated 9000 --controls 18000 --covariates 20 --neighbors 10"
"$BIN" gen $GEN --grid 1x1 --out "$TMP/s11" >/dev/null || exit 1
$MPIRUN -np 4 "$BIN" gen $GEN --grid 2x2 --out "$TMP/s22" >/dev/null || exit 1
"$BIN" solve "$TMP/s11" --iter-limit 200 --quiet --json "$TMP/one.json" || exit 1
$MPIRUN -np 4 "$BIN" solve "$TMP/s22" --iter-limit 200 --quiet --json "$TMP/four.json" || exit 1
python3 - "$TMP/one.json" "$TMP/four.json" <<'PY'
import json, sys
one, four = (json.load(open(p)) for p in sys.argv[1:3])
p1, p4 = one["peak_rss_bytes"][0], max(four["peak_rss_bytes"])
ratio = p4 / p1
print(f"nonzeros {one['nonzeros']}, iterations {one['iterations']} / {four['iterations']}")
print(f"1 rank (1x1): peak RSS {p1 / 2**20:.1f} MiB")
print("4 ranks (2x2): peak RSS per rank " + ", ".join(f"{v / 2**20:.1f}" for v in four["peak_rss_bytes"]) +
      f" MiB; nonzeros per rank {four['nnz_per_rank']}")
print(f"largest 4-rank peak / 1-rank peak = {ratio:.3f} (limit 0.35)")
ok = ratio <= 0.35 and one["nonzeros"] >= 20_000_000
print(("1 passed, 0 failed" if ok else "0 passed, 1 failed"))
sys.exit(0 if ok else 1)
PY
