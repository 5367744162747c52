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
