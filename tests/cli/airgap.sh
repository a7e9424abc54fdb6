#!/usr/bin/env bash
# footprint airgap: the import list of the platform fixture with a packaged chart built here:
# images from the manifests, from Chart.yaml's helm.sh/images and from --extra-images; the chart
# archive with its real size; the model with its revision state; subcharts switched off by the
# chart's values marked not needed; sizes "unknown" without --sizes (registry.sh covers it).
source "$(dirname "$0")/common.inc"
fixture=$DATA/airgap/platform.yaml
cd "$TMP"
mkdir -p chart/dynamo-platform/charts/etcd nats
cat >chart/dynamo-platform/Chart.yaml <<'YAML'
apiVersion: v2
name: dynamo-platform
version: 1.6.2
dependencies:
- {name: nats, version: 1.2.0, condition: nats.enabled}
- {name: etcd, version: 10.0.0, condition: etcd.enabled}
annotations:
  helm.sh/images: |
    - name: operator
      image: nvcr.io/nvidia/ai-dynamo/kubernetes-operator:1.6.2
    - name: nats-box
      image: natsio/nats-box:0.14.2
      dependency: nats
    - name: planner-gpu
      image: ghcr.io/example/planner-gpu:0.4.1
      condition: planner.gpu.enabled
YAML
printf 'nats:\n  enabled: false\netcd:\n  enabled: false\nplanner:\n  gpu:\n    enabled: true\n' \
  >chart/dynamo-platform/values.yaml
printf 'apiVersion: v2\nname: etcd\nversion: 10.0.0\n' >chart/dynamo-platform/charts/etcd/Chart.yaml
printf 'apiVersion: v2\nname: nats\nversion: 1.2.0\n' >nats/Chart.yaml
tar czf chart/dynamo-platform/charts/nats-1.2.0.tgz nats  # helm dependency build packs them
tar czf dynamo-platform-1.6.2.tgz -C chart dynamo-platform
bytes=$(stat -c %s dynamo-platform-1.6.2.tgz)
printf '# started by the operator at run time\nquay.io/example/solver:1.0  # ACME-style solver\n' >extra.txt

run "$FOOTPRINT" airgap "$fixture" --chart dynamo-platform-1.6.2.tgz --extra-images extra.txt \
  --format json
expect_status 0
"$PYTHON" - "$OUT" "$bytes" <<'PY' || fail "airgap JSON"
import json, sys
d = json.load(open(sys.argv[1]))
rows = {(r["item"], r["name"]): r for r in d["airgap"]["items"]}
def row(item, name):
    assert (item, name) in rows, (item, name, sorted(rows))
    return rows[(item, name)]
chart = row("chart", "dynamo-platform-1.6.2.tgz")
assert chart["bytes"] == int(sys.argv[2]) and chart["needed"], chart
assert chart["note"] == "dynamo-platform 1.6.2", chart
op = row("image", "nvcr.io/nvidia/ai-dynamo/kubernetes-operator:1.6.2")
assert op["needed"] and "listed in dynamo-platform/Chart.yaml helm.sh/images" in op["note"], op
box = row("image", "docker.io/natsio/nats-box:0.14.2")
assert not box["needed"] and "nats.enabled is false in dynamo-platform/values.yaml" in box["note"], box
gpu = row("image", "ghcr.io/example/planner-gpu:0.4.1")
assert gpu["needed"] and "not in the rendered manifests" in gpu["note"], gpu
nats = row("image", "docker.io/library/nats:2.10.11-alpine")
assert not nats["needed"] and 'nats.enabled is false' in nats["note"], nats
assert row("image", "quay.io/example/solver:1.0")["note"] == "from extra.txt:2"
model = row("model", "Qwen/Qwen3-0.6B")
assert "revision NOT pinned" in model["note"], model
for name in ("nats 1.2.0", "etcd 10.0.0"):
    assert not row("subchart", name)["needed"]
assert all(r["bytes"] is None for r in d["airgap"]["items"] if r["item"] != "chart")
assert d["airgap"]["largeImageBytes"] == 2 * 1024**3
assert d["airgap"]["bandwidthBytesPerSecond"] == 15e6
assert "model-not-pinned" in {f["check"] for f in d["findings"]}
PY

run "$FOOTPRINT" airgap "$fixture" --chart dynamo-platform-1.6.2.tgz
expect_status 0
expect_stdout "Air-gap import list"
# Human-readable in text: "812 bytes", "1.5 kB".
expect_stdout "$("$PYTHON" -c "b = $bytes; print(f'{b} bytes' if b < 1000 else f'{b / 1e3:.1f} kB')")"
expect_stdout "image sizes come from the registries with --sizes"
expect_stdout "unknown"
expect_stdout "image-very-large reports images over 2 GiB"
run "$FOOTPRINT" airgap "$fixture" --format markdown --large-image 500MB --bandwidth 1Gbit/s
expect_status 0
expect_stdout "| ITEM | NAME | SIZE | NEEDED | NOTE |"
expect_stdout "over 500 MB and how long a node takes to pull them at 125 MB/s"

run "$FOOTPRINT" airgap "$fixture" --fail-on medium
expect_status 1
run "$FOOTPRINT" airgap "$fixture" --large-image huge
expect_status 2
expect_stderr "--large-image"
printf 'quay.io/ok:1\nNot_A/Ref:1\n' >bad.txt
run "$FOOTPRINT" airgap "$fixture" --extra-images bad.txt
expect_status 2
expect_stderr "bad.txt:2:1: Not_A/Ref:1"
run "$FOOTPRINT" airgap "$fixture" --chart extra.txt
expect_status 2
expect_stderr "extra.txt: not a gzip-compressed file"
