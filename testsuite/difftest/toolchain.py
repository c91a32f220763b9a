"""How difftest builds and runs a module for a target.

    b3c_flags, cc, run = toolchain("aarch64-linux-gnu")

The host's own target needs nothing: b3c's default target, `cc` (or $CC),
programs run directly.  Another target (arm64 on an x86-64 host) compiles
with --target=, links with the Debian cross compiler and runs under qemu-user
with the cross sysroot; scripts/deps.sh installs both.  The interpreter is
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


def toolchain(target=None):
    """(extra b3c flags, C compiler, run prefix) for target (default: the host)."""
    arch = gen_random.target_arch(target or host_arch())
    flags = [] if arch == B3C_DEFAULT_TARGET else ["--target=%s-linux-gnu" % arch]
    if arch == host_arch():
        return flags, os.environ.get("CC", "cc"), []
    cc, run = CROSS[arch]
    return flags, cc, run
