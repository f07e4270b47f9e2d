#!/bin/sh
# drain-hook.sh: drains this VM's Kubernetes node with the credential bootstrap-hook.sh installed.
#
# The template ships it (see docs/proxmox/templates.md) and the provider runs it on Drain with the drain's
# timeout in seconds (the grace period, at least 1) appended:
#   --drain-exec /bin/sh,/usr/local/lib/bigfleet/drain-hook.sh
# kubectl's exit status is the hook's: a drain that fails or runs out of time fails the Drain.
#
# With BIGFLEET_PREFLIGHT=1 in its environment (`bigfleet-proxmox preflight --live`) it drains
# nothing: it checks that it was given the timeout alone and that kubectl is installed (the
# credential arrives with the blob at the join), then exits 0, or 1 naming what is wrong.
set -eu

if [ "${BIGFLEET_PREFLIGHT:-}" = 1 ]; then
  case "$#:${1:-}" in
    1:*[!0-9]* | 1:) echo "drain-hook: preflight: the timeout \"${1:-}\" is not a number of seconds" >&2; exit 1 ;;
    1:*) ;;
    *) echo "drain-hook: preflight: expected one argument, the timeout; got $#: $* (check --drain-exec)" >&2; exit 1 ;;
  esac
  command -v kubectl >/dev/null 2>&1 || { echo "drain-hook: preflight: kubectl is not installed" >&2; exit 1; }
  echo "drain-hook: preflight: would drain node $(hostname) within ${1}s with $(command -v kubectl)"
  exit 0
fi

timeout="$1"
exec kubectl --kubeconfig /etc/bigfleet/drain.kubeconfig drain "$(hostname)" \
  --ignore-daemonsets --delete-emptydir-data --timeout="${timeout}s"
