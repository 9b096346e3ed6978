#!/usr/bin/env python3
"""t_metrics.py: evtop --metrics, checked by value.

  t_metrics.py EVTOP [FIXTURE...]

For every fixture: `evtop --batch --json FILE` (the threaded file reader)
gives the reference figures; `evtop --batch --json --metrics 127.0.0.1:0
FILE` replays it through the poll loop and goes on serving; a scrape in
each format must parse, pass `promtool check metrics` (when installed),
and carry the reference's figures.  Then the HTTP server's manners: HEAD,
404, 405, 400, an oversized request, a client that never finishes its
request while others are served, many scrapers at once, and SIGTERM;
Accept headers naming what is not served, absolute-form targets and
empty lines before the request line (RFC 9112); and scrapes served while
as many clients as there are slots trickle a byte at a time (slowloris).
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

EVTOP = sys.argv[1]
FIXTURES = sys.argv[2:]
n = 0
failed = 0


def ok(cond, what, detail=""):
    global n, failed
    n += 1
    if cond:
        print(f"ok {n} - {what}")
    else:
        failed += 1
        print(f"not ok {n} - {what}")
        if detail:
            for line in str(detail).splitlines()[:20]:
                print(f"#   {line}")
    sys.stdout.flush()
    return cond


def last_json(text):
    """The last whole line of JSON (the one being written may be cut)."""
    objs = [json.loads(l) for l in text.split("\n")[:-1]
            if l.startswith("{")]
    return objs[-1] if objs else None


class Server:
    """evtop serving metrics; addr is what it said it listens on."""

    def __init__(self, args, tmp):
        self.out = open(os.path.join(tmp, "out"), "w+")
        self.err = open(os.path.join(tmp, "err"), "w+", errors="replace")
        self.p = subprocess.Popen([EVTOP] + args, stdout=self.out,
                                  stderr=self.err)
        self.addr = None
        end = time.time() + 10
        while time.time() < end and self.addr is None:
            self.err.seek(0)
            m = re.search(r"metrics: listening on (\S+)", self.err.read())
            if m:
                h, p = m.group(1).rsplit(":", 1)
                self.addr = (h.strip("[]"), int(p))
            elif self.p.poll() is not None:
                break
            else:
                time.sleep(0.02)

    def wait_json(self, secs=30):
        """The final JSON object, once the source has ended."""
        end = time.time() + secs
        while time.time() < end:
            # A replay as fast as it goes: the first line is the last.
            self.out.seek(0)
            j = last_json(self.out.read())
            if j is not None:
                return j
            time.sleep(0.05)
        return None

    def stop(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
        try:
            return self.p.wait(10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            return -9


def http(addr, raw, timeout=5):
    """Send raw bytes, read the whole answer (the server closes)."""
    s = socket.create_connection(addr, timeout=timeout)
    s.sendall(raw)
    data = b""
    while True:
        try:
            b = s.recv(65536)
        except socket.timeout:
            break
        if not b:
            break
        data += b
    s.close()
    return data


def get(addr, path="/metrics", accept=None, method="GET"):
    h = f"{method} {path} HTTP/1.1\r\nHost: x\r\n"
    if accept:
        h += f"Accept: {accept}\r\n"
    data = http(addr, (h + "\r\n").encode())
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines and lines[0] else 0
    hdrs = {}
    for l in lines[1:]:
        k, _, v = l.partition(":")
        hdrs[k.strip().lower()] = v.strip()
    return status, hdrs, body.decode("utf-8", "replace")


SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def parse(text):
    """{(name, frozenset(labels)): value-string}, and the families."""
    out, fams = {}, {}
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, t = line.split(" ", 3)
            fams[name] = t
            continue
        if line.startswith("#") or not line:
            continue
        m = SAMPLE.match(line)
        if not m:
            raise ValueError("bad line: " + line)
        labels = frozenset(LABEL.findall(m.group(3) or ""))
        out[(m.group(1), labels)] = m.group(4)
    return out, fams


def val(s, name, **labels):
    return s.get((name, frozenset(labels.items())))


def ns_of(v):
    """"12.000345678" -> 12000345678, exactly."""
    if v is None:
        return None
    a, _, b = v.partition(".")
    return int(a) * 1000000000 + int((b + "000000000")[:9])


def check_fixture(fix, tmp, promtool):
    name = os.path.basename(fix)
    ref = last_json(subprocess.run([EVTOP, "--batch", "--json", fix],
                                   capture_output=True, text=True).stdout)
    srv = Server(["--batch", "--json", "--metrics", "127.0.0.1:0", fix], tmp)
    if not ok(srv.addr is not None, f"{name}: evtop says where it listens"):
        srv.stop()
        return
    j = srv.wait_json()
    ok(j is not None, f"{name}: replayed, final JSON printed, still serving")
    st, hd, body = get(srv.addr)
    ok(st == 200 and hd.get("content-type", "").startswith(
        "text/plain; version=0.0.4"), f"{name}: 200, text format 0.0.4",
        f"{st} {hd}")
    try:
        s, fams = parse(body)
        parsed = True
    except ValueError as e:
        parsed, s, fams = False, {}, {}
        ok(False, f"{name}: parses", e)
    if parsed:
        ok(True, f"{name}: parses")
    if promtool:
        r = subprocess.run([promtool, "check", "metrics"], input=body,
                           capture_output=True, text=True)
        ok(r.returncode == 0 and r.stdout.strip() == "" and
           r.stderr.strip() == "", f"{name}: promtool check metrics",
           r.stdout + r.stderr)
    # The same figures as --batch --json.
    bad = []
    for tag, cnt in ref["events"].items():
        v = val(s, "ghc_eventlog_events_total", type=tag)
        if v is None or int(v) != cnt:
            bad.append(f"events {tag}: {v} != {cnt}")
    ntypes = sum(1 for (k, _) in s if k == "ghc_eventlog_events_total")
    if ntypes != len(ref["events"]):
        bad.append(f"{ntypes} event types, JSON has {len(ref['events'])}")
    pairs = [
        ("ghc_gc_collections_total", {}, ref["gc"]["collections"], int),
        ("ghc_gc_pause_seconds_total", {}, ref["gc"]["pause_total_ns"],
         ns_of),
        ("ghc_gc_pause_max_seconds", {}, ref["gc"]["pause_max_ns"], ns_of),
        ("ghc_gc_pause_duration_seconds_count", {}, ref["gc"]["collections"],
         int),
        ("ghc_gc_pause_duration_seconds_sum", {}, ref["gc"]["pause_total_ns"],
         ns_of),
        ("ghc_prof_samples_total", {}, ref["prof"]["samples"], int),
        ("ghc_heap_prof_censuses_total", {}, ref["heap"]["censuses"], int),
        ("ghc_heap_allocated_bytes_total", {}, ref["heap"]["allocated"], int),
        ("ghc_heap_size_bytes", {}, ref["heap"]["size"], int),
        ("ghc_heap_live_bytes", {}, ref["heap"]["live"], int),
        ("ghc_nonmoving_censuses_total", {}, ref["nonmoving"]["censuses"],
         int),
        ("ghc_threads_created_total", {}, ref["threads"]["created"], int),
        ("ghc_threads_finished_total", {}, ref["threads"]["finished"], int),
        ("ghc_threads", {"state": "blocked"}, ref["threads"]["blocked"], int),
        ("ghc_messages_total", {"kind": "user"}, ref["messages"]["user"], int),
        ("ghc_messages_total", {"kind": "marker"}, ref["messages"]["markers"],
         int),
        ("ghc_sparks_total", {"outcome": "created"},
         ref["sparks"]["created"], int),
        ("ghc_sparks_total", {"outcome": "fizzled"},
         ref["sparks"]["fizzled"], int),
        ("evtop_late_events_total", {}, ref["late"], int),
        ("ghc_capabilities", {}, ref["program"]["caps"], int),
    ]
    for metric, labels, want, conv in pairs:
        v = val(s, metric, **labels)
        got = conv(v) if v is not None else None
        if got != want:
            bad.append(f"{metric}{labels}: {v} != {want}")
    for c in ref["caps"]:
        for state, key in (("mutator", "run_ns"), ("gc", "gc_ns")):
            v = ns_of(val(s, "ghc_capability_seconds_total",
                          cap=str(c["cap"]), state=state))
            if v != c[key]:
                bad.append(f"cap {c['cap']} {state}: {v} != {c[key]}")
    # Histogram: cumulative, ending at the count.
    les = sorted((float(dict(l)["le"]), int(v)) for (k, l), v in s.items()
                 if k == "ghc_gc_pause_duration_seconds_bucket")
    if [c for _, c in les] != sorted(c for _, c in les) or \
            les[-1][1] != ref["gc"]["collections"]:
        bad.append(f"histogram buckets {les}")
    ok(not bad, f"{name}: figures equal --batch --json's", "\n".join(bad))
    # The same file's bytes.
    ok(int(val(s, "evtop_source_bytes_total") or -1) ==
       os.path.getsize(fix), f"{name}: evtop_source_bytes_total is the "
       "file's size")
    # OpenMetrics: the same samples, families without _total, # EOF.
    st, hd, om = get(srv.addr, accept="application/openmetrics-text;"
                     "version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1")
    try:
        so, ofams = parse(om)
    except ValueError as e:
        so, ofams = {}, {}
        ok(False, f"{name}: OpenMetrics parses", e)
    same = {k: v for k, v in so.items() if k[0] != "evtop_metrics_scrapes_total"}
    want = {k: v for k, v in s.items() if k[0] != "evtop_metrics_scrapes_total"}
    ok(st == 200 and hd.get("content-type", "").startswith(
        "application/openmetrics-text; version=1.0.0") and
       om.endswith("# EOF\n") and om.count("# EOF") == 1 and same == want and
       ofams.get("ghc_gc_collections") == "counter" and
       "ghc_gc_collections_total" not in ofams and
       ofams.get("ghc_program") == "info",
       f"{name}: OpenMetrics 1.0.0 when asked: same samples, counter "
       "families without _total, info type, # EOF",
       f"{st} {hd} {set(same.items()) ^ set(want.items())}")
    rc = srv.stop()
    ok(rc == -signal.SIGTERM, f"{name}: dies of SIGTERM", rc)
    srv.out.seek(0)
    j2 = last_json(srv.out.read())
    for k in ("collections", "pause_total_ns"):
        if j2 is None or j2["gc"][k] != ref["gc"][k]:
            ok(False, f"{name}: the served replay's JSON equals the "
               "reference", f"{k}: {j2 and j2['gc'][k]} != {ref['gc'][k]}")
            break
    else:
        ok(j2 is not None and j2["events"] == ref["events"],
           f"{name}: the served replay's JSON equals the reference")


def check_http(fix, tmp):
    srv = Server(["--batch", "--metrics", "127.0.0.1:0", fix], tmp)
    a = srv.addr
    if not ok(a is not None, "http: listening"):
        srv.stop()
        return
    st, hd, body = get(a, method="HEAD")
    ok(st == 200 and body == "" and int(hd.get("content-length", 0)) > 1000,
       "HEAD: 200, a length, no body", f"{st} {hd} {len(body)}")
    st, _, _ = get(a, path="/")
    ok(st == 404, "GET /: 404", st)
    st, _, _ = get(a, path="/metricsx")
    ok(st == 404, "GET /metricsx: 404", st)
    st, _, body = get(a, path="/metrics?x=1")
    ok(st == 200 and "ghc_gc_collections_total" in body,
       "GET /metrics?x=1: 200", st)
    st, hd, _ = get(a, method="POST")
    ok(st == 405 and "GET" in hd.get("allow", ""), "POST: 405 with Allow",
       f"{st} {hd}")
    st, _, _ = get(a, method="DELETE")
    ok(st == 405, "DELETE: 405", st)
    d = http(a, b"garbage\r\n\r\n")
    ok(d.startswith(b"HTTP/1.1 400"), "garbage: 400", d[:40])
    d = http(a, b"GET /metrics HTTP/1.1\r\nX: " + b"a" * 20000 + b"\r\n\r\n")
    ok(d.startswith(b"HTTP/1.1 431"), "a 20 kB request: 431", d[:40])
    # A client that connects and sends half a request holds no one up.
    slow = [socket.create_connection(a) for _ in range(5)]
    for c in slow:
        c.sendall(b"GET /metr")
    t0 = time.time()
    st, _, body = get(a)
    ok(st == 200 and time.time() - t0 < 2,
       "half-sent requests of 5 clients do not delay a scrape",
       f"{st} {time.time() - t0:.2f}s")
    # 40 scrapers at once.
    socks = [socket.create_connection(a) for _ in range(40)]
    for c in socks:
        c.sendall(b"GET /metrics HTTP/1.0\r\n\r\n")
    good = 0
    for c in socks:
        c.settimeout(5)
        data = b""
        while True:
            b = c.recv(65536)
            if not b:
                break
            data += b
        c.close()
        good += data.startswith(b"HTTP/1.1 200") and \
            data.rstrip().endswith(b"evtop_metrics_scrapes_total " +
                                   data.rsplit(b" ", 1)[-1].strip())
    ok(good == 40, "40 concurrent scrapers all answered whole", good)
    # An idle client is cut off after the request timeout.
    slow[0].settimeout(15)
    t0 = time.time()
    try:
        d = slow[0].recv(100)
    except OSError:
        d = b"?"
    ok(d == b"" and 5 < time.time() - t0 < 14,
       "a client that never ends its request is closed (timeout)",
       f"{d!r} after {time.time() - t0:.1f}s")
    for c in slow:
        c.close()
    s, _ = parse(get(a)[2])
    ok(int(val(s, "evtop_metrics_scrapes_total")) == 43,
       "scrapes counted", val(s, "evtop_metrics_scrapes_total"))
    ok(srv.stop() == -signal.SIGTERM, "dies of SIGTERM")
    # Options: HOST required; a bad address fails at once.
    r = subprocess.run([EVTOP, "--batch", "--metrics", "9464", fix],
                       capture_output=True, text=True)
    ok(r.returncode == 2 and "HOST:PORT" in r.stderr,
       "--metrics PORT without HOST: refused", r.stderr)
    r = subprocess.run([EVTOP, "--batch", "--metrics", "192.0.2.1:9464",
                        fix], capture_output=True, text=True, timeout=10)
    ok(r.returncode == 1 and "cannot listen" in r.stderr,
       "--metrics on an address not ours: fails at once", r.stderr)


def check_http_nits(fix, tmp):
    """Content negotiation by whole media type and version; RFC 9112's
    absolute-form and leading empty lines."""
    srv = Server(["--batch", "--metrics", "127.0.0.1:0", fix], tmp)
    a = srv.addr
    if not ok(a is not None, "http nits: listening"):
        srv.stop()
        return
    text = "text/plain; version=0.0.4"
    om = "application/openmetrics-text; version=1.0.0"
    for accept, want in (
            ("application/openmetrics-textual", text),
            ("application/openmetrics-text;version=2.0.0", text),
            ("application/openmetrics-text; version=2.0.0,text/plain;q=0.1",
             text),
            ("application/openmetrics-text", om),
            ("application/openmetrics-text; version=1.0.0; q=0.9", om)):
        st, hd, _ = get(a, accept=accept)
        ok(st == 200 and hd.get("content-type", "").startswith(want),
           f"Accept: {accept}: {want}", f"{st} {hd.get('content-type')}")
    host = f"{a[0]}:{a[1]}"
    for target, want in ((f"http://{host}/metrics", 200),
                         (f"http://{host}/metrics?x=1", 200),
                         (f"HTTP://{host}/metricsx", 404),
                         (f"http://{host}", 404)):
        d = http(a, f"GET {target} HTTP/1.1\r\nHost: {host}\r\n\r\n"
                 .encode())
        ok(d.startswith(b"HTTP/1.1 %d" % want) and
           (want != 200 or b"ghc_gc_collections_total" in d),
           f"absolute-form GET {target}: {want}", d[:40])
    for lead in (b"\r\n", b"\n", b"\r\n\r\n"):
        d = http(a, lead + b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        ok(d.startswith(b"HTTP/1.1 200") and b"ghc_gc_collections_total"
           in d, f"{lead!r} before the request line: ignored, 200", d[:40])
    d = http(a, b"\r\n" * 5000)
    ok(d.startswith(b"HTTP/1.1 431"), "10 000 bytes of empty lines: 431",
       d[:40])
    ok(srv.stop() == -signal.SIGTERM, "http nits: dies of SIGTERM")


HTTP_MAX_CONN = 64


def try_get(addr, timeout):
    """get(), with a reset or a timeout as status 0."""
    try:
        s = socket.create_connection(addr, timeout=timeout)
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        data = b""
        while True:
            b = s.recv(65536)
            if not b:
                break
            data += b
        s.close()
    except OSError as e:
        return 0, repr(e)
    return (200 if data.startswith(b"HTTP/1.1 200") and
            b"ghc_gc_collections_total" in data else 1), data[:40]


def gone(c):
    """Whether the server has closed a connection (without waiting)."""
    c.setblocking(False)
    try:
        return c.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        c.settimeout(2)


def check_slowloris(fix, tmp):
    """Every slot held by a client that sends a byte now and then, and
    reconnects when closed: a scraper, which sends its request at once,
    is still answered, within a second, each time."""
    srv = Server(["--batch", "--metrics", "127.0.0.1:0", fix], tmp)
    a = srv.addr
    if not ok(a is not None, "slowloris: listening"):
        srv.stop()
        return
    slow, opened, good, bad = [], 0, 0, []
    for _ in range(4):
        # The slots filled again, and a byte more from each (the pace of
        # the audit's loris.py: a second; here 0.3 s).
        alive = []
        for c in slow:
            if gone(c):
                c.close()
            else:
                c.sendall(b"E")
                alive.append(c)
        slow = alive
        while len(slow) < HTTP_MAX_CONN:
            c = socket.create_connection(a, timeout=2)
            c.sendall(b"G")
            slow.append(c)
            opened += 1
        time.sleep(0.3)
        t0 = time.time()
        st, detail = try_get(a, 2)
        dt = time.time() - t0
        if st == 200 and dt < 1:
            good += 1
        else:
            bad.append(f"{st} after {dt:.2f}s: {detail}")
    ok(good == 4, f"slowloris: {HTTP_MAX_CONN} trickling clients: 4 of 4 "
       "scrapes answered within 1 s", "\n".join(bad))
    ok(opened > HTTP_MAX_CONN, f"slowloris: slow clients made room "
       f"({opened - HTTP_MAX_CONN} closed for the scrapes)", opened)
    for c in slow:
        c.close()
    ok(srv.stop() == -signal.SIGTERM, "slowloris: dies of SIGTERM")


def check_source_label(fix, tmp, promtool):
    """A source whose path is long (over 1 KiB) and odd (UTF-8, quotes, a
    backslash, a newline, a byte that is not UTF-8): its label is the path
    whole, escaped, the byte as U+FFFD, and the labels after it are there."""
    parts = [b"\xc3\xa9\xe4\xb8\xad", b'q"uo\\te', b"new\nline", b"bad\xffbyte"]
    parts += [b"d" * 200] * 6
    d = os.path.join(tmp.encode(), *parts)
    os.makedirs(d)
    path = os.path.join(d, b"x.eventlog")
    shutil.copyfile(fix, path)
    srv = Server(["--batch", "--json", "--metrics", "127.0.0.1:0",
                  os.fsdecode(path)], tmp)
    if not ok(srv.addr is not None, "a long, odd source path: evtop listens"):
        srv.stop()
        return
    srv.wait_json()
    st, _, body = get(srv.addr)
    raw = http(srv.addr, b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    raw = raw.partition(b"\r\n\r\n")[2]
    srv.stop()
    try:
        raw.decode("utf-8")
        utf8 = True
    except UnicodeDecodeError as e:
        utf8 = e
    ok(utf8 is True, "that scrape is UTF-8", utf8)
    line = [l for l in body.splitlines()
            if l.startswith("evtop_source_info{")]
    labels = dict(LABEL.findall(line[0])) if line else {}
    got = re.sub(r'\\(.)', lambda m: "\n" if m.group(1) == "n" else
                 m.group(1), labels.get("source", ""))
    want = path.decode("utf-8", "replace")
    ok(st == 200 and len(path) > 1024 and got == want and
       labels.get("kind") == "file", "a source path of %d bytes: its label "
       "whole, escaped, the stray byte U+FFFD, kind after it" % len(path),
       f"{line[:1]}")
    if promtool:
        r = subprocess.run([promtool, "check", "metrics"], input=raw,
                           capture_output=True)
        ok(r.returncode == 0 and r.stdout.strip() == b"" and
           r.stderr.strip() == b"", "that scrape: promtool check metrics",
           (r.stdout + r.stderr).decode("utf-8", "replace"))


def main():
    promtool = shutil.which("promtool")
    if not promtool:
        print("# SKIPPED: promtool not found: the format is checked here "
              "only (apt-get install prometheus)")
    tmp = tempfile.mkdtemp(prefix="evtop-metrics.")
    try:
        for fix in FIXTURES:
            d = os.path.join(tmp, os.path.basename(fix))
            os.mkdir(d)
            check_fixture(fix, d, promtool)
        d = os.path.join(tmp, "http")
        os.mkdir(d)
        check_http(FIXTURES[0], d)
        d = os.path.join(tmp, "http-nits")
        os.mkdir(d)
        check_http_nits(FIXTURES[0], d)
        d = os.path.join(tmp, "slowloris")
        os.mkdir(d)
        check_slowloris(FIXTURES[0], d)
        d = os.path.join(tmp, "source")
        os.mkdir(d)
        check_source_label(FIXTURES[0], d, promtool)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"1..{n}")
    if failed:
        print(f"# {failed} of {n} failed")
        sys.exit(1)


main()
