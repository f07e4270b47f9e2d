#!/usr/bin/env bash
# Builds the benchmarks module (no install, so it works on a clean checkout) and runs one of its
# main classes; state-bench.sh and ha-bench.sh call it.
# Usage: bench/java-bench.sh CLASS [--short] [measured-seconds [warm-up-seconds]]
#   --short: small inventories, a few seconds per figure: proves the harness works (CI runs it so)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
main=$1
shift
scale=()
if [ "${1:-}" = "--short" ]; then scale=(-Dbench.short=true); shift; fi
[ $# -ge 1 ] && scale+=("-Dbench.seconds=$1")
[ $# -ge 2 ] && scale+=("-Dbench.warmup=$2")
# BENCH_PREBUILT=1 (what .ci/run sets after mvn verify): use what is built instead of building it again
if [ -z "${BENCH_PREBUILT:-}" ] || [ ! -f benchmarks/target/bench-classpath.txt ]; then
  mvn -q -B -DskipTests package -pl benchmarks -am
fi
./bin/proxmox --version >/dev/null # records the class-data archive now, not during the first measured start
cp="benchmarks/target/classes:$(cat benchmarks/target/bench-classpath.txt)"
exec java -Xmx4g "${scale[@]}" -cp "$cp" "dev.bigfleet.proxmox.benchmarks.$main"
