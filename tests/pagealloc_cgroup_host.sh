#!/bin/bash
# perf pagealloc report --per-cgroup on Debian perf's --all-cgroups recordings
# SPDX-License-Identifier: GPL-2.0
#
# Recorded on this machine with Debian's own perf (nothing of the project
# is loaded into the kernel), system wide with --all-cgroups, into a file
# and into a pipe: dd writes 4 MiB into /dev/shm from a new cgroup v2
# group it was moved into before the recording, and 2 MiB from a group
# the recorded command makes (its PERF_RECORD_CGROUP comes during the
# recording, after the events of the task before it moved).  For each file:
# - the cgroup of every task as Debian's perf report --sort cgroup,pid
#   shows it: per cgroup and pid, its mm_page_alloc and mm_page_free
#   events equal the --count-events --per-process rows';
# - every --per-cgroup row is the sum of the task rows of its cgroup;
# - the first group holds at least the 1024 pages of its file, the second
#   the 512 of its own (--outstanding).
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
perf=${PERF:-${BUILD_DIR:-/var/tmp/pagealloc-build}/perf/perf}
host_perf=${HOST_PERF:-/usr/bin/perf}
"$perf" --list-cmds 2>/dev/null | tr -s " " "\n" | grep -qx pagealloc || { echo "no perf pagealloc in $perf"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "needs root"; exit 2; }
[ -x "$host_perf" ] || { echo "no $host_perf (Debian's linux-perf)"; exit 2; }
root=$(findmnt -n -t cgroup2 -o TARGET | head -1)
[ -n "$root" ] && [ -w "$root" ] || { echo "no writable cgroup v2 hierarchy"; exit 2; }
[ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ] || { echo "no tmpfs /dev/shm"; exit 2; }
. "$here/../shell-tests/lib/pagealloc_cgroup.sh"

err=0
tmp=$(mktemp -d)
cga=$root/pa-host-a cgb=$root/pa-host-b
pids=
cleanup() {
	[ -n "$pids" ] && kill $pids 2>/dev/null && wait $pids 2>/dev/null
	rm -f /dev/shm/pa-host-a.$$ /dev/shm/pa-host-b.$$
	for g in $cga $cgb; do
		# a task left in the group: to the root
		[ -d $g ] && cat $g/cgroup.procs 2>/dev/null | while read -r p; do
			echo "$p" > $root/cgroup.procs; done
		[ -d $g ] && rmdir $g
	done
	rm -rf "$tmp"
}
trap 'cleanup; trap - EXIT; exit $err' EXIT TERM INT
fail() { echo "FAIL: $*"; err=1; }

record() {	# output, -o argument
	local g
	mkfifo $tmp/go-a
	timeout 60 sh -c "echo \$\$ > $cga/cgroup.procs; read x < $tmp/go-a
		exec dd if=/dev/zero of=/dev/shm/pa-host-a.$$ bs=1M count=4 status=none" &
	pids="$!"
	for g in $(seq 100); do
		[ "$(wc -l < $cga/cgroup.procs)" = 1 ] && break
		sleep 0.1
	done
	"$host_perf" record -q -a -c 1 --all-cgroups -e kmem:mm_page_alloc -e kmem:mm_page_free \
		-o "$2" -- sh -c "echo > $tmp/go-a
		mkdir $cgb && sh -c 'echo \$\$ > $cgb/cgroup.procs
			exec dd if=/dev/zero of=/dev/shm/pa-host-b.$$ bs=1M count=2 status=none'
		while [ -n \"\$(cat $cga/cgroup.procs)\" ]; do sleep 0.05; done" \
		> "$1" 2> $tmp/record.err || { fail "perf record $2"; cat $tmp/record.err; }
	wait $pids
	pids=
	rm -f $tmp/go-a /dev/shm/pa-host-a.$$ /dev/shm/pa-host-b.$$
	rmdir $cgb
}

mkdir $cga || { fail "cannot make $cga"; exit; }
record $tmp/file.data.log $tmp/file.data
record $tmp/pipe.data -
for f in file.data pipe.data; do
	in=$tmp/$f
	for t in "cgroups --per-cgroup --outstanding" "tasks --outstanding" \
		 "counts --count-events"; do
		set -- $t
		out=$1
		shift
		"$perf" pagealloc report -q -i $in -x, "$@" > $tmp/$out 2> $tmp/err ||
			{ fail "$f: perf pagealloc report $* exited with $?"; cat $tmp/err; }
	done
	cgroup_membership "$host_perf" $in $tmp/counts $tmp/members ||
		fail "$f: the cgroups of the tasks differ from Debian's perf report --sort cgroup,pid"
	grep -q "^kmem:mm_page_alloc /pa-host-a " $tmp/members.ref &&
		grep -q "^kmem:mm_page_alloc /pa-host-b " $tmp/members.ref ||
		fail "$f: Debian's perf report shows no mm_page_alloc in the two cgroups"
	sums=$(cgroup_sums $tmp/tasks $tmp/cgroups)
	[ -z "$sums" ] || fail "$f: the cgroup rows are not the sums of their tasks' rows: $sums"
	a=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
		$1 == "/pa-host-a" { print $c["outstanding"] }' $tmp/cgroups)
	b=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
		$1 == "/pa-host-b" { print $c["outstanding"] }' $tmp/cgroups)
	echo "$f: $(wc -l < $tmp/members.ref) event, cgroup and pid entries; outstanding: /pa-host-a $a, /pa-host-b $b"
	[ "${a:-0}" -ge 1024 ] && [ "${b:-0}" -ge 512 ] ||
		fail "$f: the groups hold their files' 1024 and 512 pages: outstanding '$a', '$b'"
done
exit $err
