#!/bin/sh
# Builds a minimal Debian bookworm root file system with systemd into $1
# from the mirror $2, with Debian's own debootstrap (not installed: taken
# from its package). The second stage runs in a chroot inside fresh
# namespaces, so nothing it mounts reaches the machine.
set -eu
rootfs=$1
mirror=$2
tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
(cd "$tools" && apt-get download debootstrap >/dev/null && dpkg -x debootstrap_*.deb .)
export DEBOOTSTRAP_DIR="$tools/usr/share/debootstrap"
export LIBMOUNT_UTAB="$tools/utab"
"$tools/usr/sbin/debootstrap" --foreign --variant=minbase \
  --include=systemd,systemd-sysv,dbus,iproute2,procps,ca-certificates,rpm \
  bookworm "$rootfs" "$mirror"
unshare --mount --pid --uts --ipc --net --fork --propagation private \
  chroot "$rootfs" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
  LIBMOUNT_UTAB=/tmp/utab /debootstrap/debootstrap --second-stage
# What only slows a test boot.
for unit in apt-daily.timer apt-daily-upgrade.timer fstrim.timer \
  e2scrub_all.timer e2scrub_reap.service getty@tty1.service \
  systemd-pstore.service; do
  ln -sf /dev/null "$rootfs/etc/systemd/system/$unit"
done
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
echo ctrld-real >"$rootfs/etc/hostname"
: >"$rootfs/etc/machine-id"
