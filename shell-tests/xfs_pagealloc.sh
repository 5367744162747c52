#!/bin/bash
# perf pagealloc report of an XFS buffered write + fsync: writer's page-cache pages and kworker rows apart
# SPDX-License-Identifier: GPL-2.0
#
# The last XFS workflow of the project's issue: on an XFS made on a loop
# file in /tmp, perf pagealloc record (system-wide by default) of a copy
# of dd named pa-xfs-writer writing 16 MiB with conv=fsync (-m 16M: no
# lost events, the counts are exact), then
# perf pagealloc report:
# - the table's first column header is "Process" and it has a
#   pa-xfs-writer-TID row;
# - with -x, the header line starts "task," and has an "alloc" column;
#   the pa-xfs-writer rows allocate >= 16 MiB / 4096 = 4096 pages;
#   the rows of other tasks than the writer and perf (the loop device's
#   kworker, writing the backing file in tmpfs) allocate at least the
#   pages the loop file gained in tmpfs during the recording (stat's
#   blocks; XFS may put some data where mkfs wrote already, so a few
#   under 4096, and at least 3/4 of them), on rows of their own; the last
#   row is TOTAL and its alloc is the sum of the rows' alloc.
# Skipped while this perf has no pagealloc command.
export LC_ALL=C

[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 2; }
perf --list-cmds 2>/dev/null | tr -s ' ' '\n' | grep -qx pagealloc ||
	{ echo "skip: this perf has no 'perf pagealloc' (perf series pending)"; exit 2; }
tracefs=/sys/kernel/tracing
[ -d $tracefs/events ] || tracefs=/sys/kernel/debug/tracing
[ -d $tracefs/events/kmem/mm_page_alloc ] || { echo "skip: no kmem:mm_page_alloc"; exit 2; }
. "$(dirname "$0")"/lib/xfs_loop.sh
xfs_loop_skip

err=0
tmp=$(mktemp -d /tmp/__perf_test.xfspa.XXXXX)
cleanup() {
	xfs_loop_teardown
	rm -rf "$tmp"
	trap - EXIT TERM INT
}
trap 'cleanup; exit $err' EXIT TERM INT
fail() { echo "FAIL: $*"; err=1; }

xfs_loop_setup $tmp || { err=1; exit; }

mib=16
want=$((mib * 1024 * 1024 / 4096))
cp /bin/dd $tmp/pa-xfs-writer
# the tmpfs pages of the loop file before and after: each new one is an
# allocation of the loop worker (XFS may put data where mkfs wrote)
img0=$(stat -c %b $tmp/xfs.img)
perf pagealloc record -m 16M -o $tmp/pa.data -- \
	$tmp/pa-xfs-writer if=/dev/zero of=$mnt/file bs=1M count=$mib conv=fsync status=none \
	> $tmp/record.log 2>&1 || { fail "perf pagealloc record exited with $?"; cat $tmp/record.log; }
[ "$(stat -c %s $mnt/file)" = $((mib * 1048576)) ] || fail "$mnt/file is not $mib MiB"
img1=$(stat -c %b $tmp/xfs.img)
want_loop=$(( (img1 - img0) * 512 / 4096 ))

# the table
perf pagealloc report -i $tmp/pa.data > $tmp/table 2> $tmp/table.err ||
	{ fail "perf pagealloc report exited with $?"; cat $tmp/table.err; }
grep -i lost $tmp/table.err
head -4 $tmp/table
grep -Eq '^Process' $tmp/table || fail "the table's first column header is not 'Process'"
grep -Eq '^ *pa-xfs-writer-[0-9]+ ' $tmp/table || fail "the table has no pa-xfs-writer-TID row"

# -x,
perf pagealloc report -i $tmp/pa.data -x, > $tmp/csv 2> $tmp/csv.err ||
	{ fail "perf pagealloc report -x, exited with $?"; cat $tmp/csv.err; }
head -1 $tmp/csv | grep -q '^task,' || fail "-x, header does not start with 'task,': $(head -1 $tmp/csv)"
awk -F, -v want=$want -v want_loop=$want_loop '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == "alloc") a = i
		  if (!a) { print "FAIL: -x, header has no alloc column"; bad = 1; exit }
		  next }
	{ last = $1 }
	$1 == "TOTAL" { total = $a; next }
	{ sum += $a }
	$1 ~ /^pa-xfs-writer-[0-9]+$/ { writer += $a; wrows++ }
	$1 ~ /^kworker\// && $a > 0 { kw += $a; krows++ }
	$1 !~ /^(pa-xfs-writer|perf|perf-exec)-[0-9]+$/ { others += $a }
	END {
		if (bad) exit 1
		printf "pa-xfs-writer: %d row(s), %d pages allocated (want >= %d); kworker: %d row(s), %d pages; other tasks %d (want >= %d, the new pages of the loop file); TOTAL %d\n",
			wrows, writer, want, krows, kw, others, want_loop, total
		if (writer < want) { print "FAIL: the writer allocated fewer pages than the file has"; bad = 1 }
		if (others < want_loop || want_loop < want * 3 / 4) {
			print "FAIL: the other tasks (the loop worker) allocated " others + 0 " pages, want >= " want_loop " (the loop file grew by that many pages, want them >= 3/4 of " want ")"
			bad = 1
		}
		if (krows < 1) print "note: no kworker/* row allocated pages"
		if (last != "TOTAL") { print "FAIL: the last row is \"" last "\", not TOTAL"; bad = 1 }
		if (total != sum) { print "FAIL: TOTAL alloc " total " != the rows sum " sum; bad = 1 }
		exit bad
	}' $tmp/csv || { err=1; echo "--- the -x, output:"; head -20 $tmp/csv; }
exit $err
