#!/bin/bash
# bash completion of perf pagealloc: its subcommands, options and keys
# SPDX-License-Identifier: GPL-2.0
#
# perf's own perf-completion.sh from the build tree, sourced into bash
# without the bash-completion package, asked as readline would ask it:
# - 'perf pagealloc re' completes to record and report;
# - 'perf pagealloc report --bre' to --breakdown;
# - 'perf pagealloc report --breakdown order,mi' to migratetype, the word
#   after the comma (a comma breaks words for completion), ',no' to node;
# - '--per-c' to --per-cgroup; '-s c' to cgroup, comm, compact and
#   compact_ms;
# - 'perf pagealloc report -s recl' to reclaim, reclaim_ms and reclaimed,
#   '--sort com' to comm, compact and compact_ms; '-F com' to compact and
#   compact_ms (no comm, no cgroup: not columns);
# - 'perf pagealloc timechart re' to nothing (not perf timechart's
#   record), '--tas' to --tasks.
export LC_ALL=C
build=${BUILD_DIR:-/var/tmp/pagealloc-build}
perf=${PERF:-$build/perf/perf}
comp=$build/linux/tools/perf/perf-completion.sh
"$perf" --list-cmds 2>/dev/null | tr -s " " "\n" | grep -qx pagealloc || { echo "no perf pagealloc in $perf"; exit 2; }
[ -r "$comp" ] || { echo "no $comp"; exit 2; }
err=0
# complete LINE WORDS...: COMP_WORDS as readline splits LINE (at commas too)
complete_words() {
	bash -c '
		PATH=$(dirname "$1"):$PATH
		. "$2" >/dev/null 2>&1
		shift 2
		COMP_LINE="$*" COMP_POINT=${#COMP_LINE}
		COMP_WORDS=("$@") COMP_CWORD=$(($# - 1))
		_perf
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "
	' complete "$perf" "$comp" "$@"
}
check() {	# want, words...
	local want=$1 got
	shift
	got=$(complete_words "$@")
	got=${got% }
	if [ "$got" != "$want" ]; then
		echo "FAIL: '$*' completes to '$got', want '$want'"
		err=1
	fi
}
check "record report" perf pagealloc re
check "--breakdown" perf pagealloc report --bre
check "migratetype" perf pagealloc report --breakdown order , mi
check "node" perf pagealloc report --breakdown order , no
check "--per-cgroup" perf pagealloc report --per-c
check "cgroup comm compact compact_ms" perf pagealloc report -s c
check "reclaim reclaim_ms reclaimed" perf pagealloc report -s recl
check "comm compact compact_ms" perf pagealloc report --sort com
check "compact compact_ms" perf pagealloc report -F com
check "all alloc alloc_failed alloc_locked" perf pagealloc report --fields al
# pagealloc's timechart takes options, not perf timechart's subcommands
check "" perf pagealloc timechart re
check "--tasks" perf pagealloc timechart --tas
exit $err
