#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""options-doc.py CXLTIER DOCSDIR - each man page's OPTIONS against the
command table: every option of `cxltier CMD --help` (which the table makes)
is an entry of docs/cxltier-CMD.txt's OPTIONS, with the same letter and
argument name, and the page names no option the table lacks. The common
options (cxltier(1)) may be named or not. Prints each disagreement, naming
the page and the option; exit 1 when there is one."""
import re
import subprocess
import sys

COMMON = {'help', 'verbose', 'json', 'output', 'output-all', 'noheadings', 'raw', 'pairs', 'list', 'bytes', 'sysroot',
          'list-opts', 'list-completion'}
COMMON_LETTERS = set('hvjonbPl')   # -r too, but list's own -r is --region
HELP_LINE = re.compile(r'^  (?:-(\S), )?--([a-z][a-z0-9-]*)(?: ([A-Z][A-Za-z0-9_=.,\[\]-]*))?(?:\s|$)|^      --([a-z][a-z0-9-]*)(?: ([A-Z][A-Za-z0-9_=.,\[\]-]*))?(?:\s|$)')


def table_options(cxltier, cmd):
    """{long: (letter or None, arg or None)} from the command's --help"""
    out = subprocess.run([cxltier, cmd, '--help'], capture_output=True, text=True, env={'CXLTIER_NO_MAN': '1'})
    if out.returncode != 0:
        raise SystemExit(f'cxltier {cmd} --help: exit {out.returncode}: {out.stderr.strip()}')
    opts = {}
    for line in out.stdout.splitlines():
        m = HELP_LINE.match(line)
        if not m:
            continue
        if m.group(2):
            letter, name, arg = m.group(1), m.group(2), m.group(3)
        else:
            letter, name, arg = None, m.group(4), m.group(5)
        if name not in COMMON:
            opts[name] = (letter, arg)
    return opts


def page_options(path):
    """{long: (letter or None, arg or None, line)} from the page's OPTIONS section"""
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    opts, inside = {}, False
    for i, line in enumerate(lines):
        if i + 1 < len(lines) and re.fullmatch(r'-+', lines[i + 1]) and re.fullmatch(r'[A-Z][A-Z /-]*', line):
            inside = line == 'OPTIONS'
            continue
        if not inside or not line.startswith('*') or line.startswith('* ') or '::' not in line:
            continue
        head = line.split('::')[0]
        longs = re.findall(r'--([a-z][a-z0-9-]*)', head)
        letters = re.findall(r'(?<![-\w])-([A-Za-z0-9])\b', head)
        arg = re.search(r'\*\s+([A-Z][A-Za-z0-9_=.,\[\]-]*)\s*$', head)
        for name in longs:
            if name in COMMON:
                continue
            own = [l for l in letters if l not in COMMON_LETTERS]
            opts[name] = (own[0] if len(longs) == 1 and own else None,
                          arg.group(1) if arg and len(longs) == 1 else None, i + 1)
    return opts


def main():
    cxltier, docs = sys.argv[1], sys.argv[2]
    cmds = subprocess.run([cxltier, '--list-cmds'], capture_output=True, text=True).stdout.split()
    if not cmds:
        raise SystemExit('cxltier --list-cmds listed no command')
    bad = 0
    for cmd in cmds:
        page = f'{docs}/cxltier-{cmd}.txt'
        table, doc = table_options(cxltier, cmd), page_options(page)
        for name, (letter, arg) in sorted(table.items()):
            if name not in doc:
                print(f'{page}: OPTIONS has no --{name} (cxltier {cmd} --help has it)')
                bad = 1
                continue
            dletter, darg, at = doc[name]
            if letter and dletter and letter != dletter:
                print(f'{page}:{at}: --{name} is -{dletter} here, -{letter} in the table')
                bad = 1
            if letter and not dletter and len([1 for n in doc if doc[n][2] == at]) == 1:
                print(f'{page}:{at}: --{name} without its letter -{letter}')
                bad = 1
            if darg != arg and darg is not None or (arg and darg is None and
                                                     len([1 for n in doc if doc[n][2] == at]) == 1):
                print(f'{page}:{at}: --{name} takes {arg or "no argument"} in the table, {darg or "none"} here')
                bad = 1
        for name in sorted(set(doc) - set(table)):
            print(f'{page}:{doc[name][2]}: --{name} is not an option of cxltier {cmd} (its table has none such)')
            bad = 1
    return bad


if __name__ == '__main__':
    sys.exit(main())
