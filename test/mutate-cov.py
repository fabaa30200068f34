#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""mutate-cov.py - the coverage map of test/mutate.sh --generate: which
tests execute which line, so that a mutant runs only the tests that reach it.

  mutate-cov.py lines BUILD SRC [--all]   the lines of SRC's files the .gcda
                                          of BUILD say were executed (with
                                          --all: every executable line, from
                                          the .gcno), "FILE:LINE" one a line
  mutate-cov.py parse SRC [--all]         the same from gcov's JSON on stdin
  mutate-cov.py map OUT EXECUTABLE TESTS  the map written to OUT
  mutate-cov.py select MAP FILE LINE      what a mutant of FILE:LINE runs

TESTS: one test a line, "SUITE/NAME<TAB>SECONDS<TAB>LINES-FILE<TAB>STATUS"
(STATUS "ok", or "failed" when the test did not pass in the coverage build:
such a test is run for every mutant, its lines not being all it would reach).
The map (a text file): first "test SUITE/NAME SECONDS [failed]", fastest
first, then "FILE:LINE TEST..." for every executable line, its tests
fastest first (none: no test executes it). select prints one line:
  tests SUITE/NAME...      the tests that execute the line, fastest first
  unreached                an executable line no test executes
  fallback                 not an executable line for gcov (a continuation
                           of a multi-line expression, a declaration, a
                           macro, a file no object compiles): every test
"""
import glob
import json
import os
import subprocess
import sys


def parse(src, stream, everything):
    """FILE:LINE of the lines executed (every executable one with
    everything), FILE relative to src, files outside src left out"""
    src = os.path.realpath(src)
    out = set()
    for doc in stream:
        doc = doc.strip()
        if not doc.startswith('{'):
            continue
        d = json.loads(doc)
        cwd = d.get('current_working_directory', '.')
        for f in d.get('files', []):
            path = os.path.normpath(os.path.join(cwd, f['file']))
            rel = os.path.relpath(os.path.realpath(path), src)
            if rel.startswith('..'):
                continue
            for ln in f.get('lines', []):
                if everything or ln.get('count', 0) > 0:
                    out.add(f'{rel}:{ln["line_number"]}')
    return out


def gcov(build, everything):
    """gcov's JSON for the .gcda of build (the .gcno with everything:
    each line then counted 0), one document a line"""
    pattern = '*.gcno' if everything else '*.gcda'
    files = sorted(glob.glob(f'{build}/**/{pattern}', recursive=True))
    docs = []
    for k in range(0, len(files), 100):
        r = subprocess.run(['gcov', '--json-format', '--stdout'] + files[k:k + 100],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, check=False)
        docs += r.stdout.splitlines()
    return docs


def key(line):
    f, _, n = line.rpartition(':')
    return (f, int(n))


def write_map(out, executable, tests_tsv):
    tests = []
    for row in open(tests_tsv, encoding='utf-8'):
        name, secs, lines, status = row.rstrip('\n').split('\t')
        tests.append((float(secs), name, lines, status))
    tests.sort()
    reached = {}
    for secs, name, lines, status in tests:
        for ln in open(lines, encoding='utf-8'):
            reached.setdefault(ln.strip(), []).append(name)
    every = {ln.strip() for ln in open(executable, encoding='utf-8') if ln.strip()} | set(reached)
    with open(out, 'w', encoding='utf-8') as o:
        for secs, name, _, status in tests:
            o.write(f'test {name} {secs:.2f}{" failed" if status != "ok" else ""}\n')
        for ln in sorted(every, key=key):
            o.write(' '.join([ln] + reached.get(ln, [])) + '\n')


def select(path, file, line):
    want = f'{file}:{line}'
    order, failed, found = [], [], None
    for row in open(path, encoding='utf-8'):
        f = row.split()
        if not f:
            continue
        if f[0] == 'test':
            order.append(f[1])
            if f[3:4] == ['failed']:
                failed.append(f[1])
        elif f[0] == want:
            found = f[1:]
            break
    if found is None:
        return 'fallback'
    run = set(found) | set(failed)
    return 'tests ' + ' '.join(t for t in order if t in run) if run else 'unreached'


def main():
    cmd = sys.argv[1]
    if cmd == 'lines':
        build, src = sys.argv[2:4]
        for ln in sorted(parse(src, gcov(build, '--all' in sys.argv[4:]), '--all' in sys.argv[4:]), key=key):
            print(ln)
    elif cmd == 'parse':
        for ln in sorted(parse(sys.argv[2], sys.stdin, '--all' in sys.argv[3:]), key=key):
            print(ln)
    elif cmd == 'map':
        write_map(*sys.argv[2:5])
    elif cmd == 'select':
        print(select(sys.argv[2], sys.argv[3], int(sys.argv[4])))
    else:
        raise SystemExit(f'mutate-cov: {cmd}: not lines, parse, map or select')


if __name__ == '__main__':
    main()
