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
# With -v outstanding=1, the columns of --outstanding, page by page: each
# page of a successful mm_page_alloc is its task's until a mm_page_free
# whose pages all belong to one allocation frees it; the pages left at
# the end are the allocating task's 'outstanding' (its allocations that
# hold any, with -v events=1), those a task of another tid freed its
# 'freed_by_others' (free events, with -v events=1).  A page allocated
# again changes owner.  Without it, the columns are empty.
# With -v hist=1, a table as --histogram prints it: for each row and
# TOTAL, each kind of stall's log2 buckets of whole microseconds as bcc
# has them (0 to 1, then 2^(b-1) to 2^b - 1) up to the last that has
# stalls, with the count, total and longest stall and the begin of the
# first of the longest (a compaction's stalls are its compaction runs).

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
	    col == "compact_ms" && !has_compact_runs ||
	    (col == "outstanding" || col == "freed_by_others") && !outstanding)
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

function bits(v,    b) {
	for (b = 0; v >= 1; b++)
		v = int(v / 2)
	return b
}

# a stall of task of this kind, ns long from (bs, bn)
function stall(task, kind, ns, bs, bn,    t, k, i, b) {
	t[1] = task
	t[2] = "TOTAL"
	b = bs * 1000000000 + bn
	for (i = 1; i <= 2; i++) {
		k = t[i] "," kind
		if (!(k in hcount) || ns > hmax[k] || ns == hmax[k] && b < hbegin[k]) {
			hmax[k] = ns
			hbegin[k] = b
			hbegin_s[k] = sprintf("%d.%09d", bs, bn)
		}
		hcount[k]++
		htotal[k] += ns
		hb[k, bits(int(ns / 1000)) > 1 ? bits(int(ns / 1000)) : 1]++
	}
}

function ms(v) {
	return sprintf("%d.%06d", int(v / 1000000), v % 1000000)
}

# a hex number of perf script's, to a double: exact below 2^53
function hex(s,    v, i) {
	s = tolower(s)
	sub(/^0x/, "", s)
	v = 0
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}

# every page of an allocation owned by its task (the row, and the tid
# to tell another task) and its allocation, until a free takes it
function page_alloc(task, tid, pfn, order,    p, n) {
	n = 2 ^ order
	nalloc++
	for (p = pfn; p < pfn + n; p++) {
		own[p] = task
		otid[p] = tid
		oid[p] = nalloc
	}
}

# a free counts when all its pages belong to one allocation
function page_free(task, tid, pfn, order,    p, n) {
	n = 2 ^ order
	for (p = pfn; p < pfn + n; p++)
		if (!(p in own) || oid[p] != oid[pfn])
			return
	if (otid[pfn] != tid)
		add(own[pfn], "freed_by_others", events ? 1 : n)
	for (p = pfn; p < pfn + n; p++) {
		delete own[p]
		delete otid[p]
		delete oid[p]
	}
}

function add(task, col, v) {
	val[task, col] += v
	seen[task] = 1
}

BEGIN {
	ncols = split("alloc,alloc_locked,free_direct,free_batched,pcpu_drained," \
		"pcpu_refilled,pcpu_drains,pcpu_refills,extfrag,extfrag_causing,migtype_changed," \
		"extfrag_severe,extfrag_moderate,alloc_failed,reclaim,reclaim_ms,reclaimed," \
		"compact,compact_ms,unknown,outstanding,freed_by_others", cols, ",")
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
			if (outstanding)
				page_alloc(task, tid, hex(kv["pfn"]), kv["order"] + 0)
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
		if (outstanding)
			page_free(task, tid, hex(kv["pfn"]), kv["order"] + 0)
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
			stall(task, "reclaim", ns_since(rs[tid], rn[tid]), rs[tid], rn[tid])
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
			stall(task, "compaction", ns_since(cs[tid], cn[tid]), cs[tid], cn[tid])
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
	for (p in own) {
		if (!events)
			add(own[p], "outstanding", 1)
		else if (!((own[p], oid[p]) in counted)) {
			counted[own[p], oid[p]] = 1
			add(own[p], "outstanding", 1)
		}
	}
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
	if (hist) {
		print "task,stall,usecs_low,usecs_high,count,stalls,total_ms,max_ms,max_begin"
		for (k in hcount) {
			for (hi = 63; !((k, hi) in hb); hi--)
				;
			for (b = 1; b <= hi; b++)
				print k "," (b > 1 ? 2 ^ (b - 1) : 0) "," 2 ^ b - 1 "," \
					hb[k, b] + 0 "," hcount[k] "," ms(htotal[k]) "," \
					ms(hmax[k]) "," hbegin_s[k]
		}
	}
}
