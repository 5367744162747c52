#!/bin/bash
# perf pagealloc report --interval live from a pipe: slices printed as the stream passes them
# SPDX-License-Identifier: GPL-2.0
#
# perf pagealloc record -o - feeds perf pagealloc report -i - -I 500 -x,
# through tee, which keeps the stream in a file; --no-buffering, so that
# perf record passes each event on at once, not when its buffer fills.
# The workload: dd of 4 MiB into tmpfs, 2 s of sleep, a second dd, 2 s of
# sleep.  Each line of the report is stamped when it arrives:
# - the slice of the first dd (>= 1024 pages of alloc) arrives before the
#   workload ends: slices come out while the stream goes on, not at its
#   end;
# - the slices have increasing times, at least 3 of them;
# - the slices, summed per task, equal the report of the kept stream read
#   whole (perf pagealloc report -i - < file), every column;
# - perf pagealloc timechart of the kept stream draws a well-formed SVG
#   (when xmllint is there) with a lane for the first dd.
export LC_ALL=C

[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 2; }
tracefs=/sys/kernel/tracing
[ -d $tracefs/events ] || tracefs=/sys/kernel/debug/tracing
[ -d $tracefs/events/kmem/mm_page_alloc ] || { echo "skip: no kmem:mm_page_alloc"; exit 2; }
perf pagealloc report -h 2>&1 | grep -q -- --interval || { echo "skip: no --interval in perf pagealloc"; exit 2; }
sum_slices=${PAGEALLOC_TOP:-}/tests/lib/sum-slices.awk
[ -r "$sum_slices" ] || { echo "skip: no $sum_slices"; exit 2; }

err=0
d=$(mktemp -d /tmp/__perf_test.pa_live.XXXXX)
cleanup() { rm -rf "$d"; trap - EXIT TERM INT; }
trap 'cleanup; exit $err' EXIT TERM INT

perf pagealloc record -q --no-buffering -o - -- sh -c "
	dd if=/dev/zero of=$d/f1 bs=1M count=4 status=none
	sleep 2
	dd if=/dev/zero of=$d/f2 bs=1M count=2 status=none
	sleep 2
	date +%s.%N > $d/end" 2> /dev/null | tee "$d/stream" |
	perf pagealloc report -q -i - -I 500 -x, 2> /dev/null |
	while IFS= read -r line; do echo "$(date +%s.%N) $line"; done > "$d/stamped"

[ -s "$d/end" ] || { echo "FAIL: the workload did not end"; err=1; exit; }
end=$(cat "$d/end")
first=$(awk -F, '$2 ~ /^dd-/ && $3 >= 1024 { split($1, a, " "); print a[1]; exit }' "$d/stamped")
if [ -z "$first" ]; then
	echo "FAIL: no slice with the first dd's 1024 pages"; head -5 "$d/stamped"; err=1
elif awk -v a="$first" -v b="$end" 'BEGIN { exit !(a >= b) }'; then
	echo "FAIL: the first dd's slice came at $first, after the workload's end at $end"; err=1
fi
cut -d' ' -f2- "$d/stamped" > "$d/slices"
n=$(awk -F, '$2 == "TOTAL" { if ($1 + 0 <= last + 0 && NR > 2) bad = 1; last = $1; n++ }
	END { print bad ? -1 : n }' "$d/slices")
[ "$n" -ge 3 ] || { echo "FAIL: $n slices, or times not increasing"; err=1; }

perf pagealloc report -q -i - -x, < "$d/stream" 2> /dev/null | grep -v '^task,' | sort > "$d/whole"
awk -f "$sum_slices" "$d/slices" | sort > "$d/sum"
if ! diff -u "$d/whole" "$d/sum"; then
	echo "FAIL: the live slices do not add up to the stream's table"; err=1
fi

if perf pagealloc timechart -q -i - -o "$d/live.svg" < "$d/stream" 2> /dev/null; then
	grep -q 'data-task="dd-' "$d/live.svg" || { echo "FAIL: timechart: no lane for dd"; err=1; }
	if command -v xmllint > /dev/null && ! xmllint --noout "$d/live.svg"; then
		echo "FAIL: timechart: not well-formed"; err=1
	fi
else
	echo "FAIL: timechart of the stream"; err=1
fi
echo "$n slices live, the first dd's at $first (workload end $end)"
exit $err
