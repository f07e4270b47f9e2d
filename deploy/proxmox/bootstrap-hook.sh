#!/bin/sh
# bootstrap-hook.sh: joins this VM to the Kubernetes cluster its bootstrap blob names.
#
# The template ships it (see docs/proxmox/templates.md) and the provider runs it on Configure with the blob's
# path appended:  --bootstrap-exec /bin/sh,/usr/local/lib/bigfleet/bootstrap-hook.sh
#
# The blob is a tar archive of two files:
#   join.yaml          a kubeadm JoinConfiguration: API server endpoint, bootstrap token, CA hash
#   drain.kubeconfig   the credential drain-hook.sh drains this node with
# Any failure exits non-zero (the Configure then fails with the exit code and the end of stderr).
# The unpacked join configuration is removed whatever happens; the provider deletes the blob.
#
# With BIGFLEET_PREFLIGHT=1 in its environment (`bigfleet-proxmox preflight --live` runs it so, on
# a test blob that is no tar archive) it joins nothing: it checks that it was given the blob's path
# alone, that the commands it calls are installed, that the directories it writes are writable and
# that the template has not joined a cluster already, then exits 0, or 1 naming what is wrong.
set -eu

work=/run/bigfleet-join
kubeconfig=/etc/bigfleet/drain.kubeconfig

if [ "${BIGFLEET_PREFLIGHT:-}" = 1 ]; then
  problems=0
  problem() { echo "bootstrap-hook: preflight: $*" >&2; problems=$((problems + 1)); }
  [ $# -eq 1 ] || problem "expected one argument, the blob's path; got $#: $* (check --bootstrap-exec)"
  [ $# -ge 1 ] && [ -s "$1" ] || problem "the blob ${1:-} is missing or empty"
  for c in tar install kubeadm mkdir; do
    command -v "$c" >/dev/null 2>&1 || problem "$c is not installed"
  done
  [ -w "$(dirname "$work")" ] || problem "$(dirname "$work") is not writable"
  [ -w /etc ] || problem "/etc is not writable (the drain credential goes to $kubeconfig)"
  [ ! -e /etc/kubernetes/kubelet.conf ] \
    || problem "/etc/kubernetes/kubelet.conf exists: the template has joined a cluster (kubeadm reset it)"
  [ "$problems" -eq 0 ] || exit 1
  echo "bootstrap-hook: preflight: ready to join ($(command -v kubeadm), tar, install found)"
  exit 0
fi

blob="$1"

umask 077
trap 'rm -rf "$work"' EXIT

if [ -e /etc/kubernetes/kubelet.conf ]; then
  # a retried Configure: the node joined the first time
  echo "bootstrap-hook: this node has joined its cluster already"
  exit 0
fi
if [ ! -s "$blob" ]; then
  echo "bootstrap-hook: the bootstrap blob $blob is missing or empty" >&2
  exit 2
fi

rm -rf "$work"
mkdir -p "$work" /etc/bigfleet
tar -xf "$blob" -C "$work" join.yaml drain.kubeconfig
install -m 0600 "$work/drain.kubeconfig" "$kubeconfig"
kubeadm join --config "$work/join.yaml"
echo "bootstrap-hook: joined"
