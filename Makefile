# perf pagealloc: a patched Linux 6.1 (Debian's linux-source-6.1) and perf,
# built outside the checkout and tested booted in QEMU.
#
#   make run             build if needed, trace a demo workload in the guest
#   make check           host tests, then guest tests; "N passed, N failed"
#   make build           kernel bzImage + modules and perf
#   make export-patches  turn the build tree's commits back into the series
#   make bench           time perf pagealloc report against its peers
#   make perf-test       perf's own test suite in the guest against
#                        tests/perf-test.expected (PERF_TEST_PRISTINE=1:
#                        with a perf built from the pristine tree)
#
# Everything builds under $(BUILD_DIR); the series in kernel-patches/ and
# perf-patches/ are the source of truth for the tree there.

BUILD_DIR ?= /var/tmp/pagealloc-build
JOBS      ?= $(shell nproc)
export BUILD_DIR

SRC     := $(BUILD_DIR)/linux
KOUT    := $(BUILD_DIR)/kernel
POUT    := $(BUILD_DIR)/perf
BZIMAGE := $(KOUT)/arch/x86/boot/bzImage
PERF    := $(POUT)/perf
STAMP   := $(SRC)/.git/pagealloc-series
# perf built from the untouched tree (tag pristine), for comparisons
PRISTINE_DIR ?= $(BUILD_DIR)/pristine
export PRISTINE_DIR

# perf against Debian's libtraceevent; the scripting engines are not needed
PERF_FLAGS := LIBTRACEEVENT_DYNAMIC=1 NO_LIBPYTHON=1 NO_LIBPERL=1

.PHONY: all deps tree build kernel perf run check host-check guest-check \
	bench export-patches clean perf-test pristine-perf

all: build

deps:
	@scripts/deps

# The tree: extracted once, re-patched from pristine when a series changes.
tree: deps
	@scripts/prepare-tree $(SRC)

# The guest config is allnoconfig plus vm/guest.config, regenerated when the
# fragment or the series change; every symbol the fragment names must stick.
$(KOUT)/.config: vm/guest.config $(STAMP)
	@mkdir -p $(KOUT)
	$(MAKE) -s -C $(SRC) O=$(KOUT) allnoconfig \
		KCONFIG_ALLCONFIG=$(CURDIR)/vm/guest.config
	@scripts/check-config vm/guest.config $@

# (a sub-make, so that the stamp is read after the tree was prepared)
kernel: tree
	@$(MAKE) --no-print-directory $(KOUT)/.config
	$(MAKE) -s -C $(SRC) O=$(KOUT) -j$(JOBS) bzImage modules

perf: tree
	@mkdir -p $(POUT)
	$(MAKE) -s -C $(SRC)/tools/perf O=$(POUT) $(PERF_FLAGS) -j$(JOBS)

build: kernel perf

export-patches:
	@scripts/export-patches $(SRC)

run: build
	vm/run -- $(CURDIR)/vm/demo

# host tests first: they need no guest and fail fast
check: build
	@tests/run-all

bench: build
	@tests/bench

# a git worktree of the tree at tag pristine, perf built as above
pristine-perf: tree
	@git -C $(SRC) worktree prune
	@[ -d $(PRISTINE_DIR)/linux ] || \
		git -C $(SRC) worktree add -q --detach $(PRISTINE_DIR)/linux pristine
	@mkdir -p $(PRISTINE_DIR)/perf
	$(MAKE) -s -C $(PRISTINE_DIR)/linux/tools/perf O=$(PRISTINE_DIR)/perf $(PERF_FLAGS) -j$(JOBS)

perf-test: build $(if $(PERF_TEST_PRISTINE),pristine-perf)
	@tests/perf-test

clean:
	rm -rf $(KOUT) $(POUT) $(BUILD_DIR)/runs $(BUILD_DIR)/accel $(PRISTINE_DIR)/perf
