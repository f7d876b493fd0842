# Cross-building perfev for arm64 (aarch64) on a Debian amd64 host:
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64.cmake
# The compiler is gcc-aarch64-linux-gnu; the libraries are Debian's arm64
# packages installed beside the amd64 ones (multiarch: libelf-dev:arm64, ...,
# see scripts/vm-deps.sh), so headers are /usr/include and libraries and
# pkg-config files /usr/lib/aarch64-linux-gnu. scripts/vm-build.sh uses this.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# pkg-config must see the arm64 .pc files only, never the host's.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

# Find libraries and headers for the target, programs for the host.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# The tests run where they were built for: inside the arm64 VM, not here.
set(CMAKE_CROSSCOMPILING_EMULATOR "")
