#!/usr/bin/env bash
# Runs an unpacked image's process the way a container runtime would, where none works: in a mount
# namespace of its own, the root filesystem read-only, STATE bind-mounted on VOLUME, a fresh tmpfs
# on /tmp, /proc and /dev as a runtime gives them, then chroot, working directory, uid and gid of
# the image and exec. The caller sets the environment (the image's, nothing else); the process
# keeps this script's pid, so a signal sent to it reaches the provider.
#
# usage: run-in-chroot.sh ROOTFS STATE VOLUME WORKDIR UID GID ARGV...
set -euo pipefail
rootfs=$1 state=$2 volume=$3 workdir=$4 uid=$5 gid=$6
shift 6
exec /usr/bin/unshare --mount --propagation private /bin/bash -c '
  set -euo pipefail
  rootfs=$1 state=$2 volume=$3 workdir=$4 uid=$5 gid=$6
  shift 6
  /bin/mount --bind "$rootfs" "$rootfs"
  /bin/mount --bind "$state" "$rootfs$volume"
  /bin/mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$rootfs/tmp"
  /bin/mount -t proc -o nosuid,nodev,noexec proc "$rootfs/proc"
  /bin/mount --rbind /dev "$rootfs/dev"
  /bin/mount -o remount,bind,ro "$rootfs"
  exec /usr/bin/unshare --root="$rootfs" --wd="$workdir" --setuid="$uid" --setgid="$gid" -- "$@"
' run-in-chroot "$rootfs" "$state" "$volume" "$workdir" "$uid" "$gid" "$@"
