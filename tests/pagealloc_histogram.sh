#!/bin/bash
# perf pagealloc --histogram says the same in stdio, -x and JSON
# SPDX-License-Identifier: GPL-2.0
#
# On the host recording with memcg reclaim stalls (tests/data/host-memcg,
# 34 stalls of dd), the three outputs of --histogram are printed by
# three paths: every row's stalls, total, longest, its begin and each
# bucket must be the same in all of them, and the stdio bars as long as
# bcc draws them (40 characters for the fullest bucket).  That -x equals
# perf script of the file is tests/pagealloc-compare's part.
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
perf=${PERF:-${BUILD_DIR:-/var/tmp/pagealloc-build}/perf/perf}
"$perf" --list-cmds 2>/dev/null | tr -s " " "\n" | grep -qx pagealloc || { echo "no perf pagealloc in $perf"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
xz -dc "$here/data/host-memcg.data.xz" > "$tmp/memcg.data"
report() { "$perf" pagealloc report -q -i "$tmp/memcg.data" --histogram "$@" 2>/dev/null; }
report -x, | sed -n '/^task,stall,/,$p' > "$tmp/csv"
report --json > "$tmp/json"
report -F alloc > "$tmp/stdio"
python3 - "$tmp" <<'PY' || exit 1
import json, re, sys
tmp = sys.argv[1]
csv = {}
lines = open(tmp + "/csv").read().splitlines()
assert lines[0] == "task,stall,usecs_low,usecs_high,count,stalls,total_ms,max_ms,max_begin", lines[0]
for l in lines[1:]:
    task, kind, lo, hi, n, stalls, total, mx, begin = l.split(",")
    h = csv.setdefault((task, kind), {"stalls": int(stalls), "total": total, "max": mx,
                                      "begin": begin, "buckets": []})
    h["buckets"].append([int(lo), int(hi), int(n)])
# the recording's numbers: 34 reclaim stalls of dd, none of compaction
assert csv[("TOTAL", "reclaim")]["stalls"] == 34, csv[("TOTAL", "reclaim")]
assert sum(b[2] for b in csv[("TOTAL", "reclaim")]["buckets"]) == 34
assert not any(k == "compaction" for _, k in csv)

js = {}
d = json.load(open(tmp + "/json"))
for row in d["rows"] + [d["total"]]:
    for kind, h in row["histogram"].items():
        if h is not None:
            js[(row["task"], kind)] = h
assert set(js) == set(csv), (set(js), set(csv))
for k, h in csv.items():
    j = js[k]
    assert j["stalls"] == h["stalls"] and j["buckets"] == h["buckets"], k
    assert "%.6f" % j["total_ms"] == h["total"] and "%.6f" % j["max_ms"] == h["max"], k
    assert "%d.%09d" % divmod(j["max_begin_ns"], 10**9) == h["begin"], k

# stdio: "    reclaim: N stalls, T ms, the longest M ms at S" under the row,
# then "low -> high : count |bar|" lines; ms and s to the us
st, cur, task = {}, None, None
for l in open(tmp + "/stdio").read().splitlines():
    m = re.match(r"^(\S+)\s+\d+$", l)
    if m:
        task = m.group(1)
        continue
    m = re.match(r"^    (\w+): (\d+) (stalls|runs), ([\d.]+) ms, the longest ([\d.]+) ms at ([\d.]+)$", l)
    if m:
        assert m.group(3) == ("runs" if m.group(1) == "compaction" else "stalls"), l
        cur = st[(task, m.group(1))] = {"stalls": int(m.group(2)), "total": m.group(4),
                                       "max": m.group(5), "begin": m.group(6), "buckets": [], "bars": []}
        continue
    m = re.match(r"^ +(\d+) -> (\d+) +: (\d+) +\|(\**) *\|$", l)
    if m:
        cur["buckets"].append([int(m.group(1)), int(m.group(2)), int(m.group(3))])
        cur["bars"].append(len(m.group(4)))
assert set(st) == set(csv), (set(st), set(csv))
for k, h in csv.items():
    s = st[k]
    assert s["stalls"] == h["stalls"] and s["buckets"] == h["buckets"], k
    assert s["total"] == h["total"][:-3] and s["max"] == h["max"][:-3], k
    assert s["begin"] == h["begin"][:-3], k
    peak = max(b[2] for b in h["buckets"])
    assert s["bars"] == [40 * b[2] // peak for b in h["buckets"]], (k, s["bars"])
print("%d histograms the same in stdio, -x and JSON" % len(csv))
PY
