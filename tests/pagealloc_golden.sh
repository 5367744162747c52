#!/bin/bash
# perf pagealloc report output equals the golden files
# SPDX-License-Identifier: GPL-2.0
#
# Runs every case of tests/golden/cases on the committed recordings and
# compares stdout, stderr and the exit status with tests/golden/NAME.out.
# After a deliberate change of the output: UPDATE=1 tests/pagealloc_golden.sh
# rewrites the golden files (review the diff before committing it).
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
perf=${PERF:-${BUILD_DIR:-/var/tmp/pagealloc-build}/perf/perf}
"$perf" --list-cmds 2>/dev/null | tr -s " " "\n" | grep -qx pagealloc || { echo "no perf pagealloc in $perf"; exit 2; }
cd "$here/data" || exit 1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
err=0 n=0
while IFS= read -r line; do
	case $line in ''|'#'*) continue ;; esac
	name=${line%%:*} args=${line#*: }
	# the pager is perf's, and off without a terminal; never let it in
	PAGER=cat eval "\"$perf\" pagealloc report $args" > "$out" 2>&1
	echo "exit=$?" >> "$out"
	n=$((n + 1))
	if [ -n "${UPDATE:-}" ]; then
		cp "$out" "$here/golden/$name.out"
	elif ! diff -u "$here/golden/$name.out" "$out" > "$out.diff" 2>&1; then
		echo "FAIL: $name: perf pagealloc report $args"
		head -40 "$out.diff"
		err=1
	fi
	rm -f "$out.diff"
done < "$here/golden/cases"
echo "$n cases"
exit $err
