# Lua 5.4: the interpreter, built with CC at LEVEL, runs the scripts in
# programs/data/lua/ (VM, GC, coroutines, libraries, errors and stack
# overflows) under a small C stack; each script's output and exit status must
# match those of a gcc -O2 build of the same source.
PROGRAM_SOURCE=lua5.4
PROGRAM_ARM64=yes
# Debian's src/Makefile compiles through a libtool made by autoreconf and
# builds a C++ copy of the library too; this is its `linux-noreadline`
# target's compilation (the same files, -std=gnu99, LUA_COMPAT_5_3,
# LUA_USE_LINUX, -Wl,-E -ldl) written as a plain makefile.
echo "#define DEB_HOST_MULTIARCH \"$TARGET\"" > src/lua5.4-deb-multiarch.h
cat > lua.mk <<'MK'
SRC := $(filter-out src/luac.c,$(wildcard src/l*.c))
OBJ := $(patsubst src/%.c,$(D)/%.o,$(SRC))
$(D)/lua: $(OBJ)
	$(CC) -o $@ $^ -Wl,-E -ldl -lm
$(D)/%.o: src/%.c
	@mkdir -p $(D)
	$(CC) -std=gnu99 $(CFLAGS) -Wall -Wextra -DLUA_COMPAT_5_3 -DLUA_USE_LINUX -c $< -o $@
MK
ref_cc=gcc
[ "$TARGET" = x86_64-linux-gnu ] || ref_cc=$TARGET-gcc
start=$SECONDS
make -f lua.mk -j2 D=b3cc CC="$CC" CFLAGS="$LEVEL -g"
echo "b3cc build: $((SECONDS - start))s"
make -f lua.mk -j2 D=ref CC="$ref_cc" CFLAGS="-O2 -g"
cp "$HERE"/programs/data/lua/*.lua .
fail=0
for f in *.lua; do
    for d in ref b3cc; do
        start=$SECONDS
        # Lua's own test suite runs under `ulimit -s 1100`: the C stack must
        # hold LUAI_MAXCCALLS (200) nested C calls of the interpreter.
        (
            ulimit -s 1100
            $RUN ./$d/lua "$f" > "$f.$d" 2>&1 || echo "exit status $?" >> "$f.$d"
        )
        echo "$d $f: $((SECONDS - start))s"
    done
    if cmp -s "$f.ref" "$f.b3cc"; then
        echo "ok: $f"
    else
        echo "FAIL: $f differs from the gcc build's output"
        diff "$f.ref" "$f.b3cc" | head -20
        fail=1
    fi
done
exit $fail
