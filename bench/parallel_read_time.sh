#!/usr/bin/env bash
# Reading time and peak memory of the input phase (docs/parallel-input.md "Measured"):
# `shardlp solve F --iter-limit 1 --presolve off --threads 1 --json J` on 1 process, on
# 4 ranks (2x2) with the parallel reader and with rank 0 reading, and on 2 ranks (1x2),
# ROUNDS times in turn; prints the JSON's read_seconds, read_peak_rss_bytes and
# peak_rss_bytes per rank, and at the end issue 45's ratio (4 ranks 2x2 / one process)
# of each round and their median. Usage:
#   bash bench/parallel_read_time.sh MODEL.mps [ROUNDS] [shardlp]
F=$1
ROUNDS=${2:-2}
B=${3:-build/shardlp}
MPI=${MPIRUN:-mpirun --allow-run-as-root --oversubscribe --mca btl self,vader}
O="--iter-limit 1 --presolve off --threads 1 --quiet"
J=$(mktemp); R=$(mktemp)
trap 'rm -f "$J" "$R"' EXIT
show() {
    python3 - "$1" "$J" "$R" "$round" <<'PY'
import json, sys
j = json.load(open(sys.argv[2]))
open(sys.argv[3], "a").write(f"{sys.argv[4]}\t{sys.argv[1]}\t{j['read_seconds']}\n")
mib = lambda k: [round(x / 2**20) for x in j[k]]
print("%-28s read %.2f s  read peak MiB %s  run peak MiB %s"
      % (sys.argv[1], j["read_seconds"], mib("read_peak_rss_bytes"), mib("peak_rss_bytes")), flush=True)
PY
}
uptime
for round in $(seq 1 "$ROUNDS"); do
    $B solve "$F" $O --parallel-read off --json "$J" >/dev/null && show "1 process"
    $MPI -np 4 $B solve "$F" $O --grid 2x2 --json "$J" >/dev/null && show "4 ranks 2x2, parallel"
    $MPI -np 4 $B solve "$F" $O --grid 2x2 --parallel-read off --json "$J" >/dev/null &&
        show "4 ranks 2x2, rank 0 reads"
    $MPI -np 2 $B solve "$F" $O --grid 1x2 --json "$J" >/dev/null && show "2 ranks 1x2, parallel"
done
python3 - "$R" <<'PY'
import statistics, sys
one, four = {}, {}  # by round: a failed run leaves its round out
for line in open(sys.argv[1]):
    rnd, what, sec = line.rstrip("\n").split("\t")
    if what == "1 process":
        one[rnd] = float(sec)
    elif what == "4 ranks 2x2, parallel":
        four[rnd] = float(sec)
ratios = [four[r] / one[r] for r in sorted(one, key=int) if r in four]
if ratios:
    print("ratio 4 ranks 2x2 / 1 process per round:", ", ".join(f"{r:.2f}" for r in ratios),
          f"(median {statistics.median(ratios):.2f})")
PY
uptime
