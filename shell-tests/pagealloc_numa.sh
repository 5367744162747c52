#!/bin/bash
# perf pagealloc report --per-node and --breakdown node: on which NUMA node
# SPDX-License-Identifier: GPL-2.0
#
# On a guest of two or more nodes, dd bound to the last node with
# numactl --membind writes 8 MiB into tmpfs, recorded into a file and
# into a pipe.  Then:
# - --breakdown node: dd's row has at least the 2048 pages of its file
#   on that node and none on any other (--split-irq: an interrupt's
#   allocations follow no task's policy);
# - --per-node: each node's row equals, column for column, the pages and
#   events perf script shows of the same file, each page mapped to its
#   node through this guest's /sys/devices/system/node/node*/memory*
#   blocks, and the per-CPU list lock events by their nid;
# - -b --per-node, run as the command of a recording of the same dd: its
#   node rows equal the recording's (--comm dd: -b follows the command,
#   the recording has every task), dd's pages on the bound node.
export LC_ALL=C

[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 2; }
perf pagealloc report -h 2>&1 | grep -q -- --per-node ||
	{ echo "skip: no perf pagealloc report --per-node"; exit 2; }
command -v numactl > /dev/null || { echo "skip: no numactl"; exit 2; }
sys=/sys/devices/system
nodes=$(ls -d $sys/node/node[0-9]* 2>/dev/null | wc -l)
[ "$nodes" -ge 2 ] || { echo "skip: $nodes NUMA node(s)"; exit 2; }
[ -r $sys/memory/block_size_bytes ] || { echo "skip: no $sys/memory"; exit 2; }

. "$(dirname "$0")"/lib/pagealloc_x.sh
err=0
d=$(mktemp -d /tmp/__perf_test.pa_numa.XXXXX)
trap 'rm -rf "$d"; trap - EXIT TERM INT; exit $err' EXIT TERM INT
fail() { echo "FAIL: $*"; err=1; }
last=$((nodes - 1))

# the memory blocks of each node: "block node" lines
for n in $sys/node/node[0-9]*; do
	for b in $n/memory[0-9]*; do
		[ -e "$b" ] && echo "${b##*/memory} ${n##*/node}"
	done
done > $d/blocks
pages_per_block=$(( $(printf %d 0x$(cat $sys/memory/block_size_bytes)) / $(getconf PAGESIZE) ))

perf pagealloc record -q -m 16M -o $d/file.data -- \
	numactl --membind=$last dd if=/dev/zero of=$d/f bs=1M count=8 status=none > $d/log 2>&1 ||
	{ fail "perf pagealloc record"; cat $d/log; exit; }
perf pagealloc record -q -m 16M -o - -- \
	numactl --membind=$last dd if=/dev/zero of=$d/g bs=1M count=8 status=none \
	> $d/pipe.data 2> $d/log || { fail "perf pagealloc record -o -"; cat $d/log; exit; }

for in in file pipe; do
	f=$d/$in.data
	perf pagealloc report -q -i $f -x, --breakdown node --split-irq > $d/bd 2> $d/err ||
		{ fail "$in: --breakdown node exited with $?"; cat $d/err; continue; }
	on=$(grep "^dd-[0-9]*,node,node$last," $d/bd | cut -d, -f4)
	off=$(grep "^dd-[0-9]*,node," $d/bd | grep -v ",node$last,")
	echo "$in: dd has ${on:-0} pages on node$last${off:+, and $off}"
	[ "${on:-0}" -ge 2048 ] || fail "$in: dd has ${on:-0} pages on node$last, its file 2048"
	[ -z "$off" ] || fail "$in: dd, bound to node$last, has pages elsewhere: $off"

	perf pagealloc report -q -i $f -x, --per-node > $d/nodes 2> $d/err ||
		{ fail "$in: --per-node exited with $?"; cat $d/err; continue; }
	# the columns compared: free is free_direct + free_batched, the pages
	# of mm_page_free
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		/^#/ || $1 == "TOTAL" { next }
		{ print $1, $c["alloc"], $c["alloc_locked"], $c["free_direct"] + $c["free_batched"],
		  $c["pcpu_drained"], $c["pcpu_refilled"], $c["pcpu_drains"], $c["pcpu_refills"],
		  $c["extfrag"] }' $d/nodes | sort > $d/ours
	perf script -i $f -F event,trace 2> /dev/null | awk -v ppb=$pages_per_block '
		FNR == NR { node[$1] = $2; next }
		function hex(s,    v, i) {
			s = tolower(substr(s, 3)); v = 0
			for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v
		}
		{
			ev = $1; sub(/^kmem:/, "", ev); sub(/:$/, "", ev)
			delete kv
			for (i = 2; i <= NF; i++) if (split($i, p, "=") == 2) kv[p[1]] = p[2]
			if ("nid" in kv) {
				n = "node" kv["nid"]
				if (ev == "mm_page_pcpu_drain_zone_locked") drains[n]++
				if (ev == "mm_page_pcpu_refill_zone_locked") refills[n]++
				seen[n] = 1
				next
			}
			if (!("pfn" in kv) || kv["pfn"] ~ /^0xf{16}$/) next
			b = int(hex(kv["pfn"]) / ppb)
			n = b in node ? "node" node[b] : "unknown"
			seen[n] = 1
			pages = 2 ^ kv["order"]
			if (ev == "mm_page_alloc") alloc[n] += pages
			if (ev == "mm_page_alloc_zone_locked") locked[n] += pages
			if (ev == "mm_page_free") free[n] += pages
			if (ev == "mm_page_pcpu_drain") drained[n] += pages
			if (ev == "mm_page_pcpu_refill") refilled[n] += pages
			if (ev == "mm_page_alloc_extfrag") extfrag[n]++
		}
		END {
			for (n in seen)
				print n, alloc[n] + 0, locked[n] + 0, free[n] + 0, drained[n] + 0,
				      refilled[n] + 0, drains[n] + 0, refills[n] + 0, extfrag[n] + 0
		}' $d/blocks - | sort > $d/ref
	echo "$in: node alloc alloc_locked free pcpu_drained pcpu_refilled pcpu_drains pcpu_refills extfrag"
	cat $d/ours
	grep -q "^node$last [1-9]" $d/ref && diff -u $d/ref $d/ours ||
		fail "$in: --per-node differs from perf script mapped through $sys/node"
done

if perf pagealloc report -b -q -- true 2>&1 | grep -q 'built with BPF skeletons'; then
	echo "no BPF skeletons: -b is not compared"
	exit $err
fi
perf pagealloc record -q -m 16M -o $d/b.data -- \
	perf pagealloc report -b -x, --per-node --comm dd -- \
	numactl --membind=$last dd if=/dev/zero of=$d/h bs=1M count=8 status=none \
	> $d/bpf 2> $d/err || { fail "-b --per-node: record with report -b: $(cat $d/err)"; exit; }
grep -q lost $d/err && fail "-b --per-node: the recording lost events"
perf pagealloc report -i $d/b.data -x, --per-node --comm dd > $d/rec 2>&1
echo "-b --per-node, dd:"
cat $d/bpf
diffs=$(same_rows "-b --per-node" $d/bpf $d/rec)
on=$(col $d/bpf "node$last," alloc)
[ -z "$diffs" ] && [ "${on:-0}" -ge 2048 ] ||
	fail "-b --per-node: dd has ${on:-0} pages on node$last, its file 2048; $diffs; the recording: $(cat $d/rec)"
grep "^# per-node:" $d/bpf > $d/nopage.bpf
grep "^# per-node:" $d/rec > $d/nopage.rec
[ -s $d/nopage.rec ] && cmp -s $d/nopage.bpf $d/nopage.rec ||
	fail "-b --per-node: events of no page differ: $(cat $d/nopage.bpf) / $(cat $d/nopage.rec)"

exit $err
