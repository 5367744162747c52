#!/bin/bash
# perf pagealloc report equals test_pagealloc's scenario counts
# SPDX-License-Identifier: GPL-2.0
#
# The test_pagealloc module's thread "pagealloc-test" runs a scenario on
# request and says which pages and events each column must show for it:
# counts known in advance (direct, batched, order3 and fail allocations
# and frees) and counts the module observed with probes on the same events
# the report reads (the per-CPU list refills and drains of "drain", the
# fallbacks of "extfrag"; the "observed:" line names them).  Record each
# scenario with perf pagealloc record and require the thread's row of
# perf pagealloc report to equal those numbers exactly, in pages and with
# --count-events.  --split-irq keeps events of interrupts that hit the
# thread (e.g. RCU freeing slab pages) off its row: the module counts only
# its own.
#
# The order3 scenario's allocations must all be under order 3 of the
# thread's --breakdown order (16 events, 128 pages).
#
# pcpu_refills and pcpu_drains are the thread's lock holds, one
# mm_page_pcpu_{refill,drain}_zone_locked event each; pcpu_refilled and
# pcpu_drained the pages of its mm_page_pcpu_refill and mm_page_pcpu_drain
# events (one event per page block).

export LC_ALL=C
[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 2; }
perf --list-cmds | tr -s " " "\n" | grep -qx pagealloc || { echo "skip: no perf pagealloc"; exit 2; }
ko=${PAGEALLOC_KOUT:-${BUILD_DIR:-/var/tmp/pagealloc-build}/kernel}/lib/test_pagealloc.ko
[ -r "$ko" ] || { echo "skip: no $ko"; exit 2; }
ctl=/sys/kernel/debug/test_pagealloc

err=0
data=$(mktemp /tmp/__perf_test.pagealloc.XXXXX)
loaded=
cleanup() {
	rm -f "$data" "$data.old"
	[ -n "$loaded" ] && rmmod test_pagealloc
	trap - EXIT TERM INT
}
trap 'cleanup; exit $err' EXIT TERM INT

insmod "$ko" || { echo "FAIL: insmod $ko"; err=1; exit; }
loaded=1

# compare "key=value ..." expectations with the -x, row of the thread
check() {	# scenario mode(pages|events) expected-line report-options...
	local scenario=$1 mode=$2 want=$3 header row kv key val col got
	shift 3
	perf pagealloc report -q -i "$data" --split-irq -x, "$@" > "$data.out" 2>&1 ||
		{ echo "FAIL: $scenario: perf pagealloc report $*"; cat "$data.out"; err=1; return; }
	header=$(grep '^task,' "$data.out")
	row=$(grep "^pagealloc-test-$tid," "$data.out")
	if [ -z "$row" ]; then
		echo "FAIL: $scenario: no row pagealloc-test-$tid"; cat "$data.out"; err=1; return
	fi
	for kv in $want; do
		key=${kv%%=*} val=${kv#*=}
		col=$(tr , '\n' <<<"$header" | grep -nx "$key" | cut -d: -f1)
		[ -n "$col" ] || { echo "FAIL: no column $key in: $header"; err=1; continue; }
		got=$(cut -d, -f"$col" <<<"$row")
		if [ "$got" != "$val" ]; then
			echo "FAIL: $scenario ($mode): $key is $got, want $val"
			err=1
		fi
	done
	echo "$scenario ($mode): $want"
	rm -f "$data.out"
}

for scenario in direct batched order3 fail drain extfrag; do
	# big buffers: a lost event would make the row a lower bound
	if ! perf pagealloc record -q -m 4M -o "$data" -- \
		sh -c "echo $scenario > $ctl/run" > /dev/null 2>&1; then
		echo "FAIL: $scenario: record or scenario failed"
		cat $ctl/expected
		err=1
		continue
	fi
	exp=$(cat $ctl/expected)
	tid=$(sed -n '1s/.* tid=\([0-9]*\).*/\1/p' <<<"$exp")
	grep -q "scenario=$scenario .* result=0" <<<"$exp" ||
		{ echo "FAIL: $scenario: $exp"; err=1; continue; }
	if perf pagealloc report -i "$data" 2>&1 >/dev/null | grep -i 'lost'; then
		echo "FAIL: $scenario: events were lost, the counts cannot be exact"
		err=1
		continue
	fi
	echo "$scenario: observed by the module: $(sed -n 's/^observed: *//p' <<<"$exp")"
	check $scenario pages "$(sed -n 's/^pages: //p' <<<"$exp")"
	check $scenario events "$(sed -n 's/^events: //p' <<<"$exp")" --count-events
	# order3: its allocations all under order 3, 8 pages each
	if [ $scenario = order3 ]; then
		for ev in pages events; do
			opt= want=$(sed -n 's/^pages: alloc=\([0-9]*\).*/\1/p' <<<"$exp")
			[ $ev = events ] && opt=--count-events &&
				want=$(sed -n 's/^events: alloc=\([0-9]*\).*/\1/p' <<<"$exp")
			got=$(perf pagealloc report -q -i "$data" --split-irq -x, --breakdown order $opt |
				grep "^pagealloc-test-$tid,order,")
			if [ "$got" != "pagealloc-test-$tid,order,3,$want" ]; then
				echo "FAIL: order3 ($ev): --breakdown order gives '$got', want pagealloc-test-$tid,order,3,$want"
				err=1
			fi
			echo "order3 ($ev): --breakdown order: $got"
		done
	fi
	# the _zone_locked events make refills and drains exact lock-hold counts
	if [ $scenario = drain ] &&
	   ! perf pagealloc report -i "$data" 2>/dev/null | grep -qi 'PCPU refills: exact.*PCPU drains: exact'; then
		echo "FAIL: drain: the report does not say it counted the lock holds exactly"
		err=1
	fi
done
exit $err
