# SPDX-License-Identifier: GPL-2.0
# Shared by the guest tests that read perf pagealloc report -x, tables.

# col FILE ROW-PREFIX KEY: the KEY column of the first -x, row starting so
col() {
	local n
	n=$(head -1 "$1" | tr , '\n' | grep -nx "$3" | cut -d: -f1)
	[ -n "$n" ] && grep "^$2" "$1" | head -1 | cut -d, -f"$n"
}

# memcg_v2: cgroup v2 on /sys/fs/cgroup with the memory controller given
# to the root's children; exit 2 (skip) without it
memcg_v2() {
	mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup
	grep -qw memory /sys/fs/cgroup/cgroup.controllers ||
		{ echo "skip: no memory controller in cgroup v2"; exit 2; }
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control
}
