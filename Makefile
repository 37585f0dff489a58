# tilefit — plain make.  `make help` lists the targets.
CC      ?= gcc
PREFIX  ?= /usr/local
BUILD   ?= build
PKGS    := libcjson
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Wno-format-truncation -Wshadow -Wstrict-prototypes
CPPFLAGS += -I. -D_DEFAULT_SOURCE $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
ALL_CFLAGS = -std=c11 $(WARN) $(CFLAGS) -pthread -MMD -MP
LDLIBS  := -lglpk $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lcjson) -lm -pthread
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)

MODEL_SRC  := $(wildcard model/*.c)
ENCODE_SRC := $(wildcard encode/*.c)
SOLVER_SRC := $(filter-out solver/main.c,$(wildcard solver/*.c))
LIB_SRC    := $(MODEL_SRC) $(ENCODE_SRC) $(SOLVER_SRC)
TEST_SRC   := $(wildcard tests/check_*.c)

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
LIB      := $(BUILD)/libtilefit.a
BIN      := tilefit

.PHONY: all lib test check asan deps demo install uninstall clean help bench

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
	@missing=""; \
	command -v $(CC) >/dev/null 2>&1 || missing="$$missing gcc"; \
	command -v pkg-config >/dev/null 2>&1 || missing="$$missing pkg-config"; \
	[ -f /usr/include/glpk.h ] || missing="$$missing libglpk-dev"; \
	command -v glpsol >/dev/null 2>&1 || missing="$$missing glpk-utils"; \
	pkg-config --exists libcjson 2>/dev/null || missing="$$missing libcjson-dev"; \
	pkg-config --exists check 2>/dev/null || missing="$$missing check"; \
	command -v parallel >/dev/null 2>&1 || missing="$$missing parallel"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

# The README's first command: FlashAttention-4's K/V pipeline depth on a B200.
demo: deps
	@$(MAKE) --no-print-directory $(BIN)
	./$(BIN) solve -m b200 -w fa4-fwd -p d=128 -p dv=128 --fix B_r=128 --fix B_c=128 --fix q_stage=2 --objective "max stages" --explain

# The README's second command: the Check suites and end-to-end tests, then
# the same under AddressSanitizer and UndefinedBehaviorSanitizer.
test: deps
	@$(MAKE) --no-print-directory check
	@$(MAKE) --no-print-directory asan

check: $(BIN) $(BUILD)/check_tilefit
	TILEFIT_BIN=./$(BIN) $(BUILD)/check_tilefit

asan:
	@$(MAKE) --no-print-directory BUILD=build/asan CC=clang \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	  BIN=build/asan/tilefit build/asan/tilefit build/asan/check_tilefit
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  TILEFIT_BIN=build/asan/tilefit TILEFIT_DATA=$(CURDIR) build/asan/check_tilefit

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/tilefit \
	  $(DESTDIR)$(PREFIX)/share/tilefit/machines $(DESTDIR)$(PREFIX)/share/tilefit/model/worksets
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	for d in model encode solver; do install -d $(DESTDIR)$(PREFIX)/include/tilefit/$$d; \
	  install -m 644 $$d/*.h $(DESTDIR)$(PREFIX)/include/tilefit/$$d/; done
	install -m 644 machines/*.json $(DESTDIR)$(PREFIX)/share/tilefit/machines/
	install -m 644 model/worksets/*.json $(DESTDIR)$(PREFIX)/share/tilefit/model/worksets/

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/bin/$(BIN) $(DESTDIR)$(PREFIX)/lib/libtilefit.a \
	  $(DESTDIR)$(PREFIX)/include/tilefit $(DESTDIR)$(PREFIX)/share/tilefit

clean:
	rm -rf build $(BIN)

help:
	@echo "make            build ./tilefit and build/libtilefit.a"
	@echo "make demo       install missing packages, build, solve FA4 stages on a B200"
	@echo "make test       install missing packages, run all tests, then again under ASan+UBSan"
	@echo "make check      the tests only (normal build)"
	@echo "make asan       the tests only (clang, ASan+UBSan build in build/asan)"
	@echo "make install    PREFIX=/usr/local: binary, library, headers, machines, worksets"
	@echo "make clean"

-include $(LIB_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(BUILD)/solver/main.d
