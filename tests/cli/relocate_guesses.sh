#!/usr/bin/env bash
# images relocate moves what is surely an image and leaves guesses alone: a reference in an image
# field, or behind a flag or variable named as an image, moves; any other flag, variable or
# ConfigMap value that only reads as a reference stays and is listed. Unrendered Helm templates
# stop it (exit 2, nothing written); a List of Secrets only stays a List.
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
        - {name: RELATED_IMAGE_AGENT, value: "quay.io/team/agent:3.0"}
YAML
run "$FOOTPRINT" images relocate --registry mirror.internal app.yaml --plan plan.sh
expect_status 0
# Moved: the container's image field, and the flag and variable whose names say image.
for moved in "image: mirror.internal/team/app:1.0" "--sidecar-image=mirror.internal/team/sidecar:2.0" \
  'value: "mirror.internal/team/agent:3.0"'; do
  expect_stdout "$moved"
done
# Left as written, and listed on stderr with where they are: a configuration URL and a git ref.
expect_stdout "--config=config.example.com/path:v1"
expect_stdout 'value: "github.com/org/repo:main"'
expect_stderr "rewrote 3 references to 3 images"
expect_stderr "left 2 strings that only read as images as they were"
expect_stderr "app.yaml:13: spec.template.spec.containers[0].args[0]: config.example.com/path:v1"
expect_stderr "app.yaml:16: spec.template.spec.containers[0].env[0].value: github.com/org/repo:main"
! grep -q -e config.example.com -e github.com plan.sh || fail "a guess is in the copy plan: $(cat plan.sh)"
# Asked for, the guesses move too: five references, five images.
run "$FOOTPRINT" images relocate --registry mirror.internal app.yaml --plan plan.sh --include-possible
expect_status 0
expect_stdout "--config=mirror.internal/path:v1"
expect_stderr "rewrote 5 references to 5 images"

# An image still written as a template cannot be moved: exit 2, nothing written.
cat >templated.yaml <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ops}
spec:
  containers:
  - {name: a, image: "quay.io/team/a:1.0"}
  - {name: b, image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"}
YAML
run "$FOOTPRINT" images relocate --registry mirror.internal templated.yaml -o out
expect_status 2
expect_stderr "1 image reference still holds a Helm template"
expect_stderr "templated.yaml:7: spec.containers[1].image"
[ ! -e out ] || fail "nothing is written: $(find out)"

# A List holding only Secrets: both items are left out (their values are never copied), and
# what remains is a List with no items, not `items:` with nothing (null).
cat >secrets.yaml <<'YAML'
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Secret
  metadata: {name: a, namespace: ops}
  stringData: {token: never-print-me}
- apiVersion: v1
  kind: Secret
  metadata: {name: b, namespace: ops}
  stringData: {token: never-print-me}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ops}
spec:
  containers: [{name: a, image: "quay.io/team/a:1.0"}]
YAML
run "$FOOTPRINT" images relocate --registry mirror.internal secrets.yaml --plan plan.sh
expect_status 0
expect_stderr "left out 2 Secrets"
! grep -q never-print-me "$OUT" || fail "a Secret value was written"
"$PYTHON" - "$OUT" <<'PY' || fail "the List is not an empty List: $(cat "$OUT")"
import sys, yaml
docs = list(yaml.safe_load_all(open(sys.argv[1])))
assert docs[0] == {"apiVersion": "v1", "kind": "List", "items": []}, docs[0]
assert docs[1]["spec"]["containers"][0]["image"] == "mirror.internal/team/a:1.0", docs[1]
PY
