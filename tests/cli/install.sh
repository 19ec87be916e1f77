#!/usr/bin/env bash
# The installed tree (docs/install.md): `cmake --install` into a prefix gives bin/shardlp,
# include/shardlp.h, the shared and static library, the CMake package and shardlp.pc;
# examples/lp_from_arrays.c builds against it with pkg-config and with find_package
# (shared and static) and each build solves afiro to the published optimum.
set -u
BIN=$1; ROOT=$2; SHARED=$3
BUILD=$(dirname "$(readlink -f "$BIN")")
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
P=$T/prefix
pass=0; fail=0
ok() { echo "ok: $*"; pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
AFIRO=$ROOT/examples/data/afiro.mps

cmake --install "$BUILD" --prefix "$P" > "$T/install.log" 2>&1 || { cat "$T/install.log"; bad "cmake --install"; }
for f in bin/shardlp include/shardlp.h lib/libshardlp.so lib/libshardlp.a \
         lib/cmake/shardlp/shardlpConfig.cmake lib/pkgconfig/shardlp.pc; do
    [ -e "$P/$f" ] && ok "installed $f" || bad "missing $f"
done
"$P/bin/shardlp" solve "$AFIRO" --quiet --json "$T/b.json" && grep -q '"optimal"' "$T/b.json" &&
    ok "installed binary solves afiro" || bad "installed binary"

# The example prints the objective of its built-in LP and of the MPS file given.
runs_ok() { # program
    LD_LIBRARY_PATH=$P/lib "$1" "$AFIRO" > "$T/ex.out" 2>&1 && grep -qi "optimal" "$T/ex.out"
}
if command -v pkg-config > /dev/null; then
    cc -o "$T/ex_pc" "$ROOT/examples/lp_from_arrays.c" \
        $(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --cflags --libs shardlp) 2> "$T/cc.log" &&
        runs_ok "$T/ex_pc" && ok "pkg-config build runs: $(grep -ci optimal "$T/ex.out") optimal lines" ||
        bad "pkg-config build: $(cat "$T/cc.log" "$T/ex.out" | tail -5)"
else
    echo "skip: pkg-config not installed"
fi
cmake -S "$ROOT/tests/data/install-consumer" -B "$T/consumer" -DCMAKE_PREFIX_PATH="$P" \
    -DEXAMPLE_SOURCE="$ROOT/examples/lp_from_arrays.c" > "$T/cm.log" 2>&1 &&
    cmake --build "$T/consumer" -j 2 >> "$T/cm.log" 2>&1 || bad "find_package build: $(tail -15 "$T/cm.log")"
for prog in lp_from_arrays lp_from_arrays_static; do
    [ -x "$T/consumer/$prog" ] && runs_ok "$T/consumer/$prog" && ok "find_package build runs ($prog)" ||
        bad "$prog: $(tail -5 "$T/ex.out" 2>/dev/null)"
done

echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
