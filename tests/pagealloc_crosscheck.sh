#!/bin/bash
# perf pagealloc report equals the table computed from perf script
# SPDX-License-Identifier: GPL-2.0
#
# For each committed recording -- the guest's, and the host kernel's made
# with Debian's own perf (tests/data/record-host: fork/exec across CPUs,
# make -j2, threads, -z, --threads, -g) -- in pages and with
# --count-events, the -x, table of perf pagealloc report must equal, row
# for row and column for column, the one tests/pagealloc-script.awk
# computes from perf script's rendering of the same events
# (tests/pagealloc-compare).
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/recordings.sh"
perf=${PERF:-${BUILD_DIR:-/var/tmp/pagealloc-build}/perf/perf}
"$perf" --list-cmds 2>/dev/null | tr -s " " "\n" | grep -qx pagealloc || { echo "no perf pagealloc in $perf"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
err=0 n=0
while IFS=$'\t' read -r name f; do
	"$here/pagealloc-compare" "$perf" "$f" || err=1
	n=$((n + 1))
done < <(recordings "$tmp")
echo "$n recordings compared, in pages and in events"
exit $err
