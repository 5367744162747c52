#!/bin/bash
# perf pagealloc report --per-cgroup: which cgroup's tasks press the allocator
# SPDX-License-Identifier: GPL-2.0
#
# Two cgroup v2 groups, each with a task moved into it before the
# recording starts, so that every event of the task is the group's:
#  pa-limited  memory.max 8 MiB: pa-stall-reader, a copy of cat, reads a
#              48 MiB XFS file (its page cache dropped): memcg reclaim;
#  pa-free     no limit: dd writes 4 MiB into tmpfs, then pa-free-reader
#              reads another 48 MiB file.
# Recorded with perf pagealloc record --all-cgroups, then:
# - --per-cgroup: /pa-limited has reclaim stalls, /pa-free none; with
#   --outstanding /pa-free holds at least the 1024 pages of its file;
# - every cgroup's row is the sum, column for column, of the task rows
#   whose cgroup column names it;
# - membership as perf report --sort cgroup,pid shows it: for each cgroup
#   and pid, perf report's mm_page_alloc and mm_page_free events equal
#   alloc + alloc_failed and free_direct + free_batched of the
#   --count-events rows (a row a thread, as perf report's pid is the
#   thread's: perf record's side-band thread frees pages too);
# - -G/--cgroup-filter /pa-limited: only that cgroup's rows, their TOTAL
#   its --per-cgroup row; with --outstanding, -G is refused as the other
#   filters are (the pages are followed whoever frees them);
# - a recording without cgroups: --per-cgroup is a one-line error;
# - -b, the same workload counted in the kernel while it is recorded:
#   with --per-cgroup, the two groups' rows equal the recording's, every
#   column but the stall times (each on its own clock: both 0 or both
#   not); with -G naming the two groups (a filter in the kernel), every
#   task row, with its cgroup column, equals the recording's; and with
#   perf_event moved to a cgroup v1 hierarchy, dd in a v1 cgroup: -b
#   --per-cgroup's row of it equals the recording's (both name the
#   perf_event cgroup of a task).
export LC_ALL=C

[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 2; }
perf pagealloc report -h 2>&1 | grep -q -- --per-cgroup ||
	{ echo "skip: no perf pagealloc report --per-cgroup"; exit 2; }
tracefs=/sys/kernel/tracing
[ -d $tracefs/events ] || tracefs=/sys/kernel/debug/tracing
[ -d $tracefs/events/vmscan/mm_vmscan_memcg_reclaim_begin ] ||
	{ echo "skip: no vmscan:mm_vmscan_memcg_reclaim_begin"; exit 2; }
. "$(dirname "$0")"/lib/xfs_loop.sh
. "$(dirname "$0")"/lib/pagealloc_x.sh
. "$(dirname "$0")"/lib/pagealloc_cgroup.sh
xfs_loop_skip

err=0
tmp=$(mktemp -d /tmp/__perf_test.cgroup.XXXXX)
cgl=/sys/fs/cgroup/pa-limited cgf=/sys/fs/cgroup/pa-free
pids=
cleanup() {
	[ -n "$pids" ] && kill $pids 2>/dev/null && wait $pids 2>/dev/null
	mountpoint -q $tmp/v1 2> /dev/null && { rmdir $tmp/v1/pa-v1; umount $tmp/v1; }
	[ -d $cgl ] && rmdir $cgl
	[ -d $cgf ] && rmdir $cgf
	xfs_loop_teardown
	rm -rf "$tmp"
	trap - EXIT TERM INT
}
trap 'cleanup; exit $err' EXIT TERM INT
fail() { echo "FAIL: $*"; err=1; }

memcg_v2
mkdir $cgl $cgf && echo 8M > $cgl/memory.max || { fail "cannot make the cgroups"; exit; }
xfs_loop_setup $tmp || { err=1; exit; }
for f in a b; do
	dd if=/dev/zero of=$mnt/$f bs=1M count=48 status=none
done
sync
cp /bin/cat $tmp/pa-stall-reader
cp /bin/cat $tmp/pa-free-reader
mkfifo $tmp/go-l $tmp/go-f

# each task joins its group, then waits for the recording (at most 120 s);
# $release lets them go and ends when they have
start() {
	rm -f $tmp/held
	echo 1 > /proc/sys/vm/drop_caches
	timeout 120 sh -c "echo \$\$ > $cgl/cgroup.procs; read x < $tmp/go-l
		exec $tmp/pa-stall-reader $mnt/a" > /dev/null &
	pids="$!"
	timeout 120 sh -c "echo \$\$ > $cgf/cgroup.procs; read x < $tmp/go-f
		dd if=/dev/zero of=$tmp/held bs=1M count=4 status=none
		exec $tmp/pa-free-reader $mnt/b" > /dev/null &
	pids="$pids $!"
	for i in $(seq 100); do
		[ "$(cat $cgl/cgroup.procs $cgf/cgroup.procs | wc -l)" = 2 ] && break
		sleep 0.1
	done
}
release="echo > $tmp/go-l; echo > $tmp/go-f
	while [ -n \"\$(cat $cgl/cgroup.procs $cgf/cgroup.procs)\" ]; do sleep 0.1; done"
start
perf pagealloc record --all-cgroups -m 16M -o $tmp/cg.data -- sh -c "$release" \
	> $tmp/record.log 2>&1 || { fail "perf pagealloc record exited with $?"; cat $tmp/record.log; }
wait $pids
pids=

report() {	# output, options...
	local out=$1
	shift
	perf pagealloc report -q -i $tmp/cg.data -x, "$@" > $tmp/$out 2> $tmp/report.err ||
		{ fail "perf pagealloc report $* exited with $?"; cat $tmp/report.err; }
}
report cgroups --per-cgroup --outstanding
report tasks --outstanding
report counts --count-events
report plain --per-cgroup
report limited -G /pa-limited
grep -v '^#' $tmp/cgroups

r=$(col $tmp/cgroups /pa-limited, reclaim)
echo "/pa-limited: $r reclaim stalls; /pa-free: $(col $tmp/cgroups /pa-free, reclaim)"
[ "${r:-0}" -gt 0 ] || fail "/pa-limited has no reclaim stall"
[ "$(col $tmp/cgroups /pa-free, reclaim)" = 0 ] || fail "/pa-free has reclaim stalls"
out=$(col $tmp/cgroups /pa-free, outstanding)
[ "${out:-0}" -ge 1024 ] || fail "/pa-free holds its file's 1024 pages: outstanding '$out'"

sums=$(cgroup_sums $tmp/tasks $tmp/cgroups)
[ -z "$sums" ] || fail "the cgroup rows are not the sums of their tasks' rows: $sums"
cgroup_membership perf $tmp/cg.data $tmp/counts $tmp/members ||
	fail "the cgroups of the tasks differ from perf report --sort cgroup,pid"
echo "perf report --sort cgroup,pid: $(wc -l < $tmp/members.ref) event, cgroup and pid entries"
grep -q "^kmem:mm_page_alloc /pa-limited " $tmp/members.ref &&
	grep -q "^kmem:mm_page_alloc /pa-free " $tmp/members.ref ||
	fail "perf report shows no mm_page_alloc in the two cgroups"

# the filter: the cgroup's rows only, their TOTAL its row
others=$(grep -v '^#\|^task,\|^TOTAL,' $tmp/limited | awk -F, '$NF != "/pa-limited"')
[ -z "$others" ] || fail "-G /pa-limited shows other cgroups: $others"
total=$(grep '^TOTAL,' $tmp/limited | cut -d, -f2- | sed 's/,$//')
row=$(grep '^/pa-limited,' $tmp/plain | cut -d, -f2-)
[ -n "$row" ] && [ "$total" = "$row" ] ||
	fail "-G /pa-limited: TOTAL '$total', the --per-cgroup row '$row'"

perf pagealloc report -i $tmp/cg.data -G /pa-limited --outstanding > $tmp/out 2> $tmp/err &&
	fail "-G with --outstanding exited with 0"
[ "$(wc -l < $tmp/err)" = 1 ] && [ ! -s $tmp/out ] || fail "-G --outstanding: $(cat $tmp/err $tmp/out)"

# no cgroups in the file: one line, and no table
perf pagealloc record -q -o $tmp/plain.data -- true > /dev/null 2>&1
perf pagealloc report -i $tmp/plain.data --per-cgroup > $tmp/out 2> $tmp/err &&
	fail "--per-cgroup without cgroups exited with 0"
[ "$(wc -l < $tmp/err)" = 1 ] && grep -q -- '--all-cgroups' $tmp/err && [ ! -s $tmp/out ] ||
	fail "--per-cgroup without cgroups: $(cat $tmp/err $tmp/out)"

# -b: the same workload counted in the kernel while it is recorded
if perf pagealloc report -b -q -- true 2>&1 | grep -q 'built with BPF skeletons'; then
	echo "no BPF skeletons: -b is not compared"
	exit $err
fi
for opt in --per-cgroup "-G /pa-limited,/pa-free"; do
	start
	perf pagealloc record --all-cgroups -q -m 16M -o $tmp/b.data -- \
		perf pagealloc report -b -a -q -x, --split-irq $opt -- sh -c "$release" \
		> $tmp/bpf 2> $tmp/err || { fail "-b $opt: record with report -b: $(cat $tmp/err)"; continue; }
	wait $pids
	pids=
	grep -q lost $tmp/err && { fail "-b $opt: the recording lost events"; continue; }
	perf pagealloc report -q -i $tmp/b.data -x, --split-irq $opt > $tmp/rec 2>&1
	diffs=$(same_rows "-b $opt" $tmp/bpf $tmp/rec)
	rows=$(grep -vc '^task,\|^TOTAL,\|^/,\|^\[' $tmp/bpf)
	echo "-b $opt: $rows rows compared"
	[ -z "$diffs" ] && [ "$rows" -ge 2 ] || fail "-b $opt differs from the recording: $diffs"
done
grep -q ',/pa-limited$' $tmp/bpf || fail "-b -G: no task row of /pa-limited: $(cat $tmp/bpf)"
mkdir $tmp/v1
if mount -t cgroup -o perf_event none $tmp/v1 2> /dev/null && mkdir $tmp/v1/pa-v1; then
	timeout 60 sh -c "echo \$\$ > $tmp/v1/pa-v1/cgroup.procs; read x < $tmp/go-l
		exec dd if=/dev/zero of=$tmp/v1.held bs=1M count=2 status=none" &
	pids=$!
	until [ -n "$(cat $tmp/v1/pa-v1/cgroup.procs)" ]; do sleep 0.1; done
	perf pagealloc record --all-cgroups -q -m 16M -o $tmp/v1.data -- \
		perf pagealloc report -b -a -q -x, --split-irq --per-cgroup -- sh -c "echo > $tmp/go-l
		while [ -n \"\$(cat $tmp/v1/pa-v1/cgroup.procs)\" ]; do sleep 0.1; done" \
		> $tmp/bpf 2> $tmp/err || fail "-b on cgroup v1: record with report -b: $(cat $tmp/err)"
	wait $pids
	pids=
	perf pagealloc report -q -i $tmp/v1.data -x, --split-irq --per-cgroup > $tmp/rec 2>&1
	diffs=$(same_rows "-b on cgroup v1" $tmp/bpf $tmp/rec)
	echo "-b on cgroup v1: $(grep '^/pa-v1,' $tmp/bpf | cut -d, -f1-2)"
	grep -q '^/pa-v1,' $tmp/bpf && [ -z "$diffs" ] ||
		fail "-b on cgroup v1 differs from the recording: $diffs $(cat $tmp/bpf)"
	rmdir $tmp/v1/pa-v1
	umount $tmp/v1
else
	echo "perf_event cannot move to a cgroup v1 hierarchy here: not tried"
fi
exit $err
