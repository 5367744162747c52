#!/bin/bash
# vm/run fails a guest run that reports a kernel warning
# SPDX-License-Identifier: GPL-2.0
#
# vm/kernel-log-check first, on log lines of each kind of report it must
# catch and of messages it must not; then three guest boots: a warning
# provoked with lkdtm (KERN_WARNING: on the console and in dmesg), the
# same warning with the guest powered off before guest-init saves dmesg
# (the console alone), and a "WARNING:" line at KERN_INFO (dmesg alone).
# Each must fail the run with exit 125 and a message that names the
# warning, although the guest command itself exits 0.
export LC_ALL=C
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-/var/tmp/pagealloc-build}
err=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

must_catch=(
	'[   12.345678] WARNING: CPU: 1 PID: 77 at mm/page_alloc.c:5638 __alloc_pages+0x2b2/0x330'
	'[    3.000001] BUG: sleeping function called from invalid context at mm/slab.h:723'
	'[    3.000001] WARNING: possible circular locking dependency detected'
	'[    3.000001] WARNING: inconsistent lock state'
	'[    3.000001] WARNING: suspicious RCU usage'
	'[    3.000001] BUG: KASAN: use-after-free in test_func+0x10/0x20'
	'[    3.000001] UBSAN: shift-out-of-bounds in lib/test_pagealloc.c:300:12'
	'[  130.000001] INFO: task rmmod:231 blocked for more than 120 seconds.'
	'[    3.000001] BUG: soft lockup - CPU#0 stuck for 26s! [pagealloc-test:80]'
	'[    3.000001] BUG: Bad page state in process dd  pfn:1234'
	'[    3.000001] kernel BUG at mm/page_alloc.c:1000!'
	'[    3.000001] general protection fault, probably for non-canonical address 0xdead: 0000 [#1] SMP'
)
must_pass=(
	'[    3.000001] dd invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0'
	'[    3.000001] Memory cgroup out of memory: Killed process 99 (dd)'
	'[    3.000001] # Subtest: page_alloc_trace'
	'[    3.000001] random: crng init done'
)
for l in "${must_catch[@]}"; do
	printf 'boot line\n%s\nlater line\n' "$l" > "$t/log"
	if got=$("$top/vm/kernel-log-check" "$t/log"); then
		echo "FAIL: kernel-log-check missed: $l"; err=1
	elif [ "$got" != "${l#\[*\] }" ]; then
		echo "FAIL: kernel-log-check printed '$got' for: $l"; err=1
	fi
done
for l in "${must_pass[@]}"; do
	printf '%s\n' "$l" > "$t/log"
	"$top/vm/kernel-log-check" "$t/log" > /dev/null ||
		{ echo "FAIL: kernel-log-check took for a kernel report: $l"; err=1; }
done
# a missing dmesg (the guest died first) is no report in itself
"$top/vm/kernel-log-check" /dev/null "$t/none" ||
	{ echo "FAIL: kernel-log-check failed on an absent log"; err=1; }

[ -r "$BUILD_DIR/kernel/arch/x86/boot/bzImage" ] || { echo "no guest kernel (make build)"; exit 2; }

# boot CMD; the run must fail with 125, say PATTERN, and the command must
# have got as far as printing "reached"
boot() {	# what, pattern, command
	"$top/vm/run" --timeout 300 --smp 1 --nodes 1 -- bash -c "$3" > "$t/out" 2> "$t/err"
	rc=$?
	msg=$(grep -m1 '^vm/run: kernel report in the guest' "$t/err")
	# the failed run's directory is kept for a user; this one is expected
	run=$(sed -n 's/.*; console log: \(.*\)\/console.log$/\1/p' <<<"$msg")
	[ -n "$run" ] && rm -rf "$run"
	msg=${msg%; console log: *}
	if [ $rc != 125 ] || ! grep -qE "$2" <<<"$msg" || ! grep -qx reached "$t/out"; then
		echo "FAIL: $1: vm/run exited $rc, said: ${msg:-nothing}"
		head -5 "$t/err" "$t/out"
		err=1
	else
		echo "$1: ${msg#vm/run: }"
	fi
}
lkdtm=/sys/kernel/debug/provoke-crash/DIRECT
boot "lkdtm WARNING" 'WARNING: CPU: [0-9]+ PID: [0-9]+ at .*lkdtm' \
	"echo reached; echo WARNING > $lkdtm; exit 0"
boot "lkdtm WARNING, guest off before dmesg is saved" 'WARNING: .*lkdtm' \
	"echo reached; echo WARNING > $lkdtm; sync; echo o > /proc/sysrq-trigger; sleep 30"
boot "KERN_INFO line in dmesg only" 'WARNING: provoked at KERN_INFO' \
	"echo reached; echo '<6>WARNING: provoked at KERN_INFO' > /dev/kmsg; exit 0"
exit $err
