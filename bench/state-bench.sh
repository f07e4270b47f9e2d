#!/usr/bin/env bash
# Durable-state figures for BENCHMARKS.md: acknowledged mutations/s with 64 callers at 1k and 100k
# machines against the provider process, restart after SIGKILL, state file size, List latencies,
# engine-level figures. Usage: bench/state-bench.sh [measured-seconds [warm-up-seconds]]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mvn -q -B -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt -pl benchmarks -am
cp="benchmarks/target/classes:$(cat benchmarks/target/bench-classpath.txt)"
exec java -Xmx4g -Dbench.seconds="${1:-20}" -Dbench.warmup="${2:-40}" -cp "$cp" \
  dev.bigfleet.proxmox.benchmarks.StateBenchmark
