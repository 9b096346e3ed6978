#!/usr/bin/env python3
"""t_prometheus.py: a real Prometheus server scrapes evtop.

  t_prometheus.py EVTOP FIXTURE

evtop --batch --json --metrics replays FIXTURE and goes on serving; a
prometheus on loopback (a config of a few lines, scraping every second)
must find the target up, and hold the values --batch --json printed.
SKIPPED when prometheus is not installed (apt-get install prometheus).
"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

EVTOP, FIX = sys.argv[1], sys.argv[2]
n = failed = 0


def ok(cond, what, detail=""):
    global n, failed
    n += 1
    print(f"{'ok' if cond else 'not ok'} {n} - {what}")
    if not cond:
        failed += 1
        if detail:
            print(f"#   {detail}")
    sys.stdout.flush()
    return cond


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def query(port, q):
    url = f"http://127.0.0.1:{port}/api/v1/query?" + \
        urllib.parse.urlencode({"query": q})
    try:
        with urllib.request.urlopen(url, timeout=3) as r:
            d = json.load(r)
    except OSError:
        return None
    res = d.get("data", {}).get("result", [])
    return res[0]["value"][1] if res else None


def main():
    prom = shutil.which("prometheus")
    if not prom:
        print("SKIPPED: prometheus not found (apt-get install prometheus)")
        return 0
    tmp = tempfile.mkdtemp(prefix="evtop-prom.")
    procs = []
    try:
        out = open(os.path.join(tmp, "out"), "w+")
        err = open(os.path.join(tmp, "err"), "w+")
        ev = subprocess.Popen([EVTOP, "--batch", "--json", "--metrics",
                               "127.0.0.1:0", FIX], stdout=out, stderr=err)
        procs.append(ev)
        addr = ref = None
        end = time.time() + 20
        while time.time() < end and (addr is None or ref is None):
            err.seek(0)
            m = re.search(r"metrics: listening on (\S+)", err.read())
            addr = m.group(1) if m else None
            out.seek(0)
            objs = [json.loads(l) for l in out if l.startswith("{")]
            ref = objs[-1] if objs else None
            time.sleep(0.05)
        if not ok(addr is not None and ref is not None,
                  "evtop replayed the fixture and serves metrics"):
            return 1
        port = free_port()
        cfg = os.path.join(tmp, "prometheus.yml")
        with open(cfg, "w") as f:
            f.write("global:\n  scrape_interval: 1s\n"
                    "scrape_configs:\n  - job_name: evtop\n"
                    f"    static_configs:\n      - targets: ['{addr}']\n")
        plog = open(os.path.join(tmp, "prom.log"), "w+")
        pr = subprocess.Popen([prom, f"--config.file={cfg}",
                               f"--storage.tsdb.path={tmp}/data",
                               f"--web.listen-address=127.0.0.1:{port}"],
                              stdout=plog, stderr=plog)
        procs.append(pr)
        up = got = None
        want = str(ref["gc"]["collections"])
        end = time.time() + 60
        while time.time() < end:
            up = query(port, 'up{job="evtop"}')
            got = query(port, 'ghc_gc_collections_total{job="evtop"}')
            if up == "1" and got is not None:
                break
            if pr.poll() is not None:
                break
            time.sleep(0.25)
        plog.seek(0)
        ok(up == "1", "prometheus scraped evtop: up == 1",
           f"up={up}; " + plog.read()[-800:].replace("\n", " | "))
        ok(got == want, "ghc_gc_collections_total is --batch --json's "
           "gc.collections", f"{got} != {want}")
        pause = query(port, 'ghc_gc_pause_seconds_total{job="evtop"}')
        ok(pause is not None and round(float(pause) * 1e9) ==
           ref["gc"]["pause_total_ns"], "ghc_gc_pause_seconds_total is "
           "gc.pause_total_ns", f"{pause} vs {ref['gc']['pause_total_ns']}")
        q = 'ghc_eventlog_events_total{job="evtop",type="GC_START"}'
        ev_n = query(port, q)
        ok(ev_n == str(ref["events"].get("GC_START")),
           "events by type reach prometheus", f"{ev_n}")
        bucket = query(port, 'ghc_gc_pause_duration_seconds_bucket'
                       '{job="evtop",le="+Inf"}')
        ok(bucket == want, "the pause histogram reaches prometheus",
           f"{bucket}")
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"1..{n}")
    return 1 if failed else 0


sys.exit(main())
