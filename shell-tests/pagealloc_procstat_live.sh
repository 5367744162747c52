#!/bin/bash
# perf pagealloc report --read-procstat live from a pipe: tasks the stream does not name
# SPDX-License-Identifier: GPL-2.0
#
# perf record --synth=no names no task that exists before it starts.  dd
# is started first and blocks on a fifo; the recorded command releases a
# reader that takes 4 MiB from the fifo, so dd allocates pipe pages while
# perf records, and stays alive (blocked again) until the end.  Read live
# with --read-procstat, dd's row is named dd-PID from /proc; the same
# stream read again from the file names it :PID-PID, as perf does a task
# without a comm.  Every row has the same numbers both ways, TOTAL too.
export LC_ALL=C

[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 2; }
tracefs=/sys/kernel/tracing
[ -d $tracefs/events ] || tracefs=/sys/kernel/debug/tracing
[ -d $tracefs/events/kmem/mm_page_alloc ] || { echo "skip: no kmem:mm_page_alloc"; exit 2; }
perf pagealloc report -h 2>&1 | grep -q -- --read-procstat || { echo "skip: no --read-procstat in perf pagealloc"; exit 2; }

err=0
d=$(mktemp -d /tmp/__perf_test.pa_procstat.XXXXX)
ddpid=
reader=
cleanup() {
	[ -n "$ddpid" ] && kill "$ddpid" 2> /dev/null
	[ -n "$reader" ] && kill "$reader" 2> /dev/null
	wait 2> /dev/null
	rm -rf "$d"
	trap - EXIT TERM INT
}
trap 'cleanup; exit $err' EXIT TERM INT

mkfifo "$d/fifo"
dd if=/dev/zero of="$d/fifo" bs=64k count=100000 status=none &
ddpid=$!
# the read end stays open after head: dd blocks instead of dying of SIGPIPE
(while [ ! -e "$d/go" ]; do sleep 0.1; done
 { head -c 4M > "$d/sink"; sleep 60; } < "$d/fifo") &
reader=$!
# dd has run (its comm is dd) before perf starts
for i in $(seq 50); do
	[ "$(cat /proc/$ddpid/comm 2> /dev/null)" = dd ] && break
	sleep 0.1
done

perf pagealloc record -q --synth=no -o - -- sh -c "touch $d/go; sleep 2" 2> /dev/null |
	tee "$d/stream" | perf pagealloc report -q -i - --read-procstat -x, > "$d/live" 2> "$d/err"
[ -s "$d/live" ] || { echo "FAIL: no table read live:"; head -5 "$d/err"; err=1; exit; }
perf pagealloc report -q -i - -x, < "$d/stream" > "$d/file" 2> /dev/null

live=$(grep "^dd-$ddpid," "$d/live")
if [ -z "$live" ] || [ "$(cut -d, -f2 <<<"$live")" -lt 16 ]; then
	echo "FAIL: no row dd-$ddpid with 16 pages or more read live with --read-procstat"
	grep -- "-$ddpid," "$d/live"
	err=1
fi
file=$(grep "^:$ddpid-$ddpid," "$d/file")
if [ -z "$file" ] || [ "${file#*,}" != "${live#*,}" ]; then
	echo "FAIL: the file's row of $ddpid is not :$ddpid-$ddpid with the live row's numbers:"
	echo "live: $live"
	echo "file: $file"
	err=1
fi
# the names aside (rows keyed by tid), both tables are the same
by_tid() { awk -F, 'NR > 1 { n = $1; if (n != "TOTAL") sub(/.*-/, "", n); $1 = n; print }' OFS=, "$1" | sort; }
by_tid "$d/file" > "$d/file.tid"
by_tid "$d/live" > "$d/live.tid"
if ! diff -u "$d/file.tid" "$d/live.tid" > "$d/diff"; then
	echo "FAIL: the live table's numbers differ from the file's:"
	head -20 "$d/diff"
	err=1
fi
