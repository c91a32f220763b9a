"""How difftest builds and runs a module for a target.

    b3c_flags, cc, run = toolchain("aarch64-linux-gnu")   # cc: a command (list)

The host's own target needs nothing: b3c's default target, `cc` (or $CC),
programs run directly.  Another target (arm64 on an x86-64 host) compiles
with --target=, links with the Debian cross compiler and runs under qemu-user
with the cross sysroot; scripts/deps.sh installs both.  An Apple target
(x86_64-apple-macos, arm64-apple-macos) links through
testsuite/macho/Inputs/macho_cc.py, which loads b3c's Mach-O object into a
Linux program of the same architecture (docs/testing.md, "Apple targets").  The interpreter is
the same for every target (the plan records the target for its calling
convention).
"""

import os
import platform

import gen_random

B3C_DEFAULT_TARGET = "x86_64"
CROSS = {"aarch64": ("aarch64-linux-gnu-gcc", ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"])}


def host_arch():
    return gen_random.target_arch(platform.machine().lower())


MACHO_CC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "macho", "Inputs",
                        "macho_cc.py")


def is_apple(target):
    return bool(target) and "-apple-" in target


def toolchain(target=None):
    """(extra b3c flags, C compiler command, run prefix) for target (default: the host)."""
    arch = gen_random.target_arch(target or host_arch())
    if is_apple(target):
        cc = ["python3", "-S", MACHO_CC, "--target=" + target]
        return ["--target=" + target], cc, [] if arch == host_arch() else CROSS[arch][1]
    flags = [] if arch == B3C_DEFAULT_TARGET else ["--target=%s-linux-gnu" % arch]
    if arch == host_arch():
        return flags, [os.environ.get("CC", "cc")], []
    cc, run = CROSS[arch]
    return flags, [cc], run
