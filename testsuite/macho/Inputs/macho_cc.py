#!/usr/bin/env python3
"""%cc for the Apple targets: links a test's C driver with b3c's Mach-O objects.

    macho_cc.py --target=x86_64-apple-macos [cc arguments: -o EXE driver.c b3.o ...]

lit.cfg.py makes this %cc when B3C_TARGET is x86_64-apple-macos or
arm64-apple-macos.  The arguments are a Linux C compiler's; every input that
is a Mach-O object is taken out.  Two proofs (docs/testing.md, "Apple targets"):

Run (proof 3).  The driver is compiled for the Linux host of the same
architecture (cc, or aarch64-linux-gnu-gcc run under qemu-aarch64) with
-fPIC, against a stub library that defines every external symbol of the
Mach-O objects, so that each reference of the driver to them goes through a
GOT entry.  A constructor (macho_run.c) loads the objects from their paths
(embedded at build time) before main, binds their undefined symbols to the
executable (-rdynamic) and its libraries, and points the executable's GOT
entries at the loaded definitions: function addresses and data are the real
ones, as in a static link.

Link (proof 2).  The driver is also compiled for the Apple triple
(clang -target T -ffreestanding -nostdinc with the headers in
Inputs/include) and linked with the Mach-O objects by ld64.lld against
Inputs/libSystem.tbd; any warning fails.  A driver that cannot be built for
macOS (Linux-only headers or assembly) is named in LINK_EXEMPT with the
reason; set B3C_MACHO_LINK=0 to skip the link step.  Once the objects carry
__LD,__compact_unwind, each of their procedures must have an entry there
(llvm-objdump --macho --unwind-info) and the executable __unwind_info.
"""

import os
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "Inputs"))
import cc_cache  # noqa: E402  (the drivers' compile cache, testsuite/Inputs/cc_cache.py)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
# The drivers' compiles are cached (lit.cfg.py sets B3C_CC_CACHE).
CC_CACHE = os.environ.get("B3C_CC_CACHE") or os.path.join(REPO, "build", "cc-cache")
MH_MAGIC_64 = 0xFEEDFACF
LC_SEGMENT_64 = 0x19
LC_SYMTAB = 0x2
N_STAB, N_PEXT, N_TYPE, N_EXT, N_SECT = 0xE0, 0x10, 0x0E, 0x01, 0x0E
N_ALT_ENTRY = 0x200
S_ATTR_PURE_INSTRUCTIONS, S_ATTR_SOME_INSTRUCTIONS = 0x80000000, 0x400
ZEROFILL_TYPES = (0x1, 0xC)

HOST = {
    "x86_64": {"cc": "cc", "ld_arch": "x86_64", "clang": "x86_64-apple-macos11"},
    "aarch64": {"cc": "aarch64-linux-gnu-gcc", "ld_arch": "arm64", "clang": "arm64-apple-macos11"},
}

# Drivers that cannot be compiled for macOS, so are not linked by ld64.lld
# (they still run through the loader).  Keyed by file name.
LINK_EXEMPT = {
    "exec-records.c": "Linux ucontext and ELF assembly (smrt.h)",
    "exec-patchpoint.c": "Linux ucontext and ELF assembly",
    "exec-wasm-bounds.c": "Linux signal handling and ELF assembly",
    "pinned.c": "ELF assembly trampolines",
    "oops-opaque.c": "Linux signal handling",
    "atomics-threads.c": "pthread",
}


def is_macho(path):
    try:
        with open(path, "rb") as f:
            return struct.unpack("<I", f.read(4))[0] == MH_MAGIC_64
    except (OSError, struct.error):
        return False


def macho_symbols(path):
    """[(name, is_function, size, align)] of the object's external definitions."""
    data = open(path, "rb").read()
    ncmds = struct.unpack_from("<I", data, 16)[0]
    off, sects, syms = 32, [], []
    symoff = nsyms = stroff = 0
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, off)
        if cmd == LC_SEGMENT_64:
            nsects = struct.unpack_from("<I", data, off + 64)[0]
            for k in range(nsects):
                s = off + 72 + 80 * k
                addr, sz = struct.unpack_from("<QQ", data, s + 32)
                align, flags = struct.unpack_from("<I", data, s + 52)[0], struct.unpack_from("<I", data, s + 64)[0]
                sects.append((addr, sz, align, flags))
        elif cmd == LC_SYMTAB:
            symoff, nsyms, stroff = struct.unpack_from("<III", data, off + 8)
        off += size
    defined = []  # (sect, value, name, external)
    for i in range(nsyms):
        strx, typ, sect, _desc, value = struct.unpack_from("<IBBHQ", data, symoff + 16 * i)
        if typ & N_STAB or typ & N_TYPE != N_SECT:
            continue
        end = data.index(b"\0", stroff + strx)
        name = data[stroff + strx:end].decode()
        defined.append((sect, value, name, bool(typ & N_EXT) and not typ & N_PEXT))
    for sect, value, name, external in defined:
        if not external or not name.startswith("_"):
            continue
        addr, sz, align, flags = sects[sect - 1]
        after = [v for s, v, _, _ in defined if s == sect and v > value]
        size = (min(after) if after else addr + sz) - value
        code = bool(flags & (S_ATTR_PURE_INSTRUCTIONS | S_ATTR_SOME_INSTRUCTIONS))
        yield name[1:], code, max(size, 1), 1 << align


def function_starts(path):
    """(address, name) of each procedure in the object's code sections, and
    whether it has a __LD,__compact_unwind section."""
    data = open(path, "rb").read()
    ncmds = struct.unpack_from("<I", data, 16)[0]
    off, sects, symoff, nsyms, stroff = 32, [], 0, 0, 0
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, off)
        if cmd == LC_SEGMENT_64:
            for k in range(struct.unpack_from("<I", data, off + 64)[0]):
                h = off + 72 + 80 * k
                names = tuple(data[h + i:h + i + 16].rstrip(b"\0").decode() for i in (16, 0))
                sects.append((names, struct.unpack_from("<I", data, h + 64)[0]))
        elif cmd == LC_SYMTAB:
            symoff, nsyms, stroff = struct.unpack_from("<III", data, off + 8)
        off += size
    starts = set()
    for i in range(nsyms):
        strx, typ, sect, desc, value = struct.unpack_from("<IBBHQ", data, symoff + 16 * i)
        name = data[stroff + strx:data.index(b"\0", stroff + strx)].decode()
        if typ & N_STAB or typ & N_TYPE != N_SECT or desc & N_ALT_ENTRY or name.startswith(("l", "L")):
            continue
        if sects[sect - 1][1] & (S_ATTR_PURE_INSTRUCTIONS | S_ATTR_SOME_INSTRUCTIONS):
            starts.add((value, name))
    return starts, any(n == ("__LD", "__compact_unwind") for n, _ in sects)


def unwind_check(objects, exe):
    """Each procedure of an object that has compact unwind has an entry (as
    llvm-objdump --macho --unwind-info shows it), and the executable has
    __unwind_info.  Objects without __compact_unwind are not checked."""
    checked = False
    for obj in objects:
        starts, has_unwind = function_starts(obj)
        if not has_unwind:
            continue
        checked = True
        out = subprocess.run(["llvm-objdump", "--macho", "--unwind-info", obj], stdout=subprocess.PIPE,
                             universal_newlines=True, check=True).stdout
        entries = {int(m, 16) for m in re.findall(r"^\s*start:\s+(0x[0-9a-f]+)", out, re.M)}
        missing = sorted(name for addr, name in starts if addr not in entries)
        if missing:
            sys.exit("macho_cc: %s: no compact unwind entry for %s" % (obj, ", ".join(missing)))
    if checked:
        out = subprocess.run(["llvm-objdump", "--macho", "--section-headers", exe], stdout=subprocess.PIPE,
                             universal_newlines=True, check=True).stdout
        if "__unwind_info" not in out:
            sys.exit("macho_cc: %s: no __unwind_info" % exe)


def stub_library(objects, arch, work, cc):
    """Builds work/libb3stubs.so: each external symbol of the objects, so the
    driver links; the loader rebinds the driver's references at run time."""
    lines = []
    for obj in objects:
        for name, code, size, align in macho_symbols(obj):
            q = '"%s"' % name
            if code:
                trap = "ud2" if arch == "x86_64" else "brk #1"
                lines += [".text", ".globl " + q, ".type %s, %%function" % q, q + ":", "  " + trap]
            else:
                lines += [".data", ".balign %d" % align, ".globl " + q, ".type %s, %%object" % q,
                          ".size %s, %d" % (q, size), q + ":", "  .zero %d" % size]
    src = os.path.join(work, "stubs.s")
    with open(src, "w") as f:
        f.write("\n".join(lines) + "\n.section .note.GNU-stack,\"\",%progbits\n")
    lib = os.path.join(work, "libb3stubs.so")
    subprocess.check_call([cc, "-shared", "-fPIC", "-o", lib, src])
    return lib


def loader_objects(objects, work, cc):
    """The loader and the table of the objects it loads before main (assembly,
    so that the driver's flags, such as -include, do not apply to it)."""
    paths = os.path.join(work, "paths.s")
    with open(paths, "w") as f:
        f.write('.section .rodata\n.globl b3_macho_npaths\n.p2align 2\nb3_macho_npaths: .long %d\n'
                '.section .data.rel.ro,"aw"\n.globl b3_macho_paths\n.p2align 3\nb3_macho_paths:\n' % len(objects))
        f.write("".join("  .quad .Lpath%d\n" % i for i in range(len(objects))))
        for i, o in enumerate(objects):
            f.write('.Lpath%d: .asciz "%s"\n' % (i, os.path.abspath(o).replace("\\", "\\\\").replace('"', '\\"')))
        f.write('.section .note.GNU-stack,"",%progbits\n')
    return [loader_object(cc), paths]


def loader_object(cc):
    """macho_run.c compiled once per compiler (build/macho/), again when it changes."""
    src = os.path.join(HERE, "macho_run.c")
    cache = os.path.join(REPO, "build", "macho")
    out = os.path.join(cache, "macho_run-%s.o" % os.path.basename(cc))
    newest = max(os.path.getmtime(src), os.path.getmtime(os.path.join(HERE, "macho_run.h")))
    if not os.path.exists(out) or os.path.getmtime(out) < newest:
        os.makedirs(cache, exist_ok=True)
        tmp = "%s.%d" % (out, os.getpid())
        subprocess.check_call([cc, "-std=c11", "-O1", "-fPIC", "-I", HERE, "-c", "-o", tmp, src])
        os.replace(tmp, out)  # atomic: tests build in parallel
    return out


def link_check(objects, sources, flags, arch, exe):
    """Proof 2: the driver built for macOS and linked with ld64.lld, no warnings."""
    exempt = [os.path.basename(s) for s in sources if os.path.basename(s) in LINK_EXEMPT]
    if exempt:
        return
    h = HOST[arch]
    keep = [a for a in flags if a.startswith(("-D", "-O", "-I")) or a == "-include"]
    # -include FILE: keep the pair
    incs = []
    for i, a in enumerate(flags):
        if a == "-include" and i + 1 < len(flags):
            incs += ["-include", flags[i + 1]]
    keep = [a for a in keep if a != "-include"]
    clang = ["clang", "-target", h["clang"], "-ffreestanding", "-nostdinc", "-isystem",
             os.path.join(HERE, "include"), "-isystem", "/usr/lib/llvm-14/lib/clang/14.0.6/include",
             "-Wno-everything"]
    objs = [cc_cache.compile(clang, keep + incs, src, CC_CACHE) for src in sources]
    out = exe + ".macos"
    cmd = ["ld64.lld-14", "-arch", h["ld_arch"], "-platform_version", "macos", "11.0", "11.0", "-o", out] + \
        objs + objects + [os.path.join(HERE, "libSystem.tbd")]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if p.returncode != 0 or p.stdout.strip():
        sys.stderr.write("macho_cc: ld64.lld %s:\n%s" % ("failed" if p.returncode else "warned", p.stdout))
        sys.exit(1)
    unwind_check(objects, out)


def main(argv):
    target = None
    if argv and argv[0].startswith("--target="):
        target = argv.pop(0)[len("--target="):]
    arch = {"arm64": "aarch64"}.get((target or "x86_64").split("-")[0], (target or "x86_64").split("-")[0])
    if arch not in HOST:
        sys.exit("macho_cc: target %s: x86_64 or arm64 Apple targets" % target)
    cc = os.environ.get("CC", HOST[arch]["cc"]) if arch == "x86_64" else HOST[arch]["cc"]
    objects, sources, apple_sources, rest, exe = [], [], [], [], None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "-o" and i + 1 < len(argv):
            exe = argv[i + 1]
            i += 2
            continue
        if a in ("-include", "-I", "-D") and i + 1 < len(argv):
            rest += [a, argv[i + 1]]
            i += 2
            continue
        if not a.startswith("-") and os.path.isfile(a) and is_macho(a):
            objects.append(a)
        else:
            if not a.startswith("-") and a.endswith(".o") and os.path.isfile(a[:-2] + ".c"):
                apple_sources.append(a[:-2] + ".c")  # a driver compiled apart (difftest)
            if not a.startswith("-") and a.endswith(".c"):
                sources.append(a)
            rest.append(a)
        i += 1
    if not objects or not exe:
        # nothing of b3c's (difftest compiles its driver alone first): a host
        # compile, -fPIC so that the driver reaches the objects through its GOT
        os.execvp(cc, [cc, "-fPIC"] + argv)
    work = exe + ".macho"
    os.makedirs(work, exist_ok=True)
    lib = stub_library(objects, arch, work, cc)
    loader = loader_objects(objects, work, cc)
    flags = [a for a in rest if a not in sources]
    # --no-as-needed: the objects' undefined symbols are looked up at run time
    # in the libraries named (-lm), which the driver alone may not use
    cflags = ["-fPIC"] + cc_cache.compile_flags(flags)
    rest = [cc_cache.compile([cc], cflags, a, CC_CACHE) if a in sources else a for a in rest]
    cmd = [cc, "-fPIC", "-Wl,--no-as-needed"] + rest + loader + [lib, "-Wl,-rpath," + os.path.abspath(work), "-rdynamic", "-ldl",
                                           "-o", exe]
    subprocess.check_call(cmd)
    if os.environ.get("B3C_MACHO_LINK", "1") != "0":
        link_check(objects, sources + apple_sources, flags, arch, exe)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except subprocess.CalledProcessError as e:
        sys.exit(e.returncode or 1)
