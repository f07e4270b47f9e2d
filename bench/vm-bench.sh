#!/usr/bin/env bash
# Real-VM figures for BENCHMARKS.md: Create -> IDLE through the provider (real backend, the
# simulator with --guests vm, linked clones) for 1 and for 3 machines at once, against the raw boot
# to the first guest agent ping of as many VMs of the same image started directly as the simulator
# starts them, measured in the same run; prints the provider's overhead as a ratio (target <= 1.15).
# Needs qemu-system-x86 and qemu-utils; the guest VM image is built or found in its cache
# (pve-simulator/guest-image/build.sh --vm). Builds what it runs, so it works on a clean checkout.
# Usage: bench/vm-bench.sh [--short] [rounds]
#   --short: one round of 1 machine, to prove the harness works (CI runs it)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
props=()
if [ "${1:-}" = "--short" ]; then props+=(-Dbench.short=true); shift; fi
[ $# -ge 1 ] && props+=("-Dbench.rounds=$1")
# BENCH_PREBUILT=1 (what .ci/run sets after mvn verify): use what is built instead of building it again
if [ -z "${BENCH_PREBUILT:-}" ] || [ ! -f benchmarks/target/bench-classpath.txt ]; then
  mvn -q -B -DskipTests package -pl benchmarks -am
fi
cp="benchmarks/target/classes:$(cat benchmarks/target/bench-classpath.txt)"
exec java -Xmx2g "${props[@]}" -cp "$cp" dev.bigfleet.proxmox.benchmarks.VmBenchmark
