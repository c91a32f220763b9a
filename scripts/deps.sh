#!/usr/bin/env bash
# Installs what b3c needs to build and test, and only what is missing.
#
# Idempotent: when every tool is already there it prints one line and changes
# nothing.  Otherwise it runs `apt-get update` once, then `apt-get install -y`
# with the missing Debian packages (Debian 12).  Works non-interactively as
# root; as another user it uses sudo when sudo exists.
#
#   bash scripts/deps.sh           install what is missing
#   bash scripts/deps.sh --check   only report; exit 1 if something is missing
set -euo pipefail

LLVM=/usr/lib/llvm-14

check_only=false
[ "${1:-}" = "--check" ] && check_only=true

missing=()   # Debian packages to install
why=()       # what was missing, for the message

need() { # need PACKAGE TEST...: PACKAGE is needed unless the test succeeds
    local pkg=$1
    shift
    if ! "$@" >/dev/null 2>&1; then
        why+=("$pkg ($*)")
        local p
        for p in "${missing[@]:-}"; do
            [ "$p" = "$pkg" ] && return 0
        done
        missing+=("$pkg")
    fi
}
have() { command -v "$1"; }
exists() { test -e "$1"; }
# libFuzzer and the sanitizer runtimes of clang 14 (libclang-rt-14-dev).
fuzzer_rt() { compgen -G "$LLVM/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a"; }

# ---- build ----------------------------------------------------------------
need make make -v
need gcc have gcc
need libc6-dev exists /usr/include/stdio.h
need re2c have re2c
need bison have bison
need libelf-dev exists /usr/include/libelf.h
need libelf-dev exists /usr/include/gelf.h

# ---- test -----------------------------------------------------------------
need python3 have python3
need llvm-14-tools exists "$LLVM/build/utils/lit/lit.py"
need llvm-14-tools exists "$LLVM/bin/FileCheck"
need llvm-14-tools exists "$LLVM/bin/not"
need llvm have llvm-mc
need llvm have llvm-objdump
need llvm have llvm-readobj
need binutils have readelf
need clang have clang
need clang-14 exists "$LLVM/bin/clang"
need libclang-rt-14-dev fuzzer_rt
need time exists /usr/bin/time
need lld have ld.lld       # the ELF tests also link with clang -fuse-ld=lld
need llvm have llvm-dwarfdump   # testsuite/debuginfo (-g)
need binutils have addr2line
need gdb have gdb
need g++ have g++          # the C++ driver of exec/unwind-exceptions.b3 (%cxx)
need groff-base have groff     # testsuite/cli/man-page.test renders docs/b3c.1

# ---- arm64: cross-compiling and running aarch64-linux-gnu programs --------------
# The arm64 test runs (scripts/check.sh, B3C_TARGET=aarch64-linux-gnu) link
# with the cross compiler (its sysroot is /usr/aarch64-linux-gnu) and run
# under qemu-user.
need gcc-aarch64-linux-gnu have aarch64-linux-gnu-gcc
need binutils-aarch64-linux-gnu have aarch64-linux-gnu-as
# The C++ driver that throws through b3c frames (exec/unwind-exceptions.b3).
need g++-aarch64-linux-gnu have aarch64-linux-gnu-g++
# Only recommended by the compiler (and we install without recommends): the
# C library's headers and objects for arm64.
need libc6-dev-arm64-cross exists /usr/aarch64-linux-gnu/include/stdio.h
need libc6-dev-arm64-cross exists /usr/aarch64-linux-gnu/lib/libc.so
need qemu-user have qemu-aarch64

# ---- C programs: b3cc, csmith differential testing, bench/cprograms.sh ------
# b3cc's front end is clang 16 (C to LLVM bitcode, which b3c imports through
# LLVM 16's C API); llc-16 is the benchmark's reference code generator.
need clang-16 have clang-16
need llvm-16-dev exists /usr/lib/llvm-16/include/llvm-c/Core.h
need llvm-16 have llc-16
need csmith have csmith
need libcsmith-dev exists /usr/include/csmith/csmith.h
need creduce have creduce

# ---- real programs (make check-programs): sources from Debian's source ------
# packages, fetched with `apt-get source` (scripts/program-source.sh), which
# needs a deb-src entry and dpkg-source.
need dpkg-dev have dpkg-source
# Programs whose Debian build regenerates configure (expat) need autotools.
need autoconf have autoreconf
need automake have automake
need libtool have libtoolize
src_list=/etc/apt/sources.list.d/b3c-src.sources
has_deb_src() { grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; }
add_deb_src=false
if ! has_deb_src; then
    add_deb_src=true
    why+=("a deb-src entry (apt-get source)")
fi

if [ ${#missing[@]} -eq 0 ] && ! $add_deb_src; then
    echo "deps: all build and test tools are present"
    exit 0
fi

echo "deps: missing: ${why[*]}"
if $check_only; then
    echo "deps: would install: ${missing[*]:-}"
    exit 1
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO=(sudo)
    else
        echo "deps: not root and no sudo: install these by hand: ${missing[*]}" >&2
        exit 1
    fi
fi

export DEBIAN_FRONTEND=noninteractive
if $add_deb_src; then
    echo "deps: adding $src_list (Debian 12's source packages)"
    printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm' \
        'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
        "${SUDO[@]}" tee "$src_list" > /dev/null
fi
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
if [ ${#missing[@]} -gt 0 ]; then
    echo "deps: apt-get install -y ${missing[*]}"
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
echo "deps: done"
