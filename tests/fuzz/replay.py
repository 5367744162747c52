#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Replay reproducers: each FILE.data with the options of FILE.args.

    replay.py --perf PERF [--command 'report --stats'] [--known LIST] FILE.data...

A run must end in a clean exit or a clean error.  A reproducer named in
the file LIST (one name a line, '#' comments) is a known finding still to
be fixed: it is reported, and fails the replay only when it no longer
reproduces (so that the list gets shorter).  Exit status 1 when a run
failed."""
import argparse
import os
import sys

import runone

BAD = ('sanitizer', 'signal', 'hang')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--perf', required=True)
    ap.add_argument('--command', default='pagealloc report')
    ap.add_argument('--known', help='reproducers of known findings')
    ap.add_argument('--known-may-pass', action='store_true',
                    help='a known finding that does not reproduce is fine (no sanitizer)')
    ap.add_argument('--timeout', type=float, default=60.0)
    ap.add_argument('files', nargs='+')
    a = ap.parse_args()
    known = set()
    if a.known and os.path.exists(a.known):
        known = {l.split('#')[0].strip() for l in open(a.known)} - {''}
    fails = 0
    for f in a.files:
        name = os.path.basename(f)[:-len('.data')]
        args = open(f[:-len('.data')] + '.args').read().split()
        pipe = args[:1] == ['pipe']
        if pipe:
            args = args[1:]
        if a.command != 'pagealloc report':
            args = []
        cls, key, err = runone.run(a.perf, args, f, pipe, a.timeout, a.command.split())
        if name in known and a.command == 'pagealloc report':
            state = 'known' if cls in BAD or a.known_may_pass else \
                'FIXED, remove from %s' % os.path.basename(a.known)
            fails += cls not in BAD and not a.known_may_pass
        elif cls in BAD:
            state = 'FAIL'
            fails += 1
        else:
            state = 'ok'
        print('%-5s %-9s %s: perf %s %s%s' % (state, cls, name, a.command, ' '.join(args),
                                             ' (%s)' % key if key else ''))
        if state == 'FAIL':
            print('\n'.join('    ' + l for l in err.splitlines()[:12]))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
