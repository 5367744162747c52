#!/bin/bash
# kmem page allocator tracepoints exist and count a workload
# SPDX-License-Identifier: GPL-2.0
#
# The six page-allocator events of include/trace/events/kmem.h must be in
# tracefs, and perf stat must count the mm_page_alloc events of a
# workload that allocates page-cache pages in tmpfs.

[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 2; }
tracefs=/sys/kernel/tracing
[ -d $tracefs/events ] || tracefs=/sys/kernel/debug/tracing
[ -d $tracefs/events/kmem ] || { echo "skip: no kmem events in $tracefs"; exit 2; }

err=0
file=$(mktemp /tmp/__perf_test.kmem.XXXXX)
stat=$(mktemp /tmp/__perf_test.stat.XXXXX)
cleanup() { rm -f "$file" "$stat"; trap - EXIT TERM INT; }
trap 'cleanup; exit $err' EXIT TERM INT

for ev in mm_page_alloc mm_page_alloc_zone_locked mm_page_free \
	  mm_page_free_batched mm_page_pcpu_drain mm_page_alloc_extfrag; do
	if [ ! -r $tracefs/events/kmem/$ev/format ]; then
		echo "FAIL: kmem:$ev has no format in $tracefs"
		err=1
	fi
done

# 4 MiB into tmpfs: at least 1024 order-0 page-cache allocations
perf stat -x, -e kmem:mm_page_alloc -o "$stat" -- \
	dd if=/dev/zero of="$file" bs=1M count=4 status=none || err=1
count=$(awk -F, '/kmem:mm_page_alloc/ { print $1 }' "$stat")
if ! [ "${count:-0}" -ge 1024 ] 2>/dev/null; then
	echo "FAIL: perf stat counted '${count}' kmem:mm_page_alloc for 4 MiB written, want >= 1024"
	cat "$stat"
	err=1
fi
exit $err
