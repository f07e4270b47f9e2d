#!/usr/bin/env bash
# Start to /readyz 200 for BENCHMARKS.md: the container image (unpacked with umoci, run read-only
# in a chroot by packaging's run-in-chroot.sh, as ImageIT runs it) against bin/proxmox, alternating,
# each start on the fake backend with a fresh --state file. Needs root, umoci and curl; builds the
# image first (mvn package of packaging), so it works on a clean checkout.
# Usage: bench/image-start.sh [--short] [starts-of-each]
#   --short: one start of each, to prove the harness works (CI runs it)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ "${1:-}" = "--short" ]; then set -- 1; fi
runs=${1:-7}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# BENCH_PREBUILT=1 (what .ci/run sets after mvn verify): use the image built instead of building it again
if [ -z "${BENCH_PREBUILT:-}" ] || [ ! -f packaging/target/bigfleet-proxmox-image.tar ]; then
  mvn -q -B -DskipTests package -pl packaging -am
fi
mkdir -p "$work/layout"
tar -xf packaging/target/bigfleet-proxmox-image.tar -C "$work/layout"
ref=$(sed 's/.*"org.opencontainers.image.ref.name":"\([^"]*\)".*/\1/' "$work/layout/index.json")
umoci unpack --image "$work/layout:$ref" "$work/bundle" >/dev/null
./bin/proxmox --version >/dev/null # records bin/proxmox's class-data archive before the first measured start

# the image's own process, from the bundle umoci made of it
mapfile -t entrypoint < <(python3 -c 'import json,sys; [print(a) for a in json.load(open(sys.argv[1]))["process"]["args"]]' "$work/bundle/config.json")
mapfile -t environment < <(python3 -c 'import json,sys; [print(a) for a in json.load(open(sys.argv[1]))["process"]["env"]]' "$work/bundle/config.json")

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

ready_after() { # seconds from now until /readyz answers 200 on port $3, then SIGTERM and wait
  local pid=$1 start=$2 port=$3
  until curl -sf -o /dev/null "http://127.0.0.1:$port/readyz"; do
    kill -0 "$pid" 2>/dev/null || { echo "provider died" >&2; exit 1; }
    sleep 0.02
  done
  local end
  end=$(date +%s.%N)
  kill -TERM "$pid"
  wait "$pid" || true
  echo "$end - $start" | bc
}

for i in $(seq 1 "$runs"); do
  state=$work/state-$i
  mkdir -p "$state/image" "$state/bin"
  chown 65532:65532 "$state/image"
  port=$(free_port)
  flags=(--use-fake-backend --fake-latency 0s --addr 127.0.0.1:0 --metrics-addr "127.0.0.1:$port")
  start=$(date +%s.%N)
  env -i "${environment[@]}" /bin/bash packaging/src/test/resources/run-in-chroot.sh "$work/bundle/rootfs" \
    "$state/image" /var/lib/bigfleet-proxmox /var/lib/bigfleet-proxmox 65532 65532 \
    "${entrypoint[@]}" "${flags[@]}" --state /var/lib/bigfleet-proxmox/state.db >"$work/image.log" 2>&1 &
  image=$(ready_after $! "$start" "$port")
  port=$(free_port)
  flags=(--use-fake-backend --fake-latency 0s --addr 127.0.0.1:0 --metrics-addr "127.0.0.1:$port")
  start=$(date +%s.%N)
  ./bin/proxmox "${flags[@]}" --state "$state/bin/state.db" >"$work/bin.log" 2>&1 &
  launcher=$(ready_after $! "$start" "$port")
  printf 'run %d: image %.2f s, bin/proxmox %.2f s\n' "$i" "$image" "$launcher"
done
