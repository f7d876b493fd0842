#!/usr/bin/env bash
# The main job: measure the bundled demo workload with perfev.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "+ build/perfev stat -- build/workloads/demo"
build/perfev stat -- build/workloads/demo
