#!/usr/bin/env bash
# tests/data/symbols/build.sh OUTDIR: builds the symbolizer's fixtures once
# (rebuilt when this directory changes), under a lock so parallel tests share.
#   inl            C, -O2 -g: inline chains, PLT calls (puts, printf)
#   inl.stripped   inl stripped, with .gnu_debuglink -> inl.stripped.debug
#   inl.buildid    inl stripped; its debug file only under debug/.build-id/
#   inl.mini       inl stripped, with MiniDebugInfo (.gnu_debugdata)
#   inl.bare       inl stripped, no debug info anywhere
#   cxx            C++, -O1 -g
#   inl.clang      inl.c by clang (no .debug_aranges) if clang is present
#   rs, rs.v0      Rust (legacy / v0 mangling) if rustc is present
set -euo pipefail
src=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
exec 9>"$out/.lock"
flock 9
stamp=$(cat "$src"/*.c "$src"/*.cpp "$src"/*.rs "$src"/build.sh | md5sum | cut -d' ' -f1)
[ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$stamp" ] && exit 0
rm -rf "${out:?}"/* "$out/debug"
cd "$out"

cc -O2 -g -fno-omit-frame-pointer -Wl,--build-id -o inl "$src/inl.c"

cp inl inl.stripped
objcopy --only-keep-debug inl.stripped inl.stripped.debug
objcopy --strip-all --add-gnu-debuglink=inl.stripped.debug inl.stripped

# a different build (so a different build-id), its debug file only by build-id
cc -O2 -g -fno-omit-frame-pointer -Wl,--build-id -DBUILDID_VARIANT -o inl.buildid "$src/inl.c"
bid=$(readelf -n inl.buildid | awk '/Build ID/ {print $3}')
mkdir -p "debug/.build-id/${bid:0:2}"
objcopy --only-keep-debug inl.buildid "debug/.build-id/${bid:0:2}/${bid:2}.debug"
objcopy --strip-all inl.buildid

# MiniDebugInfo as Fedora's find-debuginfo makes it: the function symbols
# not in .dynsym, xz-compressed into .gnu_debugdata of the stripped binary
cc -O2 -g -fno-omit-frame-pointer -Wl,--build-id -DMINI_VARIANT -o inl.mini "$src/inl.c"
nm -D inl.mini --format=posix --defined-only | awk '{print $1}' | sort > mini.dynsyms
nm inl.mini --format=posix --defined-only | awk '$2 == "T" || $2 == "t" {print $1}' | sort > mini.funcsyms
comm -13 mini.dynsyms mini.funcsyms > mini.keep
objcopy --only-keep-debug inl.mini mini.debug
objcopy -S --remove-section .gdb_index --remove-section .comment --keep-symbols=mini.keep mini.debug mini.symtab
xz -f mini.symtab
cp inl.mini inl.mini.unstripped
objcopy --strip-all --remove-section .comment inl.mini
objcopy --add-section .gnu_debugdata=mini.symtab.xz inl.mini

cc -O2 -g -fno-omit-frame-pointer -Wl,--build-id -DBARE_VARIANT -o inl.bare "$src/inl.c"
objcopy --strip-all inl.bare

c++ -O1 -g -o cxx "$src/cxx.cpp"

# clang emits no .debug_aranges: units are found by their own ranges
if command -v clang >/dev/null; then
  clang -O2 -g -fno-omit-frame-pointer -o inl.clang "$src/inl.c"
fi

# (rustup's rustc shim is on PATH even where no toolchain is installed or
# chosen, as in a fresh HOME: ask it for its version, not for its path)
if rustc --version >/dev/null 2>&1; then
  rustc -g -C opt-level=1 -C symbol-mangling-version=legacy -o rs "$src/rs.rs" 2>/dev/null ||
    rustc -g -C opt-level=1 -o rs "$src/rs.rs"
  rustc -g -C opt-level=1 -C symbol-mangling-version=v0 -o rs.v0 "$src/rs.rs" 2>/dev/null ||
    rustc -g -C opt-level=1 -Z unstable-options -C symbol-mangling-version=v0 -o rs.v0 "$src/rs.rs" 2>/dev/null || true
fi
echo "$stamp" > .stamp
