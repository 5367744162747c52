#!/bin/bash
# perf pagealloc report: reclaim and compaction stalls on the task they blocked
# SPDX-License-Identifier: GPL-2.0
#
# Two workloads recorded with perf pagealloc record, which records the
# stall events the kernel has:
#
# memcg   pa-stall-reader, a copy of cat in a cgroup v2 group with a
#         memory.max of 8 MiB, reads a 48 MiB file of an XFS on a loop
#         file (its page cache dropped), while pa-free-reader, outside
#         the group, reads another one.  The reader in the group is forced
#         into memcg reclaim: its row has reclaim > 0 and reclaim_ms > 0,
#         and reclaimed is at least the group's own pgsteal_direct
#         (memory.stat; the stalls' nr_reclaimed add the slab pages they
#         freed); the free reader's row, and every other row, has 0.
#         Recorded with -g: --folded --stall-weight puts the reader's
#         reclaim microseconds (each stall's, rounded down) on stacks
#         through try_to_free_mem_cgroup_pages(), their sum the
#         reclaim_ms column's within a microsecond a stall.
# compact test_pagealloc's compact scenario: its thread fragments ZONE_DMA
#         and asks it for pageblock_order blocks, which the allocator
#         tries to compact in the thread's context: the thread's row has
#         compact > 0 and compact_ms > 0 and alloc_failed as the module
#         says; no other row (kcompactd, kswapd) has a direct compaction.
#         In timechart --format=json, the thread's track has a slice per
#         compaction run, as many as --histogram counts.
#
# Both files are also compared, every row and column, with the table
# tests/pagealloc-compare computes from perf script of the same file.
export LC_ALL=C

[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 2; }
perf --list-cmds 2>/dev/null | tr -s ' ' '\n' | grep -qx pagealloc ||
	{ echo "skip: no perf pagealloc"; exit 2; }
compare=${PAGEALLOC_TOP:-}/tests/pagealloc-compare
[ -x "$compare" ] || { echo "skip: no $compare"; exit 2; }
tracefs=/sys/kernel/tracing
[ -d $tracefs/events ] || tracefs=/sys/kernel/debug/tracing
[ -d $tracefs/events/vmscan/mm_vmscan_memcg_reclaim_begin ] ||
	{ echo "skip: no vmscan:mm_vmscan_memcg_reclaim_begin"; exit 2; }
. "$(dirname "$0")"/lib/xfs_loop.sh
. "$(dirname "$0")"/lib/pagealloc_x.sh
xfs_loop_skip

err=0
tmp=$(mktemp -d /tmp/__perf_test.stalls.XXXXX)
cg=/sys/fs/cgroup/pa-stall
ko=${PAGEALLOC_KOUT:-${BUILD_DIR:-/var/tmp/pagealloc-build}/kernel}/lib/test_pagealloc.ko
ctl=/sys/kernel/debug/test_pagealloc
loaded=
cleanup() {
	[ -d $cg ] && rmdir $cg
	[ -n "$loaded" ] && rmmod test_pagealloc
	xfs_loop_teardown
	rm -rf "$tmp"
	trap - EXIT TERM INT
}
trap 'cleanup; exit $err' EXIT TERM INT
fail() { echo "FAIL: $*"; err=1; }

# --- memcg reclaim
memcg_v2
mkdir $cg && echo 8M > $cg/memory.max || { fail "cannot make $cg"; exit; }
xfs_loop_setup $tmp || { err=1; exit; }
for f in a b; do
	dd if=/dev/zero of=$mnt/$f bs=1M count=48 status=none
done
sync
echo 1 > /proc/sys/vm/drop_caches
cp /bin/cat $tmp/pa-stall-reader
cp /bin/cat $tmp/pa-free-reader
perf pagealloc record -g -m 16M -o $tmp/memcg.data -- sh -c "
	$tmp/pa-free-reader $mnt/b > /dev/null &
	sh -c 'echo \$\$ > $cg/cgroup.procs; exec $tmp/pa-stall-reader $mnt/a' > /dev/null
	wait" > $tmp/record.log 2>&1 ||
	{ fail "perf pagealloc record exited with $?"; cat $tmp/record.log; }
steal=$(sed -n 's/^pgsteal_direct //p' $cg/memory.stat)
perf pagealloc report -q -i $tmp/memcg.data -x, > $tmp/memcg.csv 2> $tmp/report.err ||
	{ fail "perf pagealloc report exited with $?"; cat $tmp/report.err; }
reclaim=$(col $tmp/memcg.csv pa-stall-reader- reclaim)
ms=$(col $tmp/memcg.csv pa-stall-reader- reclaim_ms)
reclaimed=$(col $tmp/memcg.csv pa-stall-reader- reclaimed)
echo "memcg: pa-stall-reader: $reclaim reclaims, $ms ms, $reclaimed pages reclaimed; the group's pgsteal_direct: $steal"
[ "${reclaim:-0}" -gt 0 ] || fail "memcg: pa-stall-reader has no reclaim stall"
awk -v m="$ms" 'BEGIN { exit !(m > 0) }' || fail "memcg: pa-stall-reader's reclaim_ms is '$ms'"
[ -n "$steal" ] && [ "${reclaimed:-0}" -ge "$steal" ] && [ "$steal" -gt 0 ] ||
	fail "memcg: reclaimed $reclaimed, the group's pgsteal_direct $steal"
[ "$(col $tmp/memcg.csv pa-free-reader- alloc)" -gt 0 ] 2>/dev/null ||
	fail "memcg: no pa-free-reader row with allocations"
others=$(grep -v '^task,\|^TOTAL,\|^pa-stall-reader-' $tmp/memcg.csv |
	awk -F, -v c="$(head -1 $tmp/memcg.csv | tr , '\n' | grep -nx reclaim | cut -d: -f1)" '$c != 0')
[ -z "$others" ] || fail "memcg: other rows with reclaim stalls: $others"
"$compare" perf $tmp/memcg.data || fail "memcg: report and perf script differ"
if perf pagealloc report -h 2>&1 | grep -q -- --stall-weight; then
	perf pagealloc report -q -i $tmp/memcg.data --folded --stall-weight 2> /dev/null |
		grep '^pa-stall-reader-' > $tmp/stalls.folded
	us=$(awk '{ s += $NF } END { print s + 0 }' $tmp/stalls.folded)
	want=$(awk -v m="$ms" 'BEGIN { split(m, p, "."); print p[1] * 1000 + int(p[2] / 1000) }')
	echo "memcg: --stall-weight: $us us on $(wc -l < $tmp/stalls.folded) stacks; reclaim_ms $ms"
	[ "$us" -le "$want" ] && [ "$us" -ge $((want - ${reclaim:-0})) ] ||
		fail "memcg: the stacks' $us us are not reclaim_ms's $want us, within $reclaim"
	[ "$(grep -vc try_to_free_mem_cgroup_pages $tmp/stalls.folded)" = 0 ] ||
		fail "memcg: a reclaim stack not through try_to_free_mem_cgroup_pages: $(grep -v try_to_free_mem_cgroup_pages $tmp/stalls.folded | head -1)"
fi

# --- direct compaction
if [ ! -r "$ko" ]; then
	echo "compact: skipped, no $ko"
	exit
fi
insmod "$ko" || { fail "insmod $ko"; exit; }
loaded=1
perf pagealloc record -m 16M -o $tmp/compact.data -- sh -c "echo compact > $ctl/run" \
	> $tmp/record.log 2>&1 || { fail "compact: record or scenario failed"; cat $tmp/record.log; }
exp=$(cat $ctl/expected)
tid=$(sed -n '1s/.* tid=\([0-9]*\).*/\1/p' <<<"$exp")
failed=$(sed -n 's/^events: .*alloc_failed=\([0-9]*\).*/\1/p' <<<"$exp")
grep -q "scenario=compact .* result=0" <<<"$exp" || fail "compact: $exp"
perf pagealloc report -q -i $tmp/compact.data -x, --count-events > $tmp/compact.csv 2> $tmp/report.err ||
	{ fail "perf pagealloc report exited with $?"; cat $tmp/report.err; }
compact=$(col $tmp/compact.csv pagealloc-test-$tid, compact)
ms=$(col $tmp/compact.csv pagealloc-test-$tid, compact_ms)
got=$(col $tmp/compact.csv pagealloc-test-$tid, alloc_failed)
echo "compact: pagealloc-test-$tid: $compact direct compactions, $ms ms, $got failed allocations (the module: $failed)"
[ "${compact:-0}" -gt 0 ] || fail "compact: pagealloc-test-$tid has no direct compaction"
awk -v m="$ms" 'BEGIN { exit !(m > 0) }' || fail "compact: pagealloc-test-$tid's compact_ms is '$ms'"
[ "$got" = "$failed" ] || fail "compact: alloc_failed is $got, the module says $failed"
others=$(grep -v "^task,\|^TOTAL,\|^pagealloc-test-$tid," $tmp/compact.csv |
	awk -F, -v c="$(head -1 $tmp/compact.csv | tr , '\n' | grep -nx compact | cut -d: -f1)" '$c != 0')
[ -z "$others" ] || fail "compact: other rows with direct compactions: $others"
"$compare" perf $tmp/compact.data || fail "compact: report and perf script differ"
# the Perfetto timeline: a slice per compaction run of the thread, as
# --histogram counts them
runs=$(perf pagealloc report -q -i $tmp/compact.data -x, --histogram 2> /dev/null |
	grep "^pagealloc-test-$tid,compaction," | head -1 | cut -d, -f6)
if perf pagealloc timechart -h 2>&1 | grep -q -- --format; then
	perf pagealloc timechart -q -i $tmp/compact.data --format=json -o $tmp/compact.json ||
		fail "compact: timechart --format=json exited with $?"
	pid=$(grep -m1 "\"process_name\".*\"name\": \"pagealloc-test-$tid\"" $tmp/compact.json |
		sed 's/.*"pid": \([0-9]*\).*/\1/')
	slices=$(grep -c "\"ph\": \"X\", \"cat\": \"stall\", \"name\": \"compaction\", \"pid\": ${pid:-0}," $tmp/compact.json)
	echo "compact: $runs compaction runs, $slices slices in the timeline"
	[ -n "$runs" ] && [ "$runs" -gt 0 ] && [ "$slices" = "$runs" ] ||
		fail "compact: $slices compaction slices of pagealloc-test-$tid, --histogram: '$runs' runs"
fi
exit $err
