#!/bin/bash
# perf pagealloc report: bad input gives one clear error, under valgrind
# SPDX-License-Identifier: GPL-2.0
#
# Each bad input must end with a non-zero exit and one line naming the
# problem; a format lacking a field names the event and the field and the
# other columns still come out.  Every case, and the good recordings, run
# under valgrind memcheck: no invalid access, no leak of perf's own.
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
perf=${PERF:-${BUILD_DIR:-/var/tmp/pagealloc-build}/perf/perf}
"$perf" --list-cmds 2>/dev/null | tr -s " " "\n" | grep -qx pagealloc || { echo "no perf pagealloc in $perf"; exit 2; }
command -v valgrind > /dev/null || { echo "no valgrind"; exit 2; }
d=$here/data
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
: > "$t/empty.data"
echo "not a perf.data file" > "$t/text.data"
head -c 64 "$d/basic.data" > "$t/trunc-header.data"
head -c 200000 "$d/basic.data" > "$t/trunc-data.data"
# the events whole, the feature section table cut
perl -e 'open F, "<", $ARGV[0]; binmode F; read F, $h, 104;
	my ($do, $ds) = unpack "Q2", substr($h, 40, 16); seek F, 0, 0;
	read F, $b, $do + $ds + 8; print $b' "$d/basic.data" > "$t/trunc-features.data"
# rename mm_page_alloc's "order" field in the recorded format, same length
perl -0777 -pe 's/(name: mm_page_alloc\n.*?field:unsigned int )order;/${1}ordex;/s' \
	"$d/basic.data" > "$t/nofield.data"

vg=(valgrind -q --error-exitcode=99 --leak-check=full
    --errors-for-leak-kinds=definite,indirect --suppressions="$here/valgrind.supp")
err=0
run() {	# mode(error|partial|ok) regex args...
	local mode=$1 re=$2 rc lines
	shift 2
	PAGER=cat "${vg[@]}" --log-file="$t/vg" "$perf" pagealloc report "$@" \
		> "$t/out" 2> "$t/errout"
	rc=$?
	if [ -s "$t/vg" ] || [ $rc = 99 ]; then
		echo "FAIL: valgrind on $*:"; head -30 "$t/vg"; err=1; return
	fi
	case $mode in
	error)	# non-zero, one line on stderr naming the problem, no table
		lines=$(wc -l < "$t/errout")
		if [ $rc = 0 ] || [ "$lines" != 1 ] || ! grep -qE "$re" "$t/errout" || [ -s "$t/out" ]; then
			echo "FAIL: $* exited $rc with $lines lines, want one line matching /$re/:"
			cat "$t/errout" "$t/out" | head -5; err=1
		fi ;;
	partial)	# the problem named, and the table of what could be computed
		if ! grep -qE "$re" "$t/errout" || ! grep -q '^TOTAL' "$t/out"; then
			echo "FAIL: $* exited $rc; want a table and /$re/ on stderr:"
			cat "$t/errout"; err=1
		fi ;;
	ok)
		if [ $rc != 0 ] || ! grep -q 'TOTAL' "$t/out"; then
			echo "FAIL: $* exited $rc, want 0 and a table:"; cat "$t/errout"; err=1
		fi ;;
	esac
}
run error 'cannot open .*no-such' -i "$t/no-such.data"
run error 'zero-sized data' -i "$t/empty.data"
run error 'incompatible file format' -i "$t/text.data"
run error 'truncated in its header: 64 of 104 bytes' -i "$t/trunc-header.data"
run error 'is truncated: 200000 bytes, its event data end at' -i "$t/trunc-data.data"
run error 'is truncated after its event data' -i "$t/trunc-features.data"
run error "no page allocator events .*perf pagealloc record" -i "$d/nopage.data"
# a pipe: an option the stream cannot serve is said once, as for a file
run error 'needs the NUMA memory map of the recorded machine, - has none' -i - --per-node < "$d/pipe.data"
run partial "kmem:mm_page_alloc has no field 'order'" -i "$t/nofield.data"
# alloc cannot be computed, the other columns can
grep -qE '^TOTAL +- +[0-9]+ ' "$t/out" || { echo "FAIL: nofield: $(grep ^TOTAL "$t/out")"; err=1; }
run partial 'lost' -i "$d/lost.data"
run ok '' -i "$d/basic.data" --prepend-parent --json
run ok '' -i "$d/scenarios.data" --split-irq -x,
run ok '' -i "$d/basic.data" --time 11.6,11.9 --per-process -s pid
PAGER=cat "${vg[@]}" --log-file="$t/vg" "$perf" pagealloc report -i - < "$d/pipe.data" > "$t/out" 2>&1
if [ -s "$t/vg" ] || ! grep -q '^TOTAL' "$t/out"; then
	echo "FAIL: pipe mode under valgrind"; head -30 "$t/vg" "$t/out"; err=1
fi
exit $err
