#!/usr/bin/env bash
# Output files never destroy what is there and never lose a solve (docs/reliability.md):
# a device node given as --json stays a device; a symlink is followed, not replaced; an
# unwritable output is refused before the solve with one line and no other output
# written; a manifest that is a FIFO is refused at once; a checkpoint directory that
# fills up gives a warning and the solve completes with all its outputs; an output that
# is the model or another output is refused before anything is opened; links planted at
# the names of temporary files and directories are never followed.
# Usage: outputs.sh BUILD/shardlp REPO SHARED
set -uo pipefail
BIN=$(readlink -f "$1"); REPO=$(readlink -f "$2")
TMP=$(mktemp -d); trap 'umount "$TMP/tiny" "$TMP/ro" 2>/dev/null; rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
MODEL="$REPO/examples/data/afiro.mps"

# 1. a character device (a copy of /dev/null) written through, still a device
if mknod devnull c 1 3 2>/dev/null; then
    "$BIN" solve "$MODEL" --quiet --json devnull --sol devnull || bad "--json to a device failed"
    [ -c devnull ] || bad "devnull is no longer a character device"
else
    echo "skip: mknod not permitted"
fi

# 2. a symlink is followed: the target gets the summary, the link stays a link
echo old > target.json && ln -s target.json link.json
"$BIN" solve "$MODEL" --quiet --json link.json || bad "--json to a symlink failed"
[ -L link.json ] || bad "link.json was replaced by a regular file"
grep -q '"status": "optimal"' target.json || bad "the symlink's target was not written"

# 3. an unwritable output: refused before the solve, nothing else written
"$BIN" solve "$MODEL" --json early.json --sol "$TMP/no/such/dir/x.sol" > out.log 2> err.log
[ $? -ne 0 ] || bad "unwritable --sol accepted"
[ "$(wc -l < err.log)" -eq 1 ] && grep -q "x.sol: cannot write the solution" err.log ||
    bad "message for an unwritable --sol: $(cat err.log)"
[ ! -e early.json ] || bad "the JSON summary was written although the run was refused"
grep -q "Model status" out.log && bad "the solve ran although an output was unwritable"

# 4. a manifest that is a FIFO: refused, no hang
mkdir fifo.shards && mkfifo fifo.shards/manifest.json
timeout 10 "$BIN" solve fifo.shards > /dev/null 2> err.log
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] || bad "FIFO manifest: rc=$rc (124 = hang)"
grep -q "not a regular file" err.log || bad "FIFO manifest message: $(cat err.log)"

# 5. a full checkpoint file system: a warning, the solve completes with its outputs
mkdir tiny
if mount -t tmpfs -o size=16k tmpfs tiny 2>/dev/null; then
    "$BIN" gen qap --size 9 --grid 1x1 --out q.shards --quiet || bad "gen"
    "$BIN" solve q.shards --checkpoint tiny/ck --checkpoint-every 1e-9 --iter-limit 600 \
        --json full.json > out.log 2> err.log || bad "solve with a full checkpoint disk failed: $(cat err.log)"
    grep -q "checkpoint 0 not written" err.log || bad "no warning for the failed checkpoint"
    [ "$(grep -c warning err.log)" -eq 1 ] || bad "more than one warning: $(cat err.log)"
    grep -q '"status": "iteration_limit"' full.json || bad "no JSON summary after the solve"
else
    echo "skip: cannot mount a tmpfs (not root?)"
fi

# 6. --out DIR never deletes a file shardlp did not write: a directory holding the
#    user's model and a file that only looks like a manifest is refused before the solve
mkdir user && cp "$MODEL" user/model.mps && echo '{"format": "mine"}' > user/solution.json
"$BIN" solve user/model.mps --out user > out.log 2> err.log
[ $? -ne 0 ] || bad "--out into a user directory accepted"
grep -q "user: exists and is neither empty nor a complete earlier shardlp output" err.log ||
    bad "--out refusal message: $(cat err.log)"
grep -q "Model status" out.log && bad "the solve ran although --out was refused"
[ -f user/model.mps ] && [ -f user/solution.json ] || bad "user files were deleted"
cp user/model.mps m.mps
mkdir user2 && cp m.mps user2/notes.txt && "$BIN" shard m.mps --grid 1x1 --out sh.shards > /dev/null &&
    cp sh.shards/manifest.json user2/ && "$BIN" shard m.mps --grid 1x1 --out user2 > /dev/null 2> err.log
[ $? -ne 0 ] && [ -f user2/notes.txt ] || bad "shard --out over a directory with a foreign file: $(cat err.log)"
# an earlier complete output is replaced
"$BIN" solve m.mps --quiet --out sol.d && "$BIN" solve m.mps --quiet --out sol.d ||
    bad "a complete earlier --out was not replaced"
"$BIN" shard m.mps --grid 1x1 --out sh.shards > /dev/null || bad "an earlier shard directory was not replaced"

# 7. checkpoint directories: validated and locked before the solve
"$BIN" gen qap --size 12 --grid 1x1 --out q12.shards --quiet || bad "gen q12"
"$BIN" solve q12.shards --checkpoint ck --quiet --tol 1e-300 --time-limit 6 > first.log 2>&1 &
first=$!
for _ in $(seq 50); do [ -f ck/lock ] && break; sleep 0.1; done
"$BIN" solve q12.shards --checkpoint ck --quiet > out.log 2> err.log
[ $? -ne 0 ] && grep -q "ck: the checkpoint directory is in use by another running solve" err.log ||
    bad "a second solve on a locked checkpoint directory: $(cat err.log)"
wait "$first" || bad "the first solve failed: $(cat first.log)"
echo x > notadir
"$BIN" solve m.mps --checkpoint notadir --json nd.json > out.log 2> err.log
[ $? -ne 0 ] && grep -q "notadir: the checkpoint directory is not a directory" err.log && [ ! -e nd.json ] ||
    bad "a file as checkpoint directory: $(cat err.log)"

# 7a. a read-only checkpoint directory (a read-only mount: root cannot write it either)
#     is refused before the solve
mkdir ro
if mount -t tmpfs -o size=1m tmpfs ro 2>/dev/null; then
    mkdir ro/ck && mount -o remount,ro ro
    "$BIN" solve m.mps --checkpoint ro/ck --json ro.json > out.log 2> err.log
    [ $? -ne 0 ] && grep -q "ro/ck: cannot write the checkpoint directory" err.log && [ ! -e ro.json ] ||
        bad "read-only checkpoint directory: $(cat err.log)"
    umount ro
else
    echo "skip: cannot mount a tmpfs (not root?)"
fi

# 7b. one output that fails (/dev/full) costs no other: the JSON summary is written,
#     the exit status is non-zero and the message names the failed output
if [ -w /dev/full ]; then
    "$BIN" solve m.mps --quiet --sol /dev/full --json after.json > out.log 2> err.log
    [ $? -ne 0 ] && grep -q "/dev/full: write failed" err.log && grep -q '"status": "optimal"' after.json ||
        bad "a failed --sol lost the other outputs: $(cat err.log)"
fi

# 8. bounded memory for refusals: a gzip bomb (2 MB inflating to 2 GB on one line) and
#    a manifest claiming a 65536 x 65536 grid are refused within 100 MiB
python3 - <<'PY'
import gzip, json, os
with gzip.open("bomb.mps.gz", "wb", 9) as f:
    f.write(b"NAME X\nROWS\n N obj\nCOLUMNS\n    x obj ")
    for _ in range(2000):
        f.write(b"9" * (1 << 20))
os.mkdir("huge.shards")
json.dump({"format": "shardlp-shards", "version": 1, "name": "x", "m": 10, "n": 10, "nnz": 0,
           "grid": [65536, 65536], "row_off": [0], "col_off": [0], "files": []},
          open("huge.shards/manifest.json", "w"))
PY
peak_kb() { # run "$@", print its peak resident set in kB; its exit status is in rc.txt
    python3 -c '
import resource, subprocess, sys
rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=open("err.log", "w"))
open("rc.txt", "w").write(str(rc))
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}
for input in bomb.mps.gz huge.shards; do
    rss=$(peak_kb "$BIN" solve "$input")
    rc=$(cat rc.txt)
    [ $rc -ne 0 ] && [ "$(grep -c error err.log)" -eq 1 ] || bad "$input: rc=$rc $(cat err.log)"
    [ "$rss" -lt 102400 ] || bad "$input: refused with $rss kB of memory (limit 100 MiB)"
done

# 9. no output may be an input or another output: refused with one line before anything
#    is opened; the model is unchanged (also through a link to it)
cp "$MODEL" model.mps
sum0=$(cksum < model.mps)
ln -s model.mps model-link.mps
for opt in "--sol model.mps" "--json model.mps" "--log-file model.mps" "--log-csv model.mps" \
           "--sol model-link.mps" "--sol x.out --json x.out" "--out model.mps"; do
    rm -f x.out
    "$BIN" solve model.mps $opt > out.log 2> err.log
    rc=$?
    [ $rc -ne 0 ] && [ "$(wc -l < err.log)" -eq 1 ] && grep -q "same file" err.log &&
        [ "$(cksum < model.mps)" = "$sum0" ] && [ ! -e x.out ] ||
        bad "$opt: exit $rc, $(cat err.log), model $( [ "$(cksum < model.mps)" = "$sum0" ] && echo kept || echo CHANGED)"
    cp "$MODEL" model.mps
done

# 10. links planted at the temporary names a writer would once have used (TARGET.tmp.<pid>,
#     DIR.tmp.<pid>, for the next pids) are not followed: their targets are untouched
echo precious > victim.txt
mkdir victim.dir && echo precious > victim.dir/keep
python3 -c '
import os
nxt = os.getpid() + 1  # the pids handed out next follow this one
for p in range(nxt, nxt + 200):
    os.symlink("victim.txt", "planted.sol.tmp.%d" % p)
    os.symlink("victim.dir", "planted.shards.tmp.%d" % p)'
"$BIN" solve "$MODEL" --quiet --sol planted.sol || bad "solve with planted links failed"
"$BIN" shard "$MODEL" --grid 1x1 --out planted.shards --quiet > /dev/null || bad "shard with planted links failed"
[ "$(cat victim.txt)" = precious ] && [ -f victim.dir/keep ] && [ -s planted.sol ] &&
    [ -f planted.shards/manifest.json ] || bad "a planted link was followed: $(cat victim.txt), $(ls victim.dir)"

[ "$fails" -eq 0 ] && echo "outputs: all checks passed"
exit $((fails > 0))
