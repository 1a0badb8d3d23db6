# SPDX-License-Identifier: GPL-2.0
#
#   make deps      install the Debian packages the project needs
#   make           build build/perfcheck and the selftests
#   make check     run every selftest through prove (TAP::Harness)
#   make matrix    boot each kernel of vm/kernels in QEMU and run the selftests
#   make SAN=1 check   the same with AddressSanitizer and UBSan
#   make static    statically linked binaries for the guests (build/static/)

VERSION := 0.1
CC      ?= cc
BUILD   ?= build
CACHE   ?= .cache
LINUX_SRC := $(CACHE)/linux-source
KSFT_DIR  := $(LINUX_SRC)/tools/testing/selftests

OPT      ?= -O2
CFLAGS   ?= -g
CFLAGS   += $(OPT) -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wshadow \
	    -Wno-missing-field-initializers \
	    -D_GNU_SOURCE -DPERFCHECK_VERSION='"$(VERSION)"' -I. -Ilib -MMD -MP
LDLIBS   += -ldw -lelf -ltraceevent -lzstd -lz -lm

ifeq ($(SAN),1)
BUILD    := build/san
CFLAGS   += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS  += -fsanitize=address,undefined
endif
# make static ARCH=arm64: the guests of the arm64 rows, cross-built with
# Debian's aarch64 toolchain against arm64 libraries unpacked privately
# (tools/arm64-sysroot, cached like the kernels)
ifeq ($(ARCH),arm64)
CROSS    := aarch64-linux-gnu-
CC       := $(CROSS)gcc
AR       := $(CROSS)ar
SYSROOT_ARM64 ?= $(or $(PERFCHECK_CACHE),$(HOME)/.cache/perfcheck)/sysroot-arm64
CFLAGS   += -isystem $(SYSROOT_ARM64)/usr/include
LDFLAGS  += -L$(SYSROOT_ARM64)/usr/lib/aarch64-linux-gnu
SYSROOT_DEP := $(SYSROOT_ARM64)/.complete
endif
ifeq ($(STATIC),1)
BUILD    := build/static$(if $(filter arm64,$(ARCH)),-arm64)
LDFLAGS  += -static
CFLAGS   += -DPC_STATIC_BUILD
LDLIBS   += -llzma -lbz2 -lzstd -lpthread
endif

# libdeflate, when installed, inflates compressed debug sections (lib/symbols/dbgimage.c)
# about three times as fast as zlib; the static guest builds use zlib
ifeq ($(STATIC)$(ARCH),)
ifneq ($(wildcard /usr/include/libdeflate.h),)
CFLAGS   += -DPC_HAVE_LIBDEFLATE
LDLIBS   += -ldeflate
endif
endif

LIB_SRC  := $(sort $(wildcard lib/*/*.c probes/*.c recorder/*.c reader/*.c stat/*.c emulate/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
# selftests/{unit,kernel,interop,vm}/NAME.c (and any left flat in selftests/)
# build to the flat $(BUILD)/selftests/NAME: test ids do not name the folder
TEST_KINDS := unit kernel interop vm
TEST_SRC := $(sort $(wildcard selftests/*.c $(TEST_KINDS:%=selftests/%/*.c)))
TEST_LIB := $(sort $(wildcard selftests/lib/*.c))
TEST_BIN := $(addprefix $(BUILD)/selftests/,$(basename $(notdir $(TEST_SRC))))
ifneq ($(words $(TEST_BIN)),$(words $(sort $(TEST_BIN))))
$(error two selftests share a name: $(sort $(foreach f,$(notdir $(TEST_SRC)),$(if $(filter-out 1,$(words $(filter %/$(f),$(TEST_SRC)))),$(f)))))
endif
BENCH_SRC := $(sort $(wildcard bench/*.c))
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)
# bench/lib: what the benchmark programs share (timed runs), linked into each
BENCH_LIB_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(sort $(wildcard bench/lib/*.c)))

PROVE_TIMEOUT ?= 300

.PHONY: all deps check matrix static static-arm64 guest clean selftests linux-source fixtures bench fuzz
.DELETE_ON_ERROR:
.SECONDARY:

all: $(BUILD)/perfcheck selftests

deps:
	@tools/install-deps

linux-source: $(LINUX_SRC)/.complete
$(LINUX_SRC)/.complete:
	tools/linux-source $(LINUX_SRC)

$(SYSROOT_ARM64)/.complete:
	tools/arm64-sysroot $(SYSROOT_ARM64)

$(BUILD)/obj/%.o: %.c $(SYSROOT_DEP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/libperfcheck.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/perfcheck: $(BUILD)/obj/cli/perfcheck.o $(BUILD)/libperfcheck.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# selftests: one binary per file, built against the kernel's own harness;
# the shared helpers of selftests/lib/ are found by name (-Iselftests/lib)
# or as "lib/NAME.h" (-Iselftests)
TEST_CFLAGS = $(CFLAGS) -Iselftests -Iselftests/lib -isystem $(KSFT_DIR)
# the folders' rules first: a stale dependency file naming an old flat path
# must not make the flat rule win for a test that has moved
define TEST_KIND_RULE
$$(BUILD)/obj/selftests/%.o: selftests/$(1)/%.c $$(LINUX_SRC)/.complete
	@mkdir -p $$(dir $$@)
	$$(CC) $$(TEST_CFLAGS) -c -o $$@ $$<
endef
$(foreach k,$(TEST_KINDS),$(eval $(call TEST_KIND_RULE,$(k))))
$(BUILD)/obj/selftests/%.o: selftests/%.c $(LINUX_SRC)/.complete
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -c -o $@ $<

# --wrap=alarm: the harness's per-test timeouts scale with a guest's slowdown (harness_timeout.c)
$(BUILD)/selftests/%: $(BUILD)/obj/selftests/%.o $(TEST_LIB:%.c=$(BUILD)/obj/%.o) $(BUILD)/libperfcheck.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -Wl,--wrap=alarm -o $@ $^ $(LDLIBS) -lpthread

selftests: $(TEST_BIN) $(BUILD)/perfcheck
	@# a test whose source is gone (renamed or split) must not linger: vm/run runs every binary there
	@for f in $(BUILD)/selftests/*; do case " $(TEST_BIN) " in *" $$f "*) ;; *) test -d "$$f" || rm -fv "$$f";; esac; done

# benchmarks against the system perf, each printing its ratio: make bench, then build/bench/NAME
bench: $(BENCH_BIN) $(BUILD)/perfcheck $(BUILD)/pcwork

$(BUILD)/bench/%: bench/%.c $(BENCH_LIB_OBJ) $(BUILD)/libperfcheck.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.o %.a,$^) $(LDLIBS) -lpthread

# unit_unwind carries the aarch64 unwinding fixture (.incbin)
$(BUILD)/obj/selftests/unit_unwind.o: fixtures/unwind/arm64/work fixtures/unwind/arm64/work.dump
# checked in (fixtures/unwind/arm64/make-dump.sh): never rebuilt by make's
# built-in rules, whatever the checkout's timestamps
fixtures/unwind/arm64/work fixtures/unwind/arm64/work.dump: ;

# bench/unwind reads perf.data maps with the selftests' small map table
$(BUILD)/bench/unwind: bench/unwind.c selftests/lib/pdmaps.c $(BUILD)/libperfcheck.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.a,$^) $(LDLIBS) -lpthread

# the tree's shape, read from the objects (nm) and the sources (Perl, TAP):
# no two objects using each other, lib/ below the commands, no struct over 20 fields
STYLE_TESTS := $(sort $(wildcard selftests/style/*.t))

# prove runs every selftest through the kselftest/TAP seam, with a timeout each
# under SAN=1 every timeout (tap-exec's and the harness's per test) is 3x:
# ASan's code is that much slower (a recorder test took 22 s of the harness's 30)
check: all static
	PERFCHECK_BIN=$(abspath $(BUILD)/perfcheck) PERFCHECK_SRCDIR=$(CURDIR) \
		PERFCHECK_BUILD=$(abspath $(BUILD)) PERFCHECK_TEST_TIMEOUT=$(PROVE_TIMEOUT) \
		$(if $(filter 1,$(SAN)),PERFCHECK_TIMEOUT_SCALE=$${PERFCHECK_TIMEOUT_SCALE:-3}) \
		prove --exec selftests/tap-exec $(PROVE_FLAGS) $(TEST_BIN) $(STYLE_TESTS)

# The guests of the kernel matrix (vm/): static perfcheck and selftests, the
# C init, and the kernel's own perf_events selftests built from the cache
# against the same harness (their code is not ours: its warnings are not shown).  No -O, as
# kselftest builds them: at -O2, sigtrap_threads reads its signal count
# before the store that raises the signal and fails on every kernel.
KSFT_PEERS := sigtrap_threads remove_on_exec watermark_signal mmap
KSFT_BIN   := $(KSFT_PEERS:%=$(BUILD)/ksft/%)

$(BUILD)/vm/init: vm/init.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<

$(BUILD)/ksft/%: $(LINUX_SRC)/.complete
	@mkdir -p $(dir $@)
	$(CC) -g -D_GNU_SOURCE -w -I$(KSFT_DIR) $(LDFLAGS) -o $@ $(KSFT_DIR)/perf_events/$*.c -lpthread

$(BUILD)/vm/perftest: vm/perftest.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<

guest: all $(BUILD)/vm/init $(BUILD)/vm/perftest $(KSFT_BIN)

static:
	$(MAKE) STATIC=1 SAN= guest

# the guests of the arm64 rows (cross-built: make deps installs the toolchain)
static-arm64:
	$(MAKE) STATIC=1 SAN= ARCH=arm64 guest

# make matrix: every row of vm/kernels (MATRIX_FLAGS: e.g. --shard 1/2, or 6.1 mmap)
matrix: all static static-arm64
	vm/run $(MATRIX_FLAGS)

clean:
	rm -rf build

# this build's dependency files only (build/san, build/static hold their own)
-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# The fixtures' workload: freestanding and static, the same binary on every kernel.
PCWORK_CFLAGS := -O1 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -ffreestanding \
	-fno-stack-protector -fno-pie -no-pie -static -nostdlib -fno-asynchronous-unwind-tables \
	-Wall -Wextra -Wl,--build-id
# no libgcc: arm64's atomics inline, not as calls to its outline helpers
ifeq ($(ARCH),arm64)
PCWORK_CFLAGS += -mno-outline-atomics
endif
$(BUILD)/pcwork: fixtures/workload/pcwork.c
	@mkdir -p $(dir $@)
	$(CC) $(PCWORK_CFLAGS) -o $@ $<
all: $(BUILD)/pcwork

# fuzz: libFuzzer on the read path with ASan and UBSan, seeded by fuzz/seed:
# fuzz_script (parser, session, script and its merge variants), fuzz_report
# (perfcheck report) and fuzz_dump (script -D --header).  Each runs
# FUZZ_SECONDS; crashes land in build/fuzz/crashes/, keep them in
# fuzz/regressions/ (the selftests replay that folder).
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 600
FUZZ_TARGETS := script report dump
FUZZ_FLAGS   := -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined \
		-std=gnu11 -D_GNU_SOURCE -DPERFCHECK_VERSION='"$(VERSION)"' -I. -Ilib
# the library is compiled once for the three targets (instrumented, no main)
FUZZ_OBJ     := $(LIB_SRC:%.c=build/fuzz/obj/%.o)
build/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<
build/fuzz/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_input.h $(FUZZ_OBJ)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(LDLIBS)
-include $(shell find build/fuzz/obj -name '*.d' 2>/dev/null)

fuzz: $(FUZZ_TARGETS:%=build/fuzz/fuzz_%) $(BUILD)/perfcheck
	@mkdir -p build/fuzz/crashes
	fuzz/seed build/fuzz/seeds $(BUILD)/perfcheck
	set -e; for t in $(FUZZ_TARGETS); do \
		mkdir -p build/fuzz/corpus-$$t; \
		build/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=131072 -timeout=10 \
			-rss_limit_mb=2048 -close_fd_mask=2 -artifact_prefix=build/fuzz/crashes/$$t- \
			build/fuzz/corpus-$$t build/fuzz/seeds fuzz/regressions; \
	done

# make fixtures: records the fixtures in the guests of FIXTURE_KERNELS
# (fixtures/record.sh through vm/run) and imports them with their expected
# outputs (fixtures/generate); `make check` replays them (fixtures_replay).
FIXTURE_KERNELS ?= 6.12 7.2
FIXTURE_RESULTS := $(BUILD)/fixtures-results
fixtures: static all
	rm -rf $(FIXTURE_RESULTS)
	-vm/run --results $(FIXTURE_RESULTS) --no-report \
		--step 'fixtures record /perfcheck/fixtures/record.sh . /perfcheck/perfcheck /perfcheck/pcwork matrix' \
		$(shell echo $(FIXTURE_KERNELS) | tr ' ' ,) fixtures_synth
	for k in $(FIXTURE_KERNELS); do \
		fixtures/generate import $(BUILD)/perfcheck $(FIXTURE_RESULTS)/$$k/artifacts/fixtures/record $$k || exit 1; \
	done
	$(BUILD)/selftests/fixtures_synth --write fixtures/callchain $(BUILD)/pcwork
	fixtures/generate expected $(BUILD)/perfcheck
