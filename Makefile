# perf pagealloc: a patched Linux 6.1 (Debian's linux-source-6.1) and perf,
# built outside the checkout and tested booted in QEMU.
#
#   make run             build if needed, trace a demo workload in the guest
#   make check           host tests, then guest tests; "N passed, N failed"
#   make build           kernel bzImage + modules and perf
#   make export-patches  turn the build tree's commits back into the series
#   make bench           time perf pagealloc report against its peers, and the timechart
#   make fuzz            mutation campaign against perf pagealloc report (ASan+UBSan)
#   make check-debug     the kernel tests again on a debug guest kernel
#                        (lockdep, DEBUG_VM, DEBUG_PAGEALLOC, KASAN, UBSAN)
#   make perf-test       perf's own test suite in the guest against
#                        tests/perf-test.expected (PERF_TEST_PRISTINE=1:
#                        with a perf built from the pristine tree)
#
# Everything builds under $(BUILD_DIR); the series in kernel-patches/ and
# perf-patches/ are the source of truth for the tree there.  Each long
# stage (tree, kernel, perf) prints its name, its progress and its time.

BUILD_DIR ?= /var/tmp/pagealloc-build
JOBS      ?= $(shell nproc)
export BUILD_DIR

SRC     := $(BUILD_DIR)/linux
KOUT    := $(BUILD_DIR)/kernel
KOUT_DEBUG := $(BUILD_DIR)/kernel-debug
POUT    := $(BUILD_DIR)/perf
BZIMAGE := $(KOUT)/arch/x86/boot/bzImage
PERF    := $(POUT)/perf
STAMP   := $(SRC)/.git/pagealloc-series
# perf built from the untouched tree (tag pristine), for comparisons
PRISTINE_DIR ?= $(BUILD_DIR)/pristine
export PRISTINE_DIR

# perf against Debian's libtraceevent; the scripting engines are not needed.
# perf help finds the man pages under mandir (only builtin-help.o uses it).
PERF_FLAGS := LIBTRACEEVENT_DYNAMIC=1 NO_LIBPYTHON=1 NO_LIBPERL=1 mandir=$(POUT)/man
# perf's BPF skeletons (perf pagealloc report -b, perf lock contention -b, ...)
# with Debian's clang, against the guest kernel's BTF: never this machine's.
PERF_BPF := BUILD_BPF_SKEL=1 VMLINUX_BTF=$(KOUT)/vmlinux
MAN_PAGES  := perf-pagealloc.1

.PHONY: all deps tree build kernel kernel-debug perf man run check check-debug \
	bench export-patches fuzz perf-asan perf-test pristine-perf clean

all: build

deps:
	@scripts/deps

# The tree: extracted once, re-patched from pristine when a series changes.
tree: deps
	@scripts/prepare-tree $(SRC)

# The guest config is allnoconfig plus vm/guest.config, regenerated when the
# fragment or the series change; every symbol the fragment names must stick,
# and the symbols of vm/debian-config must be as in Debian's own config.
$(KOUT)/.config: vm/guest.config vm/debian-config $(STAMP)
	@mkdir -p $(KOUT)
	@echo "  CONFIG  allnoconfig + vm/guest.config"
	@$(MAKE) -s -C $(SRC) O=$(KOUT) allnoconfig \
		KCONFIG_ALLCONFIG=$(CURDIR)/vm/guest.config
	@scripts/check-config vm/guest.config $@
	@scripts/check-config --debian vm/debian-config $@

# (a sub-make, so that the stamp is read after the tree was prepared)
kernel: tree
	@$(MAKE) --no-print-directory $(KOUT)/.config
	@scripts/stage kernel $(MAKE) --no-print-directory -C $(SRC) O=$(KOUT) \
		-j$(JOBS) bzImage modules

# The debug kernel: the same fragment plus vm/debug.config, every symbol
# of both checked to stick.
$(KOUT_DEBUG)/.config: vm/guest.config vm/debug.config $(STAMP)
	@mkdir -p $(KOUT_DEBUG)
	@echo "  CONFIG  allnoconfig + vm/guest.config + vm/debug.config"
	@cat vm/guest.config vm/debug.config > $(KOUT_DEBUG)/config.fragment
	@$(MAKE) -s -C $(SRC) O=$(KOUT_DEBUG) allnoconfig \
		KCONFIG_ALLCONFIG=$(KOUT_DEBUG)/config.fragment
	@scripts/check-config $(KOUT_DEBUG)/config.fragment $@

kernel-debug: tree
	@$(MAKE) --no-print-directory $(KOUT_DEBUG)/.config
	@scripts/stage kernel-debug $(MAKE) --no-print-directory -C $(SRC) \
		O=$(KOUT_DEBUG) -j$(JOBS) bzImage modules

perf: kernel
	@mkdir -p $(POUT)
	@scripts/stage perf $(MAKE) --no-print-directory -C $(SRC)/tools/perf \
		O=$(POUT) $(PERF_FLAGS) $(PERF_BPF) -j$(JOBS)

# The man pages of the series, for perf help and man.  Debian's asciidoc
# emits a second refentryinfo that its DTD rejects (perf-kmem.1 as well):
# no validation.  /usr/bin first: asciidoc is Debian's python3 module.
man: perf
	@mkdir -p $(POUT)/man/man1
	@for p in $(MAN_PAGES); do \
		PATH=/usr/bin:$$PATH $(MAKE) -s -C $(SRC)/tools/perf/Documentation \
			O=$(POUT) XMLTO_EXTRA=--skip-validation $(POUT)/$$p && \
		cp $(POUT)/$$p $(POUT)/man/man1/ || exit 1; \
	done

build: kernel perf man

# perf with ASan+UBSan in $(BUILD_DIR)/perf-asan, for the fuzzer
perf-asan: tree
	@tests/fuzz/build-asan > /dev/null

# FUZZ_N runs (default 10000), FUZZ_SEED fixes them: see tests/fuzz/run
fuzz: tree
	@tests/fuzz/run

export-patches:
	@scripts/export-patches $(SRC)

run: build
	vm/run -- $(CURDIR)/vm/demo

# host tests first: they need no guest and fail fast
check: build perf-asan
	@tests/run-all

# the kernel tests on the debug kernel: not part of check (its build alone
# is longer than the rest of a check's budget allows)
check-debug: build kernel-debug
	@tests/check-debug

bench: build
	@tests/bench

# a git worktree of the tree at tag pristine, perf built as above
pristine-perf: kernel
	@git -C $(SRC) worktree prune
	@[ -d $(PRISTINE_DIR)/linux ] || \
		git -C $(SRC) worktree add -q --detach $(PRISTINE_DIR)/linux pristine
	@mkdir -p $(PRISTINE_DIR)/perf
	$(MAKE) -s -C $(PRISTINE_DIR)/linux/tools/perf O=$(PRISTINE_DIR)/perf $(PERF_FLAGS) $(PERF_BPF) -j$(JOBS)

perf-test: build $(if $(PERF_TEST_PRISTINE),pristine-perf)
	@tests/perf-test

clean:
	rm -rf $(KOUT) $(KOUT_DEBUG) $(POUT) $(BUILD_DIR)/perf-asan $(BUILD_DIR)/fuzz \
		$(BUILD_DIR)/runs $(BUILD_DIR)/accel $(PRISTINE_DIR)/perf
