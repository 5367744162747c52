#!/bin/bash
# perf pagealloc timechart: valid SVG, rendered, the table's numbers, bad input
# SPDX-License-Identifier: GPL-2.0
#
# For each committed recording (guest, host, pipe format) and -n 3, the
# default and -n 0: the SVG is well-formed (xmllint), a real renderer
# (rsvg-convert) turns it into a PNG, it is under 1 MB, and the data-*
# attributes of its lanes equal the report's -x table of the same file:
# each named lane its row, and all lanes together the TOTAL row.  Bad
# input: no file, an empty file, a text file, a file without page
# allocator events, options selecting no event, -n below 0 each give a
# one-line error and leave no SVG; a single event, -n above the number of
# tasks and -n 0 give a valid picture that says so.
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/recordings.sh"
perf=${PERF:-${BUILD_DIR:-/var/tmp/pagealloc-build}/perf/perf}
"$perf" --list-cmds 2>/dev/null | tr -s " " "\n" | grep -qx pagealloc || { echo "no perf pagealloc in $perf"; exit 2; }
"$perf" pagealloc timechart -h 2>&1 | grep -q -- --output || { echo "no perf pagealloc timechart in $perf"; exit 2; }
command -v xmllint > /dev/null || { echo "no xmllint (libxml2-utils)"; exit 2; }
command -v rsvg-convert > /dev/null || { echo "no rsvg-convert (librsvg2-bin)"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
err=0
fail() { echo "FAIL: $*"; err=1; }

# the lanes' data-* as -x rows: task,tasks,columns...
lanes() {
	python3 - "$1" "$keys" <<'PY'
import sys, xml.etree.ElementTree as ET
keys = sys.argv[2].split(",")
for g in ET.parse(sys.argv[1]).getroot().iter("{http://www.w3.org/2000/svg}g"):
    if g.get("class") == "lane":
        v = [g.get("data-" + k) for k in keys]
        print(",".join([g.get("data-task"), g.get("data-tasks")] + ["" if x == "-" else x for x in v]))
PY
}

# a valid picture: well-formed, rendered, small
valid() {	# svg, label
	xmllint --noout "$1" 2> "$tmp/xmlerr" || { fail "$2: not well-formed: $(head -1 "$tmp/xmlerr")"; return 1; }
	rsvg-convert -o "$tmp/out.png" "$1" 2> "$tmp/rsvgerr" &&
		[ "$(head -c 8 "$tmp/out.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
		{ fail "$2: rsvg-convert: $(head -1 "$tmp/rsvgerr")"; return 1; }
	[ "$(stat -c %s "$1")" -lt 1000000 ] || { fail "$2: $(stat -c %s "$1") bytes, over 1 MB"; return 1; }
	return 0
}

n=0
while IFS=$'\t' read -r name f; do
	perf_input "$f"
	"$perf" pagealloc report -q "${in[@]}" -x, < "$stdin" 2>/dev/null | nocgroup > "$tmp/table.x"
	# the lanes' data-* in the order of the table's columns
	keys=$(sed -n '1s/^task,//p' "$tmp/table.x")
	grep -v '^task,' "$tmp/table.x" > "$tmp/table"
	ntasks=$(grep -vc '^TOTAL,' "$tmp/table")
	for nl in 3 "" 0; do
		svg=$tmp/$name$nl.svg
		"$perf" pagealloc timechart -q "${in[@]}" -o "$svg" ${nl:+-n $nl} < "$stdin" 2> "$tmp/errout" ||
			{ fail "$name -n ${nl:-15}: exit status: $(head -1 "$tmp/errout")"; continue; }
		valid "$svg" "$name -n ${nl:-15}" || continue
		lanes "$svg" > "$tmp/lanes"
		# each named lane is its row of the table, with one task
		grep -v '^others,' "$tmp/lanes" | sed 's/^\([^,]*\),1,/\1,/' | sort > "$tmp/named"
		if [ -n "$(comm -23 "$tmp/named" <(sort "$tmp/table"))" ]; then
			fail "$name -n ${nl:-15}: a lane differs from its row of the table"
			comm -23 "$tmp/named" <(sort "$tmp/table") | head -5
		fi
		# all lanes: TOTAL, and as many tasks as rows
		# (the ms columns, to the ns, summed as such)
		sum=$(awk -F, -v OFS=, '{ t += $2; for (i = 3; i <= NF; i++) { s[i] += $i; if ($i == "") e[i] = 1
				if ($i ~ /\./) ms[i] = 1 } nf = NF }
			END { line = "TOTAL"; for (i = 3; i <= nf; i++)
				line = line OFS (e[i] ? "" : ms[i] ? sprintf("%.6f", s[i]) : s[i]); print t, line }' "$tmp/lanes")
		[ "$sum" = "$ntasks,$(grep '^TOTAL,' "$tmp/table")" ] ||
			fail "$name -n ${nl:-15}: lanes sum to $sum, table: $ntasks,$(grep '^TOTAL,' "$tmp/table")"
		want=$(( ${nl:-15} < ntasks ? ${nl:-15} + 1 : ntasks ))
		[ "$(wc -l < "$tmp/lanes")" = "$want" ] ||
			fail "$name -n ${nl:-15}: $(wc -l < "$tmp/lanes") lanes for $ntasks tasks"
	done
	n=$((n + 1))
done < <(recordings "$tmp")
echo "$n recordings: SVG valid, rendered, lanes equal to the table"

# bad input: one line, non-zero exit, no SVG
d=$here/data
: > "$tmp/empty.data"
echo "not a perf.data file" > "$tmp/text.data"
bad() {	# label, args...
	local label=$1
	shift
	rm -f "$tmp/bad.svg"
	if "$perf" pagealloc timechart -o "$tmp/bad.svg" "$@" > "$tmp/out" 2> "$tmp/errout"; then
		fail "$label: exit status 0"
	fi
	[ -e "$tmp/bad.svg" ] && fail "$label: left $(stat -c %s "$tmp/bad.svg") bytes in the SVG"
	lines=$(grep -v '^ *$' "$tmp/errout" | grep -vc '^Warning')
	[ "$lines" = 1 ] || { fail "$label: $lines lines on stderr"; cat "$tmp/errout"; }
}
bad "no file" -i "$tmp/none.data"
bad "empty file" -i "$tmp/empty.data"
bad "text file" -i "$tmp/text.data"
bad "no page allocator events" -i "$d/nopage.data"
bad "no event selected" -i "$d/basic.data" --comm no-such-task
bad "-n -1" -i "$d/basic.data" -n -1

# a single event: one instant, one lane, said in the title
t=$("$perf" script -i "$d/basic.data" -F time --ns 2>/dev/null | head -1 | tr -d ' :')
"$perf" pagealloc timechart -q -i "$d/basic.data" --time "$t,$t" -o "$tmp/one.svg" ||
	fail "a single event: exit status"
if valid "$tmp/one.svg" "a single event"; then
	grep -q 'all events at one instant' "$tmp/one.svg" || fail "a single event: the title does not say it"
	[ "$(lanes "$tmp/one.svg" | cut -d, -f1-3)" = "perf-47,1,1" ] ||
		fail "a single event: lanes $(lanes "$tmp/one.svg" | cut -d, -f1-3)"
fi
# -n above the number of tasks: every task a lane, no 'others'
"$perf" pagealloc timechart -q -i "$d/basic.data" -n 1000 -o "$tmp/all.svg" &&
	valid "$tmp/all.svg" "-n 1000" &&
	grep -q 'every task has a lane' "$tmp/all.svg" && ! grep -q 'data-task="others"' "$tmp/all.svg" ||
	fail "-n 1000: not every task in a lane of its own"
echo "bad input: one-line errors and no file; a single event, -n 1000: valid pictures"
# under valgrind memcheck: no invalid access, no leak of perf's own
if command -v valgrind > /dev/null; then
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--suppressions="$here/valgrind.supp" --log-file="$tmp/vg" \
		"$perf" pagealloc timechart -q -i "$here/data/scenarios.data" -o "$tmp/vg.svg" -n 2 > /dev/null 2>&1
	[ -s "$tmp/vg" ] && { fail "valgrind:"; head -30 "$tmp/vg"; }
fi
exit $err
