#!/usr/bin/env python3
"""Mach-O objects: b3c's own against llvm-mc's from b3c -S.

  machoequiv.py A.o B.o
      compares two MH_OBJECT files; prints the differences, exits 1 if any.
  machoequiv.py --programs [--all] [--link] [-O0|-O1|-O2] B3C REPO WORKDIR --target=TRIPLE
      for every program of the test suite (testsuite/asm/Inputs/programs.py's
      list: testsuite/exec, testsuite/stackmaps/exec-*, examples; with
      --all every .b3 file under testsuite/ and examples/) that b3c
      compiles for TRIPLE (an Apple triple): b3c --emit=obj against
      `llvm-mc -filetype=obj -triple=TRIPLE` on b3c -S, plain and
      --asm-exact.  Prints one line per program and "macho: N programs, M
      failures" (a file b3c rejects, exit 1, is skipped).  With --link,
      each object must also link with ld64.lld-14 into a dylib (undefined
      symbols left to the dynamic linker) without a word of output.

The objects are read here (no tool output to parse).  Equal means: the same
header (CPU, file type, flags), the same load commands in the same order,
LC_BUILD_VERSION's platform, minimum OS, SDK and tools; every section's
segment and section names, address, size, alignment, flags and bytes;
every relocation entry, in file order, with every field (a symbol number
as the symbol's name); the LC_DYSYMTAB ranges; every symbol's name, type,
section, description and value — the external and undefined ones in
table order, the local ones (whose order llvm-mc takes from the text) as a
set.  String table offsets and the file layout around the sections are not
compared: they only address what is compared."""
import os
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

LC_SYMTAB, LC_DYSYMTAB, LC_SEGMENT_64, LC_BUILD_VERSION = 0x2, 0xb, 0x19, 0x32


class MachO:
    def __init__(self, path):
        d = open(path, 'rb').read()
        self.d = d
        magic, self.cpu, self.sub, self.ftype, ncmds, _, self.flags, _ = struct.unpack_from('<IiiIIIII', d, 0)
        if magic != 0xfeedfacf:
            raise ValueError('%s: not a 64-bit Mach-O file' % path)
        self.cmds, self.sections, self.build = [], [], None
        self.symtab = self.dysymtab = None
        at = 32
        for _ in range(ncmds):
            cmd, size = struct.unpack_from('<II', d, at)
            self.cmds.append(cmd)
            if cmd == LC_SEGMENT_64:
                nsects = struct.unpack_from('<I', d, at + 64)[0]
                for k in range(nsects):
                    s = at + 72 + 80 * k
                    sect, seg = d[s:s + 16].rstrip(b'\0').decode(), d[s + 16:s + 32].rstrip(b'\0').decode()
                    addr, sz, off, align, reloff, nreloc, flags, r1, r2, r3 = struct.unpack_from('<QQIIIIIIII', d, s + 32)
                    zerofill = (flags & 0xff) in (1, 0xc, 0x12)
                    self.sections.append({
                        'name': seg + ',' + sect, 'zerofill': zerofill, 'addr': addr, 'size': sz, 'align': align, 'flags': flags,
                        'reserved': (r1, r2, r3), 'bytes': b'' if zerofill else d[off:off + sz],
                        'relocs': [struct.unpack_from('<II', d, reloff + 8 * i) for i in range(nreloc)]})
            elif cmd == LC_BUILD_VERSION:
                self.build = struct.unpack_from('<IIII', d, at + 8)
            elif cmd == LC_SYMTAB:
                self.symtab = struct.unpack_from('<IIII', d, at + 8)
            elif cmd == LC_DYSYMTAB:
                self.dysymtab = struct.unpack_from('<18I', d, at + 8)
            at += size
        self.syms = []
        if self.symtab:
            symoff, nsyms, stroff, strsize = self.symtab
            for i in range(nsyms):
                strx, ntype, nsect, desc, value = struct.unpack_from('<IBBHQ', d, symoff + 16 * i)
                end = d.index(b'\0', stroff + strx)
                name = d[stroff + strx:end].decode('latin-1')
                sect = self.sections[nsect - 1]['name'] if nsect else ''
                self.syms.append((name, ntype, sect, desc, value))

    def reloc(self, w0, w1):
        """One relocation entry, its symbol or section by name."""
        if w0 & 0x80000000:
            return ('scattered', w0, w1)
        num, pcrel, length, ext, typ = w1 & 0xffffff, (w1 >> 24) & 1, (w1 >> 25) & 3, (w1 >> 27) & 1, w1 >> 28
        target = self.syms[num][0] if ext and num < len(self.syms) else \
            ('section ' + self.sections[num - 1]['name'] if 0 < num <= len(self.sections) else '#%d' % num)
        return ('address 0x%x' % w0, target, 'pcrel %d' % pcrel, 'length %d' % length, 'extern %d' % ext,
                'type %d' % typ)


def compare(a_path, b_path):
    """The differences between two objects, as lines."""
    a, b = MachO(a_path), MachO(b_path)
    out = []
    # llvm-mc writes DWARF CFI (__eh_frame, its last section) beside the
    # compact unwind that the .cfi_* of -S give; b3c writes only the compact
    # unwind (docs/backend.md, "Unwind information: frames and compact unwind").
    for x, y in ((a, b), (b, a)):
        names = [s['name'] for s in x.sections]
        if names and names[-1] == '__TEXT,__eh_frame' and '__TEXT,__eh_frame' not in [s['name'] for s in y.sections]:
            x.sections.pop()
            # The zerofill sections come after every other one: lay them
            # out again without it (and move their symbols along).
            end, shift = 0, {}
            for sect in x.sections:
                if not sect['zerofill']:
                    end = max(end, sect['addr'] + sect['size'])
            for sect in x.sections:
                if sect['zerofill']:
                    end = (end + (1 << sect['align']) - 1) & -(1 << sect['align'])
                    shift[sect['name']] = sect['addr'] - end
                    sect['addr'] = end
                    end += sect['size']
            x.syms = [(n, t, sc, d, v - shift.get(sc, 0)) for (n, t, sc, d, v) in x.syms]

    def same(what, x, y):
        if x != y:
            out.append('%s: %r != %r' % (what, x, y))

    same('cpu', (a.cpu, a.sub), (b.cpu, b.sub))
    same('file type', a.ftype, b.ftype)
    same('header flags', hex(a.flags), hex(b.flags))
    same('load commands', [hex(c) for c in a.cmds], [hex(c) for c in b.cmds])
    same('LC_BUILD_VERSION (platform, minos, sdk, ntools)', a.build, b.build)
    same('sections', [s['name'] for s in a.sections], [s['name'] for s in b.sections])
    for sa, sb in zip(a.sections, b.sections):
        n = sa['name']
        for k in ('addr', 'size', 'align', 'flags', 'reserved'):
            same('%s %s' % (n, k), sa[k], sb[k])
        if sa['bytes'] != sb['bytes']:
            at = next((i for i in range(min(len(sa['bytes']), len(sb['bytes'])))
                       if sa['bytes'][i] != sb['bytes'][i]), min(len(sa['bytes']), len(sb['bytes'])))
            out.append('%s bytes differ at 0x%x: %s != %s' % (n, at, sa['bytes'][at:at + 8].hex(),
                                                              sb['bytes'][at:at + 8].hex()))
        ra = [a.reloc(*r) for r in sa['relocs']]
        rb = [b.reloc(*r) for r in sb['relocs']]
        if ra != rb:
            out.append('%s relocations differ (%d, %d entries)' % (n, len(ra), len(rb)))
            for i, (x, y) in enumerate(zip(ra, rb)):
                if x != y:
                    out.append('  entry %d: %s != %s' % (i, ' '.join(x), ' '.join(y)))
                    break
    da, db = a.dysymtab, b.dysymtab
    same('LC_DYSYMTAB ranges', da and da[:6], db and db[:6])
    if da and db and da[:6] == db[:6]:
        nl = da[1]
        same('local symbols', sorted(a.syms[:nl]), sorted(b.syms[:nl]))
        same('external and undefined symbols', a.syms[nl:], b.syms[nl:])
    else:
        same('symbols', sorted(a.syms), sorted(b.syms))
    return out


def programs_main(argv):
    every, link = '--all' in argv, '--link' in argv
    levels = [x for x in argv if x in ('-O0', '-O1', '-O2')]
    args = [x for x in argv if not x.startswith('--target=') and x not in ('--all', '--link') and x not in levels]
    triples = [x[len('--target='):] for x in argv if x.startswith('--target=')]
    triple = triples[-1] if triples else 'x86_64-apple-macos'
    b3c, repo, work = (os.path.abspath(x) for x in args[:3])
    sys.path.insert(0, os.path.join(repo, 'testsuite', 'asm', 'Inputs'))
    import programs  # testsuite/asm/Inputs/programs.py: the list of programs
    arch = {'arm64': 'aarch64'}.get(triple.split('-')[0], triple.split('-')[0])
    # The same programs as -S on Linux for the architecture (its XFAIL/REQUIRES apply).
    progs = [(name, path) for name, path, _ in programs.programs(repo, programs.Target(arch + '-linux-gnu'), b3c)]
    if every:
        import glob
        listed = set(p for _, p in progs)
        for path in sorted(glob.glob(os.path.join(repo, 'testsuite', '**', '*.b3'), recursive=True) +
                           glob.glob(os.path.join(repo, 'examples', '*.b3'))):
            if path not in listed and '/Output/' not in path:
                progs.append((os.path.relpath(path, repo), path))
    # llvm-mc takes the minimum OS from the triple, not from .build_version,
    # and without one it targets a macOS too old for compact unwind: give it
    # b3c's default (11.0) when the triple has none.
    mc_triple = triple
    if not re.search(r'\d', triple.split('-')[-1]):
        mc_triple = triple.split('-')[0] + '-apple-macos11.0'
    mc = ['llvm-mc', '-filetype=obj', '-triple=' + mc_triple]

    def one(prog):
        return check([b3c] + levels, triple, mc, work, *prog, link=link)

    import concurrent.futures
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
        results = list(ex.map(one, progs))
    fails = count = 0
    for line in results:
        print(line)
        count += not line.startswith('SKIP')
        fails += line.startswith('FAIL')
    print('macho: %d programs, %d failures' % (count, fails))
    return 1 if fails else 0


def check(b3c, triple, mc, work, name, path, link=False):
    """One program (b3c: the command, b3c and its -O flag): 'PASS name',
    'SKIP name (...)' or 'FAIL name: ...'."""
    stem = re.sub(r'[^A-Za-z0-9]+', '_', name)
    cwd = os.path.join(work, stem)
    os.makedirs(cwd, exist_ok=True)
    ref = os.path.join(cwd, 'ref.o')
    p = subprocess.run(b3c + ['--target=' + triple, path, '-o', ref], cwd=cwd, capture_output=True)
    if p.returncode in (1, 2):
        return 'SKIP %s (does not compile)' % name
    problems = []
    if p.returncode:
        problems.append('b3c --emit=obj: ' + p.stderr.decode('latin-1'))
    for mode, flags in (('plain', []), ('exact', ['--asm-exact'])):
        if problems:
            break
        s, o = os.path.join(cwd, mode + '.s'), os.path.join(cwd, mode + '.o')
        p = subprocess.run(b3c + ['--target=' + triple, '-S'] + flags + [path, '-o', s], cwd=cwd,
                           capture_output=True)
        if p.returncode == 1 and b'cannot be written in assembly' in p.stderr:
            return 'SKIP %s (a symbol name assembly cannot spell)' % name
        if p.returncode:
            problems.append('b3c -S %s: %s' % (mode, p.stderr.decode('latin-1')))
            continue
        p = subprocess.run(mc + [s, '-o', o], cwd=cwd, capture_output=True)
        if p.returncode:
            problems.append('llvm-mc %s: %s' % (mode, p.stderr.decode('latin-1')[:2000]))
            continue
        diff = compare(ref, o)
        if diff:
            problems.append('%s: llvm-mc object differs:\n%s' % (mode, '\n'.join(diff[:20])))
    if link and not problems:
        arch = triple.split('-')[0]
        p = subprocess.run(['ld64.lld-14', '-arch', arch, '-platform_version', 'macos', '11.0', '11.0', '-dylib',
                            '-undefined', 'dynamic_lookup', '-o', os.path.join(cwd, 'ref.dylib'), ref],
                           cwd=cwd, capture_output=True)
        out = (p.stdout + p.stderr).decode('latin-1')
        # A reference to a thread-local defined elsewhere cannot be linked
        # alone: ld64.lld wants to see that the symbol is thread-local (it
        # refuses clang's object for `extern _Thread_local int x` the same
        # way).  The objects were compared above; only the link is skipped.
        extern_tlv = [l for l in out.splitlines() if l.strip()] and all(
            re.search(r'TLV\w* relocation requires that variable be thread-local', l) for l in out.splitlines() if l.strip())
        if (p.returncode or out) and not extern_tlv:
            problems.append('ld64.lld: %s' % out)
    if problems:
        return 'FAIL %s:\n  %s' % (name, '\n  '.join(x.replace('\n', '\n  ') for x in problems))
    return 'PASS %s' % name


def main():
    if len(sys.argv) > 1 and sys.argv[1] == '--programs':
        sys.exit(programs_main(sys.argv[2:]))
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    diff = compare(sys.argv[1], sys.argv[2])
    for line in diff:
        print(line)
    sys.exit(1 if diff else 0)


if __name__ == '__main__':
    main()
