#!/bin/bash
# XFS event tracing on a loop-mounted XFS in tmpfs: events/xfs enable files, one single event, perf stat -e xfs:*
# SPDX-License-Identifier: GPL-2.0
#
# The workflows of the XFS conversion to event tracing (fs/xfs/xfs_trace.h)
# on an XFS made on a loop file in /tmp, with a buffered write + fsync
# workload (dd bs=64k count=64 conv=fsync: 64 write calls, 4 MiB):
# - perf list shows xfs:xfs_file_buffered_write as a tracepoint event;
# - echo 1 > events/xfs/enable: the trace holds xfs_ events of >= 5 kinds,
#   the writer's xfs_file_buffered_write lines (>= 64, one per write call,
#   on the loop device's dev major:minor) and its xfs_file_fsync;
# - echo 1 > events/xfs/xfs_file_buffered_write/enable alone: the trace
#   holds that event only, >= 64 lines of the writer;
# - perf stat -e 'xfs:*' of the workload counts >= 5 different xfs events
#   and xfs:xfs_file_buffered_write between 64 and 72; perf stat
#   -e xfs:xfs_file_buffered_write alone counts the same.
# Every enable file is restored, the filesystem unmounted and the loop
# device detached on exit.
export LC_ALL=C

[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 2; }
tracefs=/sys/kernel/tracing
[ -d $tracefs/events ] || tracefs=/sys/kernel/debug/tracing
[ -d $tracefs/events/xfs ] || { echo "skip: no xfs events in $tracefs (CONFIG_XFS_FS)"; exit 2; }
. "$(dirname "$0")"/lib/xfs_loop.sh
xfs_loop_skip

err=0
tmp=$(mktemp -d /tmp/__perf_test.xfs.XXXXX)
saved=$tmp/enable.saved
: > $saved

. "$(dirname "$0")"/lib/tracefs.sh
tracefs_saved=$saved
cleanup() {
	tracefs_restore
	xfs_loop_teardown
	rm -rf "$tmp"
	trap - EXIT TERM INT
}
trap 'cleanup; exit $err' EXIT TERM INT
fail() { echo "FAIL: $*"; err=1; }

xfs_loop_setup $tmp || { err=1; exit; }
dev=$(($(stat -c 0x%t $loop))):$(($(stat -c 0x%T $loop)))
echo "XFS on $loop (dev $dev) at $mnt"

writes=64
# write FILE: the workload in the background; its pid in $wpid
write() {
	dd if=/dev/zero of="$1" bs=64k count=$writes conv=fsync status=none &
	wpid=$!
	wait $wpid || fail "dd conv=fsync into $1 failed"
}

# --- perf list -------------------------------------------------------------
perf list 2>/dev/null |
	grep -Eq '^[[:space:]]*xfs:xfs_file_buffered_write[[:space:]]+\[Tracepoint event\]' ||
	fail "perf list has no 'xfs:xfs_file_buffered_write  [Tracepoint event]'"

# --- the whole xfs system -------------------------------------------------
tracefs_save $tracefs/events/xfs/enable
echo 1 > $tracefs/events/xfs/enable
echo > $tracefs/trace
write $mnt/all
echo 0 > $tracefs/events/xfs/enable
grep -v '^#' $tracefs/trace > $tmp/trace.all
kinds=$(grep -Eo ': xfs_[a-z0-9_]+: ' $tmp/trace.all | sort -u | wc -l)
n=$(grep -Ec "^ *dd-$wpid +\[.*: xfs_file_buffered_write: dev $dev " $tmp/trace.all)
nfsync=$(grep -Ec "^ *dd-$wpid +\[.*: xfs_file_fsync: dev $dev " $tmp/trace.all)
echo "events/xfs/enable: $(wc -l < $tmp/trace.all) lines, $kinds kinds of xfs_ events;" \
	"dd-$wpid: $n xfs_file_buffered_write, $nfsync xfs_file_fsync"
[ "$kinds" -ge 5 ] || fail "the trace holds $kinds kinds of xfs_ events, want >= 5"
[ "$n" -ge $writes ] ||
	fail "the trace holds $n xfs_file_buffered_write of dd-$wpid on dev $dev for $writes writes"
[ "$nfsync" -ge 1 ] || fail "the trace holds no xfs_file_fsync of dd-$wpid on dev $dev"
if [ $err != 0 ]; then echo "--- the trace:"; head -30 $tmp/trace.all; fi

# --- one single event -----------------------------------------------------
one=$tracefs/events/xfs/xfs_file_buffered_write/enable
tracefs_save $one
echo 1 > $one
echo > $tracefs/trace
write $mnt/one
echo 0 > $one
grep -v '^#' $tracefs/trace > $tmp/trace.one
others=$(grep -v ': xfs_file_buffered_write: ' $tmp/trace.one | head -5)
n=$(grep -Ec "^ *dd-$wpid +\[.*: xfs_file_buffered_write: dev $dev " $tmp/trace.one)
echo "xfs_file_buffered_write/enable: $(wc -l < $tmp/trace.one) lines, $n of dd-$wpid"
[ -z "$others" ] || fail "with one event enabled, the trace holds others: $others"
[ "$n" -ge $writes ] ||
	fail "with xfs_file_buffered_write enabled, $n lines of dd-$wpid for $writes writes"
tracefs_restore

# --- perf stat -------------------------------------------------------------
dd_cmd="dd if=/dev/zero of=$mnt/stat bs=64k count=$writes conv=fsync status=none"
perf stat -x, -e 'xfs:*' -o $tmp/stat.all -- $dd_cmd || fail "perf stat -e 'xfs:*' exited with $?"
counted=$(awk -F, '$3 ~ /^xfs:/ && $1 ~ /^[0-9]+$/ && $1 > 0' $tmp/stat.all | wc -l)
nall=$(awk -F, '$3 == "xfs:xfs_file_buffered_write" { print $1 }' $tmp/stat.all)
echo "perf stat -e 'xfs:*': $(grep -c ',xfs:' $tmp/stat.all) events, $counted counted > 0," \
	"xfs:xfs_file_buffered_write $nall"
[ "$counted" -ge 5 ] || { fail "perf stat -e 'xfs:*' counted $counted events > 0, want >= 5"; cat $tmp/stat.all; }
[ "$nall" -ge $writes ] 2>/dev/null && [ "$nall" -le $((writes + 8)) ] ||
	fail "perf stat -e 'xfs:*': xfs:xfs_file_buffered_write '$nall' for $writes writes, want $writes..$((writes + 8))"

rm -f $mnt/stat
perf stat -x, -e xfs:xfs_file_buffered_write -o $tmp/stat.one -- $dd_cmd ||
	fail "perf stat -e xfs:xfs_file_buffered_write exited with $?"
none=$(awk -F, '$3 == "xfs:xfs_file_buffered_write" { print $1 }' $tmp/stat.one)
echo "perf stat -e xfs:xfs_file_buffered_write: $none"
[ "$none" -ge $writes ] 2>/dev/null && [ "$none" -le $((writes + 8)) ] ||
	fail "perf stat -e xfs:xfs_file_buffered_write: '$none' for $writes writes, want $writes..$((writes + 8))"
[ "$(stat -c %s $mnt/stat)" = $((writes * 65536)) ] || fail "$mnt/stat is not $((writes * 64)) KiB"
exit $err
