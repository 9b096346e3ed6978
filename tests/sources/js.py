#!/usr/bin/env python3
"""js.py: read evtop --batch --json output (one JSON object per line).

  js.py cmp A B        compare the last objects of A and B, ignoring what
                       depends on how the bytes arrived (the reorder buffer's
                       counters; A's stream cut within an event, when B, its
                       recording, is whole); prints the differences, exit 1
                       if any
  js.py cmp-late A B   the same, `late` compared too (events that could not
                       be put back: a live source with a history has none)
  js.py get FILE PATH  the value at PATH (a.b.c, [i] for lists) in the last
                       object of FILE
  js.py all FILE PATH  the value at PATH in every object, one per line
"""
import json
import sys

# How the events arrived, not what the program did.
IGNORE = {".late", ".lag_ns", ".history", ".reorder.held", ".reorder.held_bytes", ".reorder.forced",
          ".reorder.oversize"}


def objects(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip().startswith("{")]


def get(obj, path):
    for part in path.replace("[", ".[").split("."):
        if part == "":
            continue
        if part.startswith("["):
            obj = obj[int(part[1:-1])]
        else:
            obj = obj[part]
    return obj


def diff(x, y, path, out, ignore=IGNORE):
    if path in ignore:
        return
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            diff(x.get(k), y.get(k), path + "." + k, out, ignore)
    elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (u, v) in enumerate(zip(x, y)):
            diff(u, v, "%s[%d]" % (path, i), out, ignore)
    elif x != y:
        out.append("%s: %s | %s" % (path, str(x)[:80], str(y)[:80]))


def main():
    if len(sys.argv) == 4 and sys.argv[1] in ("cmp", "cmp-late"):
        a, b = objects(sys.argv[2]), objects(sys.argv[3])
        if not a or not b:
            print("no JSON object in %s" % (sys.argv[2] if not a else sys.argv[3]))
            return 1
        out = []
        ign = IGNORE if sys.argv[1] == "cmp" else IGNORE - {".late"}
        # A stream cut within an event says so; its recording ends at
        # the last whole event, with an end marker (record.c).
        if ((a[-1].get("last_error") or "").startswith("truncated:") and
                b[-1].get("errors") == 0):
            ign = ign | {".errors", ".last_error"}
        diff(a[-1], b[-1], "", out, ign)
        for l in out[:40]:
            print(l)
        return 1 if out else 0
    if len(sys.argv) == 4 and sys.argv[1] in ("get", "all"):
        objs = objects(sys.argv[2])
        if not objs:
            return 1
        for o in (objs[-1:] if sys.argv[1] == "get" else objs):
            v = get(o, sys.argv[3])
            print(json.dumps(v) if not isinstance(v, str) else v)
        return 0
    print(__doc__)
    return 2


sys.exit(main())
