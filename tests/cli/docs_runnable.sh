#!/usr/bin/env bash
# Every command block of the docs marked runnable (a fenced block whose info string is
# `sh runnable`, in README.md and docs/*.md; docs/testing.md) runs as written and exits 0.
# Each block runs with `bash -euo pipefail` in an empty directory of its own that has the
# repository's examples/ beside it, with `shardlp` on the PATH (the build's binary) and
# OpenMPI allowed to run as root and oversubscribed, as a user's shell would have it.
# Usage: docs_runnable.sh BUILD/shardlp REPO SHARED
set -u
BIN=$(readlink -f "$1"); REPO=$(readlink -f "$2")
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mkdir -p "$T/bin"; ln -s "$BIN" "$T/bin/shardlp"
export PATH="$T/bin:$PATH" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    OMPI_MCA_rmaps_base_oversubscribe=1
pass=0; fail=0
mkdir -p "$T/blocks"
for page in "$REPO/README.md" "$REPO"/docs/*.md; do
    # one file per block, named after the page and the line the block starts on
    awk -v dir="$T/blocks" -v page="$(basename "$page")" '
        /^```sh runnable[ \t]*$/ { out = sprintf("%s/%s:%d", dir, page, NR); inblock = 1; next }
        inblock && /^```/ { inblock = 0; close(out); next }
        inblock { print > out }' "$page"
done
for block in "$T"/blocks/*; do
    [ -f "$block" ] || continue
    name=$(basename "$block"); work="$T/run/$name"
    mkdir -p "$work"; ln -s "$REPO/examples" "$work/examples"
    if (cd "$work" && timeout 300 bash -euo pipefail "$block") > "$work.log" 2>&1; then
        echo "ok: $name"; pass=$((pass+1))
    else
        echo "FAIL: $name (exit $?):"; sed 's/^/    /' "$work.log" | tail -15; fail=$((fail+1))
    fi
done
echo "docs_runnable: $pass passed, $fail failed"
[ "$pass" -gt 0 ] && [ "$fail" -eq 0 ]
