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
for src in "$here"/data/*.data "$here"/data/*.data.xz "$here"/data/*.data.tar.xz; do
	name=$(basename "$src")
	name=${name%%.data*}
	[ "$name" = nopage ] && continue
	# host recordings are kept compressed; --threads makes a directory
	case $src in
	*.tar.xz) xz -dc "$src" | tar -C "$tmp" -xf -; f=$tmp/$name.data ;;
	*.xz) f=$tmp/$name.data; xz -dc "$src" > "$f" ;;
	*) f=$src ;;
	esac
	# pipe-format recordings are read from a pipe, the others by name
	in=(-i "$f") feed=(true) stdin=/dev/null
	if [ -f "$f" ] && [ "$(head -c 8 "$f")" != PERFILE2 ]; then
		in=(-i -) feed=(cat "$f") stdin=$f
	fi
	# the recorded event list (perf evlist cannot name a pipe's)
	evl=$("$perf" script --header "${in[@]}" < "$stdin" 2>/dev/null |
		sed -n 's/^# event : name = \([^,]*\),.*/\1/p')
	bulk=(-v has_drain_locked=$(grep -c '^kmem:mm_page_pcpu_drain_zone_locked$' <<<"$evl")
	      -v has_refill_locked=$(grep -c '^kmem:mm_page_pcpu_refill_zone_locked$' <<<"$evl")
	      -v has_refilled=$(grep -c '^kmem:mm_page_pcpu_refill$' <<<"$evl"))
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
