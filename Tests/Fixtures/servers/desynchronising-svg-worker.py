#!/usr/bin/env python3
"""A tessera-svg-worker that answers its hello, then each request in the way its argument names:
`nonce` (another request's nonce), `length` (a render answer one byte short), `chatter` (bytes
before the answer, as a library printing on the answer stream would). For SVGWorkerTests."""
import struct
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "nonce"
read, write = sys.stdin.buffer, sys.stdout.buffer
while True:
    head = read.read(36)
    if len(head) < 36:
        break
    nonce = head[4:20]
    op, width, height, length = struct.unpack("<IIII", head[20:36])
    read.read(length)
    if op == 1:
        payload = b"librsvg (a hostile stand-in)"
    else:
        payload = b"\0" * (width * height * 4 if op == 3 else 16)
        if mode == "nonce":
            nonce = bytes(16)
        elif mode == "length":
            payload = payload[:-1]
        elif mode == "chatter":
            write.write(b"(process:1): GLib-WARNING **: something\n")
    write.write(b"TSVA" + nonce + struct.pack("<II", 0, len(payload)) + payload)
    write.flush()
