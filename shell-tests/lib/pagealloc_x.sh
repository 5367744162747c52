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

# same_rows WHAT A B: every row of the -x, table A (but TOTAL, the # lines,
# the cgroup root / and the interrupts': report -b counts the interrupts
# of the tasks it follows, a recording all) is in B with the same values;
# the ms columns both 0 or not (each side has its own clock), an empty
# column of A (one it cannot count) is not compared.  A line per difference.
same_rows() {
	awk -F, -v what="$1" '
	FNR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /_ms$/) ms[i] = 1; next }
	/^#/ || $1 == "TOTAL" || $1 == "/" || $1 ~ /^\[/ { next }
	NR == FNR { want[$1] = $0; next }
	$1 in want { got[$1] = $0 }
	END {
		for (t in want) {
			if (!(t in got)) { print what ": no row " t " in the recording"; continue }
			n = split(want[t], w, ","); split(got[t], g, ",")
			for (i = 2; i <= n; i++)
				if (w[i] != "" && (ms[i] ? (w[i] > 0) != (g[i] > 0) : w[i] != g[i]))
					print what ": " t " column " i ": -b " w[i] ", recording " g[i]
			rows++
		}
		if (!rows) print what ": no rows"
	}' "$2" "$3"
}
