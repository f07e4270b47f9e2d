#!/usr/bin/env bash
# Builds the guest the simulator runs for every started VM: a small Debian 12 root file system with
# qemu-guest-agent, the commands the setup kit's hooks use (deploy/proxmox/*.sh, installed where
# the template guide puts them) and test stand-ins for kubeadm and kubectl. With --vm it also
# makes a bootable qcow2 disk of it (kernel, systemd, qemu-guest-agent started at boot) for the
# real-VM lane.
#
#   pve-simulator/guest-image/build.sh          # prints the root file system's directory
#   pve-simulator/guest-image/build.sh --vm     # prints the directory holding guest.qcow2,
#                                               # vmlinuz and initrd.img
#
# The result is cached in a directory named after the SHA-256 of this script, the stand-ins and
# the hooks, under $BIGFLEET_GUEST_IMAGE_CACHE (default: ~/.cache/bigfleet-guest-image, or
# /var/cache/bigfleet-guest-image for root); a second run with the same inputs builds nothing.
# Needs root (mmdebstrap keeps the files' owners), mmdebstrap and Debian's package mirror; --vm
# also needs qemu-img and mkfs.ext4 (e2fsprogs).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
kit="$here/../../deploy/proxmox"
want_vm=false
case "${1:-}" in
  "") ;;
  --vm) want_vm=true ;;
  *) echo "build.sh: unknown argument $1 (only --vm)" >&2; exit 2 ;;
esac

die() {
  echo "build.sh: $*" >&2
  exit 1
}
[[ $(id -u) -eq 0 ]] || die "run it as root: mmdebstrap must keep the guest files' owners"
command -v mmdebstrap >/dev/null || die "mmdebstrap is missing (apt-get install mmdebstrap)"

if [[ -n ${BIGFLEET_GUEST_IMAGE_CACHE:-} ]]; then
  cache="$BIGFLEET_GUEST_IMAGE_CACHE"
else
  cache=/var/cache/bigfleet-guest-image
fi
key="$(cat "$here/build.sh" "$here"/stand-ins/* "$kit/bootstrap-hook.sh" "$kit/drain-hook.sh" \
  | sha256sum | cut -c1-16)"
out="$cache/$key"
mkdir -p "$cache"

# One build at a time per cache: concurrent test runs wait for the first one's result.
exec 9>"$cache/.lock"
flock 9

if [[ ! -d "$out/rootfs" ]]; then
  work="$(mktemp -d "$cache/.build-XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  # essential: dash, coreutils, tar, hostname, grep, sed, findutils, util-linux; the agent and its
  # libraries on top. No apt, no init: the sandbox runs the agent as its only long-lived process.
  mmdebstrap --quiet --variant=essential --components=main \
    --include=qemu-guest-agent \
    --customize-hook='mkdir -p "$1/usr/local/lib/bigfleet" "$1/etc/kubernetes"' \
    --customize-hook="copy-in $kit/bootstrap-hook.sh $kit/drain-hook.sh /usr/local/lib/bigfleet" \
    --customize-hook="copy-in $here/stand-ins/kubeadm $here/stand-ins/kubectl /usr/local/bin" \
    --customize-hook='chmod 0755 "$1"/usr/local/lib/bigfleet/*.sh "$1"/usr/local/bin/kubeadm "$1"/usr/local/bin/kubectl' \
    --customize-hook='rm -rf "$1"/usr/share/doc/* "$1"/usr/share/man/* "$1"/usr/share/locale/* "$1"/var/cache/apt/*' \
    --customize-hook=': > "$1/etc/machine-id"' \
    bookworm "$work/rootfs"
  mv "$work/rootfs" "$work/rootfs.done"
  mkdir -p "$out"
  mv "$work/rootfs.done" "$out/rootfs"
fi

if ! $want_vm; then
  echo "$out/rootfs"
  exit 0
fi
echo "build.sh: --vm is not built yet" >&2
exit 1
