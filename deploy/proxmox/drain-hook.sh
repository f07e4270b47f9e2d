#!/bin/sh
# drain-hook.sh: drains this VM's Kubernetes node with the credential bootstrap-hook.sh installed.
#
# The template ships it (see TEMPLATE.md) and the provider runs it on Drain with the drain's
# timeout in seconds (the grace period, at least 1) appended:
#   --drain-exec /bin/sh,/usr/local/lib/bigfleet/drain-hook.sh
# kubectl's exit status is the hook's: a drain that fails or runs out of time fails the Drain.
set -eu

timeout="$1"
exec kubectl --kubeconfig /etc/bigfleet/drain.kubeconfig drain "$(hostname)" \
  --ignore-daemonsets --delete-emptydir-data --timeout="${timeout}s"
