# tilefit — plain make.  `make help` lists the targets.
CC      ?= gcc
PREFIX  ?= /usr/local
BUILD   ?= build
PKGS    := libcjson
CFLAGS  ?= -O2 -g
# WERROR=1 makes every warning an error: `make test` (CI) builds with it,
# with gcc (the normal build) and clang (asan, tsan).
WERROR  ?=
WARN    := -Wall -Wextra -Wvla -Wno-format-truncation -Wshadow -Wstrict-prototypes $(if $(findstring clang,$(CC)),-Wno-unknown-warning-option) $(if $(WERROR),-Werror)
CPPFLAGS += -I. -D_DEFAULT_SOURCE $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
ALL_CFLAGS = -std=c11 $(WARN) $(CFLAGS) -pthread -MMD -MP
LDLIBS  := -lglpk $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lcjson) -lm -pthread
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)

MODEL_SRC  := $(wildcard model/*/*.c)
ENCODE_SRC := $(wildcard encode/*.c)
SOLVER_SRC := $(filter-out solver/main.c,$(wildcard solver/*.c solver/*/*.c))
LIB_SRC    := $(MODEL_SRC) $(ENCODE_SRC) $(SOLVER_SRC)
TEST_SRC   := $(wildcard tests/*.c)

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
LIB      := $(BUILD)/libtilefit.a
BIN      := tilefit

.PHONY: all lib test check format check-doc check-slurm check-nvcc check-cutlass check-cutlass-domain symbols lint fuzz-replay asan tsan deps demo install uninstall clean help bench bench-engine bench-solvers bench-space fuzz valgrind

all: $(BIN)

lib: $(LIB)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(if $(filter tests/%,$<),$(CHECK_CFLAGS)) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(BUILD)/solver/main.o $(LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/check_tilefit: $(TEST_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(CHECK_LIBS) $(LDLIBS)

# Missing Debian packages are installed with apt-get (as root, or with sudo).
deps:
	@sh .ci/deps

# The README's first command: FlashAttention-4's K/V pipeline depth on a B200.
demo: deps
	@$(MAKE) --no-print-directory -j$$(nproc 2>/dev/null || echo 2) $(BIN)
	./$(BIN) solve -m b200 -w fa4-fwd -p d=128 -p dv=128 --fix B_r=128 --fix B_c=128 --fix q_stage=2 --objective "max stages" --explain

# The property test (tests/check_property.c) runs 20,000 generated problems
# in the normal build; under the sanitizers each problem costs about 8x as
# much, so `make asan` runs the first ASAN_PROP_PROBLEMS of the same seeds.
ASAN_PROP_PROBLEMS ?= 4000
# Every test case's timeout (tcase_set_timeout) times this under the sanitizers.
ASAN_TIMEOUT_MULTIPLIER ?= 8

# The README's second command: the Check suites and end-to-end tests, the
# Slurm job array on a cluster of its own, the same suites under
# AddressSanitizer and UndefinedBehaviorSanitizer, and the threaded API
# case under ThreadSanitizer (docs/testing.md, "What runs where").
test: deps
	@$(MAKE) --no-print-directory WERROR=1 check
	@$(MAKE) --no-print-directory WERROR=1 check-slurm
	@$(MAKE) --no-print-directory WERROR=1 asan
	@$(MAKE) --no-print-directory WERROR=1 tsan

check: $(BIN) $(BUILD)/check_tilefit
	TILEFIT_BIN=./$(BIN) TILEFIT_DATA=$(CURDIR) $(BUILD)/check_tilefit
	@$(MAKE) --no-print-directory lint fuzz-replay
	@sh tests/compile/memory_row.sh $(CC)

# The house rules a compiler does not check: every exported symbol of the
# library starts with tf_; <glpk.h> is included by solver/glpk.c alone;
# libtilefit.so exports exactly the functions the installed header declares,
# each documented there, and that header has no cJSON (tests/lint/public.sh).
symbols: $(LIB) shared $(HEADER)
	@nm -g $(LIB) | awk '$$2 ~ /^[TDBRCVG]$$/ && $$3 !~ /^tf_/ { print "not tf_: " $$3; bad = 1 } END { exit bad }'
	@test "$$(grep -rl --include='*.[ch]' '<glpk.h>' model encode solver tests bench)" = solver/glpk.c || \
	  { echo "<glpk.h> outside solver/glpk.c"; exit 1; }
	@echo "symbols: every exported symbol starts with tf_; <glpk.h> in solver/glpk.c only"
	@sh tests/lint/public.sh $(HEADER) $(BUILD)/libtilefit.so

# The house rules above, functions over 60 lines (kissat style) by file and
# line, citations a clone cannot follow (tests/lint/citations.sh), and a
# Check test case without its own timeout.  Part of `make check`.
lint: symbols
	@awk -f tests/lint/fnlen.awk model/*/*.c encode/*.c solver/*.c solver/*/*.c
	@sh tests/lint/citations.sh
	@awk -f tests/lint/timeouts.awk tests/*.c
	@sh tests/lint/hidden_state.sh
	@sh tests/lint/case_ids.sh
	@sh tests/lint/layers.sh
	@sh tests/lint/file_size.sh
	@sh tests/lint/flags.sh
	@sh tests/lint/placement.sh
	@python3 tests/lint/cycles.py $(BUILD)
	@sh tests/lint/format.sh
	@echo "lint: no function over 60 lines; no citation a clone cannot follow; every test case sets its timeout; no hidden state in the library; one id per validation case; includes point down the layers; no library file over 800 lines; placements read through one accessor; no call or include cycle between files; the C sources as .clang-format says"

# Rewrites the C sources as .clang-format says (tests/lint/format.sh checks).
format:
	clang-format -i $$(find model encode solver tests bench -name '*.[ch]')

asan:
	@$(MAKE) --no-print-directory BUILD=build/asan CC=clang \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	  BIN=build/asan/tilefit build/asan/tilefit build/asan/check_tilefit
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 TILEFIT_PROP_PROBLEMS=$(ASAN_PROP_PROBLEMS) \
	  CK_TIMEOUT_MULTIPLIER=$(ASAN_TIMEOUT_MULTIPLIER) TILEFIT_BIN=build/asan/tilefit TILEFIT_DATA=$(CURDIR) build/asan/check_tilefit

# The threaded case of the api suite (every tf_call_json command from 16
# threads against the sequential answers) under ThreadSanitizer: clang,
# the library's objects in build/tsan, and a runner of that suite alone
# (tests/tsan/main.c).  Skipped when clang cannot build with
# -fsanitize=thread.  Part of `make test`.
TSAN_BIN := build/tsan/check_threads
tsan:
	@if echo 'int main(void){return 0;}' | clang -x c -fsanitize=thread -o /dev/null - >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory BUILD=build/tsan CC=clang \
	    CFLAGS="-O1 -g -fsanitize=thread -fno-omit-frame-pointer" $(TSAN_BIN) && \
	  echo "TSAN_OPTIONS=halt_on_error=1 CK_RUN_SUITE=api CK_RUN_CASE=threads $(TSAN_BIN)" && \
	  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 CK_RUN_SUITE=api CK_RUN_CASE=threads \
	    CK_TIMEOUT_MULTIPLIER=$(ASAN_TIMEOUT_MULTIPLIER) TILEFIT_DATA=$(CURDIR) $(TSAN_BIN); \
	else echo "tsan: skipped: clang cannot build with -fsanitize=thread"; fi

$(BUILD)/check_threads: $(BUILD)/tests/tsan/main.o $(BUILD)/tests/check_api.o $(BUILD)/tests/testutil.o $(LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(CHECK_LIBS) $(LDLIBS)
-include $(BUILD)/tests/tsan/main.d

# The Slurm job array of docs/sweeps.md, docs/examples/slurm-sweep.sh as it
# is, on a one-node cluster (munged, slurmctld, slurmd) the test starts in
# a temporary directory and stops (tests/slurm/run.sh): a task killed
# mid-run and requeued resumes, and the merged parts equal one run.
# Skipped without root, slurm-wlm or munge.  Part of `make test`.
SLURM_TIMEOUT ?= 180
check-slurm: $(BIN)
	timeout -k 20 $(SLURM_TIMEOUT) sh tests/slurm/run.sh

# The emitted layout headers compiled as CUDA by nvcc, where a CUDA toolkit
# is installed (not part of `make test`: CI has none; docs/emit.md).
check-nvcc: $(BIN)
	TILEFIT_BIN=./$(BIN) TILEFIT_DATA=$(CURDIR) sh tests/nvcc/run.sh

# What emit --for cutlass writes, compiled against a CUTLASS checkout at the
# commit the worksets cite (CUTLASS_DIR; not part of `make test`: it needs
# nvcc and the checkout, and takes about an hour and a half on 2 cores; docs/emit.md).
# The table goes into docs/emit.md; without nvcc or CUTLASS_DIR it says so.
check-cutlass: $(BIN)
	TILEFIT_BIN=./$(BIN) $(PYTHON) tests/cutlass/check.py --doc docs/emit.md
# Every tile of each CUTLASS 3.x workset's domain compiled, tilefit's stage
# count against the builder's own (tests/cutlass/domain.py; same needs as
# check-cutlass, about ten minutes on 2 cores; the table in docs/emit.md).
check-cutlass-domain: $(BIN)
	TILEFIT_BIN=./$(BIN) $(PYTHON) tests/cutlass/domain.py --doc docs/emit.md

# Benchmarks (not part of the tests): ILP vs oracle vs closed form, sweep
# throughput, reuse; one run on this machine, written to bench/results.md.
bench: $(BIN) $(BUILD)/bench $(BUILD)/bench-engine $(BUILD)/bench-solvers
	BUILD=$(BUILD) BIN=./$(BIN) sh bench/run.sh

# The engine alone: solve path vs oracle by counts and kept combinations,
# the whole process, --top K; written to bench/engine.md.
bench-engine: $(BIN) $(BUILD)/bench-engine
	TILEFIT_DATA=$(CURDIR) $(BUILD)/bench-engine bench/engine.md $${BENCH_MAX_KEPT:-1000000} $${BENCH_BUDGET:-0.3} ./$(BIN)

# exact search vs GLPK on the whole model vs the oracle; bench/solvers.md.
bench-solvers: $(BIN) $(BUILD)/bench-solvers
	TILEFIT_DATA=$(CURDIR) $(BUILD)/bench-solvers bench/solvers.md $${BENCH_SOLVERS_MAX_KEPT:-100000} $${BENCH_BUDGET:-0.1} 3

$(BUILD)/bench-solvers: bench/solvers.c bench/util.c bench/util.h $(LIB)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ bench/solvers.c bench/util.c $(LIB) $(LDLIBS)

# the search over boxes of combinations against BASE (a tilefit built
# from the release before; BENCH_BASE_NAME says which) and the oracle;
# bench/space.md.
bench-space: $(BIN) $(BUILD)/bench-space
	TILEFIT_DATA=$(CURDIR) $(BUILD)/bench-space bench/space.md ./$(BIN) $${BASE:?BASE=path of the baseline tilefit} $${BENCH_SPACE_MAX:-1e9}

$(BUILD)/bench-space: bench/space.c bench/util.c bench/util.h $(LIB)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ bench/space.c bench/util.c $(LIB) $(LDLIBS)

$(BUILD)/bench-engine: bench/engine.c bench/util.c bench/util.h $(LIB)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ bench/engine.c bench/util.c $(LIB) $(LDLIBS)

$(BUILD)/bench: bench/bench.c bench/util.c bench/util.h $(LIB)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ bench/bench.c bench/util.c $(LIB) $(LDLIBS)

clean:
	rm -rf build $(BIN)

help:
	@echo "make            build ./tilefit and build/libtilefit.a"
	@echo "make demo       install missing packages, build, solve FA4 stages on a B200"
	@echo "make test       install missing packages, run all tests, the Slurm test, then again under"
	@echo "                ASan+UBSan, and the threaded API case under TSan"
	@echo "make check      the tests only (normal build)"
	@echo "make asan       the tests only (clang, ASan+UBSan build in build/asan)"
	@echo "make tsan       the threaded API case under ThreadSanitizer (clang, build/tsan)"
	@echo "make check-slurm  the documented Slurm job array on a one-node cluster of its own (root)"
	@echo "make check-nvcc   the emitted layout headers compiled as CUDA (needs nvcc; not in make test)"
	@echo "make check-cutlass emit --for cutlass compiled against CUTLASS (needs nvcc, CUTLASS_DIR; not in make test)"
	@echo "make check-cutlass-domain every tile of the CUTLASS 3.x domains compiled, stages against the builder's"
	@echo "make lint       functions over 60 lines, symbols without tf_, test cases without a timeout, cycles, format"
	@echo "make format     rewrite the C sources as .clang-format says"
	@echo "make install    PREFIX=/usr/local: binary, libraries, header, pkg-config, data, man page,"
	@echo "                bash completion, Python module (make uninstall removes them)"
	@echo "make bench      benchmarks, not tests: writes bench/results.md"
	@echo "make measured-report  the table of published measurements in docs/cost-model.md"
	@echo "make clean"

# ---- Pictures and the GPU probe (solver/plot/, solver/probe/) ----
# The probe loads libcuda with dlopen (-ldl), so nothing of CUDA is needed
# to build.  The tests build a stub driver that answers like an H200 and
# render the pictures with rsvg-convert (Debian's librsvg2-bin, .ci/deps).
LDLIBS   += -ldl
CUDA_STUB := $(BUILD)/tests/stub/libcuda-h200.so

$(CUDA_STUB): tests/stub/cuda_h200.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) $(CFLAGS) -shared -fPIC -o $@ $<

check: $(CUDA_STUB)
asan: $(CUDA_STUB)
check asan: export TILEFIT_CUDA_STUB = $(CURDIR)/$(CUDA_STUB)
# ---- end of pictures and probe ----

-include $(LIB_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(BUILD)/solver/main.d

# Fuzzing (clang's libFuzzer, with ASan+UBSan): every target in tests/fuzz/
# runs for FUZZ_SECONDS on its seed corpus tests/fuzz/NAME/ plus the crash
# reproducers in tests/fuzz/regress/NAME/.  New inputs go to
# build/fuzz/corpus/NAME (the committed seeds stay as they are), crashes to
# build/fuzz/crashes/.  One target: make fuzz FUZZ_TARGETS=expr.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= machine workset expr case cli api
FUZZ_SAN := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(BUILD)/tests/fuzz/targets.o $(LIB)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

# The same entry points without libFuzzer (tests/fuzz/replay.c), in the
# build at hand: every seed corpus and crash reproducer once, in `make check`.
REPLAY := $(FUZZ_TARGETS:%=$(BUILD)/fuzz-replay/%)
$(BUILD)/fuzz-replay/%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(BUILD)/tests/fuzz/targets.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

.SECONDARY: $(BUILD)/tests/fuzz/targets.o
-include $(BUILD)/tests/fuzz/targets.d $(REPLAY:=.d)
fuzz-replay: $(REPLAY)
	@for t in $(FUZZ_TARGETS); do \
	  TILEFIT_DATA=$(CURDIR) $(BUILD)/fuzz-replay/$$t tests/fuzz/$$t \
	    $$( [ -d tests/fuzz/regress/$$t ] && echo tests/fuzz/regress/$$t ) || exit 1; \
	done

fuzz:
	@$(MAKE) --no-print-directory BUILD=build/fuzz CC=clang CFLAGS="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" \
	  build/fuzz/tests/fuzz/targets.o $(FUZZ_TARGETS:%=build/fuzz/fuzz_%)
	@mkdir -p build/fuzz/crashes
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p build/fuzz/corpus/$$t; \
	  echo "fuzz_$$t: $(FUZZ_SECONDS) s"; \
	  F=$(CURDIR)/tests/fuzz; \
	  UBSAN_OPTIONS=print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
	  $(CURDIR)/build/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=30 -print_final_stats=1 \
	    -artifact_prefix=$(CURDIR)/build/fuzz/crashes/$$t- $$( [ -f $$F/$$t.dict ] && echo -dict=$$F/$$t.dict ) \
	    $(CURDIR)/build/fuzz/corpus/$$t $$F/$$t $$( [ -d $$F/regress/$$t ] && echo $$F/regress/$$t ) \
	    2>build/fuzz/$$t.log || { tail -60 build/fuzz/$$t.log; exit 1; }; \
	  grep -E '^stat::number_of_executed_units|^Done ' build/fuzz/$$t.log; \
	done

# The end-to-end tests and the bad-input catalogue with every run of the
# binary under valgrind, the e2e runner itself in-process (CK_FORK=no)
# under valgrind, the GLPK fault-injection tests in-process (the error
# hook's longjmp), and a few commands directly: no leaks, no errors.
VALGRIND := valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect
valgrind: $(BIN) $(BUILD)/check_tilefit
	CK_FORK=no CK_RUN_SUITE=e2e TILEFIT_BIN="$(VALGRIND) ./$(BIN)" TILEFIT_DATA=$(CURDIR) \
	  $(VALGRIND) $(BUILD)/check_tilefit
	CK_FORK=no CK_RUN_SUITE=encode CK_RUN_CASE=Errors TILEFIT_DATA=$(CURDIR) $(VALGRIND) $(BUILD)/check_tilefit
	CK_RUN_SUITE=bad TILEFIT_BIN="$(VALGRIND) ./$(BIN)" TILEFIT_DATA=$(CURDIR) $(BUILD)/check_tilefit
	$(VALGRIND) ./$(BIN) solve -m b200 -w fa4-fwd -p d=128 --fix B_r=128 --fix B_c=128 --fix q_stage=2 --objective "max stages" --explain >/dev/null
	$(VALGRIND) ./$(BIN) solve -m h100-sxm -w cutlass-sm90-gemm -p epilogue_bytes=33792 --objective "max tile_m*tile_n" --objective "max stages" --json >/dev/null
	$(VALGRIND) ./$(BIN) check -m b200 -w fa4-fwd -p d=16 --fix B_r=128 --fix B_c=128 --fix q_stage=2 --fix stages=52 >/dev/null; test $$? = 1
	$(VALGRIND) ./$(BIN) validate tests/data/validate/flashattention.jsonl tests/data/validate/cutlass.jsonl >/dev/null
	$(VALGRIND) ./$(BIN) machines >/dev/null
	$(VALGRIND) ./$(BIN) worksets fa4-fwd >/dev/null
	$(VALGRIND) ./$(BIN) solve -m b200 -w nosuch 2>/dev/null; test $$? = 2
	@echo "valgrind: no leaks, no errors"

# ------------------------------------------------------------------------
# The installable library and the Python module.
#
# libtilefit.so is linked from a second set of objects compiled with -fPIC
# under $(BUILD)/pic/; its soname carries the major number of
# TF_LIBRARY_VERSION in solver/api.h, the one place the version is
# written.  The data directory $(PREFIX)/share/tilefit is compiled into
# model/input/catalog.c (both object sets): $(BUILD)/datadir.stamp changes when
# PREFIX does, so `make install PREFIX=P` rebuilds what depends on it.
# The installed header is solver/api.h as it is: opaque handles and the
# JSON entry point, nothing of the internal headers (solver/tilefit.h and
# what it includes, for the binary, the tests and static linking inside
# the tree).  libtilefit.a is installed too, for static linking against
# the same header: it has the same public functions (and the internal
# ones, each tf_, undocumented).
VERSION  := $(shell sed -n 's/^\#define TF_LIBRARY_VERSION "\(.*\)"/\1/p' solver/api.h)
SOMAJOR  := $(firstword $(subst ., ,$(VERSION)))
SONAME   := libtilefit.so.$(SOMAJOR)
SHLIB    := $(BUILD)/libtilefit.so.$(VERSION)
PIC_OBJ  := $(LIB_SRC:%.c=$(BUILD)/pic/%.o)
LIBDIR   := $(PREFIX)/lib
DATADIR  := $(PREFIX)/share/tilefit
MANDIR   := $(PREFIX)/share/man/man1
COMPDIR  := $(PREFIX)/share/bash-completion/completions
PYDIR    := $(LIBDIR)/python3/dist-packages
HEADER   := $(BUILD)/include/tilefit/tilefit.h
PYTHON   ?= /usr/bin/python3

.PHONY: shared check-install check-python check-schema measured-report FORCE
all: shared
lib: shared
shared: $(SHLIB) $(BUILD)/$(SONAME) $(BUILD)/libtilefit.so

# -fno-semantic-interposition: the version script exports only the API, so
# no function of the library can be interposed; with -fPIC alone the
# compiler assumes any could be and neither inlines nor calls them directly
# (a sweep from Python cost 1.36x the static binary's CPU; bench/results.md).
$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -fPIC -fno-semantic-interposition -c $< -o $@

$(BUILD)/datadir.stamp: FORCE
	@mkdir -p $(BUILD)
	@echo '$(DATADIR)' | cmp -s - $@ || echo '$(DATADIR)' > $@
$(BUILD)/model/input/catalog.o $(BUILD)/pic/model/input/catalog.o: $(BUILD)/datadir.stamp
$(BUILD)/model/input/catalog.o $(BUILD)/pic/model/input/catalog.o: CPPFLAGS += -DTF_DATADIR='"$(DATADIR)"'

# Only what the installed header declares is exported (dist/version-script.sh).
SYMBOL_MAP := $(BUILD)/libtilefit.map
$(SYMBOL_MAP): dist/version-script.sh dist/declared.awk $(HEADER) $(PIC_OBJ)
	sh dist/version-script.sh $(HEADER) $(PIC_OBJ) > $@.tmp && mv $@.tmp $@

$(SHLIB): $(PIC_OBJ) $(SYMBOL_MAP)
	$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--no-undefined -Wl,--version-script=$(SYMBOL_MAP) \
	  -o $@ $(PIC_OBJ) $(LDLIBS)
$(BUILD)/$(SONAME): $(SHLIB)
	ln -sf $(notdir $<) $@
$(BUILD)/libtilefit.so: $(BUILD)/$(SONAME)
	ln -sf $(notdir $<) $@

$(HEADER): solver/api.h
	@mkdir -p $(dir $@)
	cp solver/api.h $@

# The C example of docs/library.md, built against the installed header's
# copy and the shared library alone, as a program outside the tree is
# (the doc test runs it; the install test builds it against an installation).
EXAMPLE := $(BUILD)/examples/solve
$(EXAMPLE): docs/examples/solve.c $(HEADER) $(BUILD)/libtilefit.so
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -Wall -Wextra -pedantic -Werror $(CFLAGS) -I$(BUILD)/include -o $@ $< \
	  -L$(BUILD) -ltilefit -Wl,-rpath,'$$ORIGIN/..'

$(BUILD)/tilefit.pc: dist/tilefit.pc.in $(BUILD)/datadir.stamp
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' dist/tilefit.pc.in > $@

install: $(BIN) $(LIB) shared $(HEADER) $(BUILD)/tilefit.pc
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(PREFIX)/include/tilefit \
	  $(DESTDIR)$(DATADIR)/machines $(DESTDIR)$(DATADIR)/model/worksets/include $(DESTDIR)$(MANDIR) \
	  $(DESTDIR)$(COMPDIR) $(DESTDIR)$(PYDIR)/tilefit
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/tilefit
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHLIB) $(DESTDIR)$(LIBDIR)/
	ln -sf libtilefit.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libtilefit.so
	install -m 644 $(BUILD)/tilefit.pc $(DESTDIR)$(LIBDIR)/pkgconfig/
	install -m 644 $(HEADER) $(DESTDIR)$(PREFIX)/include/tilefit/
	install -m 644 machines/*.json machines/SOURCES.md $(DESTDIR)$(DATADIR)/machines/
	install -d $(DESTDIR)$(DATADIR)/schema && install -m 644 solver/schema/tilefit.schema.json $(DESTDIR)$(DATADIR)/schema/
	install -m 644 model/worksets/*.json $(DESTDIR)$(DATADIR)/model/worksets/
	install -m 644 model/worksets/include/*.json $(DESTDIR)$(DATADIR)/model/worksets/include/
	install -m 644 dist/tilefit.1 $(DESTDIR)$(MANDIR)/
	install -m 644 dist/tilefit.bash $(DESTDIR)$(COMPDIR)/tilefit
	install -m 644 python/tilefit/*.py $(DESTDIR)$(PYDIR)/tilefit/
	install -d $(DESTDIR)$(DATADIR)/validate $(DESTDIR)$(DATADIR)/examples
	install -m 644 tests/data/validate/*.jsonl $(DESTDIR)$(DATADIR)/validate/
	install -m 644 python/examples/*.py $(DESTDIR)$(DATADIR)/examples/
	install -m 644 docs/examples/solve.c $(DESTDIR)$(DATADIR)/examples/

# The directories install may have made, deepest first: uninstall removes
# each when it is empty (never PREFIX itself, nor one holding other files).
INSTALL_DIRS = $(PYDIR) $(LIBDIR)/python3 $(LIBDIR)/pkgconfig $(LIBDIR) $(PREFIX)/include $(PREFIX)/bin \
  $(MANDIR) $(PREFIX)/share/man $(COMPDIR) $(PREFIX)/share/bash-completion $(PREFIX)/share

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/tilefit $(DESTDIR)$(LIBDIR)/libtilefit.a \
	  $(DESTDIR)$(LIBDIR)/libtilefit.so $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libtilefit.so.$(VERSION) \
	  $(DESTDIR)$(LIBDIR)/pkgconfig/tilefit.pc $(DESTDIR)$(MANDIR)/tilefit.1 $(DESTDIR)$(COMPDIR)/tilefit
	rm -rf $(DESTDIR)$(PREFIX)/include/tilefit $(DESTDIR)$(DATADIR) $(DESTDIR)$(PYDIR)/tilefit
	@for d in $(INSTALL_DIRS); do [ ! -d "$(DESTDIR)$$d" ] || rmdir --ignore-fail-on-non-empty "$(DESTDIR)$$d"; done

# Part of `make check`: install into a temporary prefix (from a build of
# its own, under build/install-test, since the prefix is compiled in) and
# use it from another directory, as a user would; then the Python module's
# unittest suite on the library built here.
check: check-install check-python check-doc check-schema
check-install:
	MAKE="$(MAKE)" CC="$(CC)" PYTHON="$(PYTHON)" sh tests/install/run.sh
# The doc test (docs/testing.md): every `$ tilefit ...` example of README.md
# and docs/*.md rerun and compared with the output shown; first the checker's
# own test, which must fail on deliberately stale blocks.
check-doc: $(BIN) shared $(CUDA_STUB) $(EXAMPLE)
	@if [ -x "$(PYTHON)" ]; then \
	  TILEFIT_LIB=$(CURDIR)/$(SHLIB) $(PYTHON) tests/doc/run.py --self-test --bin ./$(BIN) && \
	  TILEFIT_LIB=$(CURDIR)/$(SHLIB) $(PYTHON) tests/doc/run.py --bin ./$(BIN) && \
	  $(PYTHON) tests/data/measured/report.py --tilefit ./$(BIN) --check docs/cost-model.md; \
	else echo "check-doc: skipped: $(PYTHON) is absent"; fi
# The table of docs/cost-model.md, "Against published measurements", rewritten
# from `tilefit validate --json tests/data/measured/*.jsonl` (check-doc fails
# when it is stale).
measured-report: $(BIN)
	$(PYTHON) tests/data/measured/report.py --tilefit ./$(BIN) --write docs/cost-model.md
check-python: $(BIN) shared
	@if [ -x "$(PYTHON)" ]; then \
	  TILEFIT_LIB=$(CURDIR)/$(SHLIB) TILEFIT_DATA=$(CURDIR) PYTHONPATH=$(CURDIR)/python \
	    $(PYTHON) -m unittest discover -s tests/python -t tests/python; \
	else echo "check-python: skipped: $(PYTHON) is absent"; fi

# The shipped JSON Schema validates real outputs of every documented kind,
# each as exactly its kind (Debian's python3-jsonschema, .ci/deps).
check-schema: $(BIN)
	TILEFIT_DATA=$(CURDIR) $(PYTHON) tests/schema/validate.py ./$(BIN) solver/schema/tilefit.schema.json

-include $(PIC_OBJ:.o=.d)
