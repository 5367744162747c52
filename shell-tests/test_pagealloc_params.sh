#!/bin/bash
# test_pagealloc refuses out-of-range parameters and unloads cleanly
# SPDX-License-Identifier: GPL-2.0
#
# Every parameter of the workload module is bounded: a scenario must end
# in seconds (rmmod waits for it) and hold at most a quarter of memory.
# Each value below is out of range and must make insmod fail with EINVAL
# and a kernel message naming the parameter and its range (a value that
# is not a number at all is refused by the kernel's parameter parser);
# the module must not stay loaded.  Then the module loads with every parameter at its maximum,
# runs the scenarios those parameters size, and unloads; vm/run fails the
# run on any kernel warning meanwhile.
export LC_ALL=C
[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 2; }
ko=${PAGEALLOC_KOUT:-${BUILD_DIR:-/var/tmp/pagealloc-build}/kernel}/lib/test_pagealloc.ko
[ -r "$ko" ] || { echo "skip: no $ko"; exit 2; }
ctl=/sys/kernel/debug/test_pagealloc
err=0
fail() { echo "FAIL: $*"; err=1; }
loaded() { grep -q '^test_pagealloc ' /proc/modules; }
loaded && { echo "FAIL: test_pagealloc is already loaded"; exit 1; }
trap 'loaded && rmmod test_pagealloc' EXIT

# a quarter of memory, in pages: the limit of the pages held at once
quarter=$(( $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) / 4 / ($(getconf PAGESIZE) / 1024) ))

refuse() {	# param=value, the kernel message it must cause
	local msg mark="test_pagealloc_params: insmod $1"
	# the kernel log is kept whole (vm/run and other tests read it): the
	# messages of this insmod are those after its marker
	echo "$mark" > /dev/kmsg
	if insmod "$ko" "$1" 2> /tmp/insmod.err; then
		fail "insmod $1 loaded the module"
		rmmod test_pagealloc
		return
	fi
	loaded && { fail "insmod $1 failed but left the module loaded"; rmmod test_pagealloc; }
	# EINVAL from the module; the kernel's own parser also says ERANGE
	grep -q 'Invalid parameters\|Invalid argument\|out of range' /tmp/insmod.err ||
		fail "insmod $1: not EINVAL: $(cat /tmp/insmod.err)"
	msg=$(dmesg | sed -n "\\|$mark\$|,\$p" | grep -m1 "test_pagealloc: ${1%%=*}")
	if [ -n "$2" ] && ! grep -q "$2" <<<"$msg"; then
		fail "insmod $1: kernel message '$msg', want '$2'"
	else
		echo "insmod $1: refused: ${msg#*] }"
	fi
}
for p in nr_direct nr_batched nr_order3 max_drain_pages max_extfrag_pages nr_compact_allocs nr_hold; do
	refuse "$p=0" "$p=0 is out of range"
	refuse "$p=4294967295" "$p=4294967295 is out of range"
done
refuse nr_direct=3000000000 "out of range \[1, 65536\]"
refuse nr_direct=65537 "out of range \[1, 65536\]"
refuse nr_batched=4000000000 "out of range \[1, 65536\]"
refuse nr_order3=1000000000 "out of range \[1, 8192\]"
refuse nr_order3=8193 "out of range \[1, 8192\]"
refuse nr_compact_allocs=65 "out of range \[1, 64\]"
# not a number at all: the kernel's own parameter parser refuses it
refuse nr_direct=4294967296 ""
refuse nr_batched=-1 ""
# in range, but more pages held at once than a quarter of this guest
if [ "$quarter" -lt 65536 ]; then
	refuse "nr_batched=$((quarter + 1))" "more than a quarter of memory"
	refuse "max_extfrag_pages=$((quarter + 1))" "more than a quarter of memory"
	refuse "nr_hold=$((quarter + 1))" "more than a quarter of memory"
fi

# every bound reached: loads, runs, unloads
held=$(( quarter < 65536 ? quarter : 65536 ))
args="nr_direct=65536 nr_batched=$held nr_order3=8192 max_drain_pages=$held max_extfrag_pages=$held nr_compact_allocs=64 nr_hold=$held"
# shellcheck disable=SC2086
if insmod "$ko" $args; then
	# hold last: the unload frees the pages it holds
	for s in direct batched order3 hold; do
		echo $s > $ctl/run || fail "scenario $s at the bounds ($args): $(head -1 $ctl/expected)"
		head -2 $ctl/expected | tr '\n' ' '; echo
	done
	grep -qx "held: $((held - held / 2))" $ctl/expected ||
		fail "hold at the bound: $(grep held: $ctl/expected), want $((held - held / 2))"
	rmmod test_pagealloc || fail "rmmod after the scenarios"
else
	fail "insmod $args"
fi
loaded && fail "the module is still loaded"
# and loads again with its defaults afterwards
insmod "$ko" && rmmod test_pagealloc || fail "insmod/rmmod with the defaults after the refusals"
exit $err
