#!/usr/bin/env python3
"""A hostile cache server for the suite (issue 38): answers every GET with 200 and a body that
never ends, HEAD with 404, PUT with 201. Listens on 127.0.0.1:PORT only; stops on SIGTERM or
after LIFETIME seconds (default 120), so a test that forgets it cannot leave it running.

With --drip, the body comes one byte every half second instead (never idle long enough for a
read timeout, never done).

usage: endless-body.py PORT [LIFETIME] [--drip]
"""
import http.server
import socketserver
import sys
import threading
import time

CHUNK = b"\0" * 65536
DRIP = "--drip" in sys.argv


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            while True:
                if DRIP:
                    self.wfile.write(b"1\r\n\0\r\n")
                    self.wfile.flush()
                    time.sleep(0.5)
                else:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(CHUNK), CHUNK))
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_HEAD(self):
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_PUT(self):
        length = int(self.headers.get("Content-Length", "0"))
        self.rfile.read(length)
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    port = int([a for a in sys.argv[1:] if a != "--drip"][0])
    arguments = [a for a in sys.argv[1:] if a != "--drip"]
    lifetime = float(arguments[1]) if len(arguments) > 1 else 120
    server = Server(("127.0.0.1", port), Handler)
    threading.Timer(lifetime, server.shutdown).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
