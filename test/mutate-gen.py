#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""mutate-gen.py - the operator mutants of test/mutate.sh --generate.

  mutate-gen.py sites ROOT FILE...        every mutation site, one a line
  mutate-gen.py pick ROOT SEED COUNT [--lines FILE:A-B,...] FILE...
                                          COUNT sites drawn with SEED
  mutate-gen.py apply ROOT ID             the mutant ID applied to ROOT
  mutate-gen.py check ROOT EQUIV          the recorded equivalents well-formed

A site is an operator in C code (comments, string and character literals
and preprocessor lines are skipped, and so is code compiled out: #if 0 and
the test-only crash points): a relational operator flipped (< into >=, ==
into !=) or moved across its boundary (< into <=), && and || swapped, a
binary + 1 or - 1 turned round, a return of 0, -1, true or false reversed,
a ! removed. Its ID is stable while the line it is on reads the same:
FILE:LINE:OP:N, N the operator's place among the line's sites of that kind,
LINE the line's number (for the reader) and the line's text hashed (for
the match: a site whose line moved is found again, one whose line changed
is gone). A line of a site, tab-separated:
  ID  FILE  LINENO  OP  FROM  TO  LINE-TEXT
"""
import hashlib
import random
import re
import sys

OPS = {
    'rel-flip': {'<': '>=', '>': '<=', '<=': '>', '>=': '<', '==': '!=', '!=': '=='},
    'rel-bound': {'<': '<=', '>': '>=', '<=': '<', '>=': '>'},
    'logic': {'&&': '||', '||': '&&'},
    'arith': {'+ 1': '- 1', '- 1': '+ 1', '+1': '-1', '-1': '+1'},
    'return': {'return 0;': 'return -1;', 'return -1;': 'return 0;',
               'return true;': 'return false;', 'return false;': 'return true;'},
    'negation': {'!': ''},
}
PATTERNS = {
    'rel-flip': re.compile(r'(?<![<>=!\-])(<=|>=|==|!=|<|>)(?![<>=])'),
    'rel-bound': re.compile(r'(?<![<>=!\-])(<=|>=|<|>)(?![<>=])'),
    'logic': re.compile(r'(&&|\|\|)'),
    'arith': re.compile(r'(?<=[\w)\]])\s*([+-] ?1)\b(?![.\w])'),
    'return': re.compile(r'\b(return (?:0|-1|true|false);)'),
    'negation': re.compile(r'(!)(?=[\w(])'),
}


def mask(text):
    """text with comments, literals and preprocessor lines blanked (same
    length, newlines kept), and code compiled out blanked too"""
    out, i, n = list(text), 0, len(text)

    def blank(a, b):
        for k in range(a, b):
            if out[k] != '\n':
                out[k] = ' '
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            blank(i, min(j + 1, n))
            i = j + 1
        else:
            i += 1
    # preprocessor lines (with their continuations), and what #if 0 and the
    # crash points (CXLTIER_CRASH_POINTS) compile out
    lines = ''.join(out).split('\n')
    raw = text.split('\n')
    depth_off, stack, cont = 0, [], False
    for k, line in enumerate(lines):
        s = raw[k].strip()
        is_pp = cont or s.startswith('#')
        if s.startswith('#'):
            d = s[1:].strip()
            if d.startswith('if'):
                off = bool(re.match(r'if\s+0\b', d)) or 'CRASH_POINTS' in d
                stack.append(off)
                depth_off += off
            elif d.startswith('else') and stack:
                # the other branch of a compiled-out block is compiled in, and the reverse
                depth_off += -1 if stack[-1] else 1
                stack[-1] = not stack[-1]
            elif d.startswith('endif') and stack:
                depth_off -= stack.pop()
        cont = is_pp and raw[k].rstrip().endswith('\\')
        if is_pp or depth_off > 0:
            lines[k] = ' ' * len(lines[k])
    return lines


def line_hash(line):
    return hashlib.sha1(line.strip().encode()).hexdigest()[:8]


def sites(root, path):
    text = open(f'{root}/{path}', encoding='utf-8').read()
    raw = text.split('\n')
    masked = mask(text)
    out = []
    for no, line in enumerate(masked, 1):
        if not line.strip():
            continue
        for op, pat in PATTERNS.items():
            found = [m for m in pat.finditer(line)
                     if not (op == 'arith' and re.search(r'\b(return|case|sizeof)\s*$', line[:m.start()]))]
            for k, m in enumerate(found):
                frm = m.group(1)
                to = OPS[op][frm]
                sid = f'{path}:{no}:{op}:{k}:{line_hash(raw[no - 1])}'
                out.append((sid, path, no, op, frm, to, m.start(1), raw[no - 1]))
    return out


def parse_lines(spec):
    """FILE:A-B,... into {file: set(lines)}"""
    want = {}
    for part in filter(None, spec.split(',')):
        f, _, r = part.rpartition(':')
        a, _, b = r.partition('-')
        want.setdefault(f, set()).update(range(int(a), int(b or a) + 1))
    return want


def find(root, sid):
    """the site of ID sid in root's file, where its line is now (of lines
    that read the same, the nearest to where it was)"""
    path, no, op, k, h = sid.split(':')
    hits = [s for s in sites(root, path)
            if s[3] == op and s[0].split(':')[3] == k and line_hash(s[7]) == h]
    return min(hits, key=lambda s: abs(s[2] - int(no))) if hits else None


def main():
    cmd, root = sys.argv[1], sys.argv[2]
    if cmd == 'sites':
        for path in sys.argv[3:]:
            for s in sites(root, path):
                print('\t'.join(str(x) for x in s[:6]) + '\t' + s[7].strip())
    elif cmd == 'pick':
        seed, count, args = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
        lines = None
        if args and args[0] == '--lines':
            lines, args = parse_lines(args[1]), args[2:]
        pool = [s for path in args for s in sites(root, path)
                if lines is None or s[2] in lines.get(path, ())]
        pool.sort(key=lambda s: s[0])
        for s in random.Random(seed).sample(pool, min(count, len(pool))):
            print('\t'.join(str(x) for x in s[:6]) + '\t' + s[7].strip())
        print(f'# {len(pool)} sites', file=sys.stderr)
    elif cmd == 'apply':
        s = find(root, sys.argv[3])
        if not s:
            raise SystemExit(f'mutate-gen: {sys.argv[3]}: the site is gone (its line changed)')
        path, no, frm, to, col = s[1], s[2], s[4], s[5], s[6]
        lines = open(f'{root}/{path}', encoding='utf-8').read().split('\n')
        line = lines[no - 1]
        assert line[col:col + len(frm)] == frm, (line, col, frm)
        lines[no - 1] = line[:col] + to + line[col + len(frm):]
        open(f'{root}/{path}', 'w', encoding='utf-8').write('\n'.join(lines))
    elif cmd == 'check':
        bad = 0
        for no, line in enumerate(open(sys.argv[3], encoding='utf-8'), 1):
            line = line.rstrip('\n')
            if not line.strip() or line.startswith('#'):
                continue
            f = line.split(' :: ')
            if len(f) != 2 or not f[1].strip():
                print(f'{sys.argv[3]}:{no}: not "ID :: WHY"', file=sys.stderr)
                bad = 1
            elif not find(root, f[0].strip()):
                print(f'{sys.argv[3]}:{no}: {f[0].strip()}: no such site now (its line changed): review it again',
                      file=sys.stderr)
                bad = 1
        sys.exit(bad)


if __name__ == '__main__':
    main()
