#!/usr/bin/env python3
"""%cc with a cache of compiled C drivers (docs/testing.md, "Speed").

    cc_cache.py CC [cc arguments]

Most execution tests link the same C driver with b3c's object in every
configuration (x86-64 at three levels, ...), so compiling the driver is most
of their time.  This wrapper compiles each .c input apart, keyed by the
compiler, the compile flags and the preprocessed source (so an edited header
misses), into B3C_CC_CACHE (lit.cfg.py: build/cc-cache), then runs the
original command with the cached objects in place of the sources.  `cc -c -o OUT
SRC` copies the cached object to OUT.  A command that preprocesses or
writes assembly (-E, -S), reads stdin, or has no .c input runs as it is.  macho_cc.py uses compile() for the Apple drivers too.
"""

import hashlib
import os
import shutil
import subprocess
import sys

# Flags that only the link reads, and flags followed by an argument.
LINK_ONLY = ("-l", "-L", "-Wl,", "-rdynamic", "-static", "-no-pie", "-shared", "-nostdlib")
WITH_ARG = ("-o", "-include", "-I", "-D", "-U", "-x", "-isystem", "-MF", "-MT")


def compile(cc, flags, src, cache):
    """The object of src compiled by cc (a list) with flags: cached."""
    pre = subprocess.run(cc + flags + ["-E", "-P", src], stdout=subprocess.PIPE, check=True).stdout
    h = hashlib.sha256()
    for part in cc + flags + [os.path.basename(src)]:
        h.update(part.encode() + b"\0")
    h.update(pre)
    out = os.path.join(cache, h.hexdigest()[:32] + ".o")
    if not os.path.exists(out):
        os.makedirs(cache, exist_ok=True)
        tmp = "%s.%d.tmp" % (out, os.getpid())
        subprocess.run(cc + flags + ["-c", "-o", tmp, src], check=True)
        os.replace(tmp, out)  # atomic: tests compile in parallel
    return out


def compile_flags(args):
    """The flags of a cc command line that its compiles read (not -o, -c, sources, link-only flags)."""
    flags, i = [], 0
    while i < len(args):
        a = args[i]
        if a in WITH_ARG and i + 1 < len(args):
            if a != "-o":
                flags += [a, args[i + 1]]
            i += 2
            continue
        if a.startswith("-") and not a.startswith(LINK_ONLY) and a != "-c":
            flags.append(a)
        i += 1
    return flags


def main(argv):
    cache = os.environ.get("B3C_CC_CACHE")
    cc, args = argv[:1], argv[1:]
    sources = [a for a in args if a.endswith(".c") and not a.startswith("-")]
    only_compile = "-c" in args
    plain = (not cache or any(a in ("-S", "-E", "-", "-M", "-MM") for a in args) or not sources
             or (only_compile and (len(sources) != 1 or "-o" not in args)))
    if plain:
        os.execvp(cc[0], cc + args)
    flags = compile_flags(args)
    try:
        objects = {src: compile(cc, flags, src, cache) for src in sources}
    except subprocess.CalledProcessError as e:
        sys.exit(e.returncode or 1)
    if only_compile:  # cc -c -o OUT SRC: a copy of the cached object
        shutil.copyfile(objects[sources[0]], args[args.index("-o") + 1])
        return
    # The compile flags stay (the link ignores them); the sources are objects now.
    os.execvp(cc[0], cc + [objects.get(a, a) for a in args])


if __name__ == "__main__":
    main(sys.argv[1:])
