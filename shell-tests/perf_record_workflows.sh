#!/bin/bash
# tracepoint-analysis: perf record -c 1 of kmem page events, perf report --sort comm,dso,symbol, perf record -p PID
# SPDX-License-Identifier: GPL-2.0
#
# Section 7 of Documentation/trace/tracepoint-analysis.rst:
# - perf record -c 1 -e kmem:mm_page_alloc -e kmem:mm_page_free
#   -e kmem:mm_page_free_batched of a workload (a copy of dd named
#   pa-rec-writer writing 4 MiB into tmpfs): every event is a sample, so
#   perf script shows >= 1024 mm_page_alloc samples of pa-rec-writer, and
#   perf report --sort comm,dso,symbol names pa-rec-writer with a
#   [kernel.kallsyms] [k] symbol for >= 90% of the mm_page_alloc samples;
# - perf record -p PID on a running process (a copy of bash named pa-rec-bg
#   rewriting a tmpfs file every 20 ms), interrupted with SIGINT once
#   its perf.data has grown past 64 KiB: >= 100 samples, every one of
#   that PID, and perf report names pa-rec-bg.
export LC_ALL=C

. "$(dirname "$0")"/lib/kmem.sh
kmem_skip_unless mm_page_alloc mm_page_free mm_page_free_batched

err=0
tmp=$(mktemp -d /tmp/__perf_test.recwf.XXXXX)
bg= rec=
cleanup() {
	[ -n "$rec" ] && kill "$rec" 2>/dev/null && wait "$rec" 2>/dev/null
	[ -n "$bg" ] && kill "$bg" 2>/dev/null && wait "$bg" 2>/dev/null
	bg= rec=
	rm -rf "$tmp"
	trap - EXIT TERM INT
}
trap 'cleanup; exit $err' EXIT TERM INT
fail() { echo "FAIL: $*"; err=1; }
events="-e kmem:mm_page_alloc -e kmem:mm_page_free -e kmem:mm_page_free_batched"

# --- a workload -------------------------------------------------------------
cp /bin/dd $tmp/pa-rec-writer
perf record -q -c 1 $events -o $tmp/workload.data -- \
	$tmp/pa-rec-writer if=/dev/zero of=$tmp/file bs=1M count=4 status=none ||
	fail "perf record -c 1 -- workload exited with $?"
rm -f $tmp/file
n=$(perf script -i $tmp/workload.data -F comm,event 2>/dev/null |
	grep -Ec '^ *pa-rec-writer +kmem:mm_page_alloc:')
echo "perf script: $n kmem:mm_page_alloc samples of pa-rec-writer"
[ "$n" -ge 1024 ] || fail "$n mm_page_alloc samples of pa-rec-writer writing 1024 pages, want >= 1024"

perf report -i $tmp/workload.data --stdio --sort comm,dso,symbol > $tmp/report 2>&1 ||
	fail "perf report --sort comm,dso,symbol exited with $?"
# the mm_page_alloc section: "  100.00%  pa-rec-writer  [kernel.kallsyms]  [k] __alloc_pages"
awk '/^# Samples: .* of event .kmem:mm_page_alloc.$/ { s = 1; next }
     /^# Samples: / { s = 0 } s' $tmp/report > $tmp/report.alloc
cat $tmp/report.alloc
grep -Eq '^# Overhead +Command +Shared Object +Symbol' $tmp/report ||
	fail "perf report --sort comm,dso,symbol: no Command/Shared Object/Symbol header"
pct=$(awk '$2 == "pa-rec-writer" && $3 == "[kernel.kallsyms]" && $4 == "[k]" && $5 ~ /^[A-Za-z_]/ {
	sub("%", "", $1); s += $1 } END { printf "%d", s }' $tmp/report.alloc)
[ "$pct" -ge 90 ] ||
	fail "perf report: pa-rec-writer [kernel.kallsyms] [k] <symbol> rows hold ${pct}% of mm_page_alloc, want >= 90%"

# --- -p PID of a running process, interrupted -----------------------------
# (it waits on a FIFO nobody writes, never forking: every sample is its)
cp /bin/bash $tmp/pa-rec-bg
mkfifo $tmp/fifo
$tmp/pa-rec-bg -c "while :; do printf '%*s' 262144 '' > $tmp/bg.file; read -t 0.02 <> $tmp/fifo; done" &
bg=$!
bgpid=$bg
sleep 0.3
perf record -q -c 1 $events -p $bg -o $tmp/pid.data 2> $tmp/rec.err &
rec=$!
# interrupt it once samples flow: the file has grown past 64 KiB
for ((i = 0; i < 600; i++)); do
	[ "$(stat -c %s $tmp/pid.data 2>/dev/null || echo 0)" -gt 65536 ] && break
	sleep 0.1
done
sleep 0.5
kill -INT $rec
wait $rec
rec=
kill $bg; wait $bg 2>/dev/null
bg=
perf script -i $tmp/pid.data -F pid,comm 2>/dev/null | sort | uniq -c > $tmp/pids
echo "perf record -p $bgpid: samples by comm, pid:"; cat $tmp/pids
total=$(awk '{ s += $1 } END { print s + 0 }' $tmp/pids)
[ "$total" -ge 100 ] || { fail "perf record -p: $total samples, want >= 100"; cat $tmp/rec.err; }
others=$(awk -v comm=pa-rec-bg -v pid=$bgpid '$2 != comm || $3 != pid' $tmp/pids)
[ -z "$others" ] || fail "perf record -p: samples of other tasks: $others"
perf report -i $tmp/pid.data --stdio --sort comm,dso,symbol 2>&1 |
	grep -Eq '^ +[0-9.]+% +pa-rec-bg +\[kernel\.kallsyms\] +\[k\] ' ||
	fail "perf report of the -p recording does not name pa-rec-bg"
exit $err
