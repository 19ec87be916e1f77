#!/usr/bin/env bash
# Install what shardlp needs to build and test, only if it is missing.
# Debian/Ubuntu as root (or with sudo). Safe to run repeatedly.
set -euo pipefail

need=()
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
command -v make >/dev/null 2>&1 || need+=(make)
command -v mpicc >/dev/null 2>&1 || need+=(libopenmpi-dev)
command -v mpirun >/dev/null 2>&1 || need+=(openmpi-bin)
[ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
# bzip2 and xz input (src/io/text_in.c); the tools make the compressed test files.
[ -f /usr/include/bzlib.h ] || need+=(libbz2-dev)
[ -f /usr/include/lzma.h ] || need+=(liblzma-dev)
[ -f /usr/include/zstd.h ] || need+=(libzstd-dev)
command -v zstd >/dev/null 2>&1 || need+=(zstd)
command -v bzip2 >/dev/null 2>&1 || need+=(bzip2)
command -v xz >/dev/null 2>&1 || need+=(xz-utils)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v gzip >/dev/null 2>&1 || need+=(gzip)
# Clp is the reference solver some tests compare against.
command -v clp >/dev/null 2>&1 || need+=(coinor-clp)
# GLPK reads the MPS that `shardlp convert` and `gen --mps` write (tests/cli/convert.sh).
command -v glpsol >/dev/null 2>&1 || need+=(glpk-utils)
# Network namespaces and process lists for the two-node test (tests/mpi/multinode.sh).
command -v ip >/dev/null 2>&1 || need+=(iproute2)
command -v ps >/dev/null 2>&1 || need+=(procps)

if [ ${#need[@]} -gt 0 ]; then
    echo "install-deps: installing ${need[*]}"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
