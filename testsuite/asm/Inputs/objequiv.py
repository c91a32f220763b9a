#!/usr/bin/env python3
"""Compares two ELF relocatable objects (x86-64 or AArch64) for equivalence:
b3c's own (--emit=obj) and one an assembler made from b3c's -S output.

  objequiv.py [--relaxed] OURS.o THEIRS.o

Exact (default, for `-S --asm-exact`): the same sections (name, type, flags,
alignment, size; empty sections and the assembler's own bookkeeping aside),
the same symbols (name, binding, type, section, value, size), the same bytes
and the same relocations.  Relocations are compared by what they resolve to:
a local target (a section symbol or a local symbol) is its section plus
offset, a global one its name plus addend, and a PC-relative relocation to a
local target in its own section -- which an assembler resolves itself, while
b3c's writer leaves it to the linker -- is applied to the bytes first, in
both objects.  AArch64 mapping symbols ($x, $d) in code are symbols like
the others (llvm-mc's numbered $x.N, $d.N count as $x, $d); those in data
sections, which the assemblers add and b3c does not, are left out.

--relaxed (for plain -S, where the assembler may shorten jumps): sections by
name, type and flags; symbols by name, binding, type and section; data
sections byte for byte with their relocations, except relocations into
.text (whose offsets move with the code).

.eh_frame (from the .cfi_* directives) is compared by what it says, not by
its bytes: the rows of llvm-dwarfdump --eh-frame, each an address and the
rules from there on (relaxed: the rules alone).  GNU as encodes the same
rows with other factors (AArch64) and another section type (x86-64).

Prints the differences and exits 1, or prints "equivalent"."""
import re
import struct
import subprocess
import sys

SHT_SYMTAB, SHT_STRTAB, SHT_RELA, SHT_NOBITS = 2, 3, 4, 8
SHF_ALLOC, SHF_EXECINSTR = 2, 4
EM_X86_64, EM_AARCH64 = 62, 183


def put_field(body, off, value, kind):
    """Applies a resolved PC-relative value to the field of relocation `kind`."""
    if kind == 'word32':
        struct.pack_into('<i', body, off, value)
        return
    w, = struct.unpack_from('<I', body, off)
    if kind == 'imm26':  # b, bl
        w = (w & ~0x3ffffff) | ((value >> 2) & 0x3ffffff)
    elif kind == 'adr21':  # adr
        w = (w & ~(3 << 29 | 0x7ffff << 5)) | (value & 3) << 29 | ((value >> 2) & 0x7ffff) << 5
    struct.pack_into('<I', body, off, w & 0xffffffff)


# Per machine: the PC-relative relocations an assembler resolves within a
# section, by the field they fill, and the names of the relocation types.
PC_RELATIVE = {
    EM_X86_64: {2: 'word32', 4: 'word32'},
    EM_AARCH64: {261: 'word32', 274: 'adr21', 282: 'imm26', 283: 'imm26'},
}
RELOC_NAMES = {
    EM_X86_64: {1: 'R_X86_64_64', 2: 'R_X86_64_PC32', 4: 'R_X86_64_PLT32', 9: 'R_X86_64_GOTPCREL',
                41: 'R_X86_64_GOTPCRELX', 42: 'R_X86_64_REX_GOTPCRELX', 10: 'R_X86_64_32'},
    EM_AARCH64: {257: 'R_AARCH64_ABS64', 258: 'R_AARCH64_ABS32', 261: 'R_AARCH64_PREL32',
                 274: 'R_AARCH64_ADR_PREL_LO21', 275: 'R_AARCH64_ADR_PREL_PG_HI21',
                 277: 'R_AARCH64_ADD_ABS_LO12_NC', 278: 'R_AARCH64_LDST8_ABS_LO12_NC',
                 282: 'R_AARCH64_JUMP26', 283: 'R_AARCH64_CALL26', 284: 'R_AARCH64_LDST16_ABS_LO12_NC',
                 285: 'R_AARCH64_LDST32_ABS_LO12_NC', 286: 'R_AARCH64_LDST64_ABS_LO12_NC',
                 299: 'R_AARCH64_LDST128_ABS_LO12_NC', 311: 'R_AARCH64_ADR_GOT_PAGE',
                 312: 'R_AARCH64_LD64_GOT_LO12_NC'},
}
BIND = {0: 'LOCAL', 1: 'GLOBAL', 2: 'WEAK'}
TYPE = {0: 'NOTYPE', 1: 'OBJECT', 2: 'FUNC', 3: 'SECTION', 4: 'FILE'}


class Obj:
    def __init__(self, path):
        data = open(path, 'rb').read()
        if data[:4] != b'\x7fELF' or data[4] != 2 or data[5] != 1:
            sys.exit('%s: not a little-endian ELF64 file' % path)
        self.machine, = struct.unpack_from('<H', data, 0x12)
        shoff, = struct.unpack_from('<Q', data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
        raw = []
        for i in range(shnum):
            raw.append(struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize))
        shstr = raw[shstrndx]
        strs = data[shstr[4]:shstr[4] + shstr[5]]
        self.secs = []
        for (name, typ, flags, addr, off, size, link, info, align, entsize) in raw:
            nm = strs[name:strs.index(b'\0', name)].decode('latin-1')
            body = bytearray(size if typ == SHT_NOBITS else data[off:off + size])
            self.secs.append(dict(name=nm, type=typ, flags=flags, size=size, align=align, link=link,
                                  info=info, data=body, entsize=entsize))
        self.syms = []
        for s in self.secs:
            if s['type'] == SHT_SYMTAB:
                st = self.secs[s['link']]['data']
                for k in range(0, len(s['data']), 24):
                    name, info, other, shndx, value, size = struct.unpack_from('<IBBHQQ', s['data'], k)
                    self.syms.append(dict(name=st[name:st.index(b'\0', name)].decode('latin-1'),
                                          bind=info >> 4, type=info & 15, shndx=shndx, value=value,
                                          size=size))
        # relocs[section index] = list of (offset, type, symbol index, addend)
        self.relocs = {}
        for s in self.secs:
            if s['type'] == SHT_RELA:
                lst = self.relocs.setdefault(s['info'], [])
                for k in range(0, len(s['data']), 24):
                    off, info, addend = struct.unpack_from('<QQq', s['data'], k)
                    lst.append((off, info & 0xffffffff, info >> 32, addend))

    def sec_name(self, idx):
        if idx == 0:
            return 'UND'
        if idx >= 0xff00:
            return 'ABS' if idx == 0xfff1 else 'COMMON' if idx == 0xfff2 else '?'
        return self.secs[idx]['name']

    def target(self, symidx, addend):
        """What a relocation refers to: ('sec', name, offset) or ('sym', name, addend)."""
        s = self.syms[symidx]
        if s['type'] == 3 or (s['bind'] == 0 and s['shndx'] not in (0, 0xfff1)):
            return ('sec', self.sec_name(s['shndx']), s['value'] + addend)
        return ('sym', s['name'], addend)

    def canonical(self):
        """Section bytes with local same-section PC-relative relocations applied,
        and the other relocations by target: {name: (bytes, [(off, type, target)])}."""
        out = {}
        for i, s in enumerate(self.secs):
            if s['type'] in (0, SHT_SYMTAB, SHT_STRTAB, SHT_RELA):
                continue
            body = bytearray(s['data'])
            rel = []
            pcrel = PC_RELATIVE.get(self.machine, {})
            for off, typ, symidx, addend in self.relocs.get(i, []):
                t = self.target(symidx, addend)
                if typ in pcrel and t[0] == 'sec' and t[1] == s['name']:
                    put_field(body, off, t[2] - off, pcrel[typ])
                    continue
                rel.append((off, RELOC_NAMES.get(self.machine, {}).get(typ, str(typ)), t))
            out[s['name']] = (bytes(body), sorted(rel), s)
        return out


def eh_rows(path, relaxed):
    out = subprocess.run(['llvm-dwarfdump', '--eh-frame', path], capture_output=True, text=True,
                         check=True).stdout
    rows = []
    for line in out.splitlines():
        m = re.match(r'\s+0x([0-9a-f]+): (CFA=.*)', line)
        if m:
            rows.append(m.group(2) if relaxed else '0x%s: %s' % m.groups())
    return rows


def sections(o, relaxed):
    res = {}
    for s in o.secs:
        if s['type'] in (0, SHT_SYMTAB, SHT_STRTAB, SHT_RELA) or s['name'] == '.eh_frame':
            continue
        # Assemblers always make .text/.data/.bss; an empty section holds nothing.
        if s['size'] == 0 and s['name'] != '.note.GNU-stack':
            continue
        key = (s['type'], s['flags']) if relaxed else (s['type'], s['flags'], s['align'], s['size'])
        res[s['name']] = key
    return res


def symbols(o, relaxed):
    res = set()
    for s in o.syms:
        if s['type'] in (3, 4) or not s['name']:
            continue
        # AArch64 mapping symbols ($x code, $d data) in code are compared as the
        # others (llvm-mc numbers them: $x.0, $d.1, ...); in data sections, where
        # they are optional, the assemblers disagree and b3c writes none.
        name = s['name']
        if o.machine == EM_AARCH64 and s['bind'] == 0 and name[:2] in ('$x', '$d') and name[2:3] in ('', '.'):
            if not o.secs[s['shndx']]['flags'] & SHF_EXECINSTR:
                continue
            name = name[:2]
        # GNU as names the GOT whenever a GOT-relative relocation is used; linkers define it.
        if s['name'] == '_GLOBAL_OFFSET_TABLE_' and s['shndx'] == 0:
            continue
        if relaxed:
            res.add((name, BIND.get(s['bind']), TYPE.get(s['type']), o.sec_name(s['shndx'])))
        else:
            res.add((name, BIND.get(s['bind']), TYPE.get(s['type']), o.sec_name(s['shndx']),
                     s['value'], s['size']))
    return res


def main():
    args = sys.argv[1:]
    relaxed = '--relaxed' in args
    args = [a for a in args if a != '--relaxed']
    if len(args) != 2:
        sys.exit(__doc__)
    a, b = Obj(args[0]), Obj(args[1])
    bad = []
    if a.machine != b.machine:
        bad.append('machine %d vs %d' % (a.machine, b.machine))
    sa, sb = sections(a, relaxed), sections(b, relaxed)
    for n in sorted(set(sa) | set(sb)):
        if sa.get(n) != sb.get(n):
            bad.append('section %s: %s vs %s' % (n, sa.get(n), sb.get(n)))
    ya, yb = symbols(a, relaxed), symbols(b, relaxed)
    for s in sorted(ya - yb):
        bad.append('symbol only in %s: %s' % (args[0], s))
    for s in sorted(yb - ya):
        bad.append('symbol only in %s: %s' % (args[1], s))
    ca, cb = a.canonical(), b.canonical()
    for n in sorted(set(sa) & set(sb)):
        if relaxed and sa[n][1] & SHF_ALLOC and n == '.text':
            continue
        ba, ra, _ = ca[n]
        bb, rb, _ = cb[n]
        if relaxed:
            ra = [r for r in ra if r[2][:2] != ('sec', '.text')]
            rb = [r for r in rb if r[2][:2] != ('sec', '.text')]
            if n == '.llvm_stackmaps':
                continue  # record offsets move with the code; smreader checks them at run time
        if ba != bb:
            diffs = [k for k in range(min(len(ba), len(bb))) if ba[k] != bb[k]]
            bad.append('section %s: bytes differ (%d bytes, first at 0x%x)' %
                       (n, len(diffs), diffs[0] if diffs else min(len(ba), len(bb))))
        if ra != rb:
            ma, mb = set(ra) - set(rb), set(rb) - set(ra)
            for r in sorted(ma)[:10]:
                bad.append('section %s: relocation only in %s: %s' % (n, args[0], r))
            for r in sorted(mb)[:10]:
                bad.append('section %s: relocation only in %s: %s' % (n, args[1], r))
    ea, eb = eh_rows(args[0], relaxed), eh_rows(args[1], relaxed)
    if ea != eb:
        k = next((i for i in range(min(len(ea), len(eb))) if ea[i] != eb[i]), min(len(ea), len(eb)))
        bad.append('.eh_frame: %d vs %d rows, first difference at row %d: %s vs %s' %
                   (len(ea), len(eb), k, ea[k] if k < len(ea) else None, eb[k] if k < len(eb) else None))
    for line in bad[:40]:
        print(line)
    if bad:
        print('%d differences' % len(bad))
        sys.exit(1)
    print('equivalent')


if __name__ == '__main__':
    main()
