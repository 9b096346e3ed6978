#!/usr/bin/env python3
"""rawclient.py: a relay client that keeps the bytes it is sent.

  rawclient.py unix PATH OUT         read until the relay closes, into OUT
  rawclient.py tcp HOST PORT OUT     the same over TCP
  rawclient.py stall PATH            connect, never read (until killed)
  rawclient.py late SECS PATH OUT    wait for PATH to appear, then SECS
                                     more, then as unix (a late joiner)
"""
import os
import socket
import sys
import time


def main():
    kind = sys.argv[1]
    if kind == "late":
        delay = float(sys.argv[2])
        open(sys.argv[4] + ".ready", "w").close()	# started: python is slow
        end = time.time() + 20
        while not os.path.exists(sys.argv[3]) and time.time() < end:
            time.sleep(0.01)
        time.sleep(delay)
        kind = "unix"
        sys.argv[1:] = ["unix", sys.argv[3], sys.argv[4]]
    if kind == "tcp":
        end = time.time() + 10
        while True:	# a loaded machine: the listener may lag
            try:
                s = socket.create_connection((sys.argv[2], int(sys.argv[3])))
                break
            except ConnectionRefusedError:
                if time.time() > end:
                    raise
                time.sleep(0.1)
        out = sys.argv[4]
    else:
        s = socket.socket(socket.AF_UNIX)
        if kind == "stall":
            # A small receive buffer: the relay's queue fills sooner.
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(sys.argv[2])
        out = None if kind == "stall" else sys.argv[3]
    if kind == "stall":
        while True:
            time.sleep(1)
    data = bytearray()
    s.settimeout(60)
    while True:
        b = s.recv(1 << 16)
        if not b:
            break
        data += b
    with open(out, "wb") as f:
        f.write(data)
    return 0 if data else 1


sys.exit(main())
