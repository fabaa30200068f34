#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""hotplug-summary.py BENCH.LOG ROUNDS SIZE: test/bench/hotplug.sh's table
from the guest's lines (hotplug-guest.sh): median, min and max per side,
the ratios of medians (and the median of per-round ratios), the dropped
runs, and where the profiled chain runs' time went."""
import re, statistics, sys

log, rounds, size = sys.argv[1], sys.argv[2], sys.argv[3]
startup, times, seen, oneline = {}, {}, {}, {}
runs, drops, notes, mon, t0, t1, t2, journal = {}, [], [], {}, {}, {}, {}, {}
start = ""
for line in open(log, errors="replace"):
    f = line.rstrip("\n").split(" ")
    if f[0] != "BENCH" or len(f) < 2:
        continue
    if f[1] == "start":
        start = " ".join(f[2:])
    elif f[1] == "run":             # BENCH run SIDE US round I
        runs.setdefault(f[2], {})[int(f[5])] = int(f[3]) / 1000
    elif f[1] == "seen":            # BENCH seen SIDE ROUND US
        seen.setdefault(f[2], []).append(int(f[4]) / 1000)
    elif f[1] == "times":           # BENCH times SIDE ROUND T0 T1
        times.setdefault(f[2], []).append((int(f[4]), int(f[5])))
    elif f[1] == "start-up" and f[2] == "one-line":  # BENCH start-up one-line US LINE
        oneline.setdefault(" ".join(f[4:]).replace("_", " "), []).append(int(f[3]) / 1000)
    elif f[1] == "start-up":        # BENCH start-up HOW US
        startup.setdefault(f[2], []).append(int(f[3]) / 1000)
    elif f[1] == "drop":
        drops.append(" ".join(f[2:]))
    elif f[1] == "note:":
        notes.append(" ".join(f[2:]))
    elif f[1] in ("t0", "t1", "t2"):  # BENCH tN profile P US
        {"t0": t0, "t1": t1, "t2": t2}[f[1]][int(f[3])] = int(f[4])
    elif f[1] == "mon":             # BENCH mon P KERNEL[mono] ACTION DEVPATH (SUBSYSTEM)
        m = re.match(r"BENCH mon (\d+) (KERNEL|UDEV) *\[([\d.]+)\] +(\w+) +(\S+) \((\w+)\)", line)
        if m:
            mon.setdefault(int(m[1]), []).append((m[2], float(m[3]) * 1e6, m[4], m[5].rsplit("/", 1)[1]))
    elif f[1] == "journal":         # BENCH journal REALTIME MONOTONIC UNIT MESSAGE
        journal[(int(f[2]), " ".join(f[5:]))] = (int(f[2]), int(f[3]), f[4], " ".join(f[5:]))

def mid(v):
    return statistics.median(v) if v else float("nan")

icount = __import__("os").environ.get("CXLTIER_VM_ICOUNT", "")
print(f"hot-add to movable, {size} cards, {rounds} alternating rounds, TCG guest"
      f"{', icount ' + icount if icount else ''} ({start}) (ms from the kernel's first sight of the card, pciehp's 'Card present'):")
print(f"  {'':8} {'runs':>4} {'median':>9} {'min':>9} {'max':>9}")
med = {}
for side in ("chain", "floor", "kernel", "four", "fourfloor"):
    v = list(runs.get(side, {}).values())
    if side == "fourfloor" and not v:
        continue
    med[side] = mid(v)
    if v:
        print(f"  {side:8} {len(v):4d} {med[side]:9.1f} {min(v):9.1f} {max(v):9.1f}")
    else:
        print(f"  {side:8}    0 (no run)")
def ratio(a, b, what):
    ra, rb = runs.get(a, {}), runs.get(b, {})
    per = [ra[i] / rb[i] for i in ra if i in rb]
    if ra and rb:
        print(f"  {what:16} {med[a] / med[b]:6.3f}x (median of per-round ratios {mid(per):.3f}x)")
ratio("chain", "floor", "chain / floor")
ratio("kernel", "floor", "kernel / floor")
ratio("four", "chain", "four / one (chain)")
ratio("fourfloor", "floor", "four / one (floor)")
ratio("four", "fourfloor", "four: chain / floor")
if seen:
    print("  the QMP reply seen by the guest, after the card's coming (ms, median):",
          ", ".join(f"{k} {mid(v):.1f}" for k, v in seen.items() if k != "profile"))
print(f"  dropped runs: {len(drops)}")
for d in drops:
    print(f"    {d}")
for n in notes:
    print(f"  note: {n}")

# where the time goes in the profiled chain runs (udevadm monitor; journal)
if t0:
    jl = sorted(journal.values(), key=lambda j: j[0])  # (stable: the journal's order)
    off = statistics.median(r - m for r, m, _, _ in jl) if jl else 0  # realtime - monotonic
    rows = {}
    def add(what, v):
        rows.setdefault(what, []).append(v)
    for p in sorted(t0):
        a, b = t0[p], t2.get(p, t1.get(p, 0) + 60_000_000)
        ev = mon.get(p, [])
        mem = next((d for s, _, act, d in ev if s == "KERNEL" and act == "bind" and d.startswith("mem")), None)
        if not mem:
            continue
        rel = lambda mono: (mono + off - a) / 1000
        for src, t, act, dev in ev:
            if act == "bind" and dev.startswith("mem"):
                add(f"{'kernel: memdev bound (uevent)' if src == 'KERNEL' else 'udevd: memdev event done'}", rel(t))
            if act == "bind" and dev.startswith("dax"):
                add(f"{'kernel: dax device bound to kmem (uevent)' if src == 'KERNEL' else 'udevd: dax event done'}", rel(t))
        # cxltier-hotplug.service's lines: a run started and done, its
        # phases (-vv), in the profiled run's window
        js = [(r, msg) for r, _, u, msg in jl if a <= r <= b and u == "cxltier-hotplug.service"]
        runre = re.compile(r"cxltier hotplug: online --policy (.*): (started|done|exit)")
        st = next((r for r, msg in js for m in [runre.match(msg)] if m and m[2] == "started" and mem in m[1].split()), None)
        if st:
            add("cxltier hotplug: its run started", (st - a) / 1000)
        phases = [(r, m) for r, msg in js for m in [re.match(r"cxltier online: (.*): ([\d.]+) ms$", msg)] if m]
        if phases:
            first = phases[0][0] - float(phases[0][1][2]) * 1000
            add("cxltier: main (its first phase, start)", (first - a) / 1000)
            for r, m in phases:
                add(f"  phase {m[1]} (ms)", float(m[2]))
        fin = next((r for r, msg in js for m in [runre.match(msg)] if m and m[2] != "started" and mem in m[1].split()), None)
        if fin:
            add("cxltier hotplug: its run ended", (fin - a) / 1000)
        if p in t1:
            add("every block online movable (poll)", (t1[p] - a) / 1000)
    if rows:
        order = ["kernel: memdev bound (uevent)", "udevd: memdev event done", "cxltier hotplug: its run started",
                 "cxltier: main (its first phase, start)"]
        order += [k for k in rows if k.startswith("  phase")]
        order += ["kernel: dax device bound to kmem (uevent)", "udevd: dax event done",
                  "every block online movable (poll)", "cxltier hotplug: its run ended"]
        print(f"  where the chain's time goes ({len(t0)} profiled runs, udevadm monitor and cxltier -vv;"
              f" ms from the card's coming, medians; phases: their own length):")
        for k in order:
            if k in rows:
                v = rows[k]
                print(f"    {k:48} {mid(v):9.1f}  (min {min(v):.1f}, max {max(v):.1f}, n={len(v)})")
if startup:
    print("  starting a run of cxltier, medians (ms):", ", ".join(
        f"{ {'exec': 'cxltier --version by hand', 'bare-unit': 'as a oneshot unit', 'sandboxed-unit': 'as one with cxltier-hotplug.service sandbox (what a unit per device paid each time)'}.get(k, k)} {mid(v):.1f}"
        for k, v in startup.items()))
if oneline and "bare-unit" in startup:
    bare = mid(startup["bare-unit"])
    print(f"  the sandbox's lines, each alone in a oneshot unit: ms over the bare unit's {bare:.1f} (medians; the 8 dearest):")
    for k, v in sorted(oneline.items(), key=lambda kv: -mid(kv[1]))[:8]:
        print(f"    {mid(v) - bare:7.1f}  {k}")

# the timed chain runs (one card, four), from the journal alone: when
# cxltier hotplug started and ended its runs for memdevs (ms from the card's
# coming), and how many runs it made
jl = sorted(journal.values(), key=lambda j: j[0])
runre = re.compile(r"cxltier hotplug: online --policy (.*): (started|done|exit)")
for side in ("chain", "four"):
    rows = {}
    for a, b in times.get(side, []):
        ev = [(r, m[1].split(), m[2]) for r, _, u, msg in jl if a <= r <= b + 5_000_000
              for m in [runre.match(msg)] if m]
        st = [r for r, devs, what in ev if what == "started" and any(d.startswith("mem") for d in devs)]
        fin = [r for r, devs, what in ev if what != "started" and any(d.startswith("mem") for d in devs)]
        if st:
            rows.setdefault("first run over a memdev started", []).append((st[0] - a) / 1000)
            rows.setdefault("last run over a memdev started", []).append((st[-1] - a) / 1000)
        if fin:
            rows.setdefault("first run over a memdev ended", []).append((fin[0] - a) / 1000)
            rows.setdefault("last run over a memdev ended", []).append((fin[-1] - a) / 1000)
        rows.setdefault("runs started before the last block (count)", []).append(
            len([r for r, _, what in ev if what == "started" and r <= b]))
        rows.setdefault("every block online movable (poll)", []).append((b - a) / 1000)
    if rows:
        print(f"  the timed {side} runs ({len(times[side])}), from the journal (ms from the card's coming, medians):")
        for k, v in rows.items():
            print(f"    {k:48} {mid(v):9.1f}  (min {min(v):.1f}, max {max(v):.1f})")
