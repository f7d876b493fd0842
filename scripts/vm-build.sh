#!/usr/bin/env bash
# scripts/vm-build.sh [DIR=build-arm64]: cross-builds perfev for arm64 with
# cmake/aarch64.cmake: the perfev command as one static executable, the VM
# tests (perfev-vm-tests, static), the workloads and bench/selfmon_read.
# Needs scripts/vm-deps.sh's packages.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-arm64}
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
if [ ! -f "$dir/build.ninja" ] && [ ! -f "$dir/Makefile" ]; then
  cmake -S . -B "$dir" "${gen[@]}" -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/aarch64.cmake" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPERFEV_TESTS=OFF -DPERFEV_STATIC=ON \
    -DPERFEV_VM_TESTS=ON >/dev/null
fi
targets=(perfev_cli perfev-vm-tests bench_selfmon_read)
for w in workloads/*.c; do targets+=("workload_$(basename "$w" .c)"); done
nice cmake --build "$dir" -j"$(nproc)" --target "${targets[@]}"
