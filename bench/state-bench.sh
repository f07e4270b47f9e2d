#!/usr/bin/env bash
# Durable-state figures for BENCHMARKS.md: mutations/s at 1k and 100k machines with 64 callers,
# restart time, state file size, List latencies. Usage: bench/state-bench.sh [seconds-per-run]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mvn -q -B -pl server -am -DskipTests install
mvn -q -B -pl server test-compile dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt
cp="server/target/test-classes:server/target/classes:$(cat server/target/bench-classpath.txt)"
exec java -Xmx4g -Dbench.seconds="${1:-15}" -cp "$cp" dev.bigfleet.proxmox.server.bench.StateBenchmark
