#!/usr/bin/env python3
"""A loopback HTTP proxy that waits DELAY_MS before forwarding each request to a registry, to
stand in for the round trip to a registry across a network. Used by bench/registry.

Usage: registry_delay.py UPSTREAM_PORT DELAY_MS PORTFILE
"""
import http.client
import http.server
import os
import sys
import threading
import time

upstream, delay = int(sys.argv[1]), int(sys.argv[2]) / 1000
local = threading.local()


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def forward(self):
        time.sleep(delay)
        if not hasattr(local, "conn"):
            local.conn = http.client.HTTPConnection("127.0.0.1", upstream)
        headers = {k: v for k, v in self.headers.items() if k.lower() != "host"}
        local.conn.request(self.command, self.path, headers=headers)
        answer = local.conn.getresponse()
        body = answer.read()
        self.send_response(answer.status)
        for k, v in answer.getheaders():
            if k.lower() not in ("content-length", "connection", "transfer-encoding"):
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    do_GET = forward
    do_HEAD = forward


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
with open(sys.argv[3] + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(sys.argv[3] + ".tmp", sys.argv[3])
server.serve_forever()
