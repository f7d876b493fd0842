# The two entry points of the README; the build itself is CMake (scripts/build.sh).
.PHONY: run check check-arm64 build deps clean

# Install what is missing, build, and run the main job on the demo workload.
run: deps build
	scripts/demo.sh

# Install what is missing, build normally and with ASan+UBSan, run every test.
check:
	scripts/check.sh

# The arm64 VM suite alone: every hardware path on QEMU's PMU (see README).
check-arm64:
	scripts/vm-check.sh

build: deps
	scripts/build.sh build

deps:
	scripts/deps.sh

clean:
	rm -rf build build-asan build-fuzz build-arm64
