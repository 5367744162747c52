#!/bin/bash
# perf pagealloc report --outstanding: pages still held, pages others freed, pages from before
# SPDX-License-Identifier: GPL-2.0
#
# In a tmpfs directory, a 1 MiB file is written before the recording;
# recorded: dd writes a 4 MiB file that stays after the end, head writes
# a 2 MiB file, and rm deletes it and the old one.  With --outstanding:
# - dd holds the 1024 pages of its file: outstanding at least 1024, and
#   below 1024 + 256, the 1 MiB buffer it freed itself when it exited;
# - rm freed head's 512 file pages: head's freed_by_others is at least
#   512 and its outstanding below 512;
# - the 256 pages of the old file, allocated before the recording, are
#   in no row: the '# outstanding:' line counts at least 256 freed pages
#   that no allocation of the recording held.
# The file is also compared, every row and column, with the table
# tests/pagealloc-compare computes from perf script of the same file.
# Recorded with -g, dd writing a 4 MiB file: its stacks by the pages they
# still hold (--folded --outstanding) add up to its outstanding column,
# of which shmem's write path holds the file's 1024 pages and less than
# its buffer more; pagealloc-compare checks them against perf script.
export LC_ALL=C

[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 2; }
perf pagealloc report -h 2>&1 | grep -q -- --outstanding ||
	{ echo "skip: no perf pagealloc report --outstanding"; exit 2; }
compare=${PAGEALLOC_TOP:-}/tests/pagealloc-compare
[ -x "$compare" ] || { echo "skip: no $compare"; exit 2; }

err=0
d=$(mktemp -d /tmp/__perf_test.pa_outstanding.XXXXX)
trap 'rm -rf "$d"; trap - EXIT TERM INT; exit $err' EXIT TERM INT
fail() { echo "FAIL: $*"; err=1; }
[ "$(stat -f -c %T "$d")" = tmpfs ] || { echo "skip: $d is not on tmpfs"; exit 2; }

. "$(dirname "$0")"/lib/pagealloc_x.sh

dd if=/dev/zero of="$d/old" bs=1M count=1 status=none
perf pagealloc record -q -m 16M -o "$d/out.data" -- sh -c "
	dd if=/dev/zero of=$d/held bs=1M count=4 status=none
	head -c 2M /dev/zero > $d/gone
	rm $d/gone $d/old" > "$d/record.log" 2>&1 ||
	{ fail "perf pagealloc record"; cat "$d/record.log"; exit; }
perf pagealloc report -i "$d/out.data" --outstanding -x, > "$d/table" 2> "$d/err" ||
	{ fail "perf pagealloc report --outstanding"; cat "$d/err"; exit; }

out=$(col "$d/table" dd- outstanding)
echo "dd: $out pages outstanding"
[ -n "$out" ] && [ "$out" -ge 1024 ] && [ "$out" -lt 1280 ] ||
	fail "dd holds its file's 1024 pages (and not its freed buffer): outstanding '$out'"
by=$(col "$d/table" head- freed_by_others)
out=$(col "$d/table" head- outstanding)
echo "head: $by pages freed by others, $out outstanding"
[ -n "$by" ] && [ "$by" -ge 512 ] && [ -n "$out" ] && [ "$out" -lt 512 ] ||
	fail "rm freed head's 512 pages: freed_by_others '$by', outstanding '$out'"
unseen=$(sed -n 's/^# outstanding: \([0-9]*\) pages freed that no allocation.*/\1/p' "$d/table")
echo "freed, allocated before the recording: $unseen pages"
[ -n "$unseen" ] && [ "$unseen" -ge 256 ] ||
	fail "the old file's 256 pages are counted apart: '$unseen'"
# TOTAL is the sum of the rows
sum=$(grep -v '^#' "$d/table" | awk -F, -v c="$(head -1 "$d/table" | tr , '\n' |
	grep -nx outstanding | cut -d: -f1)" 'NR > 1 && $1 != "TOTAL" { s += $c } END { print s + 0 }')
[ "$sum" = "$(col "$d/table" TOTAL, outstanding)" ] ||
	fail "TOTAL's outstanding is not the rows' sum $sum"

"$compare" perf "$d/out.data" || fail "report and perf script differ"

perf pagealloc record -q -g -m 16M -o "$d/g.data" -- \
	dd if=/dev/zero of="$d/held-g" bs=1M count=4 status=none > "$d/record.log" 2>&1 ||
	{ fail "perf pagealloc record -g"; cat "$d/record.log"; exit; }
perf pagealloc report -i "$d/g.data" --outstanding -x, > "$d/table" 2> "$d/err" &&
perf pagealloc report -i "$d/g.data" --outstanding --folded > "$d/folded" 2> "$d/err" ||
	{ fail "perf pagealloc report --outstanding --folded"; cat "$d/err"; exit; }
out=$(col "$d/table" dd- outstanding)
sum=$(awk '/^dd-/ { s += $NF } END { print s + 0 }' "$d/folded")
shm=$(awk '/^dd-/ && /shmem_/ { s += $NF } END { print s + 0 }' "$d/folded")
echo "-g: dd has $out pages outstanding, $sum in its stacks, $shm under shmem_"
[ "$sum" = "$out" ] && [ "$shm" -ge 1024 ] && [ "$shm" -lt 1280 ] ||
	fail "-g: dd's stacks hold $sum of its $out outstanding pages, $shm under shmem_: $(grep '^dd-' "$d/folded")"
"$compare" perf "$d/g.data" || fail "-g: report and perf script differ"
exit $err
