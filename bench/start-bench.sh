#!/usr/bin/env bash
# Start-up figures for BENCHMARKS.md: time from launching bin/proxmox (fake backend, 32 machines,
# no state file) to its first /readyz 200, for the first start right after `mvn package` and for
# later starts, interleaved with starts without the class-data archive; and how long recording
# the archive takes inside `mvn package`. Usage: bench/start-bench.sh [--short] [rounds]
#   --short: one round, to prove the harness works (CI runs it)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ "${1:-}" = "--short" ]; then set -- 1; fi
rounds="${1:-7}"
archive=server/target/bigfleet-proxmox.jsa
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# seconds from launch to the first /readyz 200
ready_after() {
  local start end pid port
  port=$(free_port)
  start=$(date +%s%N)
  ./bin/proxmox --use-fake-backend --addr 127.0.0.1:0 --metrics-addr "127.0.0.1:$port" \
    --reconcile-interval 0 >/dev/null 2>&1 &
  pid=$!
  until curl -fs -o /dev/null "http://127.0.0.1:$port/readyz"; do
    kill -0 "$pid" 2>/dev/null || { echo "bin/proxmox exited before it was ready" >&2; exit 1; }
    sleep 0.01
  done
  end=$(date +%s%N)
  kill "$pid"
  wait "$pid" || true
  awk -v ns=$((end - start)) 'BEGIN { printf "%.2f\n", ns / 1e9 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

if [ -n "${BENCH_PREBUILT:-}" ] && [ -f "$archive" ]; then
  # .ci/run after mvn verify: the jar and the archive that build recorded, as they are
  echo "mvn -q -DskipTests package: not run (BENCH_PREBUILT: the archive mvn verify recorded is used)"
else
  rm -f "$archive" # as after a clean checkout: this package records it
  start=$(date +%s%N)
  mvn -q -B -DskipTests package
  echo "mvn -q -DskipTests package, records the archive: $(awk -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "%.1f", ns / 1e9 }') s"
fi
echo "first start after mvn package: $(ready_after) s"

with=() without=()
for _ in $(seq "$rounds"); do
  with+=("$(ready_after)")
  mv "$archive" "$archive.aside"
  without+=("$(ready_after)")
  mv "$archive.aside" "$archive"
done
echo "later starts with the archive ($rounds): ${with[*]} -> median $(printf '%s\n' "${with[@]}" | median) s"
echo "starts without it ($rounds): ${without[*]} -> median $(printf '%s\n' "${without[@]}" | median) s"

start=$(date +%s%N)
java -XX:ArchiveClassesAtExit="$work/start-bench.jsa" -Xlog:all=off -cp server/target/bigfleet-proxmox.jar \
  dev.bigfleet.proxmox.server.ClassDataTraining >/dev/null 2>&1
echo "recording the archive alone (the training run): $(awk -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "%.1f", ns / 1e9 }') s"
