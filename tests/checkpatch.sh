#!/bin/bash
# every patch of both series passes checkpatch
# SPDX-License-Identifier: GPL-2.0
#
# kernel-patches/: scripts/checkpatch.pl --strict, no error and no warning,
# except the "does MAINTAINERS need updating?" heuristic for a new file
# that an existing MAINTAINERS entry already covers (get_maintainer.pl
# names a maintainer for it); no patch adds a MAINTAINERS section.
# perf-patches/: no error (perf follows kernel style; checkpatch's
# --strict checks are advice there).
# The one other exception: the layout of the trace event macros in
# include/trace/events/ (TP_STRUCT__entry() laid out like the struct it
# declares, tabs inside __field()), which the tracing maintainer asks
# for and tells to keep against checkpatch:
# https://lore.kernel.org/r/20260428142335.3bca0166@gandalf.local.home
# Only the spacing, open-line and alignment findings on lines of such a
# header are dropped (with checkpatch's summary line: any finding left
# fails); anything else there still fails.
top=$(cd "$(dirname "$0")/.." && pwd)
src=${BUILD_DIR:-/var/tmp/pagealloc-build}/linux
[ -x "$src/scripts/checkpatch.pl" ] || { echo "no build tree at $src (make build)"; exit 2; }
err=0 n=0
# drop the MAINTAINERS heuristic from checkpatch's output when every file
# the patch adds has a maintainer already (and the summary line with it)
covered() {	# patch, checkpatch output
	local f m
	grep -q 'does MAINTAINERS need updating' <<<"$2" || { echo "$2"; return; }
	for f in $(awk '/^diff --git/ { f = $4; sub(/^b\//, "", f) } /^new file mode/ { print f }' "$1"); do
		m=$(cd "$src" && perl scripts/get_maintainer.pl --no-git --no-git-fallback \
			--nol --norolestats -f "$f" 2>/dev/null)
		[ -n "$m" ] || { echo "$2"; echo "new file $f: no MAINTAINERS entry covers it"; return; }
	done
	awk 'BEGIN { RS = ""; ORS = "\n\n" } !/does MAINTAINERS need updating/ && !/^total: 0 errors, 1 warnings, 0 checks/' <<<"$2" |
		sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

trace_layout() {	# checkpatch --show-types output
	awk 'BEGIN { RS = ""; ORS = "\n\n" }
	/^total: / { next }
	/FILE: include\/trace\/events\// &&
	/^(ERROR|WARNING|CHECK):(SPACING|OPEN_ENDED_LINE|PARENTHESIS_ALIGNMENT):/ { next }
	{ print }' <<<"$1" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

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
		if [ "$d" = kernel-patches ]; then
			out=$(covered "$top/$d/$p" "$(trace_layout "$out")")
			newsec=$(awk '/^diff --git a\/MAINTAINERS/ { m = 1; next } /^diff --git/ { m = 0 }
				m && /^\+[A-Z][A-Z0-9 ,\/&()._-]+$/' "$top/$d/$p")
			[ -n "$newsec" ] && out="$out${out:+$'\n'}a new MAINTAINERS section: ${newsec#+}"
		fi
		if { [ "$d" = kernel-patches ] && [ -n "$out" ]; } || grep -q '^ERROR:' <<<"$out"; then
			echo "FAIL: $d/$p:"
			echo "$out"
			err=1
		fi
	done
}
check kernel-patches --strict --show-types
check perf-patches --ignore FILE_PATH_CHANGES
[ $n = 0 ] && { echo "no patches yet"; exit 2; }
exit $err
