# SPDX-License-Identifier: GPL-2.0
# Sourced by the host tests that go over every committed recording.
#
# recordings TMPDIR: one "NAME<TAB>PATH" line per recording of tests/data
# (not nopage, which has no page allocator event), the compressed host
# recordings unpacked into TMPDIR (--threads ones are directories).
recordings() {
	local src name
	for src in "$here"/data/*.data "$here"/data/*.data.xz "$here"/data/*.data.tar.xz; do
		name=$(basename "$src")
		name=${name%%.data*}
		[ "$name" = nopage ] && continue
		case $src in
		*.tar.xz) xz -dc "$src" | tar -C "$1" -xf -; src=$1/$name.data ;;
		*.xz) xz -dc "$src" > "$1/$name.data"; src=$1/$name.data ;;
		esac
		printf '%s\t%s\n' "$name" "$src"
	done
}

# perf_input FILE: sets in=(-i ...) and stdin for perf, so that a
# pipe-format recording is read from standard input, as from a pipe
perf_input() {
	in=(-i "$1") stdin=/dev/null
	if [ -f "$1" ] && [ "$(head -c 8 "$1")" != PERFILE2 ]; then
		in=(-i -) stdin=$1
	fi
}

# nocgroup: a -x, table of perf pagealloc report without the cgroup column
# a recording with --all-cgroups adds last, for references that have no
# cgroups (perf script of 6.1): a task that moved to another cgroup would
# then have two rows, which the references sum, and they differ
nocgroup() {
	awk -F, '/^task,/ { drop = $NF == "cgroup" } drop { sub(/,[^,]*$/, "") } { print }'
}

# report_counts PERF FILE: the event counts perf report prints after its
# dump (-D), without the percentages: what --stats prints, which 6.1
# cannot do for a pipe's tracing data
report_counts() {
	perf_input "$2"
	"$1" report -D "${in[@]}" < "$stdin" 2> /dev/null |
		sed -n '/^Aggregated stats:/,${s/ *(.*)$//;p}'
}
