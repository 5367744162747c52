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
# test_pagealloc's hold scenario gives exact numbers: its thread allocates
# 512 pages and frees 256, the recorded shell frees 64 of the 256 the
# module holds: the thread's row has outstanding 192, freed_by_others 64;
# a second recording in which the shell frees the 192 left has no row for
# the thread and counts at least those 192 apart.  While it holds pages
# the module refuses the scenarios that hold pages (a second hold,
# batched) but runs direct, and refuses releases of 0 pages, of more
# than it holds, or of no number.
export LC_ALL=C

[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 2; }
perf pagealloc report -h 2>&1 | grep -q -- --outstanding ||
	{ echo "skip: no perf pagealloc report --outstanding"; exit 2; }
compare=${PAGEALLOC_TOP:-}/tests/pagealloc-compare
[ -x "$compare" ] || { echo "skip: no $compare"; exit 2; }

ko=${PAGEALLOC_KOUT:-${BUILD_DIR:-/var/tmp/pagealloc-build}/kernel}/lib/test_pagealloc.ko
ctl=/sys/kernel/debug/test_pagealloc

err=0 loaded=
d=$(mktemp -d /tmp/__perf_test.pa_outstanding.XXXXX)
trap 'rm -rf "$d"; [ -n "$loaded" ] && rmmod test_pagealloc; trap - EXIT TERM INT; exit $err' EXIT TERM INT
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

[ -r "$ko" ] || { echo "skip the module's hold scenario: no $ko"; exit; }
insmod "$ko" nr_hold=512 || { fail "insmod $ko nr_hold=512"; exit; }
loaded=1
perf pagealloc record -q -m 16M -o "$d/hold.data" -- \
	sh -c "echo hold > $ctl/run && echo 64 > $ctl/release" > "$d/record.log" 2>&1 ||
	{ fail "record hold and release 64: $(cat $ctl/expected)"; cat "$d/record.log"; exit; }
exp=$(cat $ctl/expected)
tid=$(sed -n '1s/.* tid=\([0-9]*\).*/\1/p' <<<"$exp")
grep -q "scenario=hold .* result=0" <<<"$exp" && grep -qx "held: 192" <<<"$exp" ||
	fail "hold: $exp"
perf pagealloc report -i "$d/hold.data" --outstanding --split-irq -x, > "$d/table" 2> "$d/err" ||
	{ fail "report --outstanding of hold"; cat "$d/err"; exit; }
grep -i lost "$d/err" && fail "hold: events were lost, the counts cannot be exact"
# the module's counts, then what it holds and what the shell freed
want="$(sed -n 's/^pages: //p' <<<"$exp") outstanding=192 freed_by_others=64"
got=
for kv in $want; do
	got="$got ${kv%%=*}=$(col "$d/table" "pagealloc-test-$tid," "${kv%%=*}")"
done
echo "hold, 64 released:$got"
[ "$got" = " $want" ] || fail "hold: want $want"
"$compare" perf "$d/hold.data" || fail "hold: report and perf script differ"

for s in hold batched; do
	echo $s > $ctl/run 2> /dev/null && fail "$s ran while 192 pages are held"
done
echo direct > $ctl/run || fail "direct did not run while pages are held"
for n in 0 193 x; do
	echo $n > $ctl/release 2> /dev/null && fail "release of '$n' pages of 192 did not fail"
done
perf pagealloc record -q -m 16M -o "$d/before.data" -- \
	sh -c "echo 192 > $ctl/release" > "$d/record.log" 2>&1 ||
	{ fail "record release 192"; cat "$d/record.log"; exit; }
grep -qx "held: 0" $ctl/expected || fail "held after releasing all: $(cat $ctl/expected)"
perf pagealloc report -i "$d/before.data" --outstanding -x, > "$d/table" 2> "$d/err" ||
	{ fail "report --outstanding of the release"; cat "$d/err"; exit; }
unseen=$(sed -n 's/^# outstanding: \([0-9]*\) pages freed that no allocation.*/\1/p' "$d/table")
echo "release of the 192 held before the recording: $unseen pages counted apart"
grep -q "^pagealloc-test-$tid," "$d/table" && fail "the thread has a row: $(grep "^pagealloc-test-$tid," "$d/table")"
[ -n "$unseen" ] && [ "$unseen" -ge 192 ] || fail "the 192 held pages are counted apart: '$unseen'"
exit $err
