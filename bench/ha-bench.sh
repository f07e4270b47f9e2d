#!/usr/bin/env bash
# Replica figures for BENCHMARKS.md: acknowledged mutations/s with 64 callers at 1k and 100k
# machines on SQLite and on PostgreSQL (a leader with a standby following it) in one run, and the
# standby's lag under that load. Needs Debian's postgresql package (the benchmark starts its own
# server). Builds what it runs (no install), so it works on a clean checkout.
# Usage: bench/ha-bench.sh [--short] [measured-seconds [warm-up-seconds]]
#   --short: 1k and 5k machines, a few seconds each: proves the harness works (CI runs it)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scale=()
if [ "${1:-}" = "--short" ]; then scale=(-Dbench.short=true); shift; fi
[ $# -ge 1 ] && scale+=("-Dbench.seconds=$1")
[ $# -ge 2 ] && scale+=("-Dbench.warmup=$2")
mvn -q -B -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt -pl benchmarks -am
./bin/proxmox --version >/dev/null # records the class-data archive now, not during the first measured start
cp="benchmarks/target/classes:$(cat benchmarks/target/bench-classpath.txt)"
exec java -Xmx4g "${scale[@]}" -cp "$cp" dev.bigfleet.proxmox.benchmarks.HaBenchmark
