#!/usr/bin/env bash
# scripts/build.sh DIR [CMAKE OPTIONS...]: configure (once) and build.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1; shift
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
# Configure unless a previous configure finished (a failed one leaves a cache but no build file).
if [ ! -f "$dir/build.ninja" ] && [ ! -f "$dir/Makefile" ]; then
  cmake -S . -B "$dir" "${gen[@]}" "$@" >/dev/null
fi
cmake --build "$dir" -j"$(nproc)"
