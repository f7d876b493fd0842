#!/usr/bin/env bash
# scripts/vm-fetch.sh: puts the arm64 VM's kernel and busybox in the cache
# (PERFEV_VM_CACHE, default /var/cache/perfev-vm, or ~/.cache/perfev-vm
# where that is not writable), fetched from Debian's
# archive with apt-get download (after scripts/vm-deps.sh: the arm64
# architecture is known to apt). The kernel is the one Debian's
# linux-image-cloud-arm64 depends on now (unsigned image: the same kernel
# without the EFI signature); a new one is fetched when Debian moves on.
# Prints the cache directory; it then holds vmlinuz, busybox and VERSION.
set -euo pipefail
cache=${PERFEV_VM_CACHE:-/var/cache/perfev-vm}
# not root: the user's cache
mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ] || cache=${XDG_CACHE_HOME:-$HOME/.cache}/perfev-vm
mkdir -p "$cache"
# The kernel package the metapackage points to, e.g. linux-image-6.1.0-57-cloud-arm64
kpkg=$(apt-cache depends linux-image-cloud-arm64:arm64 2>/dev/null |
       sed -n 's/^ *Depends: \(linux-image-[0-9][^: ]*-cloud-arm64\).*/\1/p' | head -1)
if [ -z "$kpkg" ]; then
  # offline or apt lists without arm64: use what is cached
  if [ -f "$cache/vmlinuz" ] && [ -f "$cache/busybox" ]; then
    echo "$cache"
    exit 0
  fi
  echo "vm-fetch: apt knows no linux-image-cloud-arm64:arm64 (run scripts/vm-deps.sh)" >&2
  exit 1
fi
want="$kpkg-unsigned"
if [ -f "$cache/vmlinuz" ] && [ -f "$cache/busybox" ] && [ "$(cat "$cache/VERSION" 2>/dev/null)" = "$want" ]; then
  echo "$cache"
  exit 0
fi
tmp=$(mktemp -d "$cache/fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"   # apt's _apt user downloads into it
echo "vm-fetch: downloading $want:arm64 and busybox-static:arm64" >&2
(cd "$tmp" && apt-get download -q "$want:arm64" busybox-static:arm64 >&2)
dpkg-deb -x "$tmp"/linux-image-*.deb "$tmp/k"
dpkg-deb -x "$tmp"/busybox-static_*.deb "$tmp/bb"
cp "$tmp"/k/boot/vmlinuz-* "$cache/vmlinuz.new"
cp "$tmp"/k/boot/config-* "$cache/config"
cp "$tmp/bb/bin/busybox" "$cache/busybox"
mv "$cache/vmlinuz.new" "$cache/vmlinuz"
echo "$want" > "$cache/VERSION"
echo "$cache"
