# b3c — build, test, install.  `make`, `make check`, `make demo`.
CC ?= cc
PREFIX ?= /usr/local
DESTDIR ?=
BUILD ?= build
RE2C ?= re2c
BISON ?= bison
CFLAGS ?= -O2 -g
# The binary: `b3c` at the top; check-sanitize builds $(SAN_BUILD)/b3c.
BIN ?= b3c
B3C_CFLAGS = -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -I. -I$(BUILD)
LDLIBS = -lelf -lm -ldl

# Every .c file under the source directories is part of b3c; generated
# sources come from lexer/*.re and parser/*.y.
SRC_DIRS = util cmd ir lexer parser opt lower codegen codegen/air codegen/x86_64 codegen/arm64 objwriter
# cmd/b3cc*.c are the C driver b3cc, its own program.
B3CC_SRCS = $(wildcard cmd/b3cc*.c)
SRCS = $(filter-out $(B3CC_SRCS),$(foreach d,$(SRC_DIRS),$(wildcard $(d)/*.c)))
RE_SRCS = $(wildcard lexer/*.re)
Y_SRCS = $(wildcard parser/*.y)
GEN_C = $(RE_SRCS:%.re=$(BUILD)/%.c) $(Y_SRCS:%.y=$(BUILD)/%.tab.c)
GEN_H = $(Y_SRCS:%.y=$(BUILD)/%.tab.h)
OBJS = $(SRCS:%.c=$(BUILD)/%.o) $(GEN_C:$(BUILD)/%.c=$(BUILD)/gen/%.o)

# The LLVM-IR front end (import/): b3c-llvm.so beside the binary, built
# against LLVM's C API (llvm-16-dev).
LLVM_CONFIG ?= $(shell command -v llvm-config-16 2>/dev/null || echo llvm-config-16)
IMPORT_SO = $(dir $(BIN))b3c-llvm.so
IMPORT_SRCS = $(wildcard import/*.c)
IMPORT_OBJS = $(IMPORT_SRCS:%.c=$(BUILD)/pic/%.o)

all: $(BIN) $(IMPORT_SO) b3cc

# b3c exports its symbols (-rdynamic) for the LLVM-IR front end, a shared
# object it loads only for LLVM input (cmd/import_loader.c).
$(BIN): $(OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -rdynamic -o $@ $(OBJS) $(LDLIBS)

# It calls back into b3c's IR code.
$(BUILD)/pic/import/%.o: import/%.c
	@mkdir -p $(dir $@)
	$(CC) $(B3C_CFLAGS) $(CFLAGS) -fPIC -isystem $(shell $(LLVM_CONFIG) --includedir) -MMD -MP -c -o $@ $<
# It links LLVM's component archives (llvm-16-dev's static libraries), their
# symbols hidden: the linker keeps what the import reaches (4 MB, against
# the 100 MB of libLLVM-16.so and the libraries it loads) and resolves the
# calls inside it, so loading it binds ~400 symbols rather than ~20,000 and
# touches a third of the pages (b3c -O0 on a C file's bitcode: a tenth
# fewer instructions).  The C++ runtime is linked in too (loading
# libstdc++.so and binding its symbols was 3.5M instructions, more than
# half of b3c -O0 on a small C file); only terminfo (LLVM's colour check)
# stays shared.
LLVM_COMPONENTS = bitreader irreader core analysis target
$(IMPORT_SO): $(IMPORT_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -o $@ $(IMPORT_OBJS) -Wl,--gc-sections -Wl,--exclude-libs,ALL \
	    -Wl,-Bsymbolic -L$(shell $(LLVM_CONFIG) --libdir) \
	    $(shell $(LLVM_CONFIG) --link-static --libs $(LLVM_COMPONENTS)) -ltinfo \
	    -static-libgcc -Wl,-Bstatic -lstdc++ -Wl,-Bdynamic -lm
-include $(IMPORT_OBJS:.o=.d)

# b3cc: the cc-compatible C driver (clang's front end, b3c, the system cc),
# with the allocation layer of util/ (its out-of-memory policy is its own).
b3cc: $(B3CC_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/util/alloc.o
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^

# `make b3c` builds the configured binary whatever its name.
ifneq ($(BIN),b3c)
b3c: $(BIN)
.PHONY: b3c
endif

$(BUILD)/%.tab.c $(BUILD)/%.tab.h: %.y
	@mkdir -p $(dir $@)
	$(BISON) -Wall -Werror --defines=$(BUILD)/$*.tab.h -o $(BUILD)/$*.tab.c $<

$(BUILD)/lexer/%.c: lexer/%.re $(GEN_H)
	@mkdir -p $(dir $@)
	$(RE2C) -W -Werror --no-generation-date -o $@ $<

$(BUILD)/%.o: %.c $(GEN_H)
	@mkdir -p $(dir $@)
	$(CC) $(B3C_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# Generated code: bison's skeleton trips a few of our warnings.
$(BUILD)/gen/%.o: $(BUILD)/%.c $(GEN_H)
	@mkdir -p $(dir $@)
	$(CC) $(B3C_CFLAGS) $(CFLAGS) -Wno-unused-function -Wno-unused-but-set-variable -MMD -MP -c -o $@ $<

# Air opcode forms: parsed at build time from codegen/air/opcodes.def.
AIR_FORMS = $(BUILD)/codegen/air/air_forms.h
$(BUILD)/tools/gen_forms: codegen/air/tools/gen_forms.c codegen/air/opcodes.def codegen/air/air.h ir/ir.h
	@mkdir -p $(dir $@)
	$(CC) $(B3C_CFLAGS) -O1 -o $@ $<
$(AIR_FORMS): $(BUILD)/tools/gen_forms
	@mkdir -p $(dir $@)
	$(BUILD)/tools/gen_forms > $@.tmp && mv $@.tmp $@
$(BUILD)/codegen/air/air.o: $(AIR_FORMS)

# Keep generated sources: they are inputs to the objects, not throwaway intermediates.
.SECONDARY: $(GEN_C) $(GEN_H)

-include $(OBJS:.o=.d) $(B3CC_SRCS:%.c=$(BUILD)/%.d)

deps:
	bash scripts/deps.sh

# The tools must be installed before anything is built, even under -j.
# `make check`: every test but the long sweeps, under three minutes on two
# cores; `make check-long`: only those (CI runs both).  scripts/check.sh.
check: deps
	$(MAKE) b3c $(IMPORT_SO) b3cc
	bash scripts/check.sh

check-long: deps
	$(MAKE) b3c $(IMPORT_SO) b3cc
	bash scripts/check.sh --long

# Real C programs from Debian's source packages, built with CC=b3cc and
# tested with their own test suites (programs/, scripts/check-programs.sh).
check-programs: deps
	$(MAKE) b3c $(IMPORT_SO) b3cc
	bash scripts/check-programs.sh

# The part of check-programs CI runs (a few minutes): the quick builds on
# x86-64 at -O0 and -O2.
check-programs-quick: deps
	$(MAKE) b3c $(IMPORT_SO) b3cc
	bash scripts/check-programs.sh --programs=zlib,bzip2,lua --target=x86_64-linux-gnu

# make check's set with b3c and b3c-llvm.so built with ASan + UBSan (any
# report is fatal), in its own build directory so the normal build is
# untouched, and the fuzz corpus replays (sanitized harnesses).  LLVM's
# own library is not instrumented; the import leaks nothing LeakSanitizer
# sees, so no suppressions are needed.  intercept_tls_get_addr=0: the
# sanitizer runtime misreads glibc's dynamic TLS blocks (libstdc++'s
# std::call_once state, once LLVM's pass registry runs) and its leak scan
# crashes on them (google/sanitizers#1322); static TLS is still scanned.
# Tests that cannot run sanitized say `UNSUPPORTED: sanitized`.  Ends with
# check.sh's "N passed, N failed, N skipped" line.
SAN_BUILD ?= build-san
SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
check-sanitize: deps
	$(MAKE) BUILD=$(SAN_BUILD) BIN=$(SAN_BUILD)/b3c CFLAGS="-O1 -g $(SAN_FLAGS)" LDFLAGS="$(SAN_FLAGS)" \
	    $(SAN_BUILD)/b3c $(SAN_BUILD)/b3c-llvm.so
	$(MAKE) b3cc
	B3C=$(CURDIR)/$(SAN_BUILD)/b3c B3C_SANITIZED=1 B3C_TEST_EXEC_ROOT=$(CURDIR)/$(SAN_BUILD)/testsuite \
	    ASAN_OPTIONS=$${ASAN_OPTIONS:-detect_leaks=1:intercept_tls_get_addr=0} UBSAN_OPTIONS=$${UBSAN_OPTIONS:-print_stacktrace=1} \
	    bash scripts/check.sh --fuzz

demo: deps
	$(MAKE) b3c $(IMPORT_SO)
	bash scripts/demo.sh

fuzz-smoke: deps
	bash scripts/fuzz-smoke.sh

fuzz-smoke-backend: deps
	bash scripts/fuzz-smoke.sh --backend

bench: b3c
	bash bench/run.sh

format:
	clang-format -i $(SRCS) $(wildcard */*.h */*/*.h)

# `make install` puts the binary, the manual page and the documents under
# $(DESTDIR)$(PREFIX); `make uninstall` removes exactly those files (and the
# b3c document directory, which is b3c's own).  The binary is $(BIN), built
# if it is out of date (testsuite/cli/install.test passes `-o $(BIN)`), and
# b3cc beside it.
BINDIR = $(PREFIX)/bin
MAN1DIR = $(PREFIX)/share/man/man1
DOCDIR = $(PREFIX)/share/doc/b3c
LIBDIR = $(PREFIX)/lib/b3c
DOCS = README.md $(wildcard docs/*.md)
install: $(BIN) $(IMPORT_SO) b3cc
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MAN1DIR) $(DESTDIR)$(DOCDIR) $(DESTDIR)$(LIBDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/b3c
	install -m 755 b3cc $(DESTDIR)$(BINDIR)/b3cc
	install -m 755 $(IMPORT_SO) $(DESTDIR)$(LIBDIR)/b3c-llvm.so
	install -m 644 docs/b3c.1 $(DESTDIR)$(MAN1DIR)/b3c.1
	install -m 644 docs/b3cc.1 $(DESTDIR)$(MAN1DIR)/b3cc.1
	install -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/b3c $(DESTDIR)$(BINDIR)/b3cc $(DESTDIR)$(MAN1DIR)/b3c.1 $(DESTDIR)$(MAN1DIR)/b3cc.1 $(addprefix $(DESTDIR)$(DOCDIR)/,$(notdir $(DOCS)))
	rm -f $(DESTDIR)$(LIBDIR)/b3c-llvm.so
	-rmdir $(DESTDIR)$(DOCDIR) $(DESTDIR)$(LIBDIR)

clean:
	rm -rf $(BUILD) $(SAN_BUILD) b3c b3cc

.PHONY: all deps check check-long check-programs check-programs-quick check-sanitize demo fuzz-smoke fuzz-smoke-backend bench format install uninstall clean
