#!/bin/bash
# tracepoint-analysis: the SystemTap example of section 3.2 as a bpftrace script
# SPDX-License-Identifier: GPL-2.0
#
# Section 3.2 of Documentation/trace/tracepoint-analysis.rst counts the
# kmem:mm_page_alloc events per process name and reports every 5 seconds
# what processes were allocating pages, with SystemTap.  The same with
# Debian's bpftrace, run while pa-wf-dd (a copy of dd) writes 4 MiB into
# tmpfs: a report carries the header and pa-wf-dd's count, at least the
# 1024 pages it wrote; the report after it no longer has pa-wf-dd (the
# counts are cleared after each report, as the example deletes them).
export LC_ALL=C

[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 2; }
command -v bpftrace > /dev/null || { echo "skip: no bpftrace"; exit 2; }

err=0
tmp=$(mktemp -d /tmp/__perf_test.bt.XXXXX)
bt=
cleanup() {
	[ -n "$bt" ] && kill "$bt" 2>/dev/null && wait "$bt" 2>/dev/null
	rm -rf "$tmp" /dev/shm/pa-wf.file
	trap - EXIT TERM INT
}
trap 'cleanup; exit $err' EXIT TERM INT
fail() { echo "FAIL: $*"; err=1; }

cat > "$tmp/page_allocs.bt" <<'EOF'
tracepoint:kmem:mm_page_alloc
{
	@page_allocs[comm] = count();
}

interval:s:5
{
	printf("%-25s %-s\n", "#Pages Allocated", "Process Name");
	print(@page_allocs);
	printf("\n");
	clear(@page_allocs);
}
EOF

bpftrace "$tmp/page_allocs.bt" > "$tmp/out" 2>&1 &
bt=$!
for i in $(seq 600); do grep -q Attaching "$tmp/out" && break; sleep 0.1; done
grep -q Attaching "$tmp/out" || { fail "bpftrace did not attach: $(cat "$tmp/out")"; exit; }
cp "$(command -v dd)" "$tmp/pa-wf-dd"
"$tmp/pa-wf-dd" if=/dev/zero of=/dev/shm/pa-wf.file bs=1M count=4 status=none ||
	fail "pa-wf-dd failed"
rm -f /dev/shm/pa-wf.file
# the report with pa-wf-dd, and the next one
for i in $(seq 300); do
	[ "$(grep -c '^#Pages Allocated' "$tmp/out")" -ge 3 ] && break
	sleep 0.1
done
kill $bt; wait $bt 2>/dev/null; bt=

n=$(sed -n 's/^@page_allocs\[pa-wf-dd\]: \([0-9]*\)$/\1/p' "$tmp/out")
echo "bpftrace reports: $(grep -c '^#Pages Allocated' "$tmp/out"); pa-wf-dd: ${n:-none}"
[ "$(grep -c '^@page_allocs\[pa-wf-dd\]' "$tmp/out")" = 1 ] ||
	fail "pa-wf-dd is in $(grep -c '^@page_allocs\[pa-wf-dd\]' "$tmp/out") reports, want 1 (cleared after it)"
[ -n "$n" ] && [ "$n" -ge 1024 ] || fail "pa-wf-dd allocated '${n}' pages, want >= 1024"
# the count is under a header
awk '/^#Pages Allocated/ { h = 1 } /^@page_allocs\[pa-wf-dd\]/ && !h { exit 1 }' "$tmp/out" ||
	fail "pa-wf-dd's count before any header"
[ $err = 0 ] || cat "$tmp/out"
exit $err
