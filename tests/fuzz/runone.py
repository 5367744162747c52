# SPDX-License-Identifier: GPL-2.0
"""Run perf on one input and classify the run.

classes: 'exit' (status 0), 'error' (non-zero, no sanitizer report),
'sanitizer' (an ASan/UBSan report), 'signal' (killed by a signal without a
report), 'hang' (still running at the timeout; it is then sent SIGABRT so
that ASan prints where it was, which gives its top frame).

A finding's key is its kind and its top frame, the first stack frame in
perf's own code: "heap-buffer-overflow read_event_file
util/trace-event-read.c:290".
"""
import os
import re
import signal
import subprocess

ENV = {
    'ASAN_OPTIONS': 'detect_leaks=0:handle_abort=1:allocator_may_return_null=0:'
                    'max_allocation_size_mb=2048:detect_stack_use_after_return=0',
    'UBSAN_OPTIONS': 'print_stacktrace=1:halt_on_error=1:report_error_type=1',
    'PAGER': 'cat', 'LC_ALL': 'C', 'PERF_PAGER': 'cat',
}
FRAME = re.compile(r'^\s*#\d+ 0x[0-9a-f]+ in (\S+) (\S+)', re.M)
# perf's own sources, as ASan names them (tools/lib as ../lib or ../../lib)
PERF_SRC = re.compile(r'^(?:util/|builtin-|ui/|arch/|bench/|tests/|trace/|perf\.c|'
                      r'(?:\.\./)+lib/|.*/tools/(?:perf|lib)/)')
WRAPPERS = ('zalloc', 'memdup', 'strdup', '__GI_', 'calloc', 'malloc', 'realloc')
KINDS = {'requested': 'allocation-size-too-big', 'allocation-size-too-big': 'allocation-size-too-big'}


def top_frame(text):
    for func, where in FRAME.findall(text):
        if PERF_SRC.match(where) and not func.startswith(WRAPPERS):
            where = re.sub(r'^.*/tools/perf/', '', where)
            return func, re.sub(r'^(?:.*/tools/|(?:\.\./)+)lib/', 'tools/lib/', where)
    m = re.search(r'^(\S+?):(\d+):\d+: runtime error', text, re.M)
    if m:
        return '?', '%s:%s' % (m.group(1), m.group(2))
    return '?', '?'


def kind(text):
    m = re.search(r'ERROR: AddressSanitizer: ([\w-]+)', text)
    if m:
        return KINDS.get(m.group(1), m.group(1))
    m = re.search(r'runtime error: (.*?)(?: of | at |:|$)', text, re.M)
    if m:
        return 'ubsan: ' + ' '.join(m.group(1).split()[:4])
    return None


def run(perf, args, path, stdin_pipe=False, timeout=10.0, command=('pagealloc', 'report')):
    """Returns (class, key, stderr).  Options starting with "timechart"
    run that subcommand instead of report, its SVG going to /dev/null."""
    if list(args[:1]) == ['timechart']:
        command = ('pagealloc', 'timechart')
        args = list(args[1:]) + ['-o', os.devnull]
    env = dict(os.environ)
    env.update(ENV)
    cmd = [perf] + list(command) + list(args)
    if stdin_pipe:
        cmd += ['-i', '-']
        fin = open(path, 'rb')
    else:
        cmd += ['-i', path]
        fin = subprocess.DEVNULL
    p = subprocess.Popen(cmd, stdin=fin, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, env=env, start_new_session=True)
    hung = False
    try:
        _, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        hung = True
        os.killpg(p.pid, signal.SIGABRT)
        try:
            _, err = p.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            _, err = p.communicate()
    finally:
        if stdin_pipe:
            fin.close()
    err = err.decode('utf-8', 'replace')
    if hung:
        func, where = top_frame(err)
        return 'hang', 'hang %s %s' % (func, where), err
    k = kind(err)
    if k:
        func, where = top_frame(err)
        return 'sanitizer', '%s %s %s' % (k, func, where), err
    if p.returncode < 0:
        return 'signal', 'signal %d' % -p.returncode, err
    return ('exit' if p.returncode == 0 else 'error'), None, err
