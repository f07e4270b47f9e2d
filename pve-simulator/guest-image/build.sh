#!/usr/bin/env bash
# Builds the guest the simulator runs for every started VM: a small Debian 12 root file system with
# qemu-guest-agent, cloud-init (run against a cidata seed attached to the VM, with the settings of
# cloud.cfg.d/ for the sandbox), the commands the setup kit's hooks use (deploy/proxmox/*.sh,
# installed where the template guide puts them) and test stand-ins for kubeadm and kubectl. With
# --vm it also makes a bootable qcow2 disk of it (kernel, systemd, qemu-guest-agent started at
# boot; no cloud-init) for the real-VM lane.
#
#   pve-simulator/guest-image/build.sh          # prints the root file system's directory
#   pve-simulator/guest-image/build.sh --vm     # prints the directory holding guest.qcow2,
#                                               # vmlinuz and initrd.img
#
# Standard output is that one line and nothing else, so a caller can take it as the path; whatever
# the build's tools print goes to standard error.
#
# The result is cached in a directory named after the SHA-256 of this script, the stand-ins, the
# cloud-init settings and the hooks, under $BIGFLEET_GUEST_IMAGE_CACHE (default:
# ~/.cache/bigfleet-guest-image, or /var/cache/bigfleet-guest-image for root); a second run with
# the same inputs builds nothing.
# Needs root (mmdebstrap keeps the files' owners), mmdebstrap and Debian's package mirror; --vm
# also needs qemu-img and mkfs.ext4 (e2fsprogs).
set -euo pipefail

# fd 3 is the caller's standard output, kept for the result; every tool below writes to stderr
exec 3>&1 1>&2

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
key="$(cat "$here/build.sh" "$here"/stand-ins/* "$here"/cloud.cfg.d/* "$kit/bootstrap-hook.sh" "$kit/drain-hook.sh" "$kit/ready-hook.sh" \
  | sha256sum | cut -c1-16)"
out="$cache/$key"
mkdir -p "$cache"

# One build at a time per cache: concurrent test runs wait for the first one's result.
exec 9>"$cache/.lock"
flock 9

if [[ ! -d "$out/rootfs" ]]; then
  work="$(mktemp -d "$cache/.build-XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  # essential: dash, coreutils, tar, hostname, grep, sed, findutils, util-linux; the agent and
  # cloud-init (with python3) and their libraries on top, without Recommends. No apt, no init: the
  # sandbox runs the agent as its only long-lived process, and cloud-init's stages when it boots
  # with a seed.
  mmdebstrap --quiet --variant=essential --components=main \
    --aptopt='APT::Install-Recommends "false"' \
    --include=qemu-guest-agent,cloud-init \
    --customize-hook='mkdir -p "$1/usr/local/lib/bigfleet" "$1/etc/kubernetes"' \
    --customize-hook="copy-in $kit/bootstrap-hook.sh $kit/drain-hook.sh $kit/ready-hook.sh /usr/local/lib/bigfleet" \
    --customize-hook="copy-in $here/stand-ins/kubeadm $here/stand-ins/kubectl /usr/local/bin" \
    --customize-hook="copy-in $here/cloud.cfg.d/90-bigfleet-sandbox.cfg /etc/cloud/cloud.cfg.d" \
    --customize-hook='chmod 0755 "$1"/usr/local/lib/bigfleet/*.sh "$1"/usr/local/bin/kubeadm "$1"/usr/local/bin/kubectl' \
    --customize-hook='chmod 0644 "$1"/etc/cloud/cloud.cfg.d/90-bigfleet-sandbox.cfg' \
    --customize-hook='rm -rf "$1"/usr/share/doc/* "$1"/usr/share/man/* "$1"/usr/share/locale/* "$1"/var/cache/apt/*' \
    --customize-hook=': > "$1/etc/machine-id"' \
    bookworm "$work/rootfs"
  mv "$work/rootfs" "$work/rootfs.done"
  mkdir -p "$out"
  mv "$work/rootfs.done" "$out/rootfs"
fi

if ! $want_vm; then
  echo "$out/rootfs" >&3
  exit 0
fi

# The real-VM lane: the same guest, bootable. systemd starts qemu-guest-agent when the virtio
# serial port org.qemu.guest_agent.0 appears (udev); the kernel and initrd are handed to QEMU
# directly (no boot loader), the host name comes from the kernel command line
# (systemd.hostname=NAME). Only the modules a virtio guest needs are kept.
if [[ ! -f "$out/vm/guest.qcow2" ]]; then
  command -v qemu-img >/dev/null || die "qemu-img is missing (apt-get install qemu-utils)"
  command -v mkfs.ext4 >/dev/null || die "mkfs.ext4 is missing (apt-get install e2fsprogs)"
  work="$(mktemp -d "$cache/.build-vm-XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  mmdebstrap --quiet --variant=minbase --components=main \
    --include=systemd-sysv,udev,kmod,linux-image-amd64,initramfs-tools,qemu-guest-agent \
    --customize-hook='mkdir -p "$1/usr/local/lib/bigfleet" "$1/etc/kubernetes"' \
    --customize-hook="copy-in $kit/bootstrap-hook.sh $kit/drain-hook.sh $kit/ready-hook.sh /usr/local/lib/bigfleet" \
    --customize-hook="copy-in $here/stand-ins/kubeadm $here/stand-ins/kubectl /usr/local/bin" \
    --customize-hook='chmod 0755 "$1"/usr/local/lib/bigfleet/*.sh "$1"/usr/local/bin/kubeadm "$1"/usr/local/bin/kubectl' \
    --customize-hook='printf "/dev/vda / ext4 rw,errors=remount-ro 0 1\n" > "$1/etc/fstab"' \
    --customize-hook='printf "virtio_console\n" > "$1/etc/modules-load.d/virtio-console.conf"' \
    --customize-hook='cd "$1/lib/modules"/* && find kernel -name "*.ko*" | grep -Ev "/(virtio[a-z_]*|ext4|jbd2|mbcache|crc16|crc32c[a-z_-]*|libcrc32c)\.ko" | xargs rm -f && chroot "$1" depmod -a "$(basename "$PWD")"' \
    --customize-hook='chroot "$1" update-initramfs -u -k all' \
    --customize-hook='rm -rf "$1"/usr/share/doc/* "$1"/usr/share/man/* "$1"/usr/share/locale/* "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/*' \
    --customize-hook=': > "$1/etc/machine-id"' \
    bookworm "$work/vmroot"
  mkdir -p "$work/vm"
  cp -L "$work/vmroot/vmlinuz" "$work/vm/vmlinuz"
  cp -L "$work/vmroot/initrd.img" "$work/vm/initrd.img"
  mkfs.ext4 -q -L root -d "$work/vmroot" "$work/vm/guest.raw" 1G
  qemu-img convert -f raw -O qcow2 "$work/vm/guest.raw" "$work/vm/guest.qcow2"
  rm -f "$work/vm/guest.raw"
  mv "$work/vm" "$out/vm"
fi
echo "$out/vm" >&3
