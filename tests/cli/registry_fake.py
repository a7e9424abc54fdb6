#!/usr/bin/env python3
"""A loopback token server and a small fake registry that demands Bearer tokens, for the registry
test. The real docker-registry covers everything else; this covers what it is awkward to make it
do: the token flow (Docker's token authentication spec: a 401 with
`WWW-Authenticate: Bearer realm=...,service=...,scope=...`, then GET realm?service=&scope= with
Basic credentials, answered {"token"|"access_token", "expires_in"}), 503 answers to retry,
schema 1 manifests, a HEAD without Docker-Content-Digest, and a manifest whose bytes do not match
its digest, 429 with Retry-After, and an answer slower than the client's timeout.

Usage: registry_fake.py STATEDIR   (writes STATEDIR/port and STATEDIR/facts.json, logs requests
to STATEDIR/log; tokens and passwords are never logged)
"""
import base64
import hashlib
import http.server
import json
import os
import sys
import time
import urllib.parse

USER, PASSWORD = "tokuser", "tok-PASSWORD-9f3b"
OCI_INDEX = "application/vnd.oci.image.index.v1+json"
OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json"
DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json"
SCHEMA1 = "application/vnd.docker.distribution.manifest.v1+prettyjws"

state = sys.argv[1]


def digest(data):
    return "sha256:" + hashlib.sha256(data).hexdigest()


def dump(value):
    return json.dumps(value, separators=(",", ":")).encode()


def image_manifest(media_type, config_size, layer_sizes, seed):
    return dump({"schemaVersion": 2, "mediaType": media_type,
                 "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                            "digest": digest(f"{seed}-config".encode()), "size": config_size},
                 "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip",
                             "digest": digest(f"{seed}-{i}".encode()), "size": s}
                            for i, s in enumerate(layer_sizes)]})


# repository -> {reference: (content type, bytes)}
repos = {}
facts = {}
child = image_manifest(OCI_MANIFEST, 1234, [500000, 250000], "bearer-amd64")
index = dump({"schemaVersion": 2, "mediaType": OCI_INDEX, "manifests": [
    {"mediaType": OCI_MANIFEST, "digest": digest(child), "size": len(child),
     "platform": {"os": "linux", "architecture": "amd64"}}]})
repos["bearer/app"] = {"1.0": (OCI_INDEX, index), digest(index): (OCI_INDEX, index),
                       digest(child): (OCI_MANIFEST, child)}
facts["bearer/app"] = {"digest": digest(index), "bytes": len(child) + 1234 + 500000 + 250000}
flaky = image_manifest(DOCKER_MANIFEST, 777, [4096], "flaky")
repos["flaky/app"] = {"1.0": (DOCKER_MANIFEST, flaky)}
facts["flaky/app"] = {"digest": digest(flaky), "bytes": len(flaky) + 777 + 4096}
nohead = image_manifest(DOCKER_MANIFEST, 99, [1000], "nohead")
repos["nohead/app"] = {"1.0": (DOCKER_MANIFEST, nohead)}
facts["nohead/app"] = {"digest": digest(nohead), "bytes": len(nohead) + 99 + 1000}
schema1 = dump({"schemaVersion": 1, "name": "old/app", "tag": "1.0", "architecture": "amd64",
                "fsLayers": [{"blobSum": digest(b"x")}], "history": []})
repos["old/app"] = {"1.0": (SCHEMA1, schema1)}
repos["slow/app"] = {"1.0": (DOCKER_MANIFEST, image_manifest(DOCKER_MANIFEST, 1, [1], "slow"))}
tampered = image_manifest(DOCKER_MANIFEST, 5, [5], "tampered")
repos["tampered/app"] = {"1.0": (DOCKER_MANIFEST, tampered)}
# flaky/app is answered 429 (with Retry-After) and then 503 before it is served.
failures = {"flaky/app": [(429, {"Retry-After": "1"}), (503, {})]}


def log(line):
    with open(os.path.join(state, "log"), "a") as f:
        f.write(line + "\n")


def token_for(scope):
    return "tok-" + hashlib.sha256(("secret/" + scope).encode()).hexdigest()[:24]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=None, head=False):
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def do_HEAD(self):
        self.handle_any(head=True)

    def do_GET(self):
        self.handle_any(head=False)

    def handle_any(self, head):
        url = urllib.parse.urlsplit(self.path)
        auth = self.headers.get("Authorization", "")
        if url.path == "/token":
            query = urllib.parse.parse_qs(url.query)
            scope = query.get("scope", [""])[0]
            log(f"token service={query.get('service', [''])[0]} scope={scope} "
                f"basic={'yes' if auth.startswith('Basic ') else 'no'}")
            expected = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
            if auth != expected:
                return self.send(401, b'{"details":"bad credentials"}')
            field = "access_token" if scope.startswith("repository:nohead/") else "token"
            return self.send(200, dump({field: token_for(scope), "expires_in": 300}),
                             {"Content-Type": "application/json"})
        parts = url.path.split("/manifests/")
        if not url.path.startswith("/v2/") or len(parts) != 2:
            return self.send(404, head=head)
        repo, ref = parts[0][len("/v2/"):], parts[1]
        accept = self.headers.get("Accept", "")
        log(f"{self.command} {repo} {ref} auth={auth.split(' ')[0] or 'none'} accept={accept}")
        scope = f"repository:{repo}:pull"
        if auth != "Bearer " + token_for(scope):
            challenge = (f'Bearer realm="http://127.0.0.1:{port}/token",service="fake-registry",'
                         f'scope="{scope}"')
            return self.send(401, dump({"errors": [{"code": "UNAUTHORIZED",
                                                    "message": "authentication required"}]}),
                             {"WWW-Authenticate": challenge,
                              "Content-Type": "application/json"}, head)
        if failures.get(repo):
            status, headers = failures[repo].pop(0)
            return self.send(status, b"busy", headers, head)
        if repo == "slow/app":  # longer than the test's --registry-timeout
            time.sleep(5)
        found = repos.get(repo, {}).get(ref)
        # distribution answers 404 for an OCI index the client did not list in Accept.
        if found is None or (found[0] == OCI_INDEX and OCI_INDEX not in accept):
            return self.send(404, dump({"errors": [{"code": "MANIFEST_UNKNOWN",
                                                    "message": "manifest unknown"}]}),
                             {"Content-Type": "application/json"}, head)
        media_type, body = found
        headers = {"Content-Type": media_type}
        if not (head and repo == "nohead/app"):
            headers["Docker-Content-Digest"] = digest(body)
        if repo == "tampered/app":
            headers["Docker-Content-Digest"] = digest(body + b" ")
        self.send(200, body, headers, head)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
port = server.server_address[1]
with open(os.path.join(state, "facts.json"), "w") as f:
    json.dump(facts, f)
with open(os.path.join(state, "port.tmp"), "w") as f:
    f.write(str(port))
os.rename(os.path.join(state, "port.tmp"), os.path.join(state, "port"))
server.serve_forever()
