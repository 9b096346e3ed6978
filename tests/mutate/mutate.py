#!/usr/bin/env python3
"""mutate.py: does the test suite notice a wrong figure?

Each mutant in tests/mutate/mutants.txt is one small change to one line of
proto/, src/ or ui/, named by its text (file, a substring of the original
line that occurs exactly once in the file, its replacement), so that the list
survives code moving around and says so when a mutant no longer applies.

    tests/mutate/mutate.py --check        every mutant still applies (make check)
    tests/mutate/mutate.py [--quick] [ID...]   run them (make mutate)

A run copies the tree (tracked and new files) to build/mutate/tree, builds and
checks the unmutated copy once, then applies each mutant alone there (never in
the work tree) and runs the tests: first the quick targets for the file's area,
which fail early, then, for a mutant that survives them, the whole `make
check`, so the score is what `make check` gives.  --quick stops after the
quick targets (a faster, optimistic score while writing tests).  A mutant
killed by nothing is a survivor: it is printed, with its reason when the list
says it is equivalent.  Exit status 1 when a mutant no longer applies, does
not build, or survives without a reason.
"""
import os
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LIST = os.path.join(HERE, "mutants.txt")
# MUTATE_DIR: another scratch directory, for a second run beside the first.
SCRATCH = os.path.join(ROOT, os.environ.get("MUTATE_DIR",
                                            os.path.join("build", "mutate")))
TREE = os.path.join(SCRATCH, "tree")
KEYS = ("id", "file", "from", "to", "equivalent")

# The quick targets by area, most likely to fail first.  Anything that
# survives them goes through the whole `make check`.
QUICK = [
    (("proto/show.c", "proto/text.c", "proto/names.c", "src/show.c"),
     ["check-rare", "check-proto"]),
    (("proto/",), ["check-golden", "check-rare", "check-proto", "check-model"]),
    (("src/read/reader", "src/read/feed.c"),
     ["check-golden", "check-proto", "check-merge", "check-events"]),
    (("src/model", "src/model/outbuf.c", "src/batch"),
     ["check-golden", "check-model", "check-rare", "check-outbuf",
      "check-ui", "check-gcwin"]),
    (("src/source", "src/source/control.c", "src/source/record.c", "src/loop/"),
     ["check-sources-units", "check-sources-e2e", "check-sources-tui"]),
    (("src/time/evlist", "src/time/spill"),
     ["check-events", "check-events-thread"]),
    (("src/time/redo.c",), ["check-late", "check-events-thread", "check-events"]),
    (("src/time/",), ["check-travel", "check-golden"]),
    (("ui/",), ["check-ui"]),
    (("src/serve/metrics.c", "src/serve/http.c"), ["check-serve-metrics"]),
    (("src/serve/relay.c",), ["check-serve-relay"]),
    (("src/out/export.c",), ["check-export"]),
]
QUICK_TIMEOUT = 300
FULL_TIMEOUT = 1500


def load(path=LIST):
    """The mutants, as dicts; a record is `key: value` lines up to a blank
    line; `#` lines are comments."""
    muts, cur, errs = [], {}, []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for n, line in enumerate(lines + [""], 1):
        if line.startswith("#"):
            continue
        if line.strip() == "":
            if cur:
                missing = [k for k in ("id", "file", "from", "to") if k not in cur]
                if missing:
                    errs.append("%s:%d: %s: missing %s" % (
                        path, n, cur.get("id", "?"), ", ".join(missing)))
                else:
                    muts.append(cur)
                cur = {}
            continue
        key, sep, val = line.partition(":")
        if not sep or key not in KEYS:
            errs.append("%s:%d: not a `key: value` line: %s" % (path, n, line))
            continue
        if val.startswith(" "):
            val = val[1:]
        if key == "id" and "id" in cur:
            errs.append("%s:%d: %s: no blank line before" % (path, n, val))
        cur[key] = val
        if key == "id":
            cur["line"] = n
    ids = [m["id"] for m in muts]
    for i in sorted(set(x for x in ids if ids.count(x) > 1)):
        errs.append("%s: id %s used twice" % (path, i))
    return muts, errs


def applies(m, root=ROOT):
    """None when the mutant applies to the tree at root, else why not."""
    p = os.path.join(root, m["file"])
    if not os.path.isfile(p):
        return "%s: no such file" % m["file"]
    if m["from"] == m["to"]:
        return "from and to are the same"
    if "\n" in m["from"] or m["from"].strip() == "":
        return "from must be a non-empty part of one line"
    with open(p, encoding="utf-8") as f:
        n = f.read().count(m["from"])
    if n != 1:
        return "%s: original text found %d times, not once: %s" % (
            m["file"], n, m["from"])
    return None


def check(muts, errs):
    for m in muts:
        why = applies(m)
        if why:
            errs.append("mutant %s (mutants.txt:%d) no longer applies: %s" %
                        (m["id"], m["line"], why))
    for e in errs:
        print("not ok - " + e)
    files = sorted(set(m["file"] for m in muts))
    print("mutants: %d listed over %d files, %d stale" %
          (len(muts), len(files), len(errs)))
    return 1 if errs else 0


def sync_tree():
    """Copy the work tree's files to TREE; a file whose content has not
    changed keeps its time, so the copy's build stays incremental.  Files
    copied by an earlier sync and gone from the work tree since go from the
    copy too (a file moved away would still be built there)."""
    out = subprocess.run(["git", "-C", ROOT, "ls-files", "-co",
                          "--exclude-standard", "-z"],
                         check=True, stdout=subprocess.PIPE).stdout
    files = [rel for rel in out.decode().split("\0")
             if rel and not rel.startswith("build/")]
    manifest = os.path.join(TREE, ".synced")
    if os.path.isfile(manifest):
        with open(manifest, encoding="utf-8") as f:
            old = f.read().split("\0")
        for rel in set(old) - set(files):
            if rel and os.path.isfile(os.path.join(TREE, rel)):
                os.remove(os.path.join(TREE, rel))
    os.makedirs(TREE, exist_ok=True)
    with open(manifest, "w", encoding="utf-8") as f:
        f.write("\0".join(files))
    for rel in files:
        src = os.path.join(ROOT, rel)
        dst = os.path.join(TREE, rel)
        if not os.path.isfile(src):
            continue
        with open(src, "rb") as f:
            data = f.read()
        if os.path.isfile(dst):
            with open(dst, "rb") as f:
                if f.read() == data:
                    continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        # A new time (not the source's): objects built from a mutant
        # left there by a run cut short must be older.
        shutil.copyfile(src, dst)
        shutil.copymode(src, dst)


def corpus():
    """The conformance corpus as an absolute path (the copy is elsewhere)."""
    c = os.environ.get("CORPUS", os.path.join(ROOT, "..", "shared",
                                              "conformance", "ghc-events"))
    return os.path.realpath(os.path.join(ROOT, c))


def make(target, log, timeout):
    """0 when `make TARGET` passes in the copy, 1 when it fails, 2 on a
    timeout (a hang fails a test suite too)."""
    cmd = ["nice", "-n", "10", "make", "-s", "-j2", "--no-print-directory",
           "CORPUS=" + corpus(), "MUTANT_TREE=1", target]
    with open(log, "a") as f:
        f.write("\n$ make %s\n" % target)
        f.flush()
        # make leads a process group of its own: on a timeout the whole
        # group goes, a test stuck in a loop too.
        p = subprocess.Popen(cmd, cwd=TREE, stdout=f, stderr=subprocess.STDOUT,
                             start_new_session=True)
        try:
            rc = p.wait(timeout=timeout)
        except BaseException as e:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
            if not isinstance(e, subprocess.TimeoutExpired):
                raise
            f.write("TIMEOUT after %d s\n" % timeout)
            return 2
    return 0 if rc == 0 else 1


def quick_targets(path):
    for prefixes, targets in QUICK:
        if path.startswith(prefixes):
            return targets
    return []


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    # A new time, so that make rebuilds whatever depends on it.
    os.utime(path, None)


def run(muts, quick):
    os.makedirs(os.path.join(SCRATCH, "logs"), exist_ok=True)
    sync_tree()
    base = os.path.join(SCRATCH, "logs", "_baseline.log")
    open(base, "w").close()
    print("baseline: make %s in %s" % ("evtop" if quick else "check", TREE),
          flush=True)
    target = "evtop" if quick else "check"
    if make(target, base, FULL_TIMEOUT) != 0:
        print("the unmutated copy fails `make %s`: see %s" % (target, base))
        return 1
    killed, survivors, bad = 0, [], []
    t0 = time.time()
    for i, m in enumerate(muts, 1):
        path = os.path.join(TREE, m["file"])
        with open(path, encoding="utf-8") as f:
            orig = f.read()
        log = os.path.join(SCRATCH, "logs", m["id"] + ".log")
        with open(log, "w") as f:
            f.write("%s: %s\n- %s\n+ %s\n" % (m["id"], m["file"], m["from"],
                                              m["to"]))
        t = time.time()
        if orig.count(m["from"]) != 1:
            bad.append(m)
            print("[%d/%d] %s: STALE (original text not found once)" %
                  (i, len(muts), m["id"]), flush=True)
            continue
        write(path, orig.replace(m["from"], m["to"]))
        try:
            by = None
            if make("evtop", log, QUICK_TIMEOUT) != 0:
                bad.append(m)
                by = "DOES NOT BUILD"
            else:
                targets = quick_targets(m["file"]) + ([] if quick else ["check"])
                for tg in targets:
                    r = make(tg, log, FULL_TIMEOUT if tg == "check" else QUICK_TIMEOUT)
                    if r != 0:
                        by = tg + (" (timeout)" if r == 2 else "")
                        killed += 1
                        break
                if by is None:
                    survivors.append(m)
        finally:
            write(path, orig)
        if by is None:
            what = "SURVIVED" + (" (equivalent: %s)" % m["equivalent"]
                                 if "equivalent" in m else "")
        else:
            what = "killed by " + by
        print("[%d/%d] %s (%s) %s, %.0f s" % (i, len(muts), m["id"], m["file"],
                                             what, time.time() - t), flush=True)
    n = len(muts) - len(bad)
    print("\nsurvivors:")
    for m in survivors:
        print("  %s  %s: %s  ->  %s%s" % (
            m["id"], m["file"], m["from"].strip(), m["to"].strip(),
            "\n      equivalent: " + m["equivalent"] if "equivalent" in m
            else "\n      NOT EXPLAINED: a test is missing"))
    for m in bad:
        print("  %s: stale or does not build (log: build/mutate/logs/%s.log)" %
              (m["id"], m["id"]))
    gaps = [m for m in survivors if "equivalent" not in m]
    print("\nmutation score%s: %d/%d killed (%.1f%%), %d survivors (%d "
          "explained), %d stale or not building, %.0f min" % (
              " (quick tiers only)" if quick else "", killed, n,
              100.0 * killed / n if n else 0, len(survivors),
              len(survivors) - len(gaps), len(bad), (time.time() - t0) / 60))
    return 1 if gaps or bad else 0


def stop(signum, frame):
    # Through the finally clauses: the copy gets its file back.
    raise SystemExit(128 + signum)


def main(argv):
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)
    quick = "--quick" in argv
    only = [a for a in argv if not a.startswith("--")]
    muts, errs = load()
    if "--check" in argv:
        return check(muts, errs)
    if errs:
        for e in errs:
            print("not ok - " + e)
        return 1
    if only:
        muts = [m for m in muts if m["id"] in only]
    return run(muts, quick)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
