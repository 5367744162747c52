#!/bin/bash
# perf pagealloc report --read-procstat: only on a recording read live from a pipe
# SPDX-License-Identifier: GPL-2.0
#
# --read-procstat names tasks from this machine's /proc, which is right
# only for a recording made now, here: read from a pipe.  On a file (or
# a file redirected to stdin) it is one line of error and a non-zero
# exit; on a pipe the table is the one without it (every task of the
# recording has its comm, so /proc names none).
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
perf=${PERF:-${BUILD_DIR:-/var/tmp/pagealloc-build}/perf/perf}
"$perf" --list-cmds 2>/dev/null | tr -s " " "\n" | grep -qx pagealloc || { echo "no perf pagealloc in $perf"; exit 2; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
err=0

bad() { # what, then the command
	local what=$1
	shift
	"$@" > "$t/out" 2> "$t/err"
	rc=$?
	if [ $rc = 0 ] || [ "$(wc -l < "$t/err")" != 1 ] || ! grep -q -- '--read-procstat' "$t/err" ||
	   [ -s "$t/out" ]; then
		echo "FAIL: $what: exit $rc, want one line on stderr naming --read-procstat and no table:"
		head -5 "$t/err" "$t/out"
		err=1
	fi
}
bad "a file" "$perf" pagealloc report --read-procstat -i "$here/data/basic.data"
bad "a file on stdin" "$perf" pagealloc report --read-procstat -i - < "$here/data/pipe.data"

want=$("$perf" pagealloc report -q -x, -i - < "$here/data/pipe.data")
got=$(cat "$here/data/pipe.data" | "$perf" pagealloc report -q -x, -i - --read-procstat)
rc=$?
if [ $rc != 0 ] || [ "$got" != "$want" ] || [ -z "$want" ]; then
	echo "FAIL: a pipe: exit $rc, the table differs from the one without --read-procstat"
	diff <(echo "$want") <(echo "$got") | head -10
	err=1
fi
exit $err
