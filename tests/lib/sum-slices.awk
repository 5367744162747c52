# The -x rows of --interval slices ("time,task,columns..."), summed per
# task, as the -x rows of one table ("task,columns..."), unsorted.  A
# column empty in any slice stays empty; the ms columns (a '.': to the
# ns, 6 decimals) are summed as such.  Header and '#' lines are skipped.
BEGIN { FS = OFS = "," }
$1 == "time" || /^#/ { next }
{
	if (!($2 in seen)) {
		seen[$2] = 1
		keys[++n] = $2
	}
	for (i = 3; i <= NF; i++) {
		s[$2, i] += $i
		if ($i == "")
			e[$2, i] = 1
		if ($i ~ /\./)
			ms[i] = 1
	}
	nf = NF
}
END {
	for (k = 1; k <= n; k++) {
		line = keys[k]
		for (i = 3; i <= nf; i++)
			line = line OFS (e[keys[k], i] ? "" : ms[i] ? sprintf("%.6f", s[keys[k], i]) : s[keys[k], i])
		print line
	}
}
