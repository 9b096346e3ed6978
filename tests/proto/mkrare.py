#!/usr/bin/env python3
"""mkrare.py OUT: an eventlog of what no recorded fixture contains, for the
second opinion (tests/proto/second-opinion.sh compares `evtop show` with
ghc-events 0.17 on it): every STOP_THREAD status 0..21 (with the black hole
owner and the stack size where GHC posts them), MEM_RETURN with memory
returned, two GC requests before one collection, a capability
disabled and enabled, RTS messages (LOG_MSG).  GHC 9.0's tags and sizes
(rts/include/rts/EventLogFormat.h); one block of cap 0."""
import struct
import sys

# tag: (size, description); size None: variable.
TYPES = {
    0: (4, "Create thread"),
    1: (4, "Run thread"),
    2: (10, "Stop thread"),
    9: (0, "Start GC"),
    10: (0, "Finish GC"),
    11: (0, "Request sequential GC"),
    16: (None, "Log message"),
    18: (14, "Block marker"),
    45: (2, "Create capability"),
    47: (2, "Disable capability"),
    48: (2, "Enable capability"),
    90: (16, "Memory return statistics"),
}


def header():
    out = [b"hdrb", b"hetb"]
    for tag, (size, desc) in sorted(TYPES.items()):
        d = desc.encode()
        out.append(b"etb\0" + struct.pack(">HhI", tag, -1 if size is None
                                          else size, len(d)) + d +
                   struct.pack(">I", 0) + b"ete\0")
    out += [b"hete", b"hdre", b"datb"]
    return b"".join(out)


def ev(tag, t, payload=b""):
    if TYPES[tag][0] is None:
        return struct.pack(">HQH", tag, t, len(payload)) + payload
    assert TYPES[tag][0] == len(payload), tag
    return struct.pack(">HQ", tag, t) + payload


def main(path):
    evs, t = [], 1000
    n = 22
    for tid in range(1, n + 1):
        evs.append(ev(0, t, struct.pack(">I", tid)))
        t += 100
    for status in range(n):
        tid = status + 1
        # The black hole's owner (8), the stack size (2), else 0.
        info = {8: 3, 2: 1048576}.get(status, 0)
        evs.append(ev(1, t, struct.pack(">I", tid)))
        t += 5000
        evs.append(ev(2, t, struct.pack(">IHI", tid, status, info)))
        t += 100
    # Two requests, then the collection.
    evs.append(ev(11, t))
    evs.append(ev(11, t + 700))
    evs.append(ev(9, t + 2000))
    evs.append(ev(10, t + 9000))
    t += 10000
    # capset, current, needed, returned (mblocks).
    for cur, need, ret in ((40, 30, 7), (33, 31, 0), (33, 20, 12)):
        evs.append(ev(90, t, struct.pack(">IIII", 0, cur, need, ret)))
        t += 1000
    # Capability 1 made, disabled twice, enabled once; two RTS messages.
    for tag in (45, 47, 47, 48):
        evs.append(ev(tag, t, struct.pack(">H", 1)))
        t += 100
    for text in (b"one", b"two"):
        evs.append(ev(16, t, text))
        t += 100
    body = b"".join(evs)
    # The block: its marker's own 24 bytes and the events after it.
    marker = ev(18, 1000, struct.pack(">IQH", 24 + len(body), t, 0))
    with open(path, "wb") as f:
        f.write(header() + marker + body + b"\xff\xff")


if __name__ == "__main__":
    main(sys.argv[1])
