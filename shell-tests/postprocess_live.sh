#!/bin/bash
# trace-pagealloc-postprocess.pl reading trace_pipe live: first SIGINT reports and reads on, a quick second ends
# SPDX-License-Identifier: GPL-2.0
#
# Section 6 of Documentation/trace/tracepoint-analysis.rst: the kernel
# tree's Documentation/trace/postprocess/trace-pagealloc-postprocess.pl
# (or $POSTPROCESS_PL) reads trace_pipe on-line with the kmem page events
# enabled through their enable files; "it can be interrupted once to
# generate a report without exiting and twice to exit".
# - one SIGINT (once the script has read what the ring buffer holds):
#   within 20 s a table ("Process" header) with the row of a dd that
#   wrote 1024 pages into tmpfs (count >= 1024), and the script still runs;
# - a second workload (512 pages) is still read;
# - two SIGINTs 0.5 s apart (4 s after the first): the script exits within
#   20 s, its last table has the second dd's row (>= 512) and the first's.
# A background task (a copy of bash named pa-pp-tick) writes a page every
# 0.2 s so that the script always has a next line to wake up on.
# Skipped while the script does not accept a real 6.1 trace_pipe line
# (the fix is part of the kernel series).
export LC_ALL=C

[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 2; }
tracefs=/sys/kernel/tracing
[ -d $tracefs/events ] || tracefs=/sys/kernel/debug/tracing
[ -d $tracefs/events/kmem/mm_page_alloc ] || { echo "skip: no kmem:mm_page_alloc"; exit 2; }
command -v perl > /dev/null || { echo "skip: no perl"; exit 2; }
script=${POSTPROCESS_PL:-${BUILD_DIR:-/var/tmp/pagealloc-build}/linux/Documentation/trace/postprocess/trace-pagealloc-postprocess.pl}
[ -r "$script" ] || { echo "skip: no $script"; exit 2; }

err=0
tmp=$(mktemp -d /tmp/__perf_test.pplive.XXXXX)
pp= tick=
saved=$tmp/enable.saved
: > $saved
. "$(dirname "$0")"/lib/tracefs.sh
tracefs_saved=$saved
cleanup() {
	[ -n "$pp" ] && kill -KILL "$pp" 2>/dev/null && wait "$pp" 2>/dev/null
	[ -n "$tick" ] && kill "$tick" 2>/dev/null && wait "$tick" 2>/dev/null
	pp= tick=
	tracefs_restore
	rm -rf "$tmp"
	trap - EXIT TERM INT
}
trap 'cleanup; exit $err' EXIT TERM INT
fail() { echo "FAIL: $*"; err=1; }

for f in $tracefs/events/kmem/mm_page*/enable; do
	tracefs_save $f
	echo 1 > $f
done

# --- does the script take 6.1 lines? feed it one real mm_page_alloc line --
echo > $tracefs/trace
dd if=/dev/zero of=$tmp/probe bs=4k count=1 status=none &
probe=$!
wait $probe
line=$(grep -m1 -E "^ *dd-$probe +\[.*: mm_page_alloc: " $tracefs/trace)
[ -n "$line" ] || { fail "no mm_page_alloc line of dd-$probe in $tracefs/trace"; exit; }
printf '%s\n' "$line" | perl "$script" > $tmp/probe.out 2>&1
if ! grep -Eq "^ *dd-$probe +1( |$)" $tmp/probe.out; then
	echo "the line:   $line"
	echo "its output:"; sed 's/^/  /' $tmp/probe.out
	echo "skip: $script prints no row for a 6.1 trace_pipe line (its fix is pending in the kernel series)"
	err=2
	exit
fi

# stdout is a file here, not a terminal: make perl flush each print
echo '$| = 1; 1;' > $tmp/pa_autoflush.pm
cp /bin/bash $tmp/pa-pp-tick
$tmp/pa-pp-tick -c "while :; do printf '%*s' 4096 '' > $tmp/tick; sleep 0.2; done" &
tick=$!

# tables FILE: the number of tables printed so far
tables() { grep -c '^Process' "$1"; }
has_tables() { [ "$(tables $tmp/out)" -ge "$1" ]; }
ended() { ! kill -0 $pp 2>/dev/null; }
# drained: the script has read (nearly) everything the ring buffer holds
drained() {
	[ "$(cat $tracefs/per_cpu/cpu*/stats | awk '/^entries:/ { n += $2 } END { print n + 0 }')" -lt 100 ]
}
# rowcount FILE PID [TABLE]: the first number of dd-PID's row in the last (or TABLE-th) table
rowcount() {
	awk -v key="dd-$2" -v want="${3:-0}" '
		/^Process/ { t++ }
		$1 == key && (want == 0 || t == want) { n = $2 }
		END { print n + 0 }' "$1"
}
# waitfor SECONDS COMMAND...: poll until COMMAND succeeds
waitfor() {
	local i
	for ((i = 0; i < $1 * 10; i++)); do
		"${@:2}" && return 0
		sleep 0.1
	done
	return 1
}

echo > $tracefs/trace
PERL5LIB=$tmp PERL5OPT=-Mpa_autoflush perl "$script" < $tracefs/trace_pipe > $tmp/out 2>&1 &
pp=$!
sleep 0.5
dd if=/dev/zero of=$tmp/w1 bs=4k count=1024 status=none &
w1=$!
wait $w1
sleep 1
waitfor 30 drained || fail "the script has not read the trace 30 s after the workload"

# one SIGINT: a table, and it reads on
kill -INT $pp
t1=$SECONDS
waitfor 20 has_tables 1 ||
	fail "no table within 20 s of the first SIGINT"
n1=$(rowcount $tmp/out $w1 1)
echo "first SIGINT: $(tables $tmp/out) table(s), dd-$w1 $n1"
[ "$n1" -ge 1024 ] || fail "the first table's dd-$w1 row counts $n1, want >= 1024"
kill -0 $pp 2>/dev/null || fail "the script ended after one SIGINT"

dd if=/dev/zero of=$tmp/w2 bs=4k count=512 status=none &
w2=$!
wait $w2
sleep 1
waitfor 30 drained || fail "the script has not read the trace 30 s after the second workload"
while [ $((SECONDS - t1)) -lt 4 ]; do sleep 0.2; done
kill -0 $pp 2>/dev/null || fail "the script ended before the second SIGINT"

# two SIGINTs in quick succession: it ends, with a last table
before=$(tables $tmp/out)
kill -INT $pp
sleep 0.5
kill -INT $pp 2>/dev/null
if waitfor 20 ended; then
	wait $pp
	echo "two quick SIGINTs: the script exited with $?"
	pp=
else
	fail "the script still runs 20 s after two quick SIGINTs"
fi
n2=$(rowcount $tmp/out $w2)
n1=$(rowcount $tmp/out $w1)
echo "$(tables $tmp/out) tables; the last: dd-$w1 $n1, dd-$w2 $n2"
[ "$(tables $tmp/out)" -gt "$before" ] || fail "no table after the two quick SIGINTs"
[ "$n2" -ge 512 ] || fail "the last table's dd-$w2 row counts $n2, want >= 512"
[ "$n1" -ge 1024 ] || fail "the last table's dd-$w1 row counts $n1, want >= 1024"
if [ $err != 0 ]; then echo "--- the script's output:"; grep -Ev '^ *(sleep|pa-pp-tick|postprocess_liv)-' $tmp/out | head -60; fi
exit $err
