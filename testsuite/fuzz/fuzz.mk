# Builds the fuzz targets with clang and sanitizers.  Used by scripts/fuzz.sh
# and scripts/fuzz-smoke.sh from the repository root:
#
#   make -f testsuite/fuzz/fuzz.mk MODE=fuzz    build/fuzz/fuzz/fuzz_frontend  (libFuzzer)
#   make -f testsuite/fuzz/fuzz.mk MODE=smoke   build/fuzz/smoke/replay        (plain main)
#   make -f testsuite/fuzz/fuzz.mk MODE=cover   build/fuzz/cover/replay        (edge coverage per input,
#                                                for corpus minimization; no sanitizers)
#
# MODE=fuzz-backend, smoke-backend, cover-backend: the same for the whole-backend
# target (fuzz_backend.c) instead of the front end's (fuzz_frontend.c), in
# build/fuzz/MODE/ (fuzz_backend or replay); MODE=fuzz-import, smoke-import,
# cover-import: the LLVM-IR front end's (fuzz_import.c, with import/*.c and
# LLVM's library).
#
# Every mode defines B3_ICE_ABORT: an internal error aborts, so it is a crash.
# Links every b3c source except cmd/main.c (and the b3cc driver's cmd/b3cc*.c,
# a program of its own), plus the sources that `make`
# generates from lexer/*.re and parser/*.y (run `make` first).
MODE ?= fuzz
BUILD ?= build
FUZZ_CC ?= $(shell command -v clang-14 || command -v clang || echo clang)
OUT = $(BUILD)/fuzz/$(MODE)
BASE_MODE := $(patsubst %-import,%,$(patsubst %-backend,%,$(MODE)))
ifeq ($(BASE_MODE),$(MODE))
TARGET_SRC = testsuite/fuzz/fuzz_frontend.c
TARGET_NAME = fuzz_frontend
else ifeq ($(BASE_MODE)-backend,$(MODE))
TARGET_SRC = testsuite/fuzz/fuzz_backend.c
TARGET_NAME = fuzz_backend
else
# The LLVM-IR front end, linked in, against LLVM's library (llvm-16-dev).
TARGET_SRC = testsuite/fuzz/fuzz_import.c $(wildcard import/*.c)
TARGET_NAME = fuzz_import
LLVM_CONFIG ?= $(shell command -v llvm-config-16 2>/dev/null || echo llvm-config-16)
IMPORT_CFLAGS = -isystem $(shell $(LLVM_CONFIG) --includedir)
IMPORT_LIBS = -L$(shell $(LLVM_CONFIG) --libdir) -lLLVM-16 -Wl,-rpath,$(shell $(LLVM_CONFIG) --libdir)
endif

# Keep the source list in step with the main Makefile.
SRC_DIRS := $(shell sed -n 's/^SRC_DIRS *= *//p' Makefile)
SRCS := $(filter-out cmd/main.c $(wildcard cmd/b3cc*.c),$(foreach d,$(SRC_DIRS),$(wildcard $(d)/*.c)))
GEN := $(patsubst %.re,$(BUILD)/%.c,$(wildcard lexer/*.re)) $(patsubst %.y,$(BUILD)/%.tab.c,$(wildcard parser/*.y))

SAN = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CFLAGS_COMMON = -std=c11 -DB3_ICE_ABORT -D_POSIX_C_SOURCE=200809L -I. -I$(BUILD) -g -O1 -Wall -Wextra \
    -Wno-unused-function -Wno-unused-but-set-variable -Wno-unused-parameter

ifeq ($(BASE_MODE),fuzz)
COMPILE_SAN = $(SAN) -fsanitize=fuzzer-no-link -DB3_FUZZ_LIBFUZZER
LINK_SAN = $(SAN) -fsanitize=fuzzer
MAIN =
TARGET = $(OUT)/$(TARGET_NAME)
else ifeq ($(BASE_MODE),cover)
COMPILE_SAN = -fsanitize-coverage=trace-pc-guard
LINK_SAN =
MAIN = testsuite/fuzz/replay_main.c
TARGET = $(OUT)/replay
# The coverage callbacks live in replay_main.c, which must not be instrumented.
$(OUT)/testsuite/fuzz/replay_main.o: COMPILE_SAN = -DB3_FUZZ_COVER
else
COMPILE_SAN = $(SAN)
LINK_SAN = $(SAN)
MAIN = testsuite/fuzz/replay_main.c
TARGET = $(OUT)/replay
endif

OBJS = $(patsubst %.c,$(OUT)/%.o,$(SRCS) $(TARGET_SRC) $(MAIN)) \
       $(patsubst $(BUILD)/%.c,$(OUT)/gen/%.o,$(GEN))

all: $(TARGET)

$(TARGET): $(OBJS)
	$(FUZZ_CC) $(LINK_SAN) -o $@ $(OBJS) -lelf -lm -ldl $(IMPORT_LIBS)

$(OUT)/gen/%.o: $(BUILD)/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CFLAGS_COMMON) $(COMPILE_SAN) -MMD -MP -c -o $@ $<

$(OUT)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CFLAGS_COMMON) $(COMPILE_SAN) $(IMPORT_CFLAGS) -MMD -MP -c -o $@ $<

-include $(OBJS:.o=.d)

.PHONY: all
