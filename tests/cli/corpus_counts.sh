#!/usr/bin/env bash
# Every corpus bundle loads, and its per-kind counts equal an independent count made with
# PyYAML's CSafeLoader (which needs the YAML 1.1 "value" tag mapped to a plain string: an
# unquoted "=" in prometheus-operator's CRDs otherwise crashes it). Helm hooks without a
# pre-install or post-install event (test hooks; upgrade, delete and rollback hooks) are not
# created at install, so they are not counted.
source "$(dirname "$0")/common.inc"
need_corpus
for bundle in "$SHARED"/corpus/*.yaml; do
  "$FOOTPRINT" audit "$bundle" --format json >"$TMP/report.json" ||
    fail "$(basename "$bundle") did not load"
  "$PYTHON" - "$bundle" "$TMP/report.json" <<'PY' || fail "counts differ for $(basename "$bundle")"
import collections, json, sys, yaml
loader = yaml.CSafeLoader
yaml.add_constructor("tag:yaml.org,2002:value", lambda l, n: l.construct_scalar(n), Loader=loader)
expected = collections.Counter()
with open(sys.argv[1], "rb") as f:
    for doc in yaml.load_all(f, Loader=loader):
        if not doc:
            continue
        items = doc.get("items") if str(doc.get("kind", "")).endswith("List") else None
        for obj in (items if isinstance(items, list) else [doc]):
            hook = ((obj.get("metadata") or {}).get("annotations") or {}).get("helm.sh/hook")
            events = [e.strip() for e in hook.split(",")] if hook else []
            if events and not ({"pre-install", "post-install"} & set(events)):
                continue  # a test hook, or one of a later phase: not created at install
            expected[obj["kind"]] += 1
got = json.load(open(sys.argv[2]))["inventory"]["kinds"]
got = {k.split(".")[0]: v for k, v in got.items()}  # "Event.events.k8s.io" -> "Event"
if dict(expected) != got:
    print("expected", dict(sorted(expected.items())), "\ngot     ", dict(sorted(got.items())))
    sys.exit(1)
PY
done
