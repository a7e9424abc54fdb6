#!/usr/bin/env bash
# The images of every corpus bundle are listed without error, and per bundle the distinct image
# strings of pod specs equal an independent count: PyYAML (CSafeLoader, with the YAML 1.1 "value"
# tag read as a string) walking every mapping whose `containers` is a list of mappings, taking
# `image` from containers, initContainers and ephemeralContainers. Secrets and CRDs are skipped,
# as discovery never reads them. Relocation succeeds exactly when every reference is valid.
source "$(dirname "$0")/common.inc"
need_corpus
bundles=0
for bundle in "$SHARED"/corpus/*.yaml; do
  "$FOOTPRINT" images "$bundle" --format json --no-config >"$TMP/images.json" ||
    fail "$(basename "$bundle"): images failed"
  # relocate succeeds, unless an image reference is not valid (knative's and tekton's ko://
  # placeholders, which `ko resolve` replaces): then it refuses, exit 2, naming them.
  invalid=$(json_get "$TMP/images.json" "len(d['images']['invalid'])")
  status=0
  "$FOOTPRINT" images relocate --registry mirror.internal:5000 "$bundle" --plan "$TMP/plan.sh" \
    >/dev/null 2>"$TMP/relocate.err" || status=$?
  if [ "$invalid" = 0 ]; then
    [ "$status" = 0 ] || fail "$(basename "$bundle"): relocate failed: $(cat "$TMP/relocate.err")"
  else
    [ "$status" = 2 ] && grep -q "not valid and cannot be relocated" "$TMP/relocate.err" ||
      fail "$(basename "$bundle"): $invalid invalid references, relocate exit $status: $(head -c 2000 "$TMP/relocate.err")"
  fi
  "$PYTHON" - "$bundle" "$TMP/images.json" <<'PY' || fail "pod-spec images differ for $(basename "$bundle")"
import json, sys, yaml
loader = yaml.CSafeLoader
yaml.add_constructor("tag:yaml.org,2002:value", lambda l, n: l.construct_scalar(n), Loader=loader)
expected = set()
def walk(node):
    if isinstance(node, dict):
        containers = node.get("containers")
        if isinstance(containers, list) and any(isinstance(c, dict) for c in containers):
            for key in ("containers", "initContainers", "ephemeralContainers"):
                for c in node.get(key) or []:
                    if isinstance(c, dict) and isinstance(c.get("image"), str) and c["image"]:
                        expected.add(c["image"])
        for v in node.values():
            walk(v)
    elif isinstance(node, list):
        for v in node:
            walk(v)
with open(sys.argv[1], "rb") as f:
    for doc in yaml.load_all(f, Loader=loader):
        if not doc:
            continue
        items = doc.get("items") if str(doc.get("kind", "")).endswith("List") else None
        for obj in (items if isinstance(items, list) else [doc]):
            if obj.get("kind") in ("Secret", "CustomResourceDefinition"):
                continue
            walk(obj)
d = json.load(open(sys.argv[2]))["images"]
uses = [u for i in d["images"] for u in i["uses"]] + d["invalid"]
got = {u["written"] for u in uses
       if u["source"] in ("container", "initContainer", "ephemeralContainer") and " > " not in u["path"]}
if got != expected:
    print("only footprint:", sorted(got - expected), "\nonly PyYAML:  ", sorted(expected - got))
    sys.exit(1)
print(f"{len(expected):3d} pod-spec image(s)", sys.argv[1].rsplit("/", 1)[-1])
PY
  bundles=$((bundles + 1))
done
[ "$bundles" -ge 28 ] || fail "expected at least 28 corpus bundles, found $bundles"
