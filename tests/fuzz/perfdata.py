# SPDX-License-Identifier: GPL-2.0
"""The layout of a perf.data file, as far as the fuzzer needs it.

parse(buf) finds the file header, the attributes, the data section and its
records, and the feature sections (file mode), or the records of a pipe
stream.  Offsets only: the mutators write into a copy of the buffer.
rebuild() writes a file-mode file from its parts again, which is how the
seeds are trimmed and how records of hostile sizes are inserted.
"""
import struct

MAGIC = b'PERFILE2'
FILE_HEADER = 104          # struct perf_file_header
PIPE_HEADER = 16
HEADER_TRACING_DATA = 1
PERF_RECORD_SAMPLE = 9
PERF_RECORD_HEADER_ATTR = 64
PERF_RECORD_HEADER_TRACING_DATA = 66

# sample_type bits, in the order the fields come in a sample
S_IDENTIFIER, S_IP, S_TID, S_TIME, S_ADDR = 1 << 16, 1 << 0, 1 << 1, 1 << 2, 1 << 3
S_ID, S_STREAM_ID, S_CPU, S_PERIOD = 1 << 6, 1 << 9, 1 << 7, 1 << 8
S_READ, S_CALLCHAIN, S_RAW = 1 << 4, 1 << 5, 1 << 10


class Record:
    def __init__(self, off, type_, misc, size):
        self.off, self.type, self.misc, self.size = off, type_, misc, size

    def __repr__(self):
        return 'Record(off=%d, type=%d, size=%d)' % (self.off, self.type, self.size)


class PerfData:
    pipe = False
    attr_size = 0
    attrs = (0, 0)         # (offset, size) of the attribute section
    data = (0, 0)          # (offset, size) of the data section
    features = ()          # [(bit, offset, size)] in file order
    feat_index = 0         # offset of the feature section table
    records = ()           # [Record] of the data section / the stream
    sample_types = ()      # sample_type of each attribute
    tracing = None         # (offset, size) of the tracing data
    id_types = None        # sample id -> sample_type

    def feature(self, bit):
        for b, o, s in self.features:
            if b == bit:
                return o, s
        return None

    def raw_offset(self, buf, rec):
        """Offset of the u32 raw size of a sample, or None."""
        st = self.sample_types[0] if self.sample_types else 0
        if self.id_types and rec.size >= 16:
            st = self.id_types.get(struct.unpack_from('<Q', buf, rec.off + 8)[0], st)
        if not st & S_RAW:
            return None
        off = rec.off + 8
        if st & S_IDENTIFIER:
            off += 8
        for bit in (S_IP, S_TID, S_TIME, S_ADDR, S_ID, S_STREAM_ID, S_CPU, S_PERIOD):
            if st & bit:
                off += 8
        if st & S_READ:
            return None
        if st & S_CALLCHAIN:
            if off + 8 > rec.off + rec.size:
                return None
            off += 8 + 8 * struct.unpack_from('<Q', buf, off)[0]
        return off if off + 4 <= rec.off + rec.size else None


def _records(buf, start, end):
    recs, off = [], start
    while off + 8 <= end:
        type_, misc, size = struct.unpack_from('<IHH', buf, off)
        if size < 8 or off + size > end:
            break
        recs.append(Record(off, type_, misc, size))
        off += size
        if type_ == PERF_RECORD_HEADER_TRACING_DATA and off <= end:
            # the tracing data follows the record, 8-byte aligned
            tsize = struct.unpack_from('<I', buf, off - 8)[0]
            recs[-1].tracing = (off, tsize)
            off += (tsize + 7) & ~7
    return recs


def parse(buf):
    p = PerfData()
    if len(buf) < PIPE_HEADER or buf[:8] != MAGIC:
        return None
    size = struct.unpack_from('<Q', buf, 8)[0]
    if size == PIPE_HEADER:
        p.pipe = True
        p.id_types = {}
        p.records = _records(buf, PIPE_HEADER, len(buf))
        for r in p.records:
            if r.type == PERF_RECORD_HEADER_TRACING_DATA and hasattr(r, 'tracing'):
                p.tracing = r.tracing
            if r.type == PERF_RECORD_HEADER_ATTR and r.off + 8 + 32 <= len(buf):
                st = struct.unpack_from('<Q', buf, r.off + 8 + 24)[0]
                p.sample_types += (st,)
                asz = struct.unpack_from('<I', buf, r.off + 8 + 4)[0]
                for o in range(r.off + 8 + asz, r.off + r.size - 7, 8):
                    p.id_types[struct.unpack_from('<Q', buf, o)[0]] = st
        return p
    if size != FILE_HEADER or len(buf) < FILE_HEADER:
        return None
    p.attr_size = struct.unpack_from('<Q', buf, 16)[0]
    a_off, a_sz, d_off, d_sz = struct.unpack_from('<4Q', buf, 24)
    p.attrs, p.data = (a_off, a_sz), (d_off, d_sz)
    p.id_types = {}
    if p.attr_size >= 56:
        for k in range(a_sz // p.attr_size):
            base = a_off + k * p.attr_size
            if base + p.attr_size > len(buf):
                break
            st = struct.unpack_from('<Q', buf, base + 24)[0]
            p.sample_types += (st,)
            i_off, i_sz = struct.unpack_from('<QQ', buf, base + p.attr_size - 16)
            for o in range(i_off, min(i_off + i_sz, len(buf)) - 7, 8):
                p.id_types[struct.unpack_from('<Q', buf, o)[0]] = st
    bits = int.from_bytes(buf[72:104], 'little')
    p.feat_index = off = d_off + d_sz
    feats = []
    for bit in range(256):
        if bits >> bit & 1 and off + 16 <= len(buf):
            o, s = struct.unpack_from('<QQ', buf, off)
            feats.append((bit, o, s))
            off += 16
    p.features = feats
    p.tracing = p.feature(HEADER_TRACING_DATA)
    p.records = _records(buf, d_off, min(d_off + d_sz, len(buf)))
    return p


def rebuild(buf, p, data, feats=None):
    """A file-mode file with the header, attributes and ids of buf, data as
    its data section and the feature sections feats ([(bit, bytes)],
    default buf's own) after it."""
    d_off = p.data[0]
    head = bytearray(buf[:d_off])
    struct.pack_into('<Q', head, 48, len(data))
    if feats is None:
        feats = [(b, buf[o:o + s]) for b, o, s in p.features]
    bits = 0
    for b, _ in feats:
        bits |= 1 << b
    head[72:104] = bits.to_bytes(32, 'little')
    index = bytearray()
    off = d_off + len(data) + 16 * len(feats)
    for _, f in feats:
        index += struct.pack('<QQ', off, len(f))
        off += len(f)
    return bytes(head) + bytes(data) + bytes(index) + b''.join(f for _, f in feats)


def tracing_parts(buf, off, size):
    """The length-prefixed parts of the tracing data at buf[off:off+size]:
    [(kind, size_offset, size_width, data_offset, data_len)], kind being
    'header_page', 'header_event', 'ftrace', 'event', 'kallsyms', 'printk'
    or 'cmdline'.  Stops at the first thing that does not parse."""
    end, parts = off + size, []
    o = off + 10                        # "\x17\x08\x44tracing"
    v = buf.find(b'\0', o, end)
    if v < 0:
        return parts
    o = v + 1 + 2 + 4                   # endian, long size, page size

    def sized(kind, width):
        nonlocal o
        if o + width > end:
            raise ValueError
        n = int.from_bytes(buf[o:o + width], 'little')
        if o + width + n > end:
            raise ValueError
        parts.append((kind, o, width, o + width, n))
        o += width + n

    def count():
        nonlocal o
        if o + 4 > end:
            raise ValueError
        o += 4
        return int.from_bytes(buf[o - 4:o], 'little')
    try:
        for name in (b'header_page', b'header_event'):
            if buf[o:o + len(name) + 1] != name + b'\0':
                return parts
            o += len(name) + 1
            sized(name.decode(), 8)
        for _ in range(count()):
            sized('ftrace', 8)
        for _ in range(count()):
            z = buf.find(b'\0', o, end)
            if z < 0:
                return parts
            o = z + 1
            for _ in range(count()):
                sized('event', 8)
        sized('kallsyms', 4)
        sized('printk', 4)
        sized('cmdline', 8)
    except ValueError:
        pass
    return parts
