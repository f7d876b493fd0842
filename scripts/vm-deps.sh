#!/usr/bin/env bash
# Installs what the arm64 VM suite needs, only what is missing: QEMU's arm64
# system emulator, cpio (the initramfs), and Debian's arm64 builds of
# perfev's libraries beside the amd64 ones (multiarch: the architecture is
# added once). Criterion is not among them: libcriterion-dev is not
# Multi-Arch: same (installing the arm64 one removes the amd64 one), so
# the VM tests run on tests/vm/harness instead.
set -euo pipefail

PKGS=(
  qemu-system-arm cpio gcc-aarch64-linux-gnu
  libc6:arm64 libc6-dev:arm64
  libelf-dev:arm64 libdw-dev:arm64 libzstd-dev:arm64 zlib1g-dev:arm64 liblzma-dev:arm64
  libbz2-dev:arm64 libtraceevent-dev:arm64 libcapstone-dev:arm64 libiberty-dev:arm64
  libdebuginfod-dev:arm64           # its header only: perfev dlopens it (not in the static build)
  libncurses-dev:arm64              # perfev report's browser, linked into the static command
  libpapi-dev:arm64 libpfm4-dev:arm64   # the PAPI side of bench/selfmon_read in the VM
)

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
updated=0
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  echo "vm-deps: adding the arm64 architecture (dpkg multiarch)"
  $SUDO dpkg --add-architecture arm64
  $SUDO apt-get update -qq
  updated=1
fi
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "vm-deps: installing ${missing[*]}"
[ "$updated" -eq 1 ] || $SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
