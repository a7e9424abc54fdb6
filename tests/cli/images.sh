#!/usr/bin/env bash
# footprint images: every discovery path of the hand-written platform fixture, the list format
# for mirroring tools, exit codes, and that no Secret value reaches any output.
source "$(dirname "$0")/common.inc"
fixture=$DATA/airgap/platform.yaml

run "$FOOTPRINT" images "$fixture" --format list
expect_status 0
cat >"$TMP/expected.list" <<'EOF'
docker.io/library/busybox:1.36
nvcr.io/nvidia/ai-dynamo/kubernetes-operator:1.6.2
quay.io/example/exporter@sha256:4a5b6c7d8e9f00112233445566778899aabbccddeeff00112233445566778899
ghcr.io/example/planner:0.4.1
docker.io/library/nats:2.10.11-alpine
nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.2
EOF
diff -u "$TMP/expected.list" "$OUT" || fail "--format list"

run "$FOOTPRINT" images "$fixture" --format json
expect_status 0
cp "$OUT" "$TMP/images.json"
"$PYTHON" - "$TMP/images.json" <<'PY' || fail "JSON fields"
import json, sys
d = json.load(open(sys.argv[1]))
images = {i["reference"]: i for i in d["images"]["images"]}
def where(ref):
    return [(u["object"]["kind"], u["path"], u["source"], u["confidence"]) for u in images[ref]["uses"]]
op = "nvcr.io/nvidia/ai-dynamo/kubernetes-operator:1.6.2"
assert where(op) == [
    ("Deployment", "spec.template.spec.containers[0].image", "container", "certain"),
    ("Deployment", "spec.template.spec.containers[0].args[1]", "arg", "likely")], where(op)
exporter = [r for r in images if r.startswith("quay.io/example/exporter@")][0]
assert images[exporter]["pinned"] and images[exporter]["tag"] == "v2.1", images[exporter]
assert images[exporter]["uses"][0]["path"] == "spec.template.spec.containers[0].env[0].value"
assert images["docker.io/library/busybox:1.36"]["image"] == "busybox:1.36"
assert images["docker.io/library/busybox:1.36"]["registry"] == "docker.io"
planner = images["ghcr.io/example/planner:0.4.1"]["uses"][0]
assert planner["path"] == 'data["config.yaml"] > planner.image' and planner["line"] == 37, planner
nats = images["docker.io/library/nats:2.10.11-alpine"]
assert not nats["needed"] and nats["disabledBy"] == 'data["config.yaml"] > nats.enabled', nats
runtime = images["nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.2"]
assert [u["object"]["kind"] for u in runtime["uses"]] == ["DynamoGraphDeployment"] * 2
assert d["images"]["models"][0]["id"] == "Qwen/Qwen3-0.6B" and not d["images"]["models"][0]["pinned"]
checks = sorted({f["check"] for f in d["findings"]})
assert checks == ["image-not-pinned", "model-not-pinned"], checks
assert "inventory" not in d
PY

# No format prints a Secret's values, and no image name from a Secret.
for format in text json markdown list; do
  run "$FOOTPRINT" images "$fixture" --format "$format" --include-possible
  expect_status 0
  ! grep -q -e never-print-me -e s3cr3t "$OUT" "$ERR" || fail "a Secret value reached $format output"
done

run "$FOOTPRINT" images "$fixture" --fail-on medium
expect_status 1
run "$FOOTPRINT" images "$fixture" --fail-on high
expect_status 0
run "$FOOTPRINT" images "$TMP/missing.yaml"
expect_status 2
expect_stderr "missing.yaml: no such file or directory"
run "$FOOTPRINT" images "$fixture" --format yaml
expect_status 2

# Placeholders that are not references are listed with the reason, not dropped.
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - {name: q, image: "ko://knative.dev/serving/cmd/queue"}\n' >"$TMP/ko.yaml"
run "$FOOTPRINT" images "$TMP/ko.yaml"
expect_status 0
expect_stdout "ko://knative.dev/serving/cmd/queue"
expect_stdout "invalid reference format"
expect_stdout "InvalidImageName"
