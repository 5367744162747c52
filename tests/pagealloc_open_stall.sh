#!/bin/bash
# perf pagealloc report names a stall the file ends in, and counts only whole stalls
# SPDX-License-Identifier: GPL-2.0
#
# tests/data/host-memcg (dd in a 16 MiB memory cgroup, recorded on the
# host's kernel with Debian's perf) with its last
# vmscan:mm_vmscan_memcg_reclaim_end made into a FINISHED_ROUND record of
# the same size, as if the recording had stopped during that reclaim:
# - the dd row has one reclaim stall fewer than in the original file;
# - "# open stall: dd-PID, reclaim since T s" names it, T the time
#   of its begin event as perf script prints it, and --json has it as the
#   one entry of "open_stalls" with that begin_ns;
# - the table equals the one computed from perf script of the edited
#   file (tests/pagealloc-compare).
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
perf=${PERF:-${BUILD_DIR:-/var/tmp/pagealloc-build}/perf/perf}
"$perf" --list-cmds 2>/dev/null | tr -s " " "\n" | grep -qx pagealloc || { echo "no perf pagealloc in $perf"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
err=0
fail() { echo "FAIL: $*"; err=1; }

xz -dc "$here/data/host-memcg.data.xz" > $tmp/orig.data
# the file offset of the last memcg_reclaim_end sample, from perf's own dump
off=$("$perf" script -D -i $tmp/orig.data 2>/dev/null |
	awk '/PERF_RECORD_SAMPLE/ { off = $3 } /mm_vmscan_memcg_reclaim_end:/ { last = off } END { print last }')
[ -n "$off" ] || { echo "FAIL: no mm_vmscan_memcg_reclaim_end in host-memcg"; exit 1; }
cp $tmp/orig.data $tmp/open.data
printf '\x44\x00\x00\x00' | dd of=$tmp/open.data bs=1 seek=$((off)) conv=notrunc status=none

col() {	# file key: the dd row's column
	local n
	n=$(grep "^task," "$1" | tr , "\\n" | grep -nx "$2" | cut -d: -f1)
	grep '^dd-' "$1" | cut -d, -f"$n"
}
"$perf" pagealloc report -i $tmp/orig.data -q -x, > $tmp/orig.csv || fail "report of the original file"
"$perf" pagealloc report -i $tmp/open.data -x, > $tmp/open.csv || fail "report of the edited file"
n0=$(col $tmp/orig.csv reclaim) n1=$(col $tmp/open.csv reclaim)
[ "${n0:-0}" -gt 1 ] && [ "$n1" = $((n0 - 1)) ] ||
	fail "reclaim: $n1 in the edited file, $n0 in the original"

# the begin of the open stall: the last memcg_reclaim_begin of dd
begin=$("$perf" script -F comm,time,event --ns -i $tmp/orig.data 2>/dev/null |
	awk '$1 == "dd" && /memcg_reclaim_begin/ { t = $2 } END { sub(/:$/, "", t); print t }')
pid=$(grep '^dd-' $tmp/open.csv | cut -d, -f1)
want="# open stall: $pid, reclaim since ${begin%???} s, not in the columns"
grep -qxF "$want" $tmp/open.csv || { fail "no line '$want'"; grep '^#' $tmp/open.csv; }
"$perf" pagealloc report -i $tmp/open.data --json > $tmp/open.json || fail "--json"
python3 - "$tmp/open.json" "$pid" "${begin/./}" <<'EOF' || err=1
import json, sys
d = json.load(open(sys.argv[1]))
o = d["open_stalls"]
want = [{"task": sys.argv[2], "stall": "reclaim", "begin_ns": int(sys.argv[3])}]
if o != want:
    print("FAIL: open_stalls is %s, want %s" % (o, want))
    sys.exit(1)
EOF
"$here/pagealloc-compare" "$perf" $tmp/open.data || fail "report and perf script differ on the edited file"
echo "open stall: $pid, since $begin s; reclaim $n1 of $n0"
exit $err
