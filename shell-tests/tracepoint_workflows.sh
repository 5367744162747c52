#!/bin/bash
# tracepoint-analysis: kmem page events listed in tracefs and perf list, enabled by their enable files, read from trace_pipe
# SPDX-License-Identifier: GPL-2.0
#
# Sections 2 and 3.1 of Documentation/trace/tracepoint-analysis.rst:
# - every kmem:mm_page* event of tracefs' events/ directory shows in
#   `perf list` as "kmem:<name>  [Tracepoint event]", and perf lists no
#   kmem:mm_page* event that tracefs lacks;
# - the document's loop (echo 1 into every events/**/enable matching
#   "mm_") enables the page events system-wide, and trace_pipe then
#   carries the mm_page_alloc lines of a 1 MiB tmpfs write (>= 256, one
#   per page, in the 6.1 line format) and the mm_page_free lines of its
#   removal.  The enable files are restored on exit.
export LC_ALL=C

[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 2; }
tracefs=/sys/kernel/tracing
[ -d $tracefs/events ] || tracefs=/sys/kernel/debug/tracing
[ -d $tracefs/events/kmem ] || { echo "skip: no kmem events in $tracefs"; exit 2; }
ls -d $tracefs/events/kmem/mm_page_alloc >/dev/null 2>&1 ||
	{ echo "skip: no kmem:mm_page_alloc"; exit 2; }

err=0
tmp=$(mktemp -d /tmp/__perf_test.tpwf.XXXXX)
reader=
saved=$tmp/enable.saved
: > "$saved"
. "$(dirname "$0")"/lib/tracefs.sh
tracefs_saved=$saved

cleanup() {
	[ -n "$reader" ] && kill "$reader" 2>/dev/null && wait "$reader" 2>/dev/null
	reader=
	tracefs_restore
	rm -rf "$tmp"
	trap - EXIT TERM INT
}
trap 'cleanup; exit $err' EXIT TERM INT
fail() { echo "FAIL: $*"; err=1; }

# --- 2.1 / 2.2: listing, both ways --------------------------------------
find $tracefs/events -type d > $tmp/dirs
events=$(cd $tracefs/events/kmem && ls -d mm_page* | sort)
echo "tracefs kmem page events:" $events
for ev in $events; do
	grep -qx "$tracefs/events/kmem/$ev" $tmp/dirs ||
		fail "find $tracefs/events -type d does not list kmem/$ev"
	grep -q '^print fmt:' $tracefs/events/kmem/$ev/format ||
		fail "kmem/$ev/format has no print fmt"
	grep -qx "kmem:$ev" $tracefs/available_events ||
		fail "available_events lacks kmem:$ev"
done

perf list > $tmp/list 2>&1 || fail "perf list exited with $?"
for ev in $events; do
	grep -Eq "^[[:space:]]*kmem:$ev[[:space:]]+\[Tracepoint event\][[:space:]]*$" $tmp/list ||
		fail "perf list has no line 'kmem:$ev  [Tracepoint event]'"
done
# the document's own filter
perf list 2>&1 | grep Tracepoint > $tmp/tp
grep -Eq '^[[:space:]]*kmem:mm_page_alloc[[:space:]]+\[Tracepoint event\]' $tmp/tp ||
	fail "'perf list 2>&1 | grep Tracepoint' lacks kmem:mm_page_alloc"
# and nothing the kernel does not have
listed=$(grep -Eo 'kmem:mm_page[a-z_]*' $tmp/list | sed 's/^kmem://' | sort -u)
if [ "$listed" != "$events" ]; then
	fail "perf list's kmem:mm_page* events differ from tracefs'"
	diff <(echo "$events") <(echo "$listed")
fi

# --- 3.1: enable every mm_ event through its enable file ----------------
# the document's loop, on tracefs; the previous values are kept to restore
for i in $(find $tracefs/events -name "enable" | grep mm_); do
	tracefs_save "$i"
done
[ -s "$saved" ] || fail "find $tracefs/events -name enable | grep mm_ found nothing"
cp "$saved" $tmp/enable.orig
for i in $(find $tracefs/events -name "enable" | grep mm_); do echo 1 > $i; done
for ev in $events; do
	[ "$(cat $tracefs/events/kmem/$ev/enable)" = 1 ] ||
		fail "kmem/$ev/enable reads '$(cat $tracefs/events/kmem/$ev/enable)' after echo 1"
done
[ "$(cat $tracefs/tracing_on)" = 1 ] || fail "tracing_on is off"

echo > $tracefs/trace
cat $tracefs/trace_pipe > $tmp/pipe &
reader=$!
# 1 MiB into tmpfs: 256 order-0 page-cache pages, then freed by rm
dd if=/dev/zero of=$tmp/file bs=4k count=256 status=none &
dd=$!
wait $dd || fail "dd failed"
rm $tmp/file &
rm=$!
wait $rm
sleep 2
kill $reader; wait $reader 2>/dev/null
reader=
tracefs_restore

# the 6.1 line: "  dd-123  [001] d..1.  12.345678: mm_page_alloc: page=... pfn=0x... order=0 ..."
line_re='^[[:space:]]*dd-'$dd' +\[[0-9]+\] [^ ]+ +[0-9]+\.[0-9]+: mm_page_alloc: page=[^ ]+ pfn=0x[0-9a-f]+ order=0 migratetype=[0-9]+ gfp_flags='
n_alloc=$(grep -Ec "$line_re" $tmp/pipe)
n_free=$(grep -Ec "^[[:space:]]*rm-$rm +\[[0-9]+\] .*: mm_page_free: " $tmp/pipe)
echo "trace_pipe: $(wc -l < $tmp/pipe) lines, dd-$dd mm_page_alloc $n_alloc, rm-$rm mm_page_free $n_free"
[ "$n_alloc" -ge 256 ] ||
	fail "trace_pipe has $n_alloc mm_page_alloc lines of dd-$dd writing 256 pages, want >= 256"
[ "$n_free" -ge 256 ] ||
	fail "trace_pipe has $n_free mm_page_free lines of rm-$rm freeing 256 pages, want >= 256"
if [ $err != 0 ]; then
	echo "--- first lines of trace_pipe:"; head -20 $tmp/pipe
fi

# disabled again: every enable file is back to its value before the test
while read -r f v; do
	[ "$(cat "$f")" = "$v" ] || fail "$f reads '$(cat "$f")' after restoring, was '$v'"
done < $tmp/enable.orig
exit $err
