#!/bin/bash
# perf pagealloc report -b: a perf without BPF skeletons says so in one line
# SPDX-License-Identifier: GPL-2.0
#
# The ASan build (tests/fuzz/build-asan) is made without BUILD_BPF_SKEL.
# Its 'perf version --build-options' must say bpf_skel OFF: only then is -b
# run here, where it must stop before any bpf() call, with one line and a
# non-zero exit.  The BPF programs of -b are loaded only in the guest
# (shell-tests/pagealloc_bpf.sh), never into this machine's kernel.
export LC_ALL=C
perf=${PERF_ASAN:-${BUILD_DIR:-/var/tmp/pagealloc-build}/perf-asan/perf}
[ -x "$perf" ] || { echo "no $perf (make perf-asan)"; exit 2; }
opts=$("$perf" version --build-options 2>/dev/null)
grep -qE '^ *bpf_skel: \[ OFF \]' <<<"$opts" ||
	{ echo "FAIL: $perf does not say bpf_skel OFF: not running -b on this machine"; exit 1; }
export ASAN_OPTIONS=detect_leaks=0
err=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
for args in "-b -- true" "-b -a" "--use-bpf -C 0 -x, -- true"; do
	# shellcheck disable=SC2086
	"$perf" pagealloc report $args > "$t/out" 2> "$t/err"
	rc=$?
	if [ $rc = 0 ] || [ "$(wc -l < "$t/err")" != 1 ] ||
	   ! grep -q '^Error: -b needs a perf built with BPF skeletons' "$t/err" || [ -s "$t/out" ]; then
		echo "FAIL: report $args exited $rc:"; cat "$t/err" "$t/out" | head -5; err=1
	else
		echo "report $args: $(cat "$t/err")"
	fi
done
exit $err
