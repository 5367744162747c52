#!/bin/bash
# tracepoint-analysis: perf stat of kmem page events system-wide with -a, for one workload, and --repeat variance
# SPDX-License-Identifier: GPL-2.0
#
# Sections 3.3, 3.5 and 5 of Documentation/trace/tracepoint-analysis.rst,
# with a background task (a copy of bash named pa-stat-noise rewriting a
# 1 MiB tmpfs file in a loop) so that "system-wide" is visible:
# - perf stat -a -e kmem:mm_page_alloc -e kmem:mm_page_free
#   -e kmem:mm_page_free_batched sleep 1: the "system wide" header, the three
#   counts, each >= 1000 (the noise alone allocates and frees far more);
# - the same without -a counts sleep only: mm_page_alloc < 1000;
# - for one workload (8 MiB written into tmpfs, then removed) without -a:
#   mm_page_alloc, mm_page_free and mm_page_free_batched >= 2048 each
#   (2048 page-cache pages allocated, then freed in batches by rm);
# - perf stat --repeat 5 of that workload (growing by 1 MiB a run, so that
#   every count varies: perf stat omits the column of a constant count):
#   "(5 runs)" in the header and the "( +- x.xx% )" variance column on
#   every event and the elapsed time; with -a --repeat 3 sleep 0.3 the
#   "system wide (3 runs)" header and the column on some event.
export LC_ALL=C

. "$(dirname "$0")"/lib/kmem.sh
kmem_skip_unless mm_page_alloc mm_page_free mm_page_free_batched

err=0
tmp=$(mktemp -d /tmp/__perf_test.statwf.XXXXX)
noise=
cleanup() {
	[ -n "$noise" ] && kill "$noise" 2>/dev/null && wait "$noise" 2>/dev/null
	noise=
	rm -rf "$tmp"
	trap - EXIT TERM INT
}
trap 'cleanup; exit $err' EXIT TERM INT
fail() { echo "FAIL: $*"; err=1; }

events="-e kmem:mm_page_alloc -e kmem:mm_page_free -e kmem:mm_page_free_batched"
# count NAME FILE: the count perf stat printed for event NAME
count() { awk -v ev="$2" '$2 == ev { print $1; exit }' "$1"; }
# want FILE EVENT MIN [MAX]
want() {
	local n
	n=$(count "$1" "$2")
	if ! [ "$n" -ge "$3" ] 2>/dev/null; then
		fail "$(basename "$1"): $2 counted '$n', want >= $3"; return 1
	fi
	if [ -n "${4:-}" ] && ! [ "$n" -lt "$4" ]; then
		fail "$(basename "$1"): $2 counted '$n', want < $4"; return 1
	fi
}
workload="dd if=/dev/zero of=$tmp/file bs=1M count=8 status=none && rm $tmp/file"

cp /bin/bash $tmp/pa-stat-noise
$tmp/pa-stat-noise -c "while :; do printf '%*s' 1048576 '' > $tmp/noise.file; done" &
noise=$!
sleep 0.3

# 3.3: system-wide
perf stat -a $events -o $tmp/system-wide sleep 1 || fail "perf stat -a exited with $?"
cat $tmp/system-wide
grep -q "Performance counter stats for 'system wide'" $tmp/system-wide ||
	fail "perf stat -a: no 'system wide' header"
for ev in kmem:mm_page_alloc kmem:mm_page_free kmem:mm_page_free_batched; do
	want $tmp/system-wide $ev 1000
done
grep -Eq '^ +[12]\.[0-9]+ seconds time elapsed' $tmp/system-wide ||
	fail "perf stat -a sleep 1: elapsed time is not 1 to 3 seconds"

# 3.5: local, the same sleep without -a sees none of the noise
perf stat $events -o $tmp/sleep-local sleep 1 || fail "perf stat sleep 1 exited with $?"
cat $tmp/sleep-local
grep -q "Performance counter stats for 'sleep 1'" $tmp/sleep-local ||
	fail "perf stat sleep 1: no 'sleep 1' header"
want $tmp/sleep-local kmem:mm_page_alloc 1 1000

# 3.5: one workload
perf stat $events -o $tmp/workload -- sh -c "$workload" || fail "perf stat -- workload exited with $?"
cat $tmp/workload
for ev in kmem:mm_page_alloc kmem:mm_page_free kmem:mm_page_free_batched; do
	want $tmp/workload $ev 2048
done

# 5: variances.  perf stat leaves the column out for a count that did not
# vary, so each run writes one MiB more than the one before (8..12 MiB)
echo 8 > $tmp/mib
growing="n=\$(cat $tmp/mib); echo \$((n + 1)) > $tmp/mib;"
growing="$growing dd if=/dev/zero of=$tmp/file bs=1M count=\$n status=none && rm $tmp/file"
perf stat --repeat 5 $events -o $tmp/repeat -- sh -c "$growing" ||
	fail "perf stat --repeat 5 exited with $?"
cat $tmp/repeat
grep -Eq "Performance counter stats for 'sh -c .*' \(5 runs\):" $tmp/repeat ||
	fail "perf stat --repeat 5: header lacks '(5 runs)'"
for ev in kmem:mm_page_alloc kmem:mm_page_free kmem:mm_page_free_batched; do
	want $tmp/repeat $ev 2048
	grep -Eq "^ +[0-9]+ +$ev +\( \+- +[0-9]+\.[0-9]+% \)[[:space:]]*$" $tmp/repeat ||
		fail "perf stat --repeat 5: $ev has no '( +- x.xx% )' variance column"
done
grep -Eq 'seconds time elapsed +\( \+- +[0-9]+\.[0-9]+% \)' $tmp/repeat ||
	fail "perf stat --repeat 5: elapsed time has no variance"

# system-wide, the noise varies from run to run: not every count need to
perf stat -a --repeat 3 $events -o $tmp/repeat-a sleep 0.3 ||
	fail "perf stat -a --repeat 3 exited with $?"
cat $tmp/repeat-a
grep -q "Performance counter stats for 'system wide' (3 runs):" $tmp/repeat-a ||
	fail "perf stat -a --repeat 3: header lacks 'system wide' (3 runs)"
for ev in kmem:mm_page_alloc kmem:mm_page_free kmem:mm_page_free_batched; do
	want $tmp/repeat-a $ev 100
done
grep -Eq "^ +[0-9]+ +kmem:mm_page_[a-z_]+ +\( \+- +[0-9]+\.[0-9]+% \)[[:space:]]*$" $tmp/repeat-a ||
	fail "perf stat -a --repeat 3: no event has a '( +- x.xx% )' variance column"
exit $err
