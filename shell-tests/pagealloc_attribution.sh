#!/bin/bash
# perf pagealloc report equals perf script on fork, exec, migration, threads, tid reuse
# SPDX-License-Identifier: GPL-2.0
#
# Every event must count under the comm its task had at that moment, as
# perf script prints it.  Recorded here with perf pagealloc record, each
# compared row for row and column for column with the table
# tests/pagealloc-compare computes from perf script of the same file:
# - forkexec: a child forks on one CPU, allocates, moves itself to another
#   CPU and execs (its COMM record lands in the other CPU's buffer);
# - make: make -j2 of a small tree (children allocate as 'make' before
#   they exec 'sh');
# - threads: a Python process whose threads allocate and exit at
#   different times;
# - reuse: pid_max lowered so that tids are reused by later tasks.
# With --per-process and --prepend-parent the TOTAL rows must equal the
# per-thread table's.  make check runs this at 2 and at 4 guest CPUs.
export LC_ALL=C

. "$(dirname "$0")"/lib/kmem.sh
kmem_skip_unless mm_page_alloc mm_page_free
perf --list-cmds | tr -s " " "\n" | grep -qx pagealloc || { echo "skip: no perf pagealloc"; exit 2; }
compare=${PAGEALLOC_TOP:-}/tests/pagealloc-compare
[ -x "$compare" ] || { echo "skip: no $compare"; exit 2; }
ncpu=$(nproc)
[ "$ncpu" -ge 2 ] || { echo "skip: needs 2 CPUs"; exit 2; }
for c in taskset make python3; do
	command -v $c > /dev/null || { echo "skip: no $c"; exit 2; }
done

err=0
tmp=$(mktemp -d /tmp/__perf_test.attrib.XXXXX)
pid_max=$(cat /proc/sys/kernel/pid_max)
cleanup() {
	echo "$pid_max" > /proc/sys/kernel/pid_max
	rm -rf "$tmp"
	trap - EXIT TERM INT
}
trap 'cleanup; exit $err' EXIT TERM INT
fail() { echo "FAIL: $*"; err=1; }

cat > $tmp/forkexec <<EOS
#!/bin/bash
for i in \$(seq 8); do
	a=\$((i % $ncpu)) b=\$(((i + 1) % $ncpu))
	taskset -c \$a bash -c "x=\\\$(seq 3000); taskset -pc \$b \\\$\\\$ >/dev/null; exec basename /a/b/c\$i" >/dev/null
done
EOS
mkdir $tmp/tree
for i in 1 2 3 4 5 6; do seq $((i * 2000)) > $tmp/tree/in$i; done
cat > $tmp/tree/Makefile <<'EOS'
all: $(patsubst in%,out%,$(wildcard in*))
out%: in%
	sort -r $< | sed 's/1/one/' > $@
EOS
cat > $tmp/threads.py <<'EOS'
import threading, time
def work(n):
    bufs = [bytearray(64 * 1024) for _ in range(n)]
    time.sleep(0.02 * n)
    del bufs
ts = [threading.Thread(target=work, args=(n,)) for n in (2, 4, 8, 16)]
for t in ts: t.start()
for t in ts: t.join()
EOS
chmod +x $tmp/forkexec

rec() {	# name, workload...
	local name=$1
	shift
	perf pagealloc record -q -m 16M -o $tmp/$name.data -- "$@" > /dev/null 2>&1 ||
		{ fail "$name: perf pagealloc record exited $?"; return 1; }
	if perf pagealloc report -i $tmp/$name.data 2>&1 >/dev/null | grep -q 'lost'; then
		fail "$name: events were lost"
		return 1
	fi
	"$compare" perf $tmp/$name.data || fail "$name: report and perf script differ"
	total=$(perf pagealloc report -q -x, -i $tmp/$name.data | grep '^TOTAL')
	for opt in --per-process --prepend-parent --ignore-pid; do
		[ "$(perf pagealloc report -q -x, $opt -i $tmp/$name.data | grep '^TOTAL')" = "$total" ] ||
			fail "$name: the TOTAL of $opt differs"
	done
	echo "$name ($ncpu CPUs): $(perf pagealloc report -q -x, -i $tmp/$name.data | grep -c .) rows agree"
}

rec forkexec $tmp/forkexec
rec make make -s -j2 -C $tmp/tree
rec threads python3 $tmp/threads.py
# the forkexec rows: each child's allocations before exec under bash
rows=$(perf pagealloc report -q -x, -i $tmp/forkexec.data)
n=0
for tid in $(sed -n 's/^basename-\([0-9]*\),.*/\1/p' <<<"$rows"); do
	grep -q "^bash-$tid," <<<"$rows" && n=$((n + 1))
done
[ $n -ge 8 ] || fail "forkexec: $n of 8 children have a bash row before their basename row"

# tids reused: a pid space just above the highest pid now, then more
# short tasks than it holds
last=$(sh -c 'echo $$')
echo $((last + 64)) > /proc/sys/kernel/pid_max
rec reuse sh -c 'for i in $(seq 100); do /bin/true; done; seq 3000 > /dev/null'
echo "$pid_max" > /proc/sys/kernel/pid_max
reused=$(perf script --show-task-events -i $tmp/reuse.data 2>/dev/null |
	sed -n 's/.*PERF_RECORD_FORK(\([0-9]*\):.*/\1/p' | sort | uniq -d | wc -l)
[ "$reused" -gt 0 ] || fail "reuse: no tid was reused"
echo "reuse: $reused tids forked more than once"
exit $err
