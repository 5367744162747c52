# The perf pagealloc table computed a second way, for the tests: from
#   perf script -F comm,tid,cpu,time,event,trace --ns -i FILE
# (libtraceevent's rendering of each event's fields), printed like
# perf pagealloc report -x, : a header of the column keys, one row per
# comm-tid sorted by name, then TOTAL.  Page columns count 2^order pages
# (or events with -v events=1).  PCPU drains/refills count the batch
# events when the file has them, else runs of per-page events on a CPU.
# Everything in default mode: interrupt events count to the interrupted
# task.  Whether the file has the batch events is a property of the file
# (its event list), not of whether any survived: pass -v has_drain_bulk=1
# and -v has_refill_bulk=1 when perf evlist names them.
# The stall columns: a reclaim is a direct or memcg reclaim begin to its
# end on the tid (ms with 6 decimals, to the ns, as -x prints them); a direct compaction a
# mm_compaction_try_to_compact_pages, its time the compaction_begin to
# _end runs on the tid until its next mm_page_alloc.  Pass -v
# has_reclaim=1, -v has_compact=1 and -v has_compact_runs=1 when the file
# has those events (else the columns are empty).
# With -v breakdown=1, a second table as --breakdown order,migratetype,gfp
# prints it after the first: task,breakdown,value,alloc lines of the
# successful allocations (the migrate types named as in 6.1, the GFP
# flags as perf script prints them), in no particular order.

function pages(kv,    o) {
	o = kv["order"] + 0
	return events ? 1 : 2 ^ o
}

function parse(s, kv,    n, i, a, p) {
	split("", kv)
	n = split(s, a, " ")
	for (i = 1; i <= n; i++) {
		p = index(a[i], "=")
		if (p)
			kv[substr(a[i], 1, p - 1)] = substr(a[i], p + 1)
	}
}

# a column whose event the file does not have is empty, as in -x output
function cell(v, col) {
	if (col == "pcpu_refilled" && !has_refilled)
		return ""
	if (col ~ /^reclaim/ && !has_reclaim || col == "compact" && !has_compact ||
	    col == "compact_ms" && !has_compact_runs)
		return ""
	if (col ~ /_ms$/)
		return sprintf("%d.%06d", int(v / 1000000), v % 1000000)
	return v + 0
}

# "sec.nsec:" as ns; two parts: a double holds the difference exactly
function ns_since(t0s, t0n) {
	return (tsec - t0s) * 1000000000 + (tnsec - t0n)
}

function mtname(m) {
	split("Unmovable Movable Reclaimable HighAtomic CMA Isolate", mt, " ")
	return m >= 0 && m < 6 ? mt[m + 1] : m
}

function bdadd(task, kind, value, n) {
	bd[task "," kind "," value] += n
	bd["TOTAL," kind "," value] += n
}

function add(task, col, v) {
	val[task, col] += v
	seen[task] = 1
}

BEGIN {
	ncols = split("alloc,alloc_locked,free_direct,free_batched,pcpu_drained," \
		"pcpu_refilled,pcpu_drains,pcpu_refills,extfrag,extfrag_causing,migtype_changed," \
		"extfrag_severe,extfrag_moderate,alloc_failed,reclaim,reclaim_ms,reclaimed," \
		"compact,compact_ms,unknown", cols, ",")
}

{
	# "<comm> <tid> [<cpu>] kmem:<event>: <fields>"; comm may hold spaces
	for (c = 1; c <= NF; c++)
		if ($c ~ /^\[[0-9]+\]$/)
			break
	if (c > NF || c < 3)
		next
	comm = $1
	for (i = 2; i < c - 1; i++)
		comm = comm " " $i
	tid = $(c - 1)
	cpu = substr($c, 2, length($c) - 2) + 0
	tm = $(c + 1)
	sub(/:$/, "", tm)
	split(tm, tp, ".")
	tsec = tp[1] + 0
	tnsec = tp[2] + 0
	ev = $(c + 2)
	sub(/:$/, "", ev)
	sub(/^kmem:/, "", ev)
	rest = ""
	for (i = c + 3; i <= NF; i++)
		rest = rest " " $i
	parse(rest, kv)
	task = comm "-" tid

	kind = ev
	if (ev == "mm_page_alloc") {
		# a direct compaction ends with the allocation that asked for it
		if (!incomp[tid])
			cdirect[tid] = 0
		if (kv["pfn"] == "0x0") {
			add(task, "alloc_failed", 1)
		} else {
			add(task, "alloc", pages(kv))
			if (breakdown) {
				bdadd(task, "order", kv["order"] + 0, pages(kv))
				bdadd(task, "migratetype", mtname(kv["migratetype"] + 0), pages(kv))
				bdadd(task, "gfp", kv["gfp_flags"], pages(kv))
			}
		}
	} else if (ev == "mm_page_alloc_zone_locked") {
		add(task, "alloc_locked", pages(kv))
		if (kv["percpu_refill"] == "1") {
			kind = "refill"
			if (!(lastkind[cpu] == kind && lasttid[cpu] == tid))
				runs_refill[task]++
		}
	} else if (ev == "mm_page_free") {
		add(task, "free_all", pages(kv))
	} else if (ev == "mm_page_free_batched") {
		add(task, "free_batched", 1)
	} else if (ev == "mm_page_pcpu_drain") {
		add(task, "pcpu_drained", pages(kv))
		if (!(lastkind[cpu] == kind && lasttid[cpu] == tid))
			runs_drain[task]++
	} else if (ev == "mm_page_pcpu_refill") {
		add(task, "pcpu_refilled", pages(kv))
	} else if (ev == "mm_page_pcpu_drain_zone_locked") {
		locked_drain[task]++
	} else if (ev == "mm_page_pcpu_refill_zone_locked") {
		locked_refill[task]++
	} else if (ev ~ /^vmscan:mm_vmscan_(direct|memcg|node)_reclaim_begin$/) {
		inrec[tid] = 1
		rs[tid] = tsec
		rn[tid] = tnsec
		kind = "stall"
	} else if (ev ~ /^vmscan:mm_vmscan_(direct|memcg|node)_reclaim_end$/) {
		if (inrec[tid]) {
			inrec[tid] = 0
			add(task, "reclaim", 1)
			add(task, "reclaim_ms", ns_since(rs[tid], rn[tid]))
			add(task, "reclaimed", kv["nr_reclaimed"] + 0)
		}
		kind = "stall"
	} else if (ev == "compaction:mm_compaction_try_to_compact_pages") {
		cdirect[tid] = 1
		add(task, "compact", 1)
		kind = "stall"
	} else if (ev == "compaction:mm_compaction_begin") {
		if (cdirect[tid]) {
			incomp[tid] = 1
			cs[tid] = tsec
			cn[tid] = tnsec
		}
		kind = "stall"
	} else if (ev == "compaction:mm_compaction_end") {
		if (incomp[tid]) {
			incomp[tid] = 0
			add(task, "compact_ms", ns_since(cs[tid], cn[tid]))
		}
		kind = "stall"
	} else if (ev == "mm_page_alloc_extfrag") {
		add(task, "extfrag", 1)
		fo = kv["fallback_order"] + 0
		if (fo < kv["pageblock_order"] + 0) {
			add(task, "extfrag_causing", 1)
			add(task, fo <= 3 ? "extfrag_severe" : "extfrag_moderate", 1)
		}
		if (kv["change_ownership"] == "1")
			add(task, "migtype_changed", 1)
	} else {
		add(task, "unknown", 1)
	}
	seen[task] = 1
	lastkind[cpu] = kind
	lasttid[cpu] = tid
}

END {
	n = 0
	for (t in seen)
		names[++n] = t
	# insertion sort: the row count is small
	for (i = 2; i <= n; i++) {
		x = names[i]
		for (j = i - 1; j >= 1 && names[j] > x; j--)
			names[j + 1] = names[j]
		names[j + 1] = x
	}
	hdr = "task"
	for (k = 1; k <= ncols; k++)
		hdr = hdr "," cols[k]
	print hdr
	for (i = 1; i <= n; i++) {
		t = names[i]
		fd = val[t, "free_all"] - val[t, "free_batched"]
		val[t, "free_direct"] = fd < 0 ? 0 : fd
		val[t, "pcpu_drains"] = has_drain_locked ? locked_drain[t] : runs_drain[t]
		val[t, "pcpu_refills"] = has_refill_locked ? locked_refill[t] : runs_refill[t]
		line = t
		any = 0
		for (k = 1; k <= ncols; k++) {
			v = val[t, cols[k]] + 0
			line = line "," cell(v, cols[k])
			total[k] += val[t, cols[k]]
			any = any || v != 0
		}
		# a task whose events count nothing (only stall events) has no row
		if (any)
			print line
	}
	line = "TOTAL"
	for (k = 1; k <= ncols; k++) {
		v = total[k] + 0
		line = line "," cell(v, cols[k])
	}
	print line
	if (breakdown) {
		print "task,breakdown,value,alloc"
		for (k in bd)
			print k "," bd[k]
	}
}
