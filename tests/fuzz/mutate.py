# SPDX-License-Identifier: GPL-2.0
"""Mutations of a perf.data file.

Each mutation is a function (buf, p, rng) -> bytes, p being buf's layout
(perfdata.parse).  The blind ones (flips, overwrites, truncation, 8-byte
chunks) only look at where the sections are; the structure-aware ones
keep the file consistent around one hostile value: a record header with a
bad size or type, a sample whose raw data is shorter or longer than its
format, a feature section of odd content, an event format with odd fields.

ops(rng) picks a stack of mutations as [(name, seed)]; apply() replays such
a list, so a finding is kept as its seed file plus a short list, and the
minimizer can drop mutations one by one.
"""
import random
import re
import struct

import perfdata as pd

INTERESTING = [0, 1, 0xff, 0x7f, 0x80, 0xffff, 0x7fff, 0x8000, 0x7fffffff,
               0x80000000, 0xffffffff, 0x100000000, 0x7fffffffffffffff,
               0x8000000000000000, 0xffffffffffffffff, 0xfffffffffffff000,
               0x10000, 0x1000, 4095, 4097, 64, 65]


def _value(rng, width):
    v = rng.choice(INTERESTING + [rng.getrandbits(width * 8)])
    if rng.random() < 0.2:
        v = (v + rng.choice((-1, 1, -8, 8))) % (1 << 64)
    return (v & ((1 << (width * 8)) - 1)).to_bytes(width, 'little')


def _region(buf, p, rng):
    """Where blind mutations land: mostly the data section or the stream."""
    if p.pipe:
        return pd.PIPE_HEADER, len(buf)
    d_off, d_sz = p.data
    r = rng.random()
    if r < 0.6 and d_sz:
        return d_off, min(d_off + d_sz, len(buf))
    if r < 0.75 and p.tracing:
        return p.tracing[0], min(sum(p.tracing), len(buf))
    if r < 0.9:
        return p.feat_index, len(buf)
    return 0, len(buf)


def _record(p, rng, samples=False):
    recs = [r for r in p.records if r.type == pd.PERF_RECORD_SAMPLE] if samples else []
    recs = recs or list(p.records)
    return rng.choice(recs) if recs else None


def _splice(buf, p, start, end, new):
    """buf with buf[start:end] replaced, the data section resized."""
    if p.pipe:
        return buf[:start] + new + buf[end:]
    d_off, d_sz = p.data
    data = buf[d_off:start] + new + buf[end:d_off + d_sz]
    return pd.rebuild(buf, p, data)


# -- blind ------------------------------------------------------------------

def bitflip(buf, p, rng):
    b = bytearray(buf)
    lo, hi = _region(buf, p, rng)
    for _ in range(rng.choice((1, 1, 2, 4, 8, 16))):
        i = rng.randrange(lo, hi)
        b[i] ^= 1 << rng.randrange(8)
    return bytes(b)


def overwrite(buf, p, rng):
    b = bytearray(buf)
    lo, hi = _region(buf, p, rng)
    for _ in range(rng.choice((1, 2, 4, 8))):
        i = rng.randrange(lo, hi)
        b[i] = rng.choice((0, 0xff, 0x7f, 0x80, rng.randrange(256)))
    return bytes(b)


def truncate(buf, p, rng):
    lo, hi = _region(buf, p, rng)
    return buf[:rng.randrange(lo, hi)]


def delete8(buf, p, rng):
    lo, hi = _region(buf, p, rng)
    i = lo + (rng.randrange(lo, hi) - lo) // 8 * 8
    n = 8 * rng.choice((1, 1, 2, 3))
    if p.pipe or i < p.data[0] or i >= sum(p.data):
        return buf[:i] + buf[i + n:]
    return _splice(buf, p, i, min(i + n, sum(p.data)), b'')


def dup8(buf, p, rng):
    lo, hi = _region(buf, p, rng)
    i = lo + (rng.randrange(lo, hi) - lo) // 8 * 8
    n = 8 * rng.choice((1, 1, 2, 3))
    if p.pipe or i < p.data[0] or i + n > sum(p.data):
        return buf[:i + n] + buf[i:]
    return _splice(buf, p, i, i, buf[i:i + n])


def boundary(buf, p, rng):
    """A boundary value into a sample (or any record)."""
    r = _record(p, rng, samples=rng.random() < 0.8)
    if r is None or r.size < 16:
        return bitflip(buf, p, rng)
    width = rng.choice((2, 4, 4, 8, 8))
    off = r.off + 8 + rng.randrange(0, max(1, (r.size - 8 - width) // width + 1)) * width
    b = bytearray(buf)
    b[off:off + width] = _value(rng, width)
    return bytes(b)


def header_value(buf, p, rng):
    """A boundary value into the file header, the attributes, the feature
    index or a feature section (or an ATTR/FEATURE record of a stream)."""
    b = bytearray(buf)
    if p.pipe:
        recs = [r for r in p.records if r.type >= 64 and r.type != 66] or list(p.records)
        r = rng.choice(recs)
        lo, hi = r.off + 8, r.off + r.size
    else:
        choice = rng.randrange(4)
        if choice == 0:
            lo, hi = 0, pd.FILE_HEADER
        elif choice == 1:
            lo, hi = p.attrs[0], sum(p.attrs)
        elif choice == 2:
            lo, hi = p.feat_index, p.feat_index + 16 * len(p.features)
        else:
            f = rng.choice(p.features) if p.features else (0, 0, 0)
            lo, hi = f[1], f[1] + f[2]
    width = rng.choice((4, 8))
    if hi - lo < width:
        return bitflip(buf, p, rng)
    off = lo + rng.randrange(0, (hi - lo - width) // 4 + 1) * 4
    b[off:off + width] = _value(rng, width)
    return bytes(b[:len(buf)])


# -- structure-aware --------------------------------------------------------

def record_size(buf, p, rng):
    """A valid record header with a hostile size."""
    r = _record(p, rng)
    if r is None:
        return truncate(buf, p, rng)
    size = rng.choice((0, 1, 4, 7, 8, 9, r.size - 8, r.size + 8, r.size * 2,
                       0xfff8, 0xffff, r.size - 1, r.size + 1))
    b = bytearray(buf)
    struct.pack_into('<H', b, r.off + 6, max(0, min(size, 0xffff)))
    return bytes(b)


def record_type(buf, p, rng):
    r = _record(p, rng)
    if r is None:
        return truncate(buf, p, rng)
    b = bytearray(buf)
    t = rng.choice((rng.randrange(1, 20), rng.randrange(64, 84), 0, 0xffff, 0xffffffff))
    struct.pack_into('<I', b, r.off, t)
    return bytes(b)


def insert_record(buf, p, rng):
    """A record of a random type and a random or hostile content, inserted
    whole (its header tells its true size)."""
    r = _record(p, rng)
    if r is None:
        return buf
    t = rng.choice((rng.randrange(1, 20), rng.randrange(64, 84)))
    n = rng.choice((0, 8, 16, 24, 32, 64, 128, 512))
    body = bytearray(rng.getrandbits(8) for _ in range(n))
    for o in range(0, n - 7, 8):
        if rng.random() < 0.5:
            body[o:o + 8] = _value(rng, 8)
    rec = struct.pack('<IHH', t, 0, 8 + n) + bytes(body)
    return _splice(buf, p, r.off, r.off, rec)


def raw_resize(buf, p, rng):
    """A sample whose raw data is shorter or longer than its format, the
    record itself consistent."""
    samples = [r for r in p.records if r.type == pd.PERF_RECORD_SAMPLE]
    if not samples:
        return boundary(buf, p, rng)
    r = rng.choice(samples)
    o = p.raw_offset(buf, r)
    if o is None:
        return boundary(buf, p, rng)
    raw_len = struct.unpack_from('<I', buf, o)[0]
    raw = buf[o + 4:min(o + 4 + raw_len, r.off + r.size)]
    if rng.random() < 0.6:
        new = raw[:rng.randrange(0, max(1, len(raw)))]
    else:
        new = raw + bytes(rng.choice((0, 0xff)) for _ in range(rng.choice((1, 4, 8, 64, 300))))
    body = struct.pack('<I', len(new)) + new
    body += bytes(-(o - r.off + len(body)) % 8)
    head = bytearray(buf[r.off:o])
    struct.pack_into('<H', head, 6, len(head) + len(body))
    return _splice(buf, p, r.off, r.off + r.size, bytes(head) + body)


def raw_size(buf, p, rng):
    """A raw size that disagrees with the record."""
    samples = [r for r in p.records if r.type == pd.PERF_RECORD_SAMPLE]
    r = rng.choice(samples) if samples else None
    o = p.raw_offset(buf, r) if r else None
    if o is None:
        return boundary(buf, p, rng)
    b = bytearray(buf)
    b[o:o + 4] = _value(rng, 4)
    return bytes(b)


def _replace_tracing(buf, p, new):
    off, size = p.tracing
    if p.pipe:
        r = next(r for r in p.records if hasattr(r, 'tracing'))
        head = bytearray(buf[r.off:r.off + r.size])
        struct.pack_into('<I', head, 8, len(new))
        pad = (size + 7) & ~7
        return buf[:r.off] + bytes(head) + new + bytes(-len(new) % 8) + buf[off + pad:]
    feats = [(b, new if b == pd.HEADER_TRACING_DATA else buf[o:o + s])
             for b, o, s in p.features]
    d_off, d_sz = p.data
    return pd.rebuild(buf, p, buf[d_off:d_off + d_sz], feats)


FIELD_LINES = [
    b'\tfield:unsigned long pfn;\toffset:%d;\tsize:%d;\tsigned:0;',
    b'\tfield:char name[%d];\toffset:8;\tsize:%d;\tsigned:1;',
    b'\tfield:__data_loc char[] s;\toffset:%d;\tsize:%d;\tsigned:0;',
    b'\tfield:int order[%d];\toffset:%d;\tsize:4;\tsigned:1;',
    b'\tfield:unsigned int order;\toffset:%d;\tsize:%d;\tsigned:0;',
]
NUMBERS = [b'0', b'-1', b'1', b'2147483647', b'2147483648', b'4294967295',
           b'4294967296', b'18446744073709551615', b'65535', b'65536', b'3', b'7']


def _edit_text(t, rng):
    lines = t.split(b'\n')
    k = rng.randrange(6)
    i = rng.randrange(len(lines))
    if k == 0:                                  # a number becomes odd
        nums = list(re.finditer(rb'-?\d+', t))
        if nums:
            m = rng.choice(nums)
            return t[:m.start()] + rng.choice(NUMBERS) + t[m.end():]
    if k == 1:                                  # a line goes
        del lines[i]
    elif k == 2:                                # a line twice
        lines.insert(i, lines[i])
    elif k == 3:                                # an odd field
        f = rng.choice(FIELD_LINES)
        args = tuple(int(rng.choice(NUMBERS)) for _ in range(f.count(b'%d')))
        lines.insert(i, f % args)
    elif k == 4:                                # a cut
        return t[:rng.randrange(len(t) + 1)]
    else:                                       # odd bytes in a line
        line = bytearray(lines[i])
        if line:
            j = rng.randrange(len(line))
            line[j] = rng.choice(b';:[]()"%\\\0\t\n 0x')
        lines[i] = bytes(line)
    return b'\n'.join(lines)


def tracing_text(buf, p, rng):
    """An edit of the tracing data: an event format or the printk formats
    with odd fields or numbers, their size prefixes kept right."""
    if not p.tracing:
        return bitflip(buf, p, rng)
    parts = [x for x in pd.tracing_parts(buf, *p.tracing) if x[4]]
    if not parts:
        return bitflip(buf, p, rng)
    kind, s_off, width, d_off, n = rng.choice(parts)
    text = _edit_text(buf[d_off:d_off + n], rng)
    t_off, t_size = p.tracing
    tr = bytearray(buf[t_off:s_off]) + len(text).to_bytes(width, 'little') + text
    tr += buf[d_off + n:t_off + t_size]
    return _replace_tracing(buf, p, bytes(tr))


def tracing_size(buf, p, rng):
    """A hostile size prefix or count in the tracing data."""
    if not p.tracing:
        return bitflip(buf, p, rng)
    parts = pd.tracing_parts(buf, *p.tracing)
    b = bytearray(buf)
    if parts and rng.random() < 0.7:
        _, s_off, width, _, _ = rng.choice(parts)
    else:                                       # counts, page size, ...
        s_off, width = p.tracing[0] + rng.randrange(0, min(64, p.tracing[1]) - 4), 4
    b[s_off:s_off + width] = _value(rng, width)
    return bytes(b)


def feature(buf, p, rng):
    """A feature section replaced by odd content, or one added."""
    if p.pipe:
        return header_value(buf, p, rng)
    feats = [(b, buf[o:o + s]) for b, o, s in p.features]
    if rng.random() < 0.3 or not feats:
        bit = rng.randrange(1, 33)
        feats = [f for f in feats if f[0] != bit] + [(bit, b'')]
        feats.sort()
        i = next(k for k, f in enumerate(feats) if f[0] == bit)
    else:
        i = rng.randrange(len(feats))
    content = bytearray(feats[i][1])
    r = rng.random()
    if r < 0.4 or not content:                   # counts and sizes
        content = bytearray(_value(rng, 4) + _value(rng, 4) + content[8:])
        if rng.random() < 0.5:
            content += bytes(rng.getrandbits(8) for _ in range(rng.choice((0, 4, 8, 32))))
    elif r < 0.7:
        content = content[:rng.randrange(len(content))]
    else:
        off = rng.randrange(0, max(1, len(content) - 3)) // 4 * 4
        content[off:off + 4] = _value(rng, 4)
    feats[i] = (feats[i][0], bytes(content))
    d_off, d_sz = p.data
    return pd.rebuild(buf, p, buf[d_off:d_off + d_sz], feats)


MUTATORS = {f.__name__: f for f in (
    bitflip, overwrite, truncate, delete8, dup8, boundary, header_value,
    record_size, record_type, insert_record, raw_resize, raw_size,
    tracing_text, tracing_size, feature)}
WEIGHTS = {'bitflip': 4, 'overwrite': 3, 'truncate': 1, 'delete8': 2, 'dup8': 2,
           'boundary': 4, 'header_value': 3, 'record_size': 2, 'record_type': 1,
           'insert_record': 2, 'raw_resize': 3, 'raw_size': 2, 'tracing_text': 4,
           'tracing_size': 2, 'feature': 3}


def ops(rng):
    """A stack of one to three mutations, as [(name, seed)]."""
    names = list(WEIGHTS)
    n = rng.choice((1, 1, 1, 2, 3))
    return [(rng.choices(names, [WEIGHTS[k] for k in names])[0], rng.getrandbits(32))
            for _ in range(n)]


def apply(buf, oplist):
    for name, seed in oplist:
        p = pd.parse(buf)
        rng = random.Random(seed)
        if p is None:                           # no longer a perf.data file
            if buf:
                b = bytearray(buf)
                b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
                buf = bytes(b)
            continue
        try:
            buf = MUTATORS[name](buf, p, rng)
        except (IndexError, ValueError, struct.error, StopIteration):
            pass                                # a layout the mutator cannot use
    return buf
