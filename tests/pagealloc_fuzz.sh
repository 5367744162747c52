#!/bin/bash
# perf pagealloc report: fuzz reproducers and a fixed-seed fuzz subset under ASan+UBSan
# SPDX-License-Identifier: GPL-2.0
#
# Every reproducer in tests/fuzz/repro must end in a clean exit or a clean
# error: under the sanitizer perf ($BUILD_DIR/perf-asan, make perf-asan),
# under the ordinary perf, and (the perf-core ones) in perf report --stats
# and perf script too.  Those listed in tests/fuzz/repro/builtin.list are
# findings in builtin-pagealloc.c still to be fixed: reported, tolerated.
# Then FUZZ_CHECK_N (400) cases of seed 1 must find nothing, in perf core
# or in builtin-pagealloc.c.  Runs are classified with a generous timeout (60 s),
# no wall-clock threshold.
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
b=${BUILD_DIR:-/var/tmp/pagealloc-build}
asan=${PERF_ASAN:-$b/perf-asan/perf}
perf=${PERF:-$b/perf/perf}
[ -x "$asan" ] || { echo "no sanitizer perf in $asan (make perf-asan)"; exit 2; }
command -v python3 > /dev/null || { echo "no python3"; exit 2; }
f=$here/fuzz
repro=("$f"/repro/*.data)
known=$f/repro/builtin.list
err=0

echo "== reproducers, sanitizer perf"
python3 "$f/replay.py" --perf "$asan" --known "$known" "${repro[@]}" || err=1
if [ -x "$perf" ]; then
	echo "== reproducers, ordinary perf"
	python3 "$f/replay.py" --perf "$perf" --known "$known" --known-may-pass "${repro[@]}" || err=1
fi
core=()
for r in "${repro[@]}"; do
	grep -qx "$(basename "$r" .data)" "$known" 2>/dev/null || core+=("$r")
done
for cmd in 'report --stats' 'script'; do
	echo "== perf-core reproducers, perf $cmd"
	python3 "$f/replay.py" --perf "$asan" --command "$cmd" "${core[@]}" || err=1
done

echo "== fuzz subset"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
python3 "$f/campaign.py" --perf "$asan" --out "$t" -n "${FUZZ_CHECK_N:-400}" --seed 1 \
	--timeout 60 --no-minimize || err=1
exit $err
