#!/bin/bash
# trace-pagealloc-postprocess.pl on trace_pipe equals perf pagealloc report, in pages and events
# SPDX-License-Identifier: GPL-2.0
#
# The kernel tree's Documentation/trace/postprocess/trace-pagealloc-postprocess.pl
# (or $POSTPROCESS_PL) and perf pagealloc count the same kmem:mm_page*
# events per task.  Trace one workload both ways at once: the kmem page
# events enabled in tracefs with trace_pipe copied to a file, and
# 'perf pagealloc record' started with its events disabled, enabled
# through its control fifo once running.  Only then run the workload (a
# 16 MiB dd into tmpfs, then an rm of the file), then stop both.  For the
# dd and the rm, each column of the script's table must equal the column
# of 'perf pagealloc report -x,' it corresponds to, counting pages (both
# by default) and counting events (both with --count-events).  The script
# keys its rows by pid, as perf does, so a task whose comm changes (the
# fork child is named after its parent until it execs, and trace_pipe names
# a task by its comm at reading time) keeps one row; perf's rows of one
# tid are summed over its comms.
export LC_ALL=C

[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 2; }
tracefs=/sys/kernel/tracing
[ -d $tracefs/events ] || tracefs=/sys/kernel/debug/tracing
[ -d $tracefs/events/kmem/mm_page_alloc ] || { echo "skip: no kmem:mm_page_alloc"; exit 2; }
# --list-cmds prints the commands on one line, separated by spaces
perf --list-cmds | tr ' ' '\n' | grep -qx pagealloc || { echo "skip: no perf pagealloc"; exit 2; }
command -v perl > /dev/null || { echo "skip: no perl"; exit 2; }
script=${POSTPROCESS_PL:-${BUILD_DIR:-/var/tmp/pagealloc-build}/linux/Documentation/trace/postprocess/trace-pagealloc-postprocess.pl}
[ -r "$script" ] || { echo "skip: no $script"; exit 2; }

err=0
tmp=$(mktemp -d /tmp/__perf_test.pppagealloc.XXXXX)
cat_pid="" perf_pid=""
# "file value" lines: the settings to put back, the event enables apart
saved=$tmp/saved saved_events=$tmp/saved_events
. "$(dirname "$0")"/lib/tracefs.sh
: > $saved
: > $saved_events
restore() {	# file of saved settings
	local f v
	while read -r f v; do echo "${v%\*}" > "$f" 2>/dev/null; done < "$1"
	: > "$1"
}
cleanup() {
	[ -n "$perf_pid" ] && kill -INT "$perf_pid" 2>/dev/null && wait "$perf_pid" 2>/dev/null
	[ -n "$cat_pid" ] && kill "$cat_pid" 2>/dev/null && wait "$cat_pid" 2>/dev/null
	cat_pid="" perf_pid=""
	restore $saved_events
	restore $saved
	exec 8>&- 9<&-
	rm -rf "$tmp"
	trap - EXIT TERM INT
}
trap 'cleanup; exit $err' EXIT TERM INT
fail() { echo "FAIL: $*"; err=1; }

# --- tracefs: the kmem page events into a buffer big enough ---------------
# (tracefs.sh's helper records the old size in $saved, restored below)
tracefs_saved=$saved
tracefs_buffer_at_least $tracefs 8192
echo "$tracefs/tracing_on $(cat $tracefs/tracing_on)" >> $saved
echo 1 > $tracefs/tracing_on
for f in $tracefs/events/kmem/mm_page*/enable; do
	echo "$f $(cat $f)" >> $saved_events
done
echo > $tracefs/trace
for f in $tracefs/events/kmem/mm_page*/enable; do
	echo 1 > $f
done
# the ring buffer holds the events until cat reads them: no start race
cat $tracefs/trace_pipe > $tmp/trace.txt &
cat_pid=$!

# --- perf: started disabled, enabled through its control fifo -------------
mkfifo $tmp/ctl $tmp/ack
perf pagealloc record -q -o $tmp/perf.data -m 1024 -D -1 \
	--control fifo:$tmp/ctl,$tmp/ack > $tmp/record.log 2>&1 &
perf_pid=$!
# read-write opens of the fifos do not block, even if perf failed
exec 8<> $tmp/ctl 9<> $tmp/ack
# control CMD: send a command, wait (at most 30 s) for perf's ack
control() {
	local reply
	echo "$1" >&8
	read -r -t 30 reply <&9 && [ "$reply" = ack ]
}
if ! control enable; then
	cat $tmp/record.log
	fail "perf pagealloc record did not ack 'enable'"
	exit
fi

# --- the workload -----------------------------------------------------------
dd if=/dev/zero of=$tmp/f bs=1M count=16 status=none &
dd_pid=$!
wait $dd_pid || fail "dd failed"
rm -f $tmp/f &
rm_pid=$!
wait $rm_pid || fail "rm failed"

# --- stop both ----------------------------------------------------------------
control disable || fail "perf pagealloc record did not ack 'disable'"
kill -INT $perf_pid
wait $perf_pid
rc=$?
# perf record ends with the SIGINT it got: 130 is a normal end
[ $rc = 0 ] || [ $rc = 130 ] || { cat $tmp/record.log; fail "perf pagealloc record exited with $rc"; }
perf_pid=
restore $saved_events
# wait (at most 20 s) until cat has emptied the ring buffer
for ((i = 0; i < 200; i++)); do
	left=$(cat $tracefs/per_cpu/cpu*/stats | awk '/^entries:/ { n += $2 } END { print n + 0 }')
	[ "$left" = 0 ] && break
	sleep 0.1
done
sleep 0.5
kill $cat_pid; wait $cat_pid 2>/dev/null
cat_pid=
[ "$left" = 0 ] || fail "$left events still unread in the ring buffer"
lost=$(cat $tracefs/per_cpu/cpu*/stats | awk '/^(overrun|dropped events):/ { n += $NF } END { print n + 0 }')
[ "$lost" = 0 ] || fail "the ring buffer lost $lost events"
restore $saved
grep -q '^CPU:.*LOST' $tmp/trace.txt && fail "trace_pipe lost events"

# --- the two tables, in pages and in events --------------------------------
# mode OPTION: the script's and perf's tables, counting pages (no option)
# or events (--count-events), into $tmp/pp.out and $tmp/perf.out
tables() {
	perl "$script" $1 < $tmp/trace.txt > $tmp/pp.out 2>&1 ||
		fail "the script exited with $?"
	perf pagealloc report -i $tmp/perf.data $1 -x, > $tmp/perf.out 2> $tmp/perf.err ||
		fail "perf pagealloc report failed: $(cat $tmp/perf.err)"
	grep -i lost $tmp/perf.err && fail "perf lost events"
}

# the script's columns, in order, by the perf pagealloc -x, key of each
cols="alloc alloc_locked free_direct free_batched pcpu_drained pcpu_drains"
cols="$cols pcpu_refills extfrag extfrag_causing migtype_changed"
cols="$cols extfrag_severe extfrag_moderate unknown"

# script_row TID: the script's rows of TID summed, "key=value ..."
script_row() {
	awk -v tid="$1" -v cols="$cols" '
		BEGIN { n = split(cols, key, " ") }
		/^Process/ { table = 1; next }
		table && NF == 0 { table = 0 }
		table && NF > n {
			name = $1
			for (i = 2; i <= NF - n; i++)
				name = name " " $i
			if (name !~ ("-" tid "$"))
				next
			found = 1
			for (i = 1; i <= n; i++)
				sum[i] += $(NF - n + i)
		}
		END {
			if (!found)
				exit
			for (i = 1; i <= n; i++)
				printf("%s%s=%d", i > 1 ? " " : "", key[i], sum[i])
			print ""
		}' $tmp/pp.out
}
# perf_row TID: perf's rows of TID summed, "key=value ..." for the keys of the script
perf_row() {
	awk -F, -v tid="$1" -v cols="$cols" '
		BEGIN { n = split(cols, key, " ") }
		/^task,/ { for (i = 2; i <= NF; i++) col[$i] = i; header = 1; next }
		/^#/ || !header { next }
		$1 ~ ("-" tid "$") {
			found = 1
			for (i = 1; i <= n; i++)
				if (key[i] in col)
					sum[i] += $(col[key[i]])
		}
		END {
			if (!found)
				exit
			sep = ""
			for (i = 1; i <= n; i++)
				if (key[i] in col) {
					printf("%s%s=%d", sep, key[i], sum[i])
					sep = " "
				}
			print ""
		}' $tmp/perf.out
}

for mode in pages events; do
	opt=
	[ $mode = events ] && opt=--count-events
	tables $opt
	for task in dd:$dd_pid rm:$rm_pid; do
		comm=${task%%:*} tid=${task#*:}
		want=$(perf_row $tid)
		got=$(script_row $tid)
		echo "$comm-$tid ($mode) perf pagealloc: $want"
		echo "$comm-$tid ($mode) script:         $got"
		[ -n "$want" ] || { fail "no row of $comm-$tid in perf pagealloc report"; continue; }
		[ -n "$got" ] || { fail "no row of $comm-$tid in the script's table"; continue; }
		for kv in $want; do
			key=${kv%%=*}
			g=$(tr ' ' '\n' <<<"$got" | sed -n "s/^$key=//p")
			[ "$g" = "${kv#*=}" ] || fail "$comm-$tid ($mode): $key is $g in the script's table, ${kv#*=} in perf pagealloc report"
		done
	done
	[ $mode = events ] && break
	# the script's own rows of a tid: one, whatever its comms were
	rows=$(awk '/^Process/ { t = 1; next } t && NF == 0 { t = 0 } t' $tmp/pp.out | grep -c -- "-$dd_pid ")
	[ "$rows" = 1 ] || fail "the script has $rows rows for tid $dd_pid, want 1"
done
n=$(script_row $dd_pid | tr ' ' '\n' | sed -n 's/^alloc=//p')
[ "${n:-0}" -ge 4096 ] || fail "the dd row counts ${n:-0} allocations, want >= 4096"

if [ $err != 0 ]; then
	echo "--- the script's table:"; grep -E "^(Process|details| )|-($dd_pid|$rm_pid) " $tmp/pp.out | head -20
	echo "--- perf pagealloc report:"; grep -E "^(task|#)|-($dd_pid|$rm_pid)," $tmp/perf.out
fi
exit $err
