# SPDX-License-Identifier: GPL-2.0
# Shared by the XFS guest tests: an XFS filesystem on a loop file in tmpfs.

# xfs_loop_skip: exit 2 (skip) unless XFS and its tools are there
xfs_loop_skip() {
	local tool
	grep -qw xfs /proc/filesystems || { echo "skip: no xfs in /proc/filesystems"; exit 2; }
	for tool in mkfs.xfs losetup dd; do
		command -v $tool > /dev/null || { echo "skip: no $tool (xfsprogs, util-linux)"; exit 2; }
	done
}

# xfs_loop_setup DIR: a sparse 320 MiB DIR/xfs.img (mkfs.xfs wants >= 300
# MiB) on a loop device ($loop), mounted on DIR/mnt ($mnt); 1 on failure
xfs_loop_setup() {
	mnt=$1/mnt
	truncate -s 320M "$1/xfs.img"
	mkfs.xfs -q -f "$1/xfs.img" || { echo "FAIL: mkfs.xfs failed"; return 1; }
	loop=$(losetup -f --show "$1/xfs.img") || { echo "FAIL: losetup failed"; loop=; return 1; }
	mkdir -p "$mnt"
	mount -t xfs "$loop" "$mnt" || { echo "FAIL: mount -t xfs $loop failed"; return 1; }
}

xfs_loop_teardown() {
	[ -n "${mnt:-}" ] && mountpoint -q "$mnt" 2>/dev/null && umount "$mnt"
	[ -n "${loop:-}" ] && losetup -d "$loop"
	loop=
}
