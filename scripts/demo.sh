#!/usr/bin/env bash
# The main job: measure the bundled demo workload with perfev, then profile
# it: record call stacks, report the hottest functions as perf report does,
# and write an interactive flame graph (open build/demo-flame.svg in a browser).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "+ build/perfev stat -- build/workloads/demo 3000"
build/perfev stat -- build/workloads/demo 3000

data=build/demo.data
echo
echo "+ build/perfev record -g -o $data --flame build/demo-flame.svg -- build/workloads/demo 3000"
build/perfev record -g -o "$data" --flame build/demo-flame.svg -- build/workloads/demo 3000
echo
echo "+ build/perfev report -i $data --stdio --sort comm,dso,sym --no-children -g none --percent-limit 1"
build/perfev report -q -i "$data" --stdio --sort comm,dso,sym --no-children -g none --percent-limit 1
echo "+ build/perfev report -i $data --stdio --children --sort sym -g caller --percent-limit 5"
build/perfev report -q -i "$data" --stdio --children --sort sym -g caller --percent-limit 5
echo "flame graph: build/demo-flame.svg"
