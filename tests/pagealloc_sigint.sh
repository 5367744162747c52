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
# Later SIGINTs change nothing (below).
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
perf=${PERF:-${BUILD_DIR:-/var/tmp/pagealloc-build}/perf/perf}
"$perf" --list-cmds 2>/dev/null | tr -s " " "\n" | grep -qx pagealloc || { echo "no perf pagealloc in $perf"; exit 2; }
t=$(mktemp -d)
feeder= feeder2= reader= report=
cleanup() {
	for p in $feeder $feeder2 $reader; do kill $p 2>/dev/null; done
	[ -n "$report" ] && kill -9 "$report" 2>/dev/null
	rm -rf "$t"
}
trap cleanup EXIT
want=$("$perf" pagealloc report -q -x, -i - < "$here/data/pipe.data" | grep '^TOTAL')
# blocked_in CALL: wait until the report sleeps in CALL (anon_CALL since 6.8)
blocked_in() {
	local i
	for i in $(seq 300); do
		case "$(cat /proc/$report/wchan 2>/dev/null)" in *"$1") return;; esac
		sleep 0.1
	done
}

mkfifo "$t/fifo"
(cat "$here/data/pipe.data"; exec sleep 600) > "$t/fifo" &
feeder=$!
"$perf" pagealloc report -x, -i - < "$t/fifo" > "$t/out" 2> "$t/err" &
report=$!
# wait until the stream has been read and the report blocks on the FIFO
blocked_in pipe_read
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

# The same, but the report's output is a pipe of one page that is not read
# until the end: the final JSON table (6 KiB) blocks in its write, where
# three more SIGINTs, 0.3 s apart, change nothing: the report exits 0 with
# the interim table and the final one whole, the same as when the stream
# ends by itself.
"$perf" pagealloc report --json -i - < "$here/data/pipe.data" > "$t/want.json" 2>/dev/null
mkfifo "$t/fifo2" "$t/out2"
(cat "$here/data/pipe.data"; exec sleep 600) > "$t/fifo2" &
feeder2=$!
python3 -c '
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
fcntl.fcntl(fd, 1031, 4096)	# F_SETPIPE_SZ: one page
open(sys.argv[2], "w").close()
while not os.path.exists(sys.argv[3]):
	time.sleep(0.05)
with open(sys.argv[4], "wb") as out:
	while True:
		b = os.read(fd, 65536)
		if not b:
			break
		out.write(b)
' "$t/out2" "$t/ready" "$t/go" "$t/got.json" &
reader=$!
"$perf" pagealloc report --json -i - < "$t/fifo2" > "$t/out2" 2> "$t/err2" &
report=$!
for i in $(seq 300); do [ -e "$t/ready" ] && break; sleep 0.1; done
blocked_in pipe_read
kill -INT $report
sleep 0.5
kill -INT $report
blocked_in pipe_write
for i in 1 2 3; do
	kill -INT $report 2>/dev/null
	sleep 0.3
done
touch "$t/go"
wait $reader
kill $feeder2 2>/dev/null
for i in $(seq 300); do
	kill -0 $report 2>/dev/null || break
	sleep 0.1
done
wait $report
rc=$?
report=
[ $rc = 0 ] || { echo "FAIL: SIGINTs while the table is written: exit status $rc"; err=1; }
n=$(grep -c '"interim": true' "$t/got.json")
[ "$n" = 1 ] || { echo "FAIL: SIGINTs while the table is written: $n interim tables, not 1"; err=1; }
size=$(wc -c < "$t/want.json")
tail -c "$size" "$t/got.json" | cmp -s - "$t/want.json" ||
	{ echo "FAIL: SIGINTs while the table is written: the final table is not the whole one"; err=1; }
exit $err
