# The --callchain table of perf pagealloc report -x, computed a second
# way, for the tests: from
#   perf script -F comm,tid,event,trace,ip,sym -i FILE
# (perf's own resolution of each sample's call stack), every successful
# mm_page_alloc's pages (2^order; 1 with -v events=1) added to its
# task's stack, frames leaf first joined by ';' (the address of a frame
# without a symbol), and to TOTAL's.  Prints
# "task<TAB>stack<TAB>pages" lines, to be sorted and ranked by the caller.
# With -v stalls=1, from perf script -F comm,tid,time,event,trace,ip,sym
# --ns, --folded --stall-weight's instead: each reclaim stall (direct,
# memcg, node) and each compaction run of a direct compaction (from
# mm_compaction_try_to_compact_pages to the task's next mm_page_alloc)
# whose begin is in the file, its microseconds on the stack of its end.
# (perf script -F trace has no common_flags: an allocation in an interrupt
# ends a direct compaction here, where the report waits for the task's.)
# With -v outstanding=1, --folded --outstanding's instead: the pages of
# each successful mm_page_alloc are its task's stack's until a
# mm_page_free whose pages all belong to one allocation frees them (a
# page allocated again changes owner, as tests/pagealloc-script.awk has
# it); the pages held at the end.

function hex(s,    v, i) {
	s = tolower(substr(s, 3))
	v = 0
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}

function flush(    p) {
	if (task != "" && outstanding) {
		nalloc++
		for (p = apfn; p < apfn + 2 ^ aorder; p++) {
			own[p] = task "\t" stack
			oid[p] = nalloc
		}
	} else if (task != "" && stack != "") {
		n[task "\t" stack] += pg
		n["TOTAL\t" stack] += pg
	}
	task = ""
	stack = ""
}

/^\t/ {
	if (task == "")
		next
	sub(/^\t */, "")
	ip = $1
	sub(/^[0-9a-f]+ /, "")
	# a frame without a symbol is its address, as in perf report
	if ($0 == "[unknown]")
		$0 = "0x" ip
	stack = stack (stack == "" ? "" : ";") $0
	next
}

/^$/ {
	flush()
	next
}

# the field of the event name ("sys:name:"), NF + 1 on a line without one
function event_col(    c) {
	for (c = 2; c <= NF; c++)
		if ($c ~ /^[a-z_0-9]+:[a-z_0-9]+:$/)
			break
	return c
}

# a time of perf script --ns, "sec.nsec:", in ns: exact below 2^53
function ns(t) {
	split(t, p, /[.:]/)
	return p[1] * 1000000000 + p[2]
}

stalls {
	flush()
	c = event_col()
	if (c > NF)
		next
	tid = $(c - 2)
	t = ns($(c - 1))
	ev = $c
	pg = 0
	if (ev ~ /^vmscan:mm_vmscan_(direct|memcg|node)_reclaim_begin:$/) {
		inrec[tid] = 1
		rbegin[tid] = t
	} else if (ev ~ /^vmscan:mm_vmscan_(direct|memcg|node)_reclaim_end:$/ && inrec[tid]) {
		inrec[tid] = 0
		pg = int((t - rbegin[tid]) / 1000)
	} else if (ev == "compaction:mm_compaction_try_to_compact_pages:") {
		direct[tid] = 1
	} else if (ev == "kmem:mm_page_alloc:" && direct[tid] && !incomp[tid]) {
		direct[tid] = 0
	} else if (ev == "compaction:mm_compaction_begin:" && direct[tid]) {
		incomp[tid] = 1
		cbegin[tid] = t
	} else if (ev == "compaction:mm_compaction_end:" && incomp[tid]) {
		incomp[tid] = 0
		pg = int((t - cbegin[tid]) / 1000)
	}
	if (pg <= 0)
		next
	comm = $1
	for (i = 2; i < c - 2; i++)
		comm = comm " " $i
	task = comm "-" tid
	next
}

{
	flush()
	c = event_col()
	if (c > NF)
		next
	if (outstanding && $c == "kmem:mm_page_free:") {
		for (i = c + 1; i <= NF; i++) {
			if ($i ~ /^pfn=/)
				pfn = hex(substr($i, 5))
			if ($i ~ /^order=/)
				fn = 2 ^ substr($i, 7)
		}
		for (p = pfn; p < pfn + fn; p++)
			if (!(p in own) || oid[p] != oid[pfn])
				next
		for (p = pfn; p < pfn + fn; p++) {
			delete own[p]
			delete oid[p]
		}
		next
	}
	if ($c != "kmem:mm_page_alloc:")
		next
	comm = $1
	for (i = 2; i < c - 1; i++)
		comm = comm " " $i
	pg = 0
	for (i = c + 1; i <= NF; i++) {
		if ($i == "pfn=0x0")
			next
		if ($i ~ /^pfn=/)
			apfn = hex(substr($i, 5))
		if ($i ~ /^order=/) {
			aorder = substr($i, 7) + 0
			pg = events ? 1 : 2 ^ aorder
		}
	}
	task = comm "-" $(c - 1)
}

END {
	flush()
	# a stack of no frames is in no line, as the report has none
	for (p in own)
		if (own[p] !~ /\t$/)
			n[own[p]]++
	for (k in n)
		print k "\t" n[k]
}
