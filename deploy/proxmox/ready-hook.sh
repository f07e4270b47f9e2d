#!/bin/sh
# ready-hook.sh: exits 0 once this VM's Kubernetes node is Ready, else 1 with the reason on stderr.
#
# The template ships it (see docs/proxmox/templates.md) and the provider runs it after the bootstrap hook, again
# and again with a growing pause, until it exits 0 or the Configure timeout passes:
#   --ready-exec /bin/sh,/usr/local/lib/bigfleet/ready-hook.sh
# It asks the kubelet itself (its local health endpoint, when curl is installed) and the API server
# (the node's Ready condition, with the kubelet's own credential, which may read its own node).
#
# With BIGFLEET_PREFLIGHT=1 in its environment (`bigfleet-proxmox preflight --live`) the node has
# joined nothing, so it only checks that what it calls is installed, then exits 0, or 1 naming
# what is missing.
set -u

kubeconfig=/etc/kubernetes/kubelet.conf
node="$(hostname)"

if [ "${BIGFLEET_PREFLIGHT:-}" = 1 ]; then
  [ -n "$node" ] || { echo "ready-hook: preflight: hostname gives no name" >&2; exit 1; }
  command -v kubectl >/dev/null 2>&1 || { echo "ready-hook: preflight: kubectl is not installed" >&2; exit 1; }
  curl=" (no curl: the kubelet's health endpoint is not asked)"
  command -v curl >/dev/null 2>&1 && curl=", curl"
  echo "ready-hook: preflight: node $node, $(command -v kubectl)$curl"
  exit 0
fi

[ -f "$kubeconfig" ] || { echo "node $node has not joined: $kubeconfig is missing" >&2; exit 1; }
if command -v curl >/dev/null 2>&1; then
  curl -fsS --max-time 5 http://127.0.0.1:10248/healthz >/dev/null \
    || { echo "the kubelet of $node is not healthy (http://127.0.0.1:10248/healthz)" >&2; exit 1; }
fi
ready="$(kubectl --kubeconfig "$kubeconfig" get node "$node" \
  -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}')" || exit 1
[ "$ready" = True ] || { echo "node $node is not Ready (Ready=${ready:-unknown})" >&2; exit 1; }
