# The two entry points of the README; the build itself is CMake (scripts/build.sh).
.PHONY: run check build deps clean

# Install what is missing, build, and run the main job on the demo workload.
run: deps build
	scripts/demo.sh

# Install what is missing, build normally and with ASan+UBSan, run every test.
check:
	scripts/check.sh

build: deps
	scripts/build.sh build

deps:
	scripts/deps.sh

clean:
	rm -rf build build-asan build-fuzz
