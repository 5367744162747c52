#!/bin/bash
# every patch of both series passes checkpatch
# SPDX-License-Identifier: GPL-2.0
#
# kernel-patches/: scripts/checkpatch.pl --strict, no error and no warning.
# perf-patches/: no error (perf follows kernel style; checkpatch's
# --strict checks are advice there).
top=$(cd "$(dirname "$0")/.." && pwd)
src=${BUILD_DIR:-/var/tmp/pagealloc-build}/linux
[ -x "$src/scripts/checkpatch.pl" ] || { echo "no build tree at $src (make build)"; exit 2; }
err=0 n=0
check() {	# dir, checkpatch options...
	local d=$1 p out; shift
	[ -f "$top/$d/series" ] || return 0
	for p in $("$top/scripts/series" "$top/$d"); do
		n=$((n + 1))
		# Debian's python3 has the modules spdxcheck.py needs
		out=$(cd "$src" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl -q "$@" "$top/$d/$p" 2>&1)
		[ $? -ne 0 ] && [ -z "$out" ] && out="ERROR: checkpatch.pl failed to run"
		# kernel: silent; perf: no ERROR (its shell tests must keep the
		# description on line 2, where checkpatch wants the SPDX tag)
		if { [ "$d" = kernel-patches ] && [ -n "$out" ]; } || grep -q '^ERROR:' <<<"$out"; then
			echo "FAIL: $d/$p:"
			echo "$out"
			err=1
		fi
	done
}
check kernel-patches --strict
check perf-patches --ignore FILE_PATH_CHANGES
[ $n = 0 ] && { echo "no patches yet"; exit 2; }
exit $err
