#!/bin/bash
# patch series apply to pristine 6.1 and re-export unchanged
# SPDX-License-Identifier: GPL-2.0
#
# Applies kernel-patches/ then perf-patches/ with git am onto the pristine
# tree in a scratch worktree, exports them again with scripts/export-patches
# and requires the result to equal the committed series byte for byte.
top=$(cd "$(dirname "$0")/.." && pwd)
src=${BUILD_DIR:-/var/tmp/pagealloc-build}/linux
[ -d "$src/.git" ] || { echo "no build tree at $src (make build)"; exit 2; }

wt=$(mktemp -d /var/tmp/series-test.XXXXXX)
exp=$(mktemp -d /var/tmp/series-exp.XXXXXX)
cleanup() { git -C "$src" worktree remove --force "$wt" >/dev/null 2>&1; rm -rf "$wt" "$exp"; }
trap cleanup EXIT

git -C "$src" worktree add -q --detach "$wt" pristine || exit 1
n=0
for d in kernel-patches perf-patches; do
	[ -f "$top/$d/series" ] || continue
	for p in $("$top/scripts/series" "$top/$d"); do
		if ! git -C "$wt" -c user.name=t -c user.email=t@t.invalid am -q "$top/$d/$p"; then
			echo "FAIL: $d/$p does not apply"
			exit 1
		fi
		n=$((n + 1))
	done
	# every listed patch exists and every patch is listed
	for f in "$top/$d"/*.patch; do
		[ -e "$f" ] || continue
		# the cover letter is written by export-patches, never applied
		[ "$(basename "$f")" = 0000-cover-letter.patch ] && continue
		grep -qx "$(basename "$f")" "$top/$d/series" || { echo "FAIL: $f not in series"; exit 1; }
	done
done
"$top/scripts/export-patches" "$wt" "$exp" >/dev/null || exit 1
for d in kernel-patches perf-patches; do
	if ! diff -ru -x cover-letter.txt "$top/$d" "$exp/$d"; then
		echo "FAIL: $d does not round-trip through git am + export-patches"
		exit 1
	fi
done
echo "$n patches applied and round-tripped"
