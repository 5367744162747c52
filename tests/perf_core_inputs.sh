#!/bin/bash
# perf core: crafted files that hung or crashed perf end in their error
# SPDX-License-Identifier: GPL-2.0
#
# tests/fuzz/craft.py writes them from the committed recordings:
#   tracing-short-section     a tracing data section shorter than its own
#                             header, a header_event size of 2^63 (hung)
#   swapped-short-comm,       big-endian files with a record shorter than
#   swapped-short-namespaces  the fields its swap reads (wrote past it;
#                             SEGV for the namespaces)
#   raw-padding               a raw size that breaks the 8-byte padding,
#                             a cgroup id after it (misaligned loads)
#   swapped-branch-nr,        a big-endian sample whose branch stack claims
#   swapped-branch-nr-hw-idx  2^20 entries in a record of none (its flags
#                             swapped in place past the file: SEGV), without
#                             and with the hardware index before them
# plus the libtraceevent findings in tests/fuzz/repro (SIGFPE, NULL
# strcmp inside the library).  Each must end, within a generous timeout,
# in the error of its .expect file in perf report --stats and perf script,
# and in an error (a non-zero exit) in perf pagealloc report, with the
# ordinary perf and, when built, the sanitizer one.  A timeout (124) or a
# signal (129-159) fails, as does any sanitizer report.
#
# And pipes perf must read as it reads the recording they come from
# (perf script's lines, an exit 0), here with a kernel map that has x86_64
# entry trampolines, one per CPU of perf_env__nr_cpus_avail():
#   topology-first            HEADER_CPU_TOPOLOGY with no HEADER_NRCPUS
#                             before it (env->cpu[] of no entries, read by
#                             the CPU count of this machine: past its end)
#   topology-before-nrcpus    HEADER_NRCPUS after HEADER_CPU_TOPOLOGY (the
#                             same array, read by the pipe's own count)
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
b=${BUILD_DIR:-/var/tmp/pagealloc-build}
perf=${PERF:-$b/perf/perf}
asan=${PERF_ASAN:-$b/perf-asan/perf}
[ -x "$perf" ] || { echo "no perf in $perf"; exit 2; }
command -v python3 > /dev/null || { echo "no python3"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/data/basic.data" "$here/fuzz/seeds/host-pipe.data" "$tmp/"
xz -dc "$here/data/host-cgroups.data.xz" > "$tmp/host-cgroups.data"
mkdir "$tmp/out"
python3 "$here/fuzz/craft.py" "$tmp" "$tmp/out" || exit 1
for r in "$here"/fuzz/repro/libtraceevent-*.data; do
	n=$(basename "$r" .data)
	cp "$r" "$tmp/out/"
	echo 'event format of .*: (print fmt divides by zero|field declaration with a control or non-ASCII byte)' > "$tmp/out/$n.expect"
done

perfs=("$perf")
[ -x "$asan" ] && perfs+=("$asan")
err=0 n=0
for f in "$tmp"/out/*.data; do
	name=$(basename "$f" .data)
	expect=$(cat "$tmp/out/$name.expect")
	for p in "${perfs[@]}"; do
		for cmd in 'report --stats' 'script' 'pagealloc report'; do
			timeout 60 "$p" $cmd -i "$f" > /dev/null 2> "$tmp/err"
			rc=$?
			what="$name: perf $cmd ($(basename "$(dirname "$p")"))"
			if [ $rc = 124 ] || { [ $rc -gt 128 ] && [ $rc -lt 160 ]; } ||
			   grep -q 'Sanitizer\|runtime error' "$tmp/err"; then
				echo "FAIL: $what: exit $rc"
				head -5 "$tmp/err" | sed 's/^/    /'
				err=1
			elif [ "$cmd" != 'pagealloc report' ] && ! grep -Eq "$expect" "$tmp/err"; then
				echo "FAIL: $what: no \"$expect\""
				head -5 "$tmp/err" | sed 's/^/    /'
				err=1
			elif [ "$cmd" = 'pagealloc report' ] && [ $rc = 0 ]; then
				echo "FAIL: $what: exit 0"
				err=1
			fi
			n=$((n + 1))
		done
	done
done

printf '%s\n' 'ffffffff81000000 T _text' 'ffffffff81000000 T _stext' \
	'ffffffff81e00000 T __entry_trampoline_start' 'ffffffff82000000 T _etext' \
	> "$tmp/kallsyms"
script=(script -F cpu,ip,sym --kallsyms="$tmp/kallsyms" -i -)
for f in "$tmp"/out/readable/*.data; do
	name=$(basename "$f" .data)
	"$perf" "${script[@]}" < "$tmp/$(cat "${f%.data}.seed")" > "$tmp/want" 2> /dev/null
	[ -s "$tmp/want" ] || { echo "FAIL: $name: its seed has no samples"; err=1; }
	for p in "${perfs[@]}"; do
		# perf script leaks what it keeps to the end of any read
		ASAN_OPTIONS=detect_leaks=0 timeout 60 "$p" "${script[@]}" < "$f" \
			> "$tmp/got" 2> "$tmp/err"
		rc=$?
		what="$name: perf script ($(basename "$(dirname "$p")"))"
		if [ $rc != 0 ] || grep -q 'Sanitizer\|runtime error' "$tmp/err"; then
			echo "FAIL: $what: exit $rc"
			head -5 "$tmp/err" | sed 's/^/    /'
			err=1
		elif ! cmp -s "$tmp/want" "$tmp/got"; then
			echo "FAIL: $what: not the lines of its seed"
			err=1
		fi
		n=$((n + 1))
	done
done
# a topology with no count before it has no per-CPU ids, and says so
"$perf" report --header-only -I -i - < "$tmp/out/readable/topology-first.data" \
	> "$tmp/got" 2> /dev/null
if ! grep -qx '# Core ID and Socket ID information is not available' "$tmp/got"; then
	echo "FAIL: topology-first: perf report --header-only -I: per-CPU ids not said to be missing"
	err=1
fi
echo "$n runs of $(ls "$tmp"/out/*.data "$tmp"/out/readable/*.data | wc -l) crafted files"
exit $err
