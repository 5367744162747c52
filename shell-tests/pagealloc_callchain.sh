#!/bin/bash
# perf pagealloc report --callchain: the stacks that allocate, kernel module and user space
# SPDX-License-Identifier: GPL-2.0
#
# Recorded with perf pagealloc record -g:
# - test_pagealloc's order3 scenario: the thread's first stack by pages
#   (--callchain=1) holds all its 16 order-3 allocations (128 pages) and
#   names the module's own code (scenario_order3, or alloc_free when it is
#   not inlined), resolved from the loaded module's symbols;
# - pa-toucher, built here with frame pointers, writes a byte in each
#   page of 8 MiB it allocated, in its function pa_touch_pages: its first
#   stack names that function (a user space frame through perf's symbol
#   code), and its stacks through it have at least the 2048 pages it
#   touched (in several stacks when some are huge pages).
# - pa-deep recurses 60 times through a function of a 160-character name
#   before it touches 256 pages: its first stack has the 60 frames, whole.
# The files are also compared with the stacks perf script resolves
# (tests/pagealloc-compare).
export LC_ALL=C

[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 2; }
perf --list-cmds 2>/dev/null | tr -s ' ' '\n' | grep -qx pagealloc ||
	{ echo "skip: no perf pagealloc"; exit 2; }
compare=${PAGEALLOC_TOP:-}/tests/pagealloc-compare
[ -x "$compare" ] || { echo "skip: no $compare"; exit 2; }
ko=${PAGEALLOC_KOUT:-${BUILD_DIR:-/var/tmp/pagealloc-build}/kernel}/lib/test_pagealloc.ko
[ -r "$ko" ] || { echo "skip: no $ko"; exit 2; }
command -v cc > /dev/null || { echo "skip: no C compiler for the user space workload"; exit 2; }
ctl=/sys/kernel/debug/test_pagealloc

err=0
tmp=$(mktemp -d /tmp/__perf_test.callchain.XXXXX)
loaded=
cleanup() {
	[ -n "$loaded" ] && rmmod test_pagealloc
	rm -rf "$tmp"
	trap - EXIT TERM INT
}
trap 'cleanup; exit $err' EXIT TERM INT
fail() { echo "FAIL: $*"; err=1; }

# the first stack of the row that starts so: "rank,alloc,frames"
first_stack() {	# file row-prefix
	perf pagealloc report -q -i "$1" -x, --callchain=1 2> $tmp/report.err |
		sed -n '/^task,rank,alloc,callchain$/,$p' | grep "^$2" | head -1 | cut -d, -f2-
}

insmod "$ko" || { fail "insmod $ko"; exit; }
loaded=1
perf pagealloc record -g -m 16M -o $tmp/module.data -- sh -c "echo order3 > $ctl/run" \
	> $tmp/record.log 2>&1 || { fail "record of the order3 scenario"; cat $tmp/record.log; }
tid=$(sed -n '1s/.* tid=\([0-9]*\).*/\1/p' $ctl/expected)
got=$(first_stack $tmp/module.data "pagealloc-test-$tid,")
echo "order3: pagealloc-test-$tid: ${got:0:200}"
case ",$got;" in
,1,128,*[,\;]scenario_order3\;* | ,1,128,*[,\;]alloc_free\;*) ;;
*) fail "order3: the first stack is not the module's 128 pages: '$got'"; cat $tmp/report.err ;;
esac
"$compare" perf $tmp/module.data || fail "order3: report and perf script differ"

# (mmap, not malloc: malloc writes its header into a new mapping, whose
# first huge page, when the mapping is aligned to one, would fault there)
cat > $tmp/toucher.c <<'EOF'
#include <stddef.h>
#include <sys/mman.h>

/* a store to each page from this function: the faults are in it */
__attribute__((noinline)) void pa_touch_pages(volatile char *buf, size_t size)
{
	size_t i;

	for (i = 0; i < size; i += 4096)
		buf[i] = 1;
}

int main(void)
{
	size_t size = 8 << 20;
	char *buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (buf == MAP_FAILED)
		return 1;
	pa_touch_pages(buf, size);
	return buf[size - 4096] != 1;
}
EOF
cc -O1 -g -fno-omit-frame-pointer -o $tmp/pa-toucher $tmp/toucher.c || { fail "cc"; exit; }
perf pagealloc record -g -m 16M -o $tmp/user.data -- $tmp/pa-toucher \
	> $tmp/record.log 2>&1 || { fail "record of pa-toucher"; cat $tmp/record.log; }
got=$(first_stack $tmp/user.data pa-toucher-)
echo "pa-toucher: ${got:0:300}"
case "$got;" in
*\;pa_touch_pages\;*) ;;
*) fail "pa-toucher: its first stack does not name pa_touch_pages: '$got'" ;;
esac
pages=$(perf pagealloc report -q -i $tmp/user.data -x, --callchain=20 2>/dev/null |
	sed -n '/^task,rank,alloc,callchain$/,$p' | grep '^pa-toucher-.*;pa_touch_pages;' |
	awk -F, '{ n += $3 } END { print n + 0 }')
[ "$pages" -ge 2048 ] || fail "pa-toucher: its stacks through pa_touch_pages have $pages pages, not the 2048 it touched"
"$compare" perf $tmp/user.data || fail "pa-toucher: report and perf script differ"

# pa-deep: 60 frames of a 160-character name: a stack longer than 9600
# characters, printed whole and equal to perf script's
name=pa_deep_frame_$(printf '%0146d' 0)
cat > $tmp/deep.c <<EOF
#include <stdlib.h>

__attribute__((noinline)) int $name(volatile char *buf, int depth)
{
	int i;

	if (depth > 1)
		return $name(buf, depth - 1) + 1;
	for (i = 0; i < 256; i++)
		buf[i * 4096] = 1;
	return 1;
}

int main(void)
{
	char *buf = malloc(256 * 4096);

	return !buf || $name(buf, 60) != 60;
}
EOF
cc -O0 -g -fno-omit-frame-pointer -o $tmp/pa-deep $tmp/deep.c || { fail "cc of pa-deep"; exit; }
perf pagealloc record -g -m 16M -o $tmp/deep.data -- $tmp/pa-deep \
	> $tmp/record.log 2>&1 || { fail "record of pa-deep"; cat $tmp/record.log; }
got=$(first_stack $tmp/deep.data pa-deep-)
n=$(grep -o "$name" <<< "$got" | wc -l)
echo "pa-deep: ${#got} characters, $n frames of $name"
[ "$n" = 60 ] || fail "pa-deep: its first stack has $n frames of the recursion, not 60"
"$compare" perf $tmp/deep.data || fail "pa-deep: report and perf script differ"
exit $err
