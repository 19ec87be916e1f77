#!/usr/bin/env bash
# No source file includes a header of a higher layer: the order is the "layers:" line
# of docs/design.md section 8 (lowest first). Also: source comments cite the
# repository's own docs, not the ALGORITHM/DESIGN pages of ../shared; and no cycle in the
# file graph (includes and calls) of src/presolve/.
# Usage: layering.sh BUILD/shardlp REPO SHARED
set -uo pipefail
REPO=$(readlink -f "$2")
order=$(sed -n 's/^ *layers: //p' "$REPO/docs/design.md")
[ -n "$order" ] || { echo "FAIL: no 'layers:' line in docs/design.md"; exit 1; }
declare -A rank
k=0
for layer in $order; do rank[$layer]=$k; k=$((k + 1)); done
fails=0
cd "$REPO/src"
for dir in */; do
    dir=${dir%/}
    [ -n "${rank[$dir]+x}" ] || { echo "FAIL: src/$dir is not in the layer list"; fails=$((fails + 1)); continue; }
    while IFS=: read -r file line target; do
        [ -n "${rank[$target]+x}" ] || continue
        if [ "${rank[$target]}" -gt "${rank[$dir]}" ]; then
            echo "FAIL: src/$file:$line includes $target/ (layer $target is above $dir)"
            fails=$((fails + 1))
        fi
    done < <(grep -rnoE '^#include "[a-z_]+/' "$dir" | sed -E 's/#include "([a-z_]+)\//\1/')
done
# No cycle among presolve's files (docs/presolve.md, "Code").
python3 "$REPO/tests/lib/file_cycles.py" "$REPO/src/presolve" || fails=$((fails + 1))
if grep -rnE '(ALGORITHM|DESIGN)\.md' "$REPO/src" "$REPO/include" "$REPO/python/shardlp"; then
    echo "FAIL: comments above cite ../shared's pages; cite docs/algorithm.md / docs/design.md"
    fails=$((fails + 1))
fi
[ "$fails" -eq 0 ] && echo "layering: all includes go down"
exit $((fails > 0))
