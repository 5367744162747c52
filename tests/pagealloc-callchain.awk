# The --callchain table of perf pagealloc report -x, computed a second
# way, for the tests: from
#   perf script -F comm,tid,event,trace,ip,sym -i FILE
# (perf's own resolution of each sample's call stack), every successful
# mm_page_alloc's pages (2^order; 1 with -v events=1) added to its
# task's stack, frames leaf first joined by ';' (the address of a frame
# without a symbol), and to TOTAL's.  Prints
# "task<TAB>pages<TAB>stack" lines, to be sorted and ranked by the caller.

function flush() {
	if (task != "" && stack != "") {
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

{
	flush()
	for (c = 2; c <= NF; c++)
		if ($c ~ /^[a-z_0-9]+:[a-z_0-9]+:$/)
			break
	if (c > NF || $c != "kmem:mm_page_alloc:")
		next
	comm = $1
	for (i = 2; i < c - 1; i++)
		comm = comm " " $i
	pg = 0
	for (i = c + 1; i <= NF; i++) {
		if ($i == "pfn=0x0")
			next
		if ($i ~ /^order=/)
			pg = events ? 1 : 2 ^ substr($i, 7)
	}
	task = comm "-" $(c - 1)
}

END {
	flush()
	for (k in n)
		print k "\t" n[k]
}
