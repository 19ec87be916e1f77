#!/usr/bin/env bash
# Two "nodes" on one machine (docs/cluster.md): two network namespaces joined by a veth
# pair, Open MPI over TCP between them, its daemons started inside each namespace by a
# launcher agent (plm_rsh_agent) in place of ssh. Checks:
#  1. ranks 0-1 run in the first namespace and ranks 2-3 in the second;
#  2. a 4-rank solve of a 2x2 shard directory across the two nodes gives the single-node
#     4-rank answer bit for bit (objective, iterations);
#  3. killing every process of the second namespace mid-solve ends the remaining ranks
#     within 30 s with a non-zero exit, Open MPI's message naming the lost node, and no
#     process left behind; the ranks ignore SIGPIPE, so that the survivors' writes to the
#     lost node fail as errors Open MPI reports rather than killing a local rank.
# Skipped (with a message, exit 0) where network namespaces cannot be made (not root,
# no `ip netns`).
# Args: $1 shardlp binary, $2 repository root, $3 shared directory.
BIN=$(readlink -f "$1")
SHARED=${3:-$2/../shared}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

T=$(mktemp -d)
TAG=s$$
NA=${TAG}a NB=${TAG}b
NET=10.$((200 + $$ % 50)).$(($$ % 250)) # a /24 of our own
cleanup() {
    for ns in "$NA" "$NB"; do
        ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null
        ip netns del "$ns" 2>/dev/null
    done
    rm -rf "$T"
}
trap cleanup EXIT
if ! command -v ip >/dev/null 2>&1 || ! ip netns add "$NA" 2>"$T/err"; then
    echo "skip: network namespaces are not available here ($(head -1 "$T/err" 2>/dev/null))"
    exit 0
fi
ip netns add "$NB" && ip link add "${TAG}x" type veth peer name "${TAG}y" &&
    ip link set "${TAG}x" netns "$NA" && ip link set "${TAG}y" netns "$NB" &&
    ip -n "$NA" addr add "$NET.1/24" dev "${TAG}x" && ip -n "$NB" addr add "$NET.2/24" dev "${TAG}y" &&
    ip -n "$NA" link set "${TAG}x" up && ip -n "$NB" link set "${TAG}y" up &&
    ip -n "$NA" link set lo up && ip -n "$NB" link set lo up 2>"$T/err" ||
    { echo "skip: a veth pair between namespaces cannot be made here ($(head -1 "$T/err"))"; exit 0; }

# The launcher agent: Open MPI calls it as `agent HOST COMMAND...` to start its daemon on
# HOST; here HOST is an address and the daemon starts inside that address's namespace,
# under a host name of its own (a UTS namespace) where `unshare --uts` works, so that
# every form of Open MPI's node-loss message (by address or by host name) names the lost
# node; elsewhere under the machine's name (the message check then needs the address).
if unshare --uts true 2>/dev/null && command -v hostname >/dev/null; then
    UTS="unshare --uts"
else
    UTS=""
fi
cat >"$T/agent.sh" <<EOF
#!/bin/sh
host=\$1; shift
case \$host in
    $NET.1) ns=$NA name=${TAG}-node1 ;;
    $NET.2) ns=$NB name=${TAG}-node2 ;;
    *) echo "agent: unknown host \$host" >&2; exit 1 ;;
esac
if [ -n "$UTS" ]; then
    exec ip netns exec \$ns $UTS /bin/sh -c "hostname \$name && \$*"
fi
exec ip netns exec \$ns /bin/sh -c "\$*"
EOF
chmod +x "$T/agent.sh"
printf '%s slots=2\n%s slots=2\n' "$NET.1" "$NET.2" >"$T/hosts"
TCP=(--allow-run-as-root --hostfile "$T/hosts" --mca plm_rsh_agent "$T/agent.sh"
     --mca plm_rsh_no_tree_spawn 1 --mca btl tcp,self --mca btl_tcp_if_include "$NET.0/24"
     --mca oob_tcp_if_include "$NET.0/24" --mca mpi_yield_when_idle 1)
two_nodes() { timeout "$1" ip netns exec "$NA" mpirun "${TCP[@]}" -np 4 "${@:2}"; }

# 1. Placement.
two_nodes 60 sh -c 'echo "$OMPI_COMM_WORLD_RANK $(ip -o -4 addr show | grep -o "inet [0-9.]*" | grep -v 127.0.0.1)"' \
    | sort >"$T/where" 2>&1
expected=$(printf '0 inet %s\n1 inet %s\n2 inet %s\n3 inet %s' "$NET.1" "$NET.1" "$NET.2" "$NET.2")
[ "$(cat "$T/where")" = "$expected" ] && ok || { bad "placement"; cat "$T/where"; }

# 2. The same answer across two nodes as on one.
"$BIN" gen design-match --treated 50 --controls 500 --covariates 4 --neighbors 10 --grid 2x2 \
    --out "$T/dm.shards" --quiet
timeout 120 mpirun --allow-run-as-root --oversubscribe --mca btl self,vader -np 4 "$BIN" solve \
    "$T/dm.shards" --tol 1e-8 --json "$T/one.json" --quiet >/dev/null
two_nodes 120 "$BIN" solve "$T/dm.shards" --tol 1e-8 --json "$T/two.json" --quiet >/dev/null \
    2>"$T/err" || { bad "two-node solve: $(head -3 "$T/err")"; }
python3 - "$T/one.json" "$T/two.json" <<'PY' && ok || bad "two-node answer differs from one node"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
same = a["status"] == b["status"] == "optimal" and a["objective"] == b["objective"] and \
    a["iterations"] == b["iterations"] and b["ranks"] == 4
print(f"one node: {a['objective']!r} in {a['iterations']}; two nodes: {b['objective']!r} in "
      f"{b['iterations']}")
sys.exit(0 if same else 1)
PY

# 3. Losing a node: every process of the second namespace killed mid-solve.
two_nodes 120 "$BIN" solve "$T/dm.shards" --tol 1e-30 --iter-limit 1000000000 --quiet \
    >"$T/kill.out" 2>"$T/kill.err" &
job=$!
for _ in $(seq 50); do # until the ranks of the second node run
    [ "$(ip netns pids "$NB" | xargs -r ps -o comm= -p 2>/dev/null | grep -c shardlp)" -ge 2 ] && break
    sleep 0.2
done
sleep 2
# The ranks ignore SIGPIPE (bit 13 of SigIgn), so that a write to the lost node's socket
# is an error Open MPI reports, not a local rank's death that hides the node.
ignored=0
for pid in $(ip netns pids "$NA" | xargs -r ps -o pid=,comm= -p 2>/dev/null | awk '/shardlp/{print $1}'); do
    mask=$(awk '/^SigIgn:/{print $2}' "/proc/$pid/status" 2>/dev/null)
    [ -n "$mask" ] && [ $((0x$mask >> 12 & 1)) -eq 1 ] && ignored=$((ignored + 1))
done
[ "$ignored" -eq 2 ] && ok || bad "SIGPIPE ignored by $ignored of the 2 ranks on the first node"
start=$(date +%s)
ip netns pids "$NB" | xargs -r kill -9
wait $job
rc=$?
took=$(($(date +%s) - start))
left=$(ip netns pids "$NA" | xargs -r ps -o comm= -p 2>/dev/null | grep -c shardlp)
[ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $took -le 30 ] && [ "$left" -eq 0 ] && ok ||
    bad "node loss: exit $rc after $took s, $left ranks left"
# OpenMPI reports the loss as its daemon's or, when a rank notices first, as a peer's
# disconnection or a failed reconnection to it; each names the lost node, by its address
# or by its host name.
grep -qE "lost communication with a remote daemon|peer process has unexpectedly disconnected|failed to TCP connect to a peer" \
    "$T/kill.err" && grep -qE "$NET.2|${TAG}-node2" "$T/kill.err" && ok ||
    { bad "node loss message"; head -20 "$T/kill.err"; }
echo "node loss: the job ended $took s after the kill (exit $rc)"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
