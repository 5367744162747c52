#!/bin/bash
# perf pagealloc report equals the table computed from perf script
# SPDX-License-Identifier: GPL-2.0
#
# For each committed recording, in pages and with --count-events, the
# -x, table of perf pagealloc report must equal, row for row and column
# for column, the one tests/pagealloc-script.awk computes from perf
# script's rendering of the same events.
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
perf=${PERF:-${BUILD_DIR:-/var/tmp/pagealloc-build}/perf/perf}
"$perf" --list-cmds 2>/dev/null | tr -s " " "\n" | grep -qx pagealloc || { echo "no perf pagealloc in $perf"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
err=0 n=0
for f in "$here"/data/*.data; do
	name=$(basename "$f" .data)
	[ "$name" = nopage ] && continue
	# pipe-format recordings are read from a pipe, the others by name
	in=(-i "$f") feed=(true)
	if [ "$(head -c 8 "$f")" != PERFILE2 ]; then
		in=(-i -) feed=(cat "$f")
	fi
	evl=$("${feed[@]}" | "$perf" evlist "${in[@]}" 2>/dev/null)
	bulk=(-v has_drain_bulk=$(grep -c 'kmem:mm_page_pcpu_drain_bulk' <<<"$evl")
	      -v has_refill_bulk=$(grep -c 'kmem:mm_page_pcpu_refill' <<<"$evl"))
	for ev in 0 1; do
		opt=; [ $ev = 1 ] && opt=--count-events
		"${feed[@]}" | "$perf" pagealloc report -q "${in[@]}" -x, $opt 2>/dev/null |
			grep -v '^#' | sort > "$tmp/report" ||
			{ echo "FAIL: $name: perf pagealloc report $opt"; err=1; }
		"${feed[@]}" | "$perf" script -F comm,tid,cpu,event,trace "${in[@]}" 2>/dev/null |
			awk -v events=$ev "${bulk[@]}" -f "$here/pagealloc-script.awk" |
			sort > "$tmp/script"
		rows=$(grep -vc '^task,' "$tmp/script")
		if [ "$rows" -lt 2 ] || ! diff -u "$tmp/script" "$tmp/report"; then
			echo "FAIL: $name ${opt:-pages}: report and perf script differ ($rows rows)"
			err=1
		fi
		n=$((n + 1))
	done
done
echo "$n tables compared"
exit $err
