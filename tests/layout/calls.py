#!/usr/bin/env python3
"""calls.py: calls go one way.  Builds the graph of calls between source
files (a call: a function defined, not static, in one file, named followed
by "(" in another that defines none of that name; comments left out) and
fails when

  - a layer calls one above it: proto/ calls nothing of src/ or ui/, src/
    nothing of ui/ (but src/evtop.c, main(), which wires the UI in);
  - the files of a module call each other in a circle: each folder of
    src/ and ui/ (a circle anywhere among them);
  - the folders of src/ (the loop, sources, model, file reading, output,
    serving, time, and src/ itself, the top that wires them) call each other in a
    circle: one folder's files call another's, and back.

Usage: tests/layout/calls.py [ROOT]"""
import collections
import glob
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
os.chdir(root)
files = sorted(glob.glob("proto/*.c") + glob.glob("src/*.c") +
               glob.glob("src/*/*.c") + glob.glob("ui/*.c") +
               glob.glob("ui/*/*.c"))
defs = {}
own = collections.defaultdict(set)	# every function a file defines
text = {}
for f in files:
    s = open(f, encoding="utf-8").read()
    text[f] = re.sub(r"/\*.*?\*/", "", s, flags=re.S)
    for m in re.finditer(r"^([A-Za-z_][A-Za-z0-9_]*)\(", s, re.M):
        own[f].add(m.group(1))
        line_before = s[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        if not line_before.startswith("static") and m.group(1) != "main":
            defs.setdefault(m.group(1), f)
edges = collections.defaultdict(set)
for f in files:
    for name, d in defs.items():
        if d != f and name not in own[f] and \
                re.search(r"\b" + name + r"\s*\(", text[f]):
            edges[f].add(d)

bad = 0
layer = {"proto": 0, "src": 1, "ui": 2}
for f in files:
    for d in edges[f]:
        lf, ld = layer[f.split("/")[0]], layer[d.split("/")[0]]
        if ld > lf and f != "src/evtop.c":
            print("not ok - %s calls %s, a layer above it" % (f, d))
            bad += 1


def module(f):
    return os.path.dirname(f)


# Circles within a module: strongly connected components of size > 1.
index, low, stack, on, comps, n = {}, {}, [], set(), [], [0]


def visit(v):
    index[v] = low[v] = n[0]
    n[0] += 1
    stack.append(v)
    on.add(v)
    for w in edges[v]:
        if module(w) != module(v):
            continue
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        c = []
        while True:
            w = stack.pop()
            on.discard(w)
            c.append(w)
            if w == v:
                break
        if len(c) > 1:
            comps.append(sorted(c))


sys.setrecursionlimit(10000)
for f in files:
    if f not in index:
        visit(f)
for c in comps:
    print("not ok - these call each other in a circle: " + " ".join(c))
    bad += 1

# Between the folders of src/: the closure of the folder graph, then any
# pair that reaches each other is a circle (named by one call each way).
folders = collections.defaultdict(dict)
for f in files:
    for d in edges[f]:
        a, b = module(f), module(d)
        if a != b and a.startswith("src") and b.startswith("src"):
            folders[a].setdefault(b, (f, d))
reach = {a: set(folders[a]) for a in list(folders)}
changed = True
while changed:
    changed = False
    for a in reach:
        more = set().union(*(reach.get(b, set()) for b in reach[a])) - reach[a]
        if more:
            reach[a] |= more
            changed = True
for a in sorted(reach):
    for b in sorted(reach[a]):
        if a < b and a in reach.get(b, set()):
            print("not ok - folders %s and %s call each other (%s)" % (a, b,
                  "; ".join("%s calls %s" % folders[x][y] for x, y in
                            ((a, b), (b, a)) if y in folders[x]) or
                  "through others"))
            bad += 1
print("%d files, %d calls between them: %s" % (len(files),
      sum(len(e) for e in edges.values()),
      "one way" if bad == 0 else "%d problems" % bad))
sys.exit(1 if bad else 0)
