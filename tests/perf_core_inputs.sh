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
# plus the libtraceevent findings in tests/fuzz/repro (SIGFPE, NULL
# strcmp inside the library).  Each must end, within a generous timeout,
# in the error of its .expect file in perf report --stats and perf script,
# and in an error (a non-zero exit) in perf pagealloc report, with the
# ordinary perf and, when built, the sanitizer one.  A timeout (124) or a
# signal (129-159) fails, as does any sanitizer report.
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
b=${BUILD_DIR:-/var/tmp/pagealloc-build}
perf=${PERF:-$b/perf/perf}
asan=${PERF_ASAN:-$b/perf-asan/perf}
[ -x "$perf" ] || { echo "no perf in $perf"; exit 2; }
command -v python3 > /dev/null || { echo "no python3"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/data/basic.data" "$tmp/"
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
echo "$n runs of $(ls "$tmp"/out/*.data | wc -l) crafted files"
exit $err
