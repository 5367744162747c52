#!/bin/bash
# perf pagealloc report: Ctrl-C on an idle pipe prints an interim table, a second one ends it
# SPDX-License-Identifier: GPL-2.0
#
# A pipe-format recording is fed through a FIFO that stays open (the
# recording side idle, as when perf record is still running).  The first
# SIGINT must print an interim table ('# interim' in -x output), the
# second must end the report even though no more data comes, with the
# final table of every event read -- the same TOTAL as when the stream
# ends by itself -- a warning that it was interrupted, and exit 0.
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
perf=${PERF:-${BUILD_DIR:-/var/tmp/pagealloc-build}/perf/perf}
"$perf" --list-cmds 2>/dev/null | tr -s " " "\n" | grep -qx pagealloc || { echo "no perf pagealloc in $perf"; exit 2; }
t=$(mktemp -d)
feeder= report=
cleanup() {
	[ -n "$feeder" ] && kill "$feeder" 2>/dev/null
	[ -n "$report" ] && kill -9 "$report" 2>/dev/null
	rm -rf "$t"
}
trap cleanup EXIT
want=$("$perf" pagealloc report -q -x, -i - < "$here/data/pipe.data" | grep '^TOTAL')

mkfifo "$t/fifo"
(cat "$here/data/pipe.data"; exec sleep 600) > "$t/fifo" &
feeder=$!
"$perf" pagealloc report -x, -i - < "$t/fifo" > "$t/out" 2> "$t/err" &
report=$!
# wait until the stream has been read and the report blocks on the FIFO
for i in $(seq 300); do
	[ "$(cat /proc/$report/wchan 2>/dev/null)" = pipe_read ] && break
	sleep 0.1
done
kill -INT $report
sleep 0.5
kill -INT $report
# a guard against a hang only, not a time limit on the test
for i in $(seq 300); do
	kill -0 $report 2>/dev/null || break
	sleep 0.1
done
if kill -0 $report 2>/dev/null; then
	echo "FAIL: the report did not end after the second SIGINT on an idle pipe"
	exit 1
fi
wait $report
rc=$?
report=
err=0
[ $rc = 0 ] || { echo "FAIL: exit status $rc"; err=1; }
grep -q '^# interim$' "$t/out" || { echo "FAIL: no interim table"; err=1; }
got=$(grep '^TOTAL' "$t/out" | tail -1)
[ "$got" = "$want" ] || { echo "FAIL: final $got, want $want"; err=1; }
grep -q 'interrupted' "$t/err" || { echo "FAIL: no warning that it was interrupted"; err=1; }
[ $err = 0 ] || { cat "$t/out" "$t/err" | head -20; }
exit $err
