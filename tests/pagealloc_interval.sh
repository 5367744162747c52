#!/bin/bash
# perf pagealloc report --interval: slices add up to the file, exact boundaries
# SPDX-License-Identifier: GPL-2.0
#
# 1. For each committed recording (guest, host, pipe format), in pages and
#    with --count-events, at several slice lengths: the -x rows of all the
#    slices, summed per task, equal the -x table of the whole file, row for
#    row and column for column (free_direct too: a batch free split by a
#    slice end is counted in the next slice).
# 2. Boundaries, on basic.data: the slice length is set, to the ns, to the
#    time from the first event to a later one read with perf script, so
#    that an event lies exactly on each slice end; the per-slice counts of
#    each event type computed from perf script's times (an event at a
#    slice's end belongs to the next slice) equal the TOTAL rows, with and
#    without --interval-empty, and the time column is the slice's end.
# 3. --json gives one object per slice; stdio has the time column.
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/recordings.sh"
perf=${PERF:-${BUILD_DIR:-/var/tmp/pagealloc-build}/perf/perf}
"$perf" --list-cmds 2>/dev/null | tr -s " " "\n" | grep -qx pagealloc || { echo "no perf pagealloc in $perf"; exit 2; }
"$perf" pagealloc report -h 2>&1 | grep -q -- --interval || { echo "no --interval in $perf"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
err=0
fail() { echo "FAIL: $*"; err=1; }

# the slices' rows summed per task (tests/lib/sum-slices.awk)
sum_slices() {
	awk -f "$here/lib/sum-slices.awk" | sort
}

n=0
while IFS=$'\t' read -r name f; do
	perf_input "$f"
	for opt in "" --count-events; do
		"$perf" pagealloc report -q "${in[@]}" -x, $opt < "$stdin" 2>/dev/null |
			grep -v '^task,' | sort > "$tmp/whole"
		[ -s "$tmp/whole" ] || fail "$name $opt: no table"
		for ms in 1 7.5 250; do
			"$perf" pagealloc report -q "${in[@]}" -x, -I $ms $opt < "$stdin" \
				> "$tmp/slices" 2>/dev/null || fail "$name -I $ms $opt: exit status"
			sum_slices < "$tmp/slices" > "$tmp/sum"
			if ! diff -u "$tmp/whole" "$tmp/sum" > "$tmp/diff"; then
				fail "$name -I $ms $opt: the slices do not add up to the file"
				head -20 "$tmp/diff"
			fi
		done
	done
	n=$((n + 1))
done < <(recordings "$tmp")
echo "$n recordings: slices of 1, 7.5 and 250 ms add up to the whole file"

# 2. boundaries on events, from perf script's times
f=$here/data/basic.data
"$perf" script -i "$f" -F time,event --ns 2>/dev/null |
	awk '{ t = $1; sub(/:$/, "", t); split(t, p, "."); ev = $2; sub(/:$/, "", ev)
	       print p[1] * 1000000000 + p[2], ev }' > "$tmp/times"
nev=$(wc -l < "$tmp/times")
[ "$nev" -gt 100 ] || { echo "FAIL: perf script gave $nev events"; exit 1; }
t0=$(head -1 "$tmp/times" | cut -d' ' -f1)
for k in $((nev / 5)) $((nev / 10)) $((nev / 40)); do
	# the k-th event, or the next one at a later time not on a us
	T=$(awk -v k=$k -v t0=$t0 'NR >= k && $1 > t0 && ($1 - t0) % 1000 { print $1 - t0; exit }' "$tmp/times")
	ms=$(awk -v T=$T 'BEGIN { printf "%d.%06d", T / 1000000, T % 1000000 }')
	for empty in "" --interval-empty; do
		awk -v t0=$t0 -v T=$T -v empty=$empty '
			{ s = int(($1 - t0) / T); if (s > max) max = s; has[s] = 1
			  if ($2 == "kmem:mm_page_alloc") a[s]++
			  else if ($2 == "kmem:mm_page_alloc_zone_locked") l[s]++
			  else if ($2 == "kmem:mm_page_free_batched") b[s]++
			  else if ($2 == "kmem:mm_page_pcpu_drain") d[s]++
			  else if ($2 == "kmem:mm_page_alloc_extfrag") x[s]++ }
			END { for (s = 0; s <= max; s++) {
				if (!has[s] && !empty) continue
				e = (s + 1) * T
				printf "%d.%09d %d %d %d %d %d\n", e / 1000000000, e % 1000000000,
					a[s], l[s], b[s], d[s], x[s] } }' "$tmp/times" > "$tmp/expect"
		"$perf" pagealloc report -q -i "$f" -x, --count-events -I "$ms" $empty 2>/dev/null |
			awk -F, '$2 == "TOTAL" { print $1, $3 + $16, $4, $6, $7, $11 }' > "$tmp/got"
		if [ "$(wc -l < "$tmp/expect")" -lt 2 ] || ! diff -u "$tmp/expect" "$tmp/got" > "$tmp/diff"; then
			fail "basic.data -I $ms $empty: slices differ from perf script's times"
			head -20 "$tmp/diff"
		fi
	done
	echo "-I $ms ($(wc -l < "$tmp/expect") slices with --interval-empty): boundaries as perf script"
done

# 3. JSON: one object per slice, summing to the file; stdio: the time column
"$perf" pagealloc report -q -i "$f" -I 50 --json 2>/dev/null > "$tmp/json"
slices=$("$perf" pagealloc report -q -i "$f" -I 50 -x, 2>/dev/null | grep -c ',TOTAL,')
whole=$("$perf" pagealloc report -q -i "$f" -x, 2>/dev/null | awk -F, '$1 == "TOTAL" { print $2 }')
got=$(python3 -c '
import json, sys
s = open(sys.argv[1]).read(); d = json.JSONDecoder(); i = 0; objs = []
while i < len(s):
    if s[i].isspace(): i += 1; continue
    o, i = d.raw_decode(s, i); objs.append(o)
assert all(o["interval_ms"] == 50 and o["end_ns"] - o["start_ns"] == 50000000 for o in objs)
print(len(objs), sum(o["total"]["alloc"] for o in objs))' "$tmp/json") ||
	fail "--json -I 50: not a sequence of JSON objects"
[ "$got" = "$slices $whole" ] || fail "--json -I 50: $got, expected $slices slices and alloc $whole"
PAGER=cat "$perf" pagealloc report -i "$f" -I 50 2>/dev/null > "$tmp/stdio"
grep -q '^ *time  Process' "$tmp/stdio" && grep -q '^ *0\.050000  ' "$tmp/stdio" ||
	fail "stdio -I 50: no time column"
# under valgrind memcheck: no invalid access, no leak of perf's own
if command -v valgrind > /dev/null; then
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--suppressions="$here/valgrind.supp" --log-file="$tmp/vg" \
		"$perf" pagealloc report -q -i "$here/data/scenarios.data" -I 5 -x, --interval-empty > /dev/null 2>&1
	[ -s "$tmp/vg" ] && { fail "valgrind:"; head -30 "$tmp/vg"; }
fi
exit $err
