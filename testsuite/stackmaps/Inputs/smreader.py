#!/usr/bin/env python3
"""Reads the .llvm_stackmaps section (LLVM StackMap v3) of an x86-64 or AArch64
ELF relocatable object, resolving each function address through its
R_X86_64_64 / R_AARCH64_ABS64 relocation to the function symbol at that .text
offset; or the __LLVM_STACKMAPS,__llvm_stackmaps section of a Mach-O object
(the Apple targets), through its UNSIGNED relocation to the function symbol.

  smreader.py OBJ            a readable dump (for FileCheck)
  smreader.py OBJ --header   a C header: the records as data, with each
                             function's address taken from its symbol

Independent of b3c's writer: it follows the format description only, and
checks the layout invariants (version, reserved fields, alignment, size)."""
import struct
import sys

KINDS = {1: 'Register', 2: 'Direct', 3: 'Indirect', 4: 'Constant', 5: 'ConstIndex'}


def fail(msg):
    sys.exit('smreader: ' + msg)


def read_elf(path):
    data = open(path, 'rb').read()
    if data[:4] != b'\x7fELF' or data[4] != 2 or data[5] != 1:
        fail('not a little-endian ELF64 file')
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    secs = []
    for i in range(shnum):
        name, typ, flags, addr, off, size, link, info, align, entsize = struct.unpack_from(
            '<IIQQQQIIQQ', data, shoff + i * shentsize)
        secs.append(dict(name=name, type=typ, flags=flags, off=off, size=size, link=link, info=info,
                         align=align, entsize=entsize))
    strtab = secs[shstrndx]
    for s in secs:
        end = data.index(b'\0', strtab['off'] + s['name'])
        s['name'] = data[strtab['off'] + s['name']:end].decode()
        s['data'] = data[s['off']:s['off'] + s['size']] if s['type'] != 8 else b''
    machine, = struct.unpack_from('<H', data, 0x12)
    for s in secs:
        s['machine'] = machine
    return secs


# The 64-bit absolute relocation of each ELF machine: x86-64, AArch64.
ABS64 = {62: (1, 'R_X86_64_64'), 183: (257, 'R_AARCH64_ABS64')}


def symbols(secs):
    symtab = next(s for s in secs if s['type'] == 2)
    strs = secs[symtab['link']]['data']
    out = []
    for i in range(0, len(symtab['data']), 24):
        name, info, other, shndx, value, size = struct.unpack_from('<IBBHQQ', symtab['data'], i)
        out.append(dict(name=strs[name:strs.index(b'\0', name)].decode(), type=info & 15, shndx=shndx,
                        value=value, size=size))
    return out


def elf_stackmaps(path):
    """(section bytes, function_at) of an ELF object, or None."""
    secs = read_elf(path)
    idx = [i for i, s in enumerate(secs) if s['name'] == '.llvm_stackmaps']
    if not idx:
        return None
    smi = idx[0]
    sm = secs[smi]
    if sm['type'] != 1 or sm['flags'] != 3 or sm['align'] != 8:
        fail('.llvm_stackmaps must be PROGBITS, flags WA (writable so PIE links need no text relocation), align 8 (got type %d flags %#x align %d)' %
             (sm['type'], sm['flags'], sm['align']))
    syms = symbols(secs)
    text = [i for i, s in enumerate(secs) if s['name'] == '.text'][0]
    # Relocations of the section: offset -> (symbol, addend).
    relocs = {}
    for s in secs:
        if s['type'] == 4 and s['info'] == smi:
            for i in range(0, len(s['data']), 24):
                off, info, addend = struct.unpack_from('<QQq', s['data'], i)
                abs64 = ABS64.get(sm['machine'], (1, 'R_X86_64_64'))
                if info & 0xffffffff != abs64[0]:
                    fail('relocation type %d is not %s' % (info & 0xffffffff, abs64[1]))
                relocs[off] = (syms[info >> 32], addend)

    def function_at(f, pos, addr):
        if pos not in relocs:
            fail('function %d has no address relocation' % f)
        sym, addend = relocs[pos]
        if addr:
            fail('function %d: address field is %#x, not 0 (RELA)' % (f, addr))
        if sym['type'] == 3:  # a section symbol: find the function at that offset
            if sym['shndx'] != text:
                fail('function %d: relocation against a section other than .text' % f)
            names = [s['name'] for s in syms if s['type'] == 2 and s['shndx'] == text and s['value'] == addend]
            if not names:
                fail('function %d: no function symbol at .text+%#x' % (f, addend))
            return names[0]
        if addend:
            fail('function %d: symbol relocation with addend %d' % (f, addend))
        return sym['name']
    return sm['data'], function_at


def macho_stackmaps(data):
    """(section bytes, function_at) of a Mach-O object (the Apple targets), or
    None: __LLVM_STACKMAPS,__llvm_stackmaps, each function address an
    external UNSIGNED 8-byte relocation (implicit addend 0) to its symbol."""
    ncmds, = struct.unpack_from('<I', data, 16)
    off, sects, sm, symoff, nsyms, stroff = 32, [], None, 0, 0, 0
    for _ in range(ncmds):
        cmd, size = struct.unpack_from('<II', data, off)
        if cmd == 0x19:  # LC_SEGMENT_64
            for k in range(struct.unpack_from('<I', data, off + 64)[0]):
                h = off + 72 + 80 * k
                sect, seg = (data[h + i:h + i + 16].rstrip(b'\0').decode() for i in (0, 16))
                addr, sz, fileoff, align, reloff, nreloc = struct.unpack_from('<QQIIII', data, h + 32)
                if (seg, sect) == ('__LLVM_STACKMAPS', '__llvm_stackmaps'):
                    if align != 3:
                        fail('__llvm_stackmaps must be aligned to 8 (got 2^%d)' % align)
                    sm = (data[fileoff:fileoff + sz], reloff, nreloc)
        elif cmd == 0x2:  # LC_SYMTAB
            symoff, nsyms, stroff = struct.unpack_from('<III', data, off + 8)
        off += size
    if sm is None:
        return None
    b, reloff, nreloc = sm

    def name(i):
        strx, = struct.unpack_from('<I', data, symoff + 16 * i)
        return data[stroff + strx:data.index(b'\0', stroff + strx)].decode()
    relocs = {}
    for i in range(nreloc):
        addr, info = struct.unpack_from('<iI', data, reloff + 8 * i)
        symnum, length, ext, typ = info & 0xffffff, (info >> 25) & 3, (info >> 27) & 1, info >> 28
        if typ != 0 or length != 3 or not ext:
            fail('relocation at %#x: type %d length %d extern %d is not an external 8-byte UNSIGNED' %
                 (addr, typ, length, ext))
        relocs[addr] = name(symnum)

    def function_at(f, pos, addend):
        if pos not in relocs:
            fail('function %d has no address relocation' % f)
        if addend:
            fail('function %d: addend %d' % (f, addend))
        if not relocs[pos].startswith('_'):
            fail('function %d: symbol %s without the leading _' % (f, relocs[pos]))
        return relocs[pos][1:]  # the C name
    return b, function_at


def parse(path):
    data = open(path, 'rb').read()
    located = macho_stackmaps(data) if data[:4] == b'\xcf\xfa\xed\xfe' else elf_stackmaps(path)
    if located is None:
        return None
    b, function_at = located
    version, r0, r1, nfun, ncon, nrec = struct.unpack_from('<BBHIII', b, 0)
    if version != 3 or r0 or r1:
        fail('bad header: version %d reserved %d %d' % (version, r0, r1))
    pos = 16
    funcs = []
    for f in range(nfun):
        addr, stack, count = struct.unpack_from('<QQQ', b, pos)
        funcs.append(dict(name=function_at(f, pos, addr), stack=stack, count=count))
        pos += 24
    consts = []
    for c in range(ncon):
        consts.append(struct.unpack_from('<Q', b, pos)[0])
        pos += 8
    recs = []
    for r in range(nrec):
        rid, off, flags, nloc = struct.unpack_from('<QIHH', b, pos)
        if flags:
            fail('record %d: flags %d' % (r, flags))
        pos += 16
        locs = []
        for l in range(nloc):
            kind, res0, size, reg, res1, val = struct.unpack_from('<BBHHHi', b, pos)
            if kind not in KINDS or res0 or res1:
                fail('record %d location %d: kind %d reserved %d %d' % (r, l, kind, res0, res1))
            if kind == 5 and not 0 <= val < ncon:
                fail('record %d location %d: constant index %d out of range' % (r, l, val))
            locs.append(dict(kind=kind, size=size, reg=reg, value=val))
            pos += 12
        if pos % 8:
            if struct.unpack_from('<I', b, pos)[0]:
                fail('record %d: non-zero padding' % r)
            pos += 4
        pad, nlive = struct.unpack_from('<HH', b, pos)
        pos += 4 + 4 * nlive
        if pad:
            fail('record %d: non-zero padding before live-outs' % r)
        if pos % 8:
            pos += 4
        recs.append(dict(id=rid, offset=off, locs=locs, nlive=nlive))
    if pos != len(b):
        fail('section is %d bytes, records end at %d' % (len(b), pos))
    # Records belong to functions in order.
    i = 0
    for f in funcs:
        for r in recs[i:i + f['count']]:
            r['fn'] = f['name']
        i += f['count']
    if i != nrec:
        fail('record counts add up to %d, not %d' % (i, nrec))
    return funcs, consts, recs


def loc_text(l, consts):
    k = KINDS[l['kind']]
    if k == 'Register':
        return 'Register R#%d size %d' % (l['reg'], l['size'])
    if k in ('Direct', 'Indirect'):
        return '%s [R#%d %+d] size %d' % (k, l['reg'], l['value'], l['size'])
    if k == 'Constant':
        return 'Constant %d size %d' % (l['value'], l['size'])
    return 'ConstIndex #%d (%d) size %d' % (l['value'], consts[l['value']], l['size'])


def main():
    if len(sys.argv) < 2:
        fail('usage: smreader.py OBJ [--header]')
    parsed = parse(sys.argv[1])
    if parsed is None:
        if '--header' in sys.argv:
            print('#define SM_NRECORDS 0')
        else:
            print('no .llvm_stackmaps')
        return
    funcs, consts, recs = parsed
    if '--header' not in sys.argv:
        for f in funcs:
            print('function %s stack %d records %d' % (f['name'], f['stack'], f['count']))
        for c in consts:
            print('constant %d' % c)
        for r in recs:
            print('record id %d fn %s offset %d locations %d' % (r['id'], r['fn'], r['offset'], len(r['locs'])))
            for l in r['locs']:
                print('  ' + loc_text(l, consts))
        return
    print('/* Generated by smreader.py from %s. */' % sys.argv[1])
    print('#include <stdint.h>')
    print('typedef struct { int kind, size, reg; int64_t value; } SMLoc;')
    print('typedef struct { const char *fn; const void *addr; uint64_t id; uint32_t offset; int nlocs; '
          'const SMLoc *locs; } SMRecord;')
    for name in sorted(set(f['name'] for f in funcs)):
        print('extern char sm_fn_%s[] __asm__("%s");' % (name, name))
    for i, r in enumerate(recs):
        locs = []
        for l in r['locs']:
            v = consts[l['value']] if l['kind'] == 5 else l['value']
            kind = 4 if l['kind'] == 5 else l['kind']  # a pooled constant is just a constant here
            locs.append('{%d, %d, %d, (int64_t)%dull}' % (kind, l['size'], l['reg'], v & (2**64 - 1)))
        print('static const SMLoc sm_locs_%d[] = {%s};' % (i, ', '.join(locs) if locs else '{0, 0, 0, 0}'))
    print('#define SM_NRECORDS %d' % len(recs))
    print('static const SMRecord sm_records[SM_NRECORDS + 1] = {')
    for i, r in enumerate(recs):
        print('    {"%s", sm_fn_%s, %dull, %d, %d, sm_locs_%d},' % (r['fn'], r['fn'], r['id'], r['offset'],
                                                             len(r['locs']), i))
    print('    {0, 0, 0, 0, 0, 0}};')


main()
