#!/usr/bin/env python3
"""Writes the seed corpus of one fuzz target, made at run time from the test fixtures and slices
of ../shared/corpus (which is not copied into the repository).

Usage: seeds.py TARGET OUT_DIR
"""
import gzip
import hashlib
import io
import json
import os
import pathlib
import re
import subprocess
import sys
import tarfile
import tempfile

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
MAX_SEED = 64 * 1024  # larger seeds slow every run; the corpus's big CRDs are left out
SEEDS_PER_BUNDLE = 60


def manifest_files():
    files = sorted(ROOT.glob("examples/*.yaml")) + sorted(ROOT.glob("tests/data/**/*.yaml"))
    files += sorted(ROOT.glob("tests/charts/**/*.yaml"))
    if CORPUS.is_dir():
        files += sorted(CORPUS.glob("*.yaml"))
    else:
        print(f"seeds.py: {CORPUS} not found; seeding from the test fixtures only", file=sys.stderr)
    return files


def documents(path):
    text = path.read_text(errors="replace")
    return [d for d in re.split(r"(?m)^---[ \t]*$", text) if d.strip()]


def spread(items, count):
    """`count` items spread evenly over the list, so each bundle contributes every kind."""
    if len(items) <= count:
        return items
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]


def manifest_seeds():
    for path in manifest_files():
        docs = [d for d in documents(path) if len(d) <= MAX_SEED]
        for doc in spread(docs, SEEDS_PER_BUNDLE):
            yield doc.encode()
        # Runs of neighbouring documents, so checks that relate objects (a webhook and its
        # Service, a binding and its role) see both.
        for start in range(0, len(docs), max(1, len(docs) // 8)):
            run = "---\n".join(docs[start:start + 6])
            if len(run) <= MAX_SEED:
                yield run.encode()


def parsed_documents():
    for path in manifest_files():
        for doc in documents(path):
            try:
                value = yaml.load(doc, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
            # Fixtures hold YAML the API server refuses on purpose (a tag PyYAML cannot
            # construct, such as !!int on a word): they are seeds as text, just not parsed.
            except (yaml.YAMLError, ValueError, TypeError):
                continue
            if isinstance(value, dict):
                yield value


def walk(value):
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)


def image_seeds():
    seen = set()
    for doc in parsed_documents():
        for node in walk(doc):
            image = node.get("image")
            if isinstance(image, str) and image not in seen:
                seen.add(image)
                yield image.encode()
    for text in ["nginx", "localhost:5000/a/b:v1", "registry.k8s.io/pause:3.9@sha256:" + "a" * 64,
                 "mirror.internal:5000/team"]:
        yield text.encode()


def selector_seeds():
    for doc in parsed_documents():
        labels = (doc.get("metadata") or {}).get("labels") or {}
        for node in walk(doc):
            for key in ("selector", "namespaceSelector", "objectSelector", "podSelector"):
                value = node.get(key)
                if isinstance(value, dict) and value:
                    yield yaml.safe_dump({"selector": value, "labels": labels}).encode()


def registry_seeds():
    fixture = ROOT / "tests" / "cli" / "registry_fixture.py"
    with tempfile.TemporaryDirectory() as work:
        for kind in ("multi", "docker", "app"):
            out = pathlib.Path(work) / kind
            subprocess.run([sys.executable, str(fixture), kind, str(out)], check=True,
                           stdout=subprocess.DEVNULL)
            for blob in sorted((out / "blobs" / "sha256").iterdir()):
                data = blob.read_bytes()
                if data.startswith(b"{") and b"mediaType" in data:
                    yield data
    yield b'Bearer realm="https://auth.example/token",service="registry",scope="repository:a/b:pull"'
    yield b'Basic realm="registry"'


def chart_seeds():
    for chart in sorted(p.parent for p in ROOT.glob("tests/charts/*/Chart.yaml")):
        packed = io.BytesIO()
        with gzip.GzipFile(fileobj=packed, mode="wb", mtime=0) as gz:
            with tarfile.open(fileobj=gz, mode="w") as tar:
                for path in sorted(chart.rglob("*")):
                    info = tar.gettarinfo(str(path), f"{chart.name}/{path.relative_to(chart)}")
                    info.mtime = 0
                    if path.is_file():
                        with open(path, "rb") as f:
                            tar.addfile(info, f)
                    else:
                        tar.addfile(info)
        yield packed.getvalue()


TARGETS = {
    "load": manifest_seeds,
    "audit": manifest_seeds,
    "image_ref": image_seeds,
    "selector": selector_seeds,
    "registry_manifest": registry_seeds,
    "chart_archive": chart_seeds,
}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in TARGETS:
        sys.exit(f"usage: seeds.py {{{','.join(TARGETS)}}} OUT_DIR")
    out = pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for data in TARGETS[sys.argv[1]]():
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
        count += 1
    print(f"seeds.py: {count} seeds for {sys.argv[1]} in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
