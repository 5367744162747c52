# SPDX-License-Identifier: GPL-2.0
# Shared by the cgroup tests of perf pagealloc (guest and host).

# cgroup_sums TASKS CGROUPS: the -x, tables of report (with its cgroup
# column, last) and of report --per-cgroup; prints each cgroup row's
# column that is not the sum of its task rows' (nothing: all are), or
# that there are fewer than two cgroup rows.  The ms columns are added
# as integer ns, exactly.
cgroup_sums() {
	awk -F, '
	function v(s) { if (s ~ /\./) { sub(/\./, "", s) } return s }
	FNR == 1 { file++; next }
	/^#/ || $1 == "TOTAL" { next }
	file == 1 { for (i = 2; i < NF; i++) if ($i != "") sum[$NF, i] += v($i); next }
	{
		for (i = 2; i <= NF; i++)
			if ($i != "" && sum[$1, i] + 0 != v($i) + 0)
				print $1 ": column " i ": " $i ", its tasks: " sum[$1, i]
		rows++
	}
	END { if (rows < 2) print "fewer than 2 cgroup rows" }' "$1" "$2"
}

# cgroup_membership PERF FILE COUNTS OUT: in OUT.ref, the mm_page_alloc
# and mm_page_free events perf report --sort cgroup,pid of FILE counts for
# each cgroup and pid; in OUT.ours the same from COUNTS, the -x, table of
# perf pagealloc report --count-events (alloc + alloc_failed,
# free_direct + free_batched), by its cgroup column and the tid its rows'
# names end in: perf report's pid key is the thread's tid, and a row a
# thread keeps the threads of one process apart.  Returns diff's status.
cgroup_membership() {
	"$1" report -i "$2" --stdio -n --sort cgroup,pid 2> /dev/null |
	awk '/^# Samples: .* of event / { ev = $NF; gsub(/\047/, "", ev); next }
	     /^#/ || NF < 4 { next }
	     (ev == "kmem:mm_page_alloc" || ev == "kmem:mm_page_free") && match($4, /^[0-9]+:/) {
		print ev, $3, substr($4, 1, RLENGTH - 1), $2 }' | sort > "$4.ref"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	/^#/ || $1 == "TOTAL" { next }
	{
		pid = $1; sub(/.*-/, "", pid)
		a[$NF " " pid] += $c["alloc"] + $c["alloc_failed"]
		f[$NF " " pid] += $c["free_direct"] + $c["free_batched"]
	}
	END {
		for (k in a) if (a[k]) print "kmem:mm_page_alloc", k, a[k]
		for (k in f) if (f[k]) print "kmem:mm_page_free", k, f[k]
	}' "$3" | sort > "$4.ours"
	diff -u "$4.ref" "$4.ours"
}
