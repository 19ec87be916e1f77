#!/usr/bin/env bash
# The LP reader against another build of it (docs/lp-format.md "Reading speed"): COUNT
# random LP files (tests/data/random_lp.py), each converted to MPS by both builds; the
# MPS files must be byte-identical and the messages the same. Prints the differences and
# a count; exits non-zero on any difference.
#   bash bench/lp_differential.sh BASE_SHARDLP NEW_SHARDLP [COUNT]
set -u
BASE=$(realpath "$1")
NEW=$(realpath "$2")
COUNT=${3:-600}
GEN=$(realpath "$(dirname "$0")/../tests/data/random_lp.py")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
bad=0 written=0
for s in $(seq 1 "$COUNT"); do
    python3 "$GEN" "$s" > f.lp
    rm -f a.mps b.mps
    "$BASE" convert f.lp a.mps --relax 2>&1 | sed 's/a\.mps/OUT/' > a.msg
    "$NEW" convert f.lp b.mps --relax 2>&1 | sed 's/b\.mps/OUT/' > b.msg
    [ -e a.mps ] && written=$((written + 1))
    if [ -e a.mps ] || [ -e b.mps ]; then
        cmp -s a.mps b.mps || { bad=$((bad + 1)); echo "seed $s: the MPS files differ"; }
    fi
    cmp -s a.msg b.msg || { bad=$((bad + 1)); echo "seed $s: the messages differ"; }
done
echo "$COUNT files ($written read without error by the base build): $bad differences"
[ "$bad" -eq 0 ]
