# SPDX-License-Identifier: GPL-2.0
# Shared by the guest tests: find tracefs ($tracefs) and skip (exit 2)
# unless running as root and the kmem events named exist.
kmem_skip_unless() {	# event...
	local ev
	[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 2; }
	tracefs=/sys/kernel/tracing
	[ -d $tracefs/events ] || tracefs=/sys/kernel/debug/tracing
	for ev in "$@"; do
		[ -d $tracefs/events/kmem/$ev ] || { echo "skip: no kmem:$ev"; exit 2; }
	done
}
