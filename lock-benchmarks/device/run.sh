#!/usr/bin/env bash
# Runs the contention harness from the bundle that bundle.sh packed (.device/harness.tar.xz), on a machine with nothing
# installed. The report goes to $OUT/contention (the device tool's output folder) or to ./contention-report; harness
# options pass through (--only uncontended|contention|breakdown, --redis redis://host:port).
set -euo pipefail
cd "$(dirname "$0")/../.."

report=${OUT:-$PWD/contention-report}/contention
unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
xz -dc .device/harness.tar.xz | tar -C "$unpacked" -xf -
echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo || true)"
"$unpacked/jre/bin/java" -Xmx1g -Djava.awt.headless=true -jar "$unpacked/contention-harness.jar" --out "$report" "$@"
