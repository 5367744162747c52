#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the crafted perf.data files of the perf core regression tests.

    craft.py SEED_DIR OUT_DIR

Each FILE.data comes with FILE.args (perf pagealloc report's options, for
replay.py) and FILE.expect, a pattern the error perf prints must match.
The seeds are recordings of tests/data: basic.data (a file with tracing
data) and host-cgroups.data (samples with a cgroup id after the raw data).
OUT_DIR/readable/ gets the pipes perf must read as it reads their seed,
host-pipe.data of tests/fuzz/seeds: FILE.data with FILE.seed, its name.
"""
import os
import struct
import sys

import perfdata

PERF_RECORD_COMM = 3
PERF_RECORD_NAMESPACES = 16
S_BRANCH_STACK = 1 << 11
BRANCH_HW_INDEX = 1 << 17
PERF_RECORD_HEADER_FEATURE = 80
HEADER_NRCPUS = 7
HEADER_CPU_TOPOLOGY = 13
S_CGROUP = 1 << 21


def write(out, name, buf, expect, args=''):
    open(os.path.join(out, name + '.data'), 'wb').write(buf)
    open(os.path.join(out, name + '.args'), 'w').write(args + '\n')
    open(os.path.join(out, name + '.expect'), 'w').write(expect + '\n')


def tracing_short_section(seed):
    """A HEADER_TRACING_DATA section shorter than the tracing data's own
    header, and a header_event size of 2^63: what is left of the section
    must not underflow, nor skip() read 2^63 bytes a BUFSIZ at a time."""
    buf = bytearray(seed)
    p = perfdata.parse(buf)
    off, size = p.tracing
    for kind, so, sw, _, _ in perfdata.tracing_parts(buf, off, size):
        if kind == 'header_event':
            struct.pack_into('<Q', buf, so, 1 << 63)
    for i, (bit, o, s) in enumerate(p.features):
        if bit == perfdata.HEADER_TRACING_DATA:
            struct.pack_into('<Q', buf, p.feat_index + 16 * i + 8, 16)
    return bytes(buf)


def swapped(records, sample_type=1 | 2 | 4, branch_sample_type=None):
    """A file written on the other endianness: one software event (its
    samples with ip, tid and time by default), no features, the records
    (type, misc, payload) in big-endian.  With branch_sample_type, the
    attr has its size of version 2, which holds it."""
    size = 64 if branch_sample_type is None else 80
    attr = struct.pack('>IIQQQQQIIQ', 1, size, 0, 1, sample_type, 0, 0, 0, 0, 0)
    if branch_sample_type is not None:
        attr += struct.pack('>QQ', 0, branch_sample_type)
    attr += struct.pack('>QQ', 0, 0)            # no ids
    data = b''.join(struct.pack('>IHH', t, m, 8 + len(b)) + b for t, m, b in records)
    attrs_off = 104
    data_off = attrs_off + len(attr)
    head = b'2ELIFREP' + struct.pack('>QQQQQQQQ', 104, len(attr), attrs_off, len(attr),
                                     data_off, len(data), 0, 0)
    # adds_features: none, which perf takes as an old file's HEADER_BUILD_ID;
    # its section table entry, empty
    head += bytes(32)
    return head + attr + data + bytes(16)


def raw_padding(seed):
    """The raw size of the first sample one more than the kernel's padding
    allows: the cgroup id after it would be loaded misaligned."""
    buf = bytearray(seed)
    p = perfdata.parse(buf)
    assert p.sample_types[0] & S_CGROUP
    for rec in p.records:
        if rec.type == perfdata.PERF_RECORD_SAMPLE:
            o = p.raw_offset(buf, rec)
            if o is not None:
                struct.pack_into('<I', buf, o, struct.unpack_from('<I', buf, o)[0] + 1)
                return bytes(buf)
    raise ValueError('no sample with raw data')


def pipe_feature_moved(seed, bit, after=None):
    """The pipe stream seed with its HEADER_FEATURE record of bit moved to
    after that of the feature after, or left out (after None)."""
    p = perfdata.parse(seed)
    assert p.pipe
    out = bytearray(seed[:perfdata.PIPE_HEADER])
    moved = None
    for r in p.records:
        end = r.off + r.size
        if hasattr(r, 'tracing'):
            end = r.tracing[0] + ((r.tracing[1] + 7) & ~7)
        feat = None
        if r.type == PERF_RECORD_HEADER_FEATURE:
            feat = struct.unpack_from('<Q', seed, r.off + 8)[0]
        if feat == bit:
            moved = seed[r.off:end]
            continue
        out += seed[r.off:end]
        if feat == after and after is not None:
            assert moved
            out += moved
    assert moved and len(out) == len(seed) - (len(moved) if after is None else 0)
    return bytes(out)


def write_readable(out, name, buf, seed):
    os.makedirs(os.path.join(out, 'readable'), exist_ok=True)
    open(os.path.join(out, 'readable', name + '.data'), 'wb').write(buf)
    open(os.path.join(out, 'readable', name + '.seed'), 'w').write(seed + '\n')


def main():
    seeds, out = sys.argv[1:3]

    def seed(name):
        return open(os.path.join(seeds, name), 'rb').read()
    write(out, 'tracing-short-section', tracing_short_section(seed('basic.data')),
          'tracing data: a read past its end')
    # a COMM record of its header alone, then a NAMESPACES record whose
    # count would be read from past its end
    write(out, 'swapped-short-comm',
          swapped([(PERF_RECORD_COMM, 0, b''), (PERF_RECORD_COMM, 0, bytes(16))]),
          'record of type 3 has 8 bytes, needs 16')
    write(out, 'swapped-short-namespaces',
          swapped([(PERF_RECORD_NAMESPACES, 0, struct.pack('>II', 1, 1)),
                   (0xffffffff, 0xffff, b'\xff' * 8)]),
          'record of type 16 has 16 bytes, needs 24')
    # a sample whose branch stack claims 2^20 entries, in a record of none:
    # their flags were swapped in place before the size was checked
    write(out, 'swapped-branch-nr',
          swapped([(perfdata.PERF_RECORD_SAMPLE, 0, struct.pack('>QIIQQ', 0, 1, 1, 1, 1 << 20))],
                  1 | 2 | 4 | S_BRANCH_STACK),
          "Can't parse sample")
    # the same with the hardware index before the entries
    write(out, 'swapped-branch-nr-hw-idx',
          swapped([(perfdata.PERF_RECORD_SAMPLE, 0, struct.pack('>QIIQQQ', 0, 1, 1, 1, 1 << 20, 0))],
                  1 | 2 | 4 | S_BRANCH_STACK, BRANCH_HW_INDEX),
          "Can't parse sample")
    write(out, 'raw-padding', raw_padding(seed('host-cgroups.data')),
          "Can't parse sample")
    # a CPU topology with no CPU count before it: no per-CPU ids
    write_readable(out, 'topology-first',
                   pipe_feature_moved(seed('host-pipe.data'), HEADER_NRCPUS),
                   'host-pipe.data')
    write_readable(out, 'topology-before-nrcpus',
                   pipe_feature_moved(seed('host-pipe.data'), HEADER_NRCPUS,
                                      HEADER_CPU_TOPOLOGY),
                   'host-pipe.data')


if __name__ == '__main__':
    main()
