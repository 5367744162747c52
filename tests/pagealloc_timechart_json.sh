#!/bin/bash
# perf pagealloc timechart --format=json: a Trace Event file with the table's numbers
# SPDX-License-Identifier: GPL-2.0
#
# For each committed recording: the file is JSON in the Trace Event
# Format Perfetto and chrome://tracing read (a "traceEvents" list, each
# event with a phase, a pid and a time, a slice with a duration); it has
# a track for each row of the report's -x table, named as the row, in
# the table's order; each track's "direct reclaim" slices are as many as
# the row's reclaim column and last its reclaim_ms, its "compaction"
# slices are its compaction runs (--histogram's count) and last its
# compact_ms, to the ns; its counter's "alloc" values sum to the row's
# alloc.  Bad options: --format png, -n with json: a one-line error, no
# file.
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/recordings.sh"
perf=${PERF:-${BUILD_DIR:-/var/tmp/pagealloc-build}/perf/perf}
"$perf" --list-cmds 2>/dev/null | tr -s " " "\n" | grep -qx pagealloc || { echo "no perf pagealloc in $perf"; exit 2; }
"$perf" pagealloc timechart -h 2>&1 | grep -q -- --format || { echo "no perf pagealloc timechart --format in $perf"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
err=0 n=0 slices=0
fail() { echo "FAIL: $*"; err=1; }

while IFS=$'\t' read -r name f; do
	perf_input "$f"
	"$perf" pagealloc report -q "${in[@]}" -x, --histogram < "$stdin" 2>/dev/null > "$tmp/table"
	"$perf" pagealloc timechart -q "${in[@]}" --format=json -o "$tmp/$name.json" < "$stdin" \
		2> "$tmp/errout" || { fail "$name: exit status: $(head -1 "$tmp/errout")"; continue; }
	out=$(python3 - "$tmp/table" "$tmp/$name.json" <<'PY'
import json, sys
lines = [l for l in open(sys.argv[1]).read().splitlines() if not l.startswith("#")]
hdr = lines[0].split(",")
rows, runs = [], {}
i = 1
while i < len(lines) and not lines[i].startswith("task,"):
    v = dict(zip(hdr, lines[i].split(",")))
    if v["task"] != "TOTAL":
        rows.append(v)
    i += 1
for l in lines[i + 1:]:   # task,stall,usecs_low,usecs_high,count,stalls,...
    f = l.split(",")
    if f[1] == "compaction":
        runs[f[0]] = int(f[5])
def ns(ms):
    a, b = (ms or "0.0").split(".")
    return int(a) * 10**6 + int(b)
def us(x):
    return round(x * 1000)
d = json.load(open(sys.argv[2]))
ev = d["traceEvents"]
assert isinstance(ev, list) and ev, "no traceEvents"
names, slices, alloc = {}, {}, {}
for e in ev:
    assert e["ph"] in ("M", "X", "C") and isinstance(e["pid"], int), e
    if e["ph"] == "M" and e["name"] == "process_name":
        names[e["pid"]] = e["args"]["name"]
    elif e["ph"] == "X":
        assert e["dur"] >= 0 and e["ts"] > 0 and e["tid"] == e["pid"], e
        s = slices.setdefault((e["pid"], e["name"]), [0, 0])
        s[0] += 1
        s[1] += us(e["dur"])
    elif e["ph"] == "C":
        assert e["ts"] > 0, e
        alloc[e["pid"]] = alloc.get(e["pid"], 0) + e["args"]["alloc"]
order = [names[p] for p in sorted(names)]
assert order == [r["task"] for r in rows], (order[:5], [r["task"] for r in rows][:5])
total = 0
for p, task in names.items():
    r = rows[p - 1]
    rc = slices.get((p, "direct reclaim"), [0, 0])
    cp = slices.get((p, "compaction"), [0, 0])
    assert rc[0] == int(r["reclaim"] or 0) and rc[1] == ns(r["reclaim_ms"]), (task, rc, r["reclaim"], r["reclaim_ms"])
    assert cp[0] == runs.get(task, 0) and cp[1] == ns(r["compact_ms"]), (task, cp, r["compact_ms"])
    assert alloc.get(p, 0) == int(r["alloc"]), (task, alloc.get(p), r["alloc"])
    total += rc[0] + cp[0]
print(total)
PY
) || { fail "$name: the JSON and the table differ"; echo "$out" | tail -3; continue; }
	n=$((n + 1)) slices=$((slices + out))
done < <(recordings "$tmp")
# stalls in none of them would make the slice checks vacuous
[ "$slices" -gt 0 ] || fail "no stall slice in any recording"

for bad in "--format png" "--format=json -n 3"; do
	rm -f "$tmp/bad.json"
	"$perf" pagealloc timechart -i "$here/data/basic.data" $bad -o "$tmp/bad.json" \
		> /dev/null 2> "$tmp/errout"
	rc=$?
	if [ $rc = 0 ] || [ -e "$tmp/bad.json" ] || [ "$(wc -l < "$tmp/errout")" != 1 ]; then
		fail "timechart $bad: exit $rc, $(wc -l < "$tmp/errout") lines: $(head -2 "$tmp/errout")"
	fi
done
echo "$n recordings: Trace Event JSON equal to the table, $slices stall slices"
exit $err
