#!/usr/bin/env bash
# Installs the Debian packages perfev needs to build, test and benchmark,
# only those missing. Runs as root (or through sudo when available).
set -euo pipefail

PKGS=(
  build-essential cmake ninja-build pkg-config
  libelf-dev libdw-dev libdebuginfod-dev libtraceevent-dev libzstd-dev zlib1g-dev
  liblzma-dev libiberty-dev         # MiniDebugInfo (.gnu_debugdata) and C++/Rust demangling
  libcriterion-dev
  libcapstone-dev                   # perfev watch: the accessing instruction before an x86 trap IP; perfev annotate
  libpfm4-dev                       # vendor event tables (perfev stat -e inst_retired.any)
  libncurses-dev                    # perfev report's terminal browser (ncursesw)
  rustc                             # Rust fixtures for the demangling tests
  clang libclang-rt-14-dev          # libFuzzer targets and sanitizer runtimes
  linux-perf strace                 # the reference tools the tests compare against
  protobuf-compiler                 # validates pprof exports
  golang-go                         # go tool pprof: reads the pprof exports as their users do
  libpapi-dev papi-tools            # the PAPI side of bench/selfmon_read
  qemu-user gcc-aarch64-linux-gnu   # arm64 self-monitoring tests
  qemu-system-arm cpio              # the arm64 VM suite (its arm64 libraries: scripts/vm-deps.sh)
  libc6-dev-arm64-cross             # headers and crt files for the arm64 test program
  python3 libxml2-utils             # XML/JSON validation of exports
  nodejs time                       # the flame graph script test; bench/report.sh (/usr/bin/time)
  valgrind                          # bench/report_instructions.sh (callgrind counts)
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -o DPkg::Lock::Timeout=600 -y -qq --no-install-recommends "${missing[@]}"
