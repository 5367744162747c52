#!/bin/bash
# perf pagealloc report -b: its BPF programs build per architecture, x86 symbols only on x86
# SPDX-License-Identifier: GPL-2.0
#
# The programs of -b tell interrupts from tasks by the preempt count, which
# each architecture keeps in its own place: x86 in a per-CPU variable
# (__preempt_count, pcpu_hot), arm64 in the task's thread_info.  Compiled
# here (not loaded) as perf's build compiles util/bpf_skel/pagealloc.bpf.c,
# against perf's vmlinux.h and libbpf headers:
#  - for arm64: it compiles, references no x86 kernel symbol and says the
#    preempt count is known (rodata preempt_count_known 1);
#  - for s390, an architecture it does not know: it still compiles (perf
#    must build there), without x86 symbols, and says it is not known, for
#    report -b to refuse in one line;
#  - on an x86 host, the object perf built is the x86 one: the build passes
#    -D__TARGET_ARCH_$(SRCARCH).
# PAGEALLOC_SRC: the kernel tree (default $BUILD_DIR/linux); PERF_DIR: the
# perf build directory (default $BUILD_DIR/perf).
export LC_ALL=C
b=${BUILD_DIR:-/var/tmp/pagealloc-build}
src=${PAGEALLOC_SRC:-$b/linux}/tools/perf/util/bpf_skel/pagealloc.bpf.c
out=${PERF_DIR:-$b/perf}
skel=$out/util/bpf_skel
[ -r "$src" ] || { echo "no $src (make build)"; exit 2; }
[ -r "$skel/vmlinux.h" ] || { echo "no $skel/vmlinux.h: perf built without BPF skeletons"; exit 2; }
for t in clang llvm-readelf llvm-objcopy; do
	command -v $t > /dev/null || { echo "no $t"; exit 2; }
done
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
err=0
fail() { echo "FAIL: $*"; err=1; }

x86_syms() {	# object: the x86-only kernel symbols it references
	llvm-readelf -s "$1" | awk '$8 == "__preempt_count" || $8 == "pcpu_hot" { print $8 }' |
		sort -u | paste -sd " "
}
known() {	# object: its preempt_count_known, or "none"
	local off
	off=$(llvm-readelf -s "$1" | awk '$8 == "preempt_count_known" { print $2 }')
	[ -n "$off" ] || { echo none; return; }
	llvm-objcopy -O binary --only-section=.rodata "$1" "$t/rodata" &&
		od -An -t d4 -j $((16#$off)) -N 4 "$t/rodata" | tr -d ' '
}

for arch in arm64 s390; do
	o=$t/$arch.o
	if ! clang -g -O2 -target bpf -Wall -Werror -I"$skel" -I"$out/libbpf/include" \
	     -D__TARGET_ARCH_$arch -c "$src" -o "$o" 2> "$t/err"; then
		fail "$arch: does not compile: $(head -5 "$t/err")"
		continue
	fi
	syms=$(x86_syms "$o")
	[ -z "$syms" ] || fail "$arch: references the x86 symbols $syms"
	want=1
	[ $arch = s390 ] && want=0
	k=$(known "$o")
	[ "$k" = $want ] || fail "$arch: preempt_count_known is $k, want $want"
	echo "$arch: compiles, x86 symbols: ${syms:-none}, preempt_count_known $k"
done

o=$out/util/bpf_skel/.tmp/pagealloc.bpf.o
if [ "$(uname -m)" = x86_64 ] && [ -r "$o" ]; then
	syms=$(x86_syms "$o")
	k=$(known "$o")
	[ -n "$syms" ] && [ "$k" = 1 ] ||
		fail "perf's $o is not built for x86 (x86 symbols: '$syms', preempt_count_known $k)"
	echo "perf's object: x86 symbols ${syms:-none}, preempt_count_known $k"
fi
exit $err
