# The -x rows of --interval slices ("time,task,columns..."), summed per
# task, as the -x rows of one table ("task,columns..."), unsorted.  A
# column empty in any slice stays empty; the ms columns (a '.': to the
# ns, 6 decimals) are summed as such.  Header and '#' lines are skipped.
# A last cgroup column (a recording with --all-cgroups) is part of the
# row's key, and printed last as it is.
BEGIN { FS = OFS = "," }
$1 == "time" { cg = $NF == "cgroup"; next }
/^#/ { next }
{
	k = cg ? $2 SUBSEP $NF : $2
	if (!(k in seen)) {
		seen[k] = 1
		keys[++n] = k
	}
	for (i = 3; i <= NF - cg; i++) {
		s[k, i] += $i
		if ($i == "")
			e[k, i] = 1
		if ($i ~ /\./)
			ms[i] = 1
	}
	nf = NF - cg
}
END {
	for (k = 1; k <= n; k++) {
		split(keys[k], name, SUBSEP)
		line = name[1]
		for (i = 3; i <= nf; i++)
			line = line OFS (e[keys[k], i] ? "" : ms[i] ? sprintf("%.6f", s[keys[k], i]) : s[keys[k], i])
		print cg ? line OFS name[2] : line
	}
}
