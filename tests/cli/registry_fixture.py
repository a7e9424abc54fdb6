#!/usr/bin/env python3
"""Writes deterministic synthetic images as OCI image layouts, for the registry tests and bench.

Usage: registry_fixture.py KIND DIR [SEED]
  KIND  multi   an OCI image index: linux/amd64 and linux/arm64 manifests, plus a BuildKit-style
                attestation manifest (platform unknown/unknown, annotation
                vnd.docker.reference.type: attestation-manifest)
        docker  one Docker schema2 manifest (application/vnd.docker.distribution.manifest.v2+json)
        app     one OCI manifest that shares its base layer with `docker` (same SEED)
Prints JSON facts about what it wrote: the top manifest's digest and bytes, each manifest's
digest, bytes, config size and layer sizes, and every blob by digest. Sizes in the tests are
computed from these facts, not from footprint.

The layout follows the OCI image spec (image-layout.md: oci-layout, index.json, blobs/sha256).
Everything is a function of KIND and SEED: tar and gzip headers carry fixed times and owners.
"""
import gzip
import hashlib
import io
import json
import os
import sys
import tarfile

OCI_INDEX = "application/vnd.oci.image.index.v1+json"
OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json"
OCI_CONFIG = "application/vnd.oci.image.config.v1+json"
OCI_LAYER = "application/vnd.oci.image.layer.v1.tar+gzip"
DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json"
DOCKER_CONFIG = "application/vnd.docker.container.image.v1+json"
DOCKER_LAYER = "application/vnd.docker.image.rootfs.diff.tar.gzip"
IN_TOTO = "application/vnd.in-toto+json"


def noise(label, size):
    """Incompressible but deterministic bytes."""
    out = bytearray()
    counter = 0
    while len(out) < size:
        out += hashlib.sha256(f"{label}/{counter}".encode()).digest()
        counter += 1
    return bytes(out[:size])


def layer(label, size):
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        info = tarfile.TarInfo(f"data/{label}.bin")
        info.size = size
        info.mtime = 0
        info.uid = info.gid = 0
        info.uname = info.gname = "root"
        info.mode = 0o644
        tar.addfile(info, io.BytesIO(noise(label, size)))
    tar_bytes = raw.getvalue()
    packed = io.BytesIO()
    with gzip.GzipFile(fileobj=packed, mode="wb", mtime=0, filename="") as gz:
        gz.write(tar_bytes)
    return packed.getvalue(), "sha256:" + hashlib.sha256(tar_bytes).hexdigest()


class Layout:
    def __init__(self, root):
        self.root = root
        self.blobs = {}
        os.makedirs(os.path.join(root, "blobs", "sha256"), exist_ok=True)
        with open(os.path.join(root, "oci-layout"), "w") as f:
            f.write('{"imageLayoutVersion":"1.0.0"}')

    def blob(self, data):
        digest = "sha256:" + hashlib.sha256(data).hexdigest()
        with open(os.path.join(self.root, "blobs", "sha256", digest[7:]), "wb") as f:
            f.write(data)
        self.blobs[digest] = len(data)
        return digest

    def json_blob(self, value):
        data = json.dumps(value, separators=(",", ":"), sort_keys=True).encode()
        return self.blob(data), len(data)

    def image(self, label, layers, manifest_type, config_type, layer_type, arch="amd64",
              config_extra=None):
        """One image manifest; returns (digest, bytes, facts)."""
        descriptors, diff_ids, sizes = [], [], []
        for name, size in layers:
            data, diff_id = layer(name, size)
            descriptors.append({"mediaType": layer_type, "digest": self.blob(data),
                                "size": len(data)})
            diff_ids.append(diff_id)
            sizes.append(len(data))
        config = {"architecture": arch, "os": "linux", "created": "2024-01-01T00:00:00Z",
                  "config": {"Labels": {"test": label}},
                  "rootfs": {"type": "layers", "diff_ids": diff_ids}}
        if config_extra:
            config = config_extra
        config_digest, config_size = self.json_blob(config)
        manifest = {"schemaVersion": 2, "mediaType": manifest_type,
                    "config": {"mediaType": config_type, "digest": config_digest,
                               "size": config_size},
                    "layers": descriptors}
        digest, size = self.json_blob(manifest)
        return digest, size, {"digest": digest, "manifestBytes": size, "configBytes": config_size,
                              "layerBytes": sizes, "config": config_digest,
                              "layers": [d["digest"] for d in descriptors],
                              "mediaType": manifest_type}

    def finish(self, media_type, digest, size, extra):
        index = {"schemaVersion": 2, "mediaType": OCI_INDEX,
                 "manifests": [{"mediaType": media_type, "digest": digest, "size": size}]}
        with open(os.path.join(self.root, "index.json"), "w") as f:
            json.dump(index, f)
        facts = {"digest": digest, "bytes": size, "mediaType": media_type, "blobs": self.blobs}
        facts.update(extra)
        print(json.dumps(facts, indent=1, sort_keys=True))


def main():
    kind, root = sys.argv[1], sys.argv[2]
    seed = sys.argv[3] if len(sys.argv) > 3 else "0"
    out = Layout(root)
    if kind == "multi":
        platforms = {}
        entries = []
        for arch, sizes in (("amd64", (70000, 30000)), ("arm64", (50000, 20000, 9000))):
            layers = [(f"{seed}-multi-{arch}-{i}", s) for i, s in enumerate(sizes)]
            digest, size, facts = out.image(f"multi-{arch}", layers, OCI_MANIFEST, OCI_CONFIG,
                                            OCI_LAYER, arch=arch)
            platforms[f"linux/{arch}"] = facts
            entries.append({"mediaType": OCI_MANIFEST, "digest": digest, "size": size,
                            "platform": {"architecture": arch, "os": "linux"}})
        # An attestation manifest as BuildKit attaches it: it must never be sized or selected.
        statement = json.dumps({"_type": "https://in-toto.io/Statement/v0.1",
                                "subject": [{"digest": {"sha256": entries[0]["digest"][7:]}}]},
                               sort_keys=True).encode()
        att_layer = out.blob(statement)
        att_config, att_config_size = out.json_blob({"architecture": "unknown",
                                                     "os": "unknown", "config": {},
                                                     "rootfs": {"type": "layers",
                                                                "diff_ids": []}})
        att_manifest = {"schemaVersion": 2, "mediaType": OCI_MANIFEST,
                        "config": {"mediaType": OCI_CONFIG, "digest": att_config,
                                   "size": att_config_size},
                        "layers": [{"mediaType": IN_TOTO, "digest": att_layer,
                                    "size": len(statement),
                                    "annotations": {"in-toto.io/predicate-type":
                                                    "https://slsa.dev/provenance/v0.2"}}]}
        att_digest, att_size = out.json_blob(att_manifest)
        entries.append({"mediaType": OCI_MANIFEST, "digest": att_digest, "size": att_size,
                        "platform": {"architecture": "unknown", "os": "unknown"},
                        "annotations": {"vnd.docker.reference.digest": entries[0]["digest"],
                                        "vnd.docker.reference.type": "attestation-manifest"}})
        index = {"schemaVersion": 2, "mediaType": OCI_INDEX, "manifests": entries}
        digest, size = out.json_blob(index)
        out.finish(OCI_INDEX, digest, size, {"platforms": platforms,
                                             "attestation": att_digest})
    elif kind in ("docker", "app"):
        base = (f"{seed}-base", 60000)
        if kind == "docker":
            layers = [base, (f"{seed}-docker-top", 25000)]
            types = (DOCKER_MANIFEST, DOCKER_CONFIG, DOCKER_LAYER)
        else:
            layers = [base, (f"{seed}-app-top", 15000), (f"{seed}-app-extra", 5000)]
            types = (DOCKER_MANIFEST, DOCKER_CONFIG, DOCKER_LAYER)
        digest, size, facts = out.image(kind, layers, *types)
        out.finish(types[0], digest, size, {"platforms": {"linux/amd64": facts}})
    else:
        sys.exit(f"unknown kind {kind}")


if __name__ == "__main__":
    main()
