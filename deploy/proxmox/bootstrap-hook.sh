#!/bin/sh
# bootstrap-hook.sh: joins this VM to the Kubernetes cluster its bootstrap blob names.
#
# The template ships it (see TEMPLATE.md) and the provider runs it on Configure with the blob's
# path appended:  --bootstrap-exec /bin/sh,/usr/local/lib/bigfleet/bootstrap-hook.sh
#
# The blob is a tar archive of two files:
#   join.yaml          a kubeadm JoinConfiguration: API server endpoint, bootstrap token, CA hash
#   drain.kubeconfig   the credential drain-hook.sh drains this node with
# Any failure exits non-zero (the Configure then fails with the exit code and the end of stderr).
# The unpacked join configuration is removed whatever happens; the provider deletes the blob.
set -eu

blob="$1"
work=/run/bigfleet-join
kubeconfig=/etc/bigfleet/drain.kubeconfig

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
