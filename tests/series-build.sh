#!/bin/bash
# every prefix of both series builds (guest kernel, perf)
# SPDX-License-Identifier: GPL-2.0
#
# Applies the series one patch at a time in a scratch worktree of the
# build tree and builds after each: the guest kernel (bzImage + modules,
# vm/guest.config) after each kernel patch, perf after each perf patch.
# The whole series is what make build already built, so the last patch of
# each series is not built again; a patch that only touches Documentation/
# cannot change a build and is not built either.  The objects stay in
# $BUILD_DIR/prefix, so a second run only rebuilds what the patches touch.
# The prefixes are built without debug information (no DWARF, no BTF).
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-/var/tmp/pagealloc-build}
src=$BUILD_DIR/linux
[ -d "$src/.git" ] || { echo "no build tree at $src (make build)"; exit 2; }
pre=$BUILD_DIR/prefix
wt=$pre/linux
jobs=$(nproc)
perf_flags="LIBTRACEEVENT_DYNAMIC=1 NO_LIBPYTHON=1 NO_LIBPERL=1"

patches() { "$top/scripts/series" "$top/$1"; }
nk=$(patches kernel-patches | wc -l)
np=$(patches perf-patches | wc -l)
[ $((nk + np)) -gt 2 ] || { echo "fewer than two patches per series: nothing to build"; exit 2; }

mkdir -p "$pre"
if [ ! -d "$wt" ]; then
	git -C "$src" worktree prune
	git -C "$src" worktree add -q --detach "$wt" pristine || exit 1
fi
git -C "$wt" am --abort >/dev/null 2>&1
git -C "$wt" checkout -q -f --detach pristine || exit 1

am() {
	git -C "$wt" -c user.name=t -c user.email=t@t.invalid am -q "$1" ||
		{ echo "FAIL: $1 does not apply"; exit 1; }
}
only_docs() { ! git -C "$wt" diff --name-only HEAD~1 HEAD | grep -qv '^Documentation/'; }

# The guest's config without debug information: whether a prefix builds
# does not depend on it, and DWARF and BTF for every prefix would more than
# double the time this test takes.
frag=$pre/guest-nodebug.config
grep -v '^CONFIG_DEBUG_INFO' "$top/vm/guest.config" > "$frag"
echo CONFIG_DEBUG_INFO_NONE=y >> "$frag"

i=0
for p in $(patches kernel-patches); do
	i=$((i + 1))
	am "$top/kernel-patches/$p"
	[ $i = "$nk" ] && break
	if only_docs; then
		echo "kernel $i/$nk $p: documentation only"
		continue
	fi
	echo "kernel $i/$nk $p: building"
	mkdir -p "$pre/kernel"
	# symbols of later patches are unknown here: allowed
	make -s -C "$wt" O="$pre/kernel" allnoconfig \
		KCONFIG_ALLCONFIG="$frag" &&
	ALLOW_UNKNOWN=1 "$top/scripts/check-config" "$frag" "$pre/kernel/.config" &&
	make -s -C "$wt" O="$pre/kernel" -j"$jobs" bzImage modules > "$pre/kernel.log" 2>&1 ||
		{ echo "FAIL: kernel does not build after $p"; tail -30 "$pre/kernel.log"; exit 1; }
done
# perf is built on top of the whole kernel series, as make build does
for p in $(patches kernel-patches | tail -n +$((i + 1))); do am "$top/kernel-patches/$p"; done

i=0
for p in $(patches perf-patches); do
	i=$((i + 1))
	am "$top/perf-patches/$p"
	[ $i = "$np" ] && break
	only_docs && continue
	echo "perf $i/$np $p: building"
	mkdir -p "$pre/perf"
	make -s -C "$wt/tools/perf" O="$pre/perf" $perf_flags -j"$jobs" > "$pre/perf.log" 2>&1 ||
		{ echo "FAIL: perf does not build after $p"; grep -E 'error|Error' "$pre/perf.log" | head -20; exit 1; }
done
echo "all prefixes build"
