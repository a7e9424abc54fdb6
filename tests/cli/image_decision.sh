#!/usr/bin/env bash
# One decision of what is an image (issue 40, trial item N-W2): the mirroring list, the air-gap
# list, the image checks and relocation agree. An image field, a flag or variable named as an image
# and a ConfigMap "image set" value (a registry and a tag) are images to all four; a configuration
# URL or a git ref behind any other flag or variable (--config=config.example.com/path:v1,
# UPSTREAM=github.com/org/repo:main) is an image to none of them unless --include-possible.
source "$(dirname "$0")/common.inc"
cd "$TMP"
cat >app.yaml <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: app, namespace: ops}
spec:
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec:
      containers:
      - name: app
        image: registry.example.com/team/app:1.0
        args:
        - --config=config.example.com/path:v1
        - --sidecar-image=quay.io/team/sidecar:2.0
        env:
        - {name: UPSTREAM, value: "github.com/org/repo:main"}
        - {name: S3_BUCKET, value: "s3.amazonaws.com/bucket:x"}
        - {name: RELATED_IMAGE_AGENT, value: "quay.io/team/agent:3.0"}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: image-set, namespace: ops}
data:
  provisioner: registry.k8s.io/sig-storage/csi-provisioner:v5.1.0
YAML
images=$(printf '%s\n' registry.example.com/team/app:1.0 quay.io/team/sidecar:2.0 \
  quay.io/team/agent:3.0 registry.k8s.io/sig-storage/csi-provisioner:v5.1.0 | sort)

run "$FOOTPRINT" images --no-config app.yaml --format list
expect_status 0
[ "$(sort "$OUT")" = "$images" ] || fail "the mirroring list is not the four images: $(cat "$OUT")"

run "$FOOTPRINT" airgap --no-config app.yaml -n ops
expect_status 0
expect_stdout "4 items to bring in, 4 of them needed."
for guess in config.example.com github.com s3.amazonaws.com; do expect_no_stdout "$guess"; done

# main and x are moving or versionless tags: they would be image-mutable-tag, were they images.
run "$FOOTPRINT" audit --no-config app.yaml -n ops --format json
expect_status_in 0 1
[ "$(json_get "$OUT" "sum(1 for f in d['findings'] if f['check'].startswith('image-') and
  ('github.com' in f['message'] or 's3.amazonaws.com' in f['message'] or 'config.example.com' in f['message']))")" = 0 ] ||
  fail "a configuration value got an image finding"

# relocate moves the same four, and its copy plan copies exactly the mirroring list.
run "$FOOTPRINT" images relocate --registry mirror.internal app.yaml --plan plan.sh
expect_status 0
expect_stderr "rewrote 4 references to 4 images"
expect_stdout "provisioner: mirror.internal/sig-storage/csi-provisioner:v5.1.0"
[ "$(grep -c '^skopeo copy' plan.sh)" = 4 ] || fail "the plan does not copy 4 images: $(cat plan.sh)"
for image in $images; do grep -qF "docker://$image " plan.sh || fail "the plan lacks $image"; done

# Asked for, the guesses count everywhere too.
run "$FOOTPRINT" images --no-config app.yaml --format list --include-possible
expect_status 0
expect_stdout "config.example.com/path:v1"
expect_stdout "github.com/org/repo:main"

# A host that serves only images makes any flag's value an image, as prometheus-operator's
# --prometheus-config-reloader=quay.io/...: listed, and relocated.
cat >reloader.yaml <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: op, namespace: ops}
spec:
  containers:
  - name: op
    image: quay.io/prometheus-operator/prometheus-operator:v0.93.0
    args: [--prometheus-config-reloader=quay.io/prometheus-operator/prometheus-config-reloader:v0.93.0]
YAML
run "$FOOTPRINT" images --no-config reloader.yaml --format list
expect_status 0
expect_stdout "quay.io/prometheus-operator/prometheus-config-reloader:v0.93.0"
run "$FOOTPRINT" images relocate --registry mirror.internal reloader.yaml --plan plan.sh
expect_status 0
expect_stdout "--prometheus-config-reloader=mirror.internal/prometheus-operator/prometheus-config-reloader:v0.93.0"
