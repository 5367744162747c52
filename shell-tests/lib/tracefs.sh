# SPDX-License-Identifier: GPL-2.0
# Tracefs settings a guest test changes, put back by its cleanup.  The
# test sets tracefs_saved to a file of its own first.

tracefs_save() {	# file...
	local f
	for f in "$@"; do
		echo "$f $(cat "$f")" >> "$tracefs_saved"
	done
}

# last saved first; a trailing "*" marks a partly enabled event directory
tracefs_restore() {
	local f v
	[ -f "$tracefs_saved" ] || return 0
	tac "$tracefs_saved" | while read -r f v; do
		echo "${v%\*}" > "$f" 2>/dev/null
	done
	: > "$tracefs_saved"
}

# a ring buffer of at least KB per CPU, put back by tracefs_restore:
# a slow reader (a debug kernel under emulation) must not lose events
tracefs_buffer_at_least() {	# tracefs directory, KB
	local kb
	# "1408" or, before the buffer is first used, "7 (expanded: 1408)"
	kb=$(sed 's/.*expanded: *\([0-9]*\).*/\1/; s/[^0-9].*//' "$1/buffer_size_kb")
	[ "${kb:-0}" -ge "$2" ] && return 0
	echo "$1/buffer_size_kb $kb" >> "$tracefs_saved"
	echo "$2" > "$1/buffer_size_kb"
}

# stop a trace_pipe reader once it has read all there is: its file has
# not grown for a second (the events are off by then)
tracefs_stop_reader() {	# pid, file
	local size=-1
	while [ "$(stat -c %s "$2")" != "$size" ]; do
		size=$(stat -c %s "$2")
		sleep 1
	done
	kill "$1"
	wait "$1" 2>/dev/null
}
