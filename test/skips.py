#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""skips.py - every skipped test of a run, named, held against the list of
the skips the suite allows (test/expected-skips).

usage: skips.py [--expected FILE] [--vm-src DIR] SOURCE...
  SOURCE  TIER=PATH: a meson testlog.json (TIER: unit+cli, asan, install...)
          or, for TIER vm, the VM tier's TAP (build/vm-tap.txt)

Prints one line per skip (tier, file, kernel, topology, test, reason), then
"skips: N skipped, U not on the list", and every listed skip that did not
happen in a tier that ran ("no longer skips": said, not a failure, since a
listed skip may hold on one machine and not another). Exit 1 when a skip is
not on the list, 2 on a malformed list or log.

test/expected-skips, one allowed skip a line ('#' comments):
  TIER | FILE | KERNEL | TEST | WHY
TIER: cli, unit (the plain build's), asan (the ASan/UBSan build's unit and
CLI tests), vm ('*' any); FILE: the .bats file or unit test without
extension; KERNEL: 6.12, 7.x or '-' (no kernel: host tiers); TEST: a glob
of the test's name; WHY: why the skip is right where it happens (required).
"""
import fnmatch
import json
import os
import re
import sys

OK_SKIP = re.compile(r'^ok \d+ (?P<name>.*?) # skip(?: (?P<reason>.*))?$')
VM_NAME = re.compile(r'^\[(?P<kernel>[^\]]+)\] (?P<file>[^:]+): (?P<test>.*)$')


class Skip:
    def __init__(self, tier, file, kernel, test, reason, topology='-'):
        self.tier, self.file, self.kernel = tier, file, kernel
        self.test, self.reason, self.topology = test, reason or '(no reason given)', topology

    def line(self):
        where = self.tier + ' ' + self.file
        if self.kernel != '-':
            where += ' [%s, topology %s]' % (self.kernel, self.topology)
        return '%s: %s -- %s' % (where, self.test, self.reason)


def fail(msg, code=2):
    print('skips: ' + msg, file=sys.stderr)
    sys.exit(code)


def read_expected(path):
    rules = []
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith('#'):
                continue
            parts = [p.strip() for p in line.split('|')]
            if len(parts) != 5 or not all(parts):
                fail('%s:%d: want "TIER | FILE | KERNEL | TEST | WHY", every field given: %s' % (path, n, line))
            tier, file, kernel, test, why = parts
            if tier not in ('cli', 'unit', 'asan', 'vm', '*'):
                fail('%s:%d: tier %r is none of cli, unit, asan, vm, *' % (path, n, tier))
            rules.append({'tier': tier, 'file': file, 'kernel': kernel, 'test': test, 'why': why,
                          'where': '%s:%d' % (path, n), 'used': False})
    return rules


def open_log(path):
    try:
        return open(path)
    except OSError as e:
        fail('%s: %s' % (path, e.strerror))


def meson_skips(tier, path):
    skips = []
    with open_log(path) as f:
        for raw in f:
            try:
                t = json.loads(raw)
            except ValueError:
                fail('%s: not a meson test log (a line is no JSON)' % path)
            name = t.get('name', '')
            suite, _, file = name.partition(' / ')
            # the ASan/UBSan build's run is a tier of its own: what only
            # the plain build can do (count instructions under valgrind) is
            # allowed to skip there and nowhere else
            kind = 'asan' if tier == 'asan' else 'unit' if suite.endswith(':unit') else 'cli'
            named = [m for m in map(OK_SKIP.match, (t.get('stdout') or '').splitlines()) if m]
            skips += [Skip(kind, file, '-', m['name'], m['reason']) for m in named]
            # a test meson skipped whole, with no skipped subtest to name
            if t.get('result') == 'SKIP' and not named:
                skips.append(Skip(kind, file, '-', '(the whole test)', 'meson: skipped'))
    for s in skips:
        s.run_tier = tier
    return skips


def topology_of(vm_src, file):
    try:
        with open(os.path.join(vm_src, file + '.bats')) as f:
            for line in f:
                if line.startswith('# vm-topology:'):
                    return line.split(':', 1)[1].strip() or 'default'
    except OSError:
        pass
    return 'default'


def vm_skips(path, vm_src):
    skips = []
    with open_log(path) as f:
        for line in f:
            m = OK_SKIP.match(line.rstrip('\n'))
            if not m:
                continue
            # the formatter's name: "[KERNEL] FILE: TEST" (ASan boots: "[6.12 asan]")
            n = VM_NAME.match(m['name'])
            if not n:
                fail('%s: a skipped test without its kernel and file: %s' % (path, line.strip()))
            kernel = n['kernel'].split()[0]
            skips.append(Skip('vm', n['file'], kernel, n['test'], m['reason'],
                              topology_of(vm_src, n['file'])))
    for s in skips:
        s.run_tier = 'vm'
    return skips


def allowed(rules, s):
    for r in rules:
        if (r['tier'] in ('*', s.tier) and r['file'] == s.file and
                (r['kernel'] == '*' or r['kernel'] == s.kernel) and fnmatch.fnmatchcase(s.test, r['test'])):
            r['used'] = True
            return r
    return None


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    expected = os.path.join(here, 'expected-skips')
    vm_src = os.path.join(here, 'vm')
    sources = []
    args = iter(argv)
    for a in args:
        if a == '--expected':
            expected = next(args, None) or fail('--expected needs a file')
        elif a == '--vm-src':
            vm_src = next(args, None) or fail('--vm-src needs a directory')
        elif '=' in a:
            sources.append(a.split('=', 1))
        else:
            fail('usage: skips.py [--expected FILE] [--vm-src DIR] TIER=LOG...')
    rules = read_expected(expected)
    skips, tiers_ran = [], set()
    for tier, path in sources:
        if tier == 'vm':
            skips += vm_skips(path, vm_src)
            tiers_ran.add('vm')
        else:
            skips += meson_skips(tier, path)
            tiers_ran.update(('asan',) if tier == 'asan' else ('cli', 'unit'))
    unexpected = 0
    for s in skips:
        r = allowed(rules, s)
        mark = 'allowed (%s)' % r['where'] if r else 'NOT ON THE LIST (%s)' % expected
        unexpected += r is None
        print('skip: %s [%s]' % (s.line(), mark))
    print('skips: %d skipped, %d not on the list' % (len(skips), unexpected))
    for r in rules:
        if not r['used'] and (r['tier'] in tiers_ran or r['tier'] == '*'):
            print('skips: %s no longer skips: %s | %s | %s' % (r['where'], r['file'], r['kernel'], r['test']))
    if unexpected:
        print('skips: a skip not on the list hides what its test should show: make the test run, '
              'or add it to %s with why it is right' % expected)
    return 1 if unexpected else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
