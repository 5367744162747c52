#!/bin/bash
# perf reads every perf record mode's file as Debian's perf 6.1 does
# SPDX-License-Identifier: GPL-2.0
#
# The recordings of tests/data/record-compat, made on the host with
# Debian's own perf 6.1 in each mode that shapes the file differently
# (-z, --tail-synthesize, both, pipe, --call-graph dwarf, per-task with
# --sample-cpu, --all-cgroups, --switch-output) and of record-host (-g,
# --threads, -z of a build), each with the event counts Debian's perf
# report printed for it (host-*.stats, report_counts of
# tests/lib/recordings.sh).  The project's perf must print the same counts.  The pieces of the
# --switch-output recording are not in tests/lib/recordings.sh: each is
# also compared with perf script here (tests/pagealloc-compare), and one
# without a page allocator event (the last piece often holds only the
# tail's COMM and MMAP records) must give an empty table, not an error.
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/recordings.sh"
perf=${PERF:-${BUILD_DIR:-/var/tmp/pagealloc-build}/perf/perf}
[ -x "$perf" ] || { echo "no perf in $perf"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
err=0

same_stats() {	# recording, expected counts
	if ! report_counts "$perf" "$1" | diff -u "$2" - > "$tmp/diff"; then
		echo "FAIL: $(basename "$2" .stats): perf report's counts differ from Debian's perf"
		sed 's/^/    /' "$tmp/diff"
		err=1
	fi
}

n=0
while IFS=$'\t' read -r name path; do
	[ -f "$here/data/$name.stats" ] || continue
	same_stats "$path" "$here/data/$name.stats"
	n=$((n + 1))
done < <(recordings "$tmp")
[ $n = $(ls "$here"/data/host-*.stats | wc -l) ] ||
	{ echo "FAIL: $n recordings for $(ls "$here"/data/host-*.stats | wc -l) counts"; err=1; }

xz -dc "$here/data/host-switch.tar.xz" | tar -C "$tmp" -xf -
empty=0
for f in "$tmp"/host-switch/perf.data.*[0-9]; do
	same_stats "$f" "$f.stats"
	n=$((n + 1))
	if grep -q 'SAMPLE events' "$f.stats"; then
		"$here/pagealloc-compare" "$perf" "$f" || err=1
		continue
	fi
	# no sample: the header says so over an empty table
	empty=$((empty + 1))
	out=$("$perf" pagealloc report -i "$f" 2>&1)
	rc=$?
	rows=$("$perf" pagealloc report -q -x, -i "$f" 2>&1 | grep -v '^#' |
		grep -vc '^task,\|^TOTAL,0,0,0,0,')
	if [ $rc != 0 ] || [ "$rows" != 0 ] ||
	   ! grep -q '^# perf pagealloc: 0 page allocator events of' <<<"$out"; then
		echo "FAIL: $(basename "$f"), without a sample: exit $rc"
		sed 's/^/    /' <<<"$out" | head -5
		err=1
	fi
done
[ $empty = 0 ] && { echo "FAIL: the --switch-output recording has no piece without samples"; err=1; }
echo "$n recordings read with Debian's perf's counts, $empty without a sample"
exit $err
