#!/bin/bash
# perf help pagealloc shows the perf-pagealloc man page
# SPDX-License-Identifier: GPL-2.0
export LC_ALL=C
perf=${PERF:-${BUILD_DIR:-/var/tmp/pagealloc-build}/perf/perf}
"$perf" --list-cmds 2>/dev/null | tr -s " " "\n" | grep -qx pagealloc || { echo "no perf pagealloc in $perf"; exit 2; }
command -v man > /dev/null || { echo "no man"; exit 2; }
out=$(PAGER=cat MANWIDTH=80 "$perf" help pagealloc 2>&1)
for want in 'perf-pagealloc - Per-task statistics of the page allocator events' \
	    '--pageblock-order' 'SIGNALS'; do
	grep -qF -- "$want" <<<"$out" || { echo "FAIL: perf help pagealloc lacks '$want':"; head -5 <<<"$out"; exit 1; }
done
# the usage of the report subcommand comes from its option table
"$perf" pagealloc report -h 2>&1 | grep -q -- '--pageblock-order' ||
	{ echo "FAIL: perf pagealloc report -h lacks --pageblock-order"; exit 1; }
# timechart's from its own table and the one it shares with report
out=$("$perf" pagealloc timechart -h 2>&1)
for want in '-n, --tasks' '-p, --pid' '--pageblock-order'; do
	grep -qF -- "$want" <<<"$out" || { echo "FAIL: perf pagealloc timechart -h lacks '$want'"; exit 1; }
done
exit 0
