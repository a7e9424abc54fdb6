#!/usr/bin/env bash
# fix crds repairs the seed's conversion webhook (section 4): the Service loop, then the CA loop
# (from a Secret's ca.crt, never printing its other keys), then JSON patches; re-auditing the
# bundle with the fixes reports none of the fixed findings.
source "$(dirname "$0")/common.inc"
command -v openssl >/dev/null || skip "openssl not found"

cat >"$TMP/chart.yaml" <<'YAML'
apiVersion: v1
kind: ServiceAccount
metadata: {name: dynamo-platform-dynamo-operator-controller-manager}
---
apiVersion: v1
kind: Service
metadata: {name: dynamo-platform-dynamo-operator-webhook-service}
spec:
  selector: {app: operator}
  ports: [{port: 443, targetPort: 9443}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: dynamo-platform-dynamo-operator-controller-manager}
spec:
  selector: {matchLabels: {app: operator}}
  template:
    metadata: {labels: {app: operator}}
    spec:
      serviceAccountName: dynamo-platform-dynamo-operator-controller-manager
      containers: [{name: manager, image: operator:1.6.2}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: dynamo-platform-validating}
webhooks:
- name: graphs.nvidia.example.com
  clientConfig:
    service: {namespace: dynamo-cloud, name: dynamo-platform-dynamo-operator-webhook-service, path: /validate}
  admissionReviewVersions: [v1]
  sideEffects: None
YAML
cat >"$TMP/crds.yaml" <<'YAML'
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: graphs.nvidia.example.com}
spec:
  group: nvidia.example.com
  names: {kind: Graph, plural: graphs}
  scope: Namespaced
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig:
        service: {namespace: dynamo-system, name: dynamo-operator-webhook-service, path: /convert}
  versions:
  - {name: v1alpha1, served: true, storage: false, schema: {openAPIV3Schema: {type: object}}}
  - {name: v1beta1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
YAML
conversion_findings() {
  json_get "$1" "sorted(f['check'] for f in d['findings'] if f['check'].startswith('crd-conversion'))"
}

run "$FOOTPRINT" audit "$TMP/chart.yaml" "$TMP/crds.yaml" -n dynamo-cloud --format json
expect_status 0
[ "$(conversion_findings "$OUT")" = "['crd-conversion-ca-not-injected', 'crd-conversion-service-missing']" ] ||
  fail "both findings before the fix: $(conversion_findings "$OUT")"

# The Service loop: without a CA only the Service is fixed, and the missing CA is reported.
run "$FOOTPRINT" fix crds "$TMP/chart.yaml" "$TMP/crds.yaml" -n dynamo-cloud -o "$TMP/service"
expect_status 2
expect_stderr "not fixed: graphs.nvidia.example.com: its conversion webhook has no CA"
# Files written with exit 2: the output says they fix only part (trial item N-C1).
expect_stderr 'incomplete (exit 2): the files written fix only part; give what each "not fixed" line above names (1 problem)'
expect_stderr "dynamo-system/dynamo-operator-webhook-service:443 -> dynamo-cloud/dynamo-platform-dynamo-operator-webhook-service:443"
expect_stdout "kubectl apply --server-side --force-conflicts -f $TMP/service/graphs.nvidia.example.com.json"
# The printed command is pasted into a shell: a directory with a space is quoted.
run "$FOOTPRINT" fix crds "$TMP/chart.yaml" "$TMP/crds.yaml" -n dynamo-cloud -o "$TMP/my fixes"
expect_status 2
expect_stdout "-f '$TMP/my fixes/graphs.nvidia.example.com.json'"
run "$FOOTPRINT" audit "$TMP/chart.yaml" "$TMP/service" -n dynamo-cloud --format json
expect_status 0
[ "$(conversion_findings "$OUT")" = "['crd-conversion-ca-not-injected']" ] ||
  fail "the Service is fixed, the CA is not: $(conversion_findings "$OUT")"

# The CA loop, from a Secret such as `kubectl get secret webhook-server-cert -o yaml`.
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$TMP/ca.key" -out "$TMP/ca.crt" -days 1 \
  -subj "/CN=dynamo-webhook-ca" 2>/dev/null
b64() { base64 -w0 "$1"; }
cat >"$TMP/secret.yaml" <<YAML
apiVersion: v1
kind: Secret
metadata: {name: webhook-server-cert, namespace: dynamo-cloud}
type: kubernetes.io/tls
data:
  ca.crt: $(b64 "$TMP/ca.crt")
  tls.crt: $(b64 "$TMP/ca.crt")
  tls.key: $(b64 "$TMP/ca.key")
YAML
run "$FOOTPRINT" fix crds "$TMP/chart.yaml" "$TMP/service" -n dynamo-cloud \
  --ca-from-secret "$TMP/secret.yaml" -o "$TMP/ca"
expect_status 0
expect_stderr "caBundle set from the CA"
key_b64=$(b64 "$TMP/ca.key")
key_line=$(sed -n 2p "$TMP/ca.key")
for f in "$OUT" "$ERR" "$TMP"/ca/*; do
  ! grep -qF -e "$key_b64" -e "$key_line" "$f" || fail "the private key leaked into $f"
done
[ "$("$PYTHON" -c "import json,base64,sys; d=json.load(open(sys.argv[1])); print(base64.b64decode(d['spec']['conversion']['webhook']['clientConfig']['caBundle']).decode()==open(sys.argv[2]).read())" "$TMP/ca/graphs.nvidia.example.com.json" "$TMP/ca.crt")" = True ] ||
  fail "caBundle is the base64 of the CA's PEM"
run "$FOOTPRINT" audit "$TMP/chart.yaml" "$TMP/ca" -n dynamo-cloud --format json
expect_status 0
[ "$(conversion_findings "$OUT")" = "[]" ] || fail "nothing left after both loops: $(conversion_findings "$OUT")"
# Bundle + fixes: the fixed CRD comes later and replaces the original.
run "$FOOTPRINT" audit "$TMP/chart.yaml" "$TMP/crds.yaml" "$TMP/ca" -n dynamo-cloud --format json
expect_status 0
[ "$(conversion_findings "$OUT")" = "[]" ] || fail "bundle + fixes: $(conversion_findings "$OUT")"
run "$FOOTPRINT" fix crds "$TMP/chart.yaml" "$TMP/ca" -n dynamo-cloud
expect_status 0
expect_stderr "no CRD conversion webhook to fix"

# JSON patches, applied here by hand (RFC 6902 add and replace) to the CRD as JSON.
run "$FOOTPRINT" fix crds "$TMP/chart.yaml" "$TMP/crds.yaml" -n dynamo-cloud --ca-file "$TMP/ca.crt" \
  --format patch -o "$TMP/patch"
expect_status 0
expect_stdout "kubectl patch crd graphs.nvidia.example.com --type=json --patch-file=$TMP/patch/graphs.nvidia.example.com.patch.json"
"$PYTHON" - "$TMP/crds.yaml" "$TMP/patch/graphs.nvidia.example.com.patch.json" "$TMP/patched.json" <<'PY'
import json, sys, yaml
crd = yaml.safe_load(open(sys.argv[1]))
for op in json.load(open(sys.argv[2])):
    assert op["op"] in ("add", "replace"), op
    *parents, last = op["path"].lstrip("/").split("/")
    target = crd
    for p in parents:
        target = target[p]
    assert op["op"] == "add" or last in target, op
    target[last] = op["value"]
json.dump(crd, open(sys.argv[3], "w"))
PY
run "$FOOTPRINT" audit "$TMP/chart.yaml" "$TMP/patched.json" -n dynamo-cloud --format json
expect_status 0
[ "$(conversion_findings "$OUT")" = "[]" ] || fail "patched: $(conversion_findings "$OUT")"

# Without -o, patches are kubectl commands and CRDs a YAML stream of JSON documents.
run "$FOOTPRINT" fix crds "$TMP/chart.yaml" "$TMP/crds.yaml" -n dynamo-cloud --ca-file "$TMP/ca.crt" --format patch
expect_status 0
expect_stdout "kubectl patch crd graphs.nvidia.example.com --type=json -p '["
run "$FOOTPRINT" fix crds "$TMP/chart.yaml" "$TMP/crds.yaml" -n dynamo-cloud --ca-file "$TMP/ca.crt"
expect_status 0
expect_stderr "kubectl apply --server-side --force-conflicts -f FILE"
cp "$OUT" "$TMP/stream.yaml"
run "$FOOTPRINT" audit "$TMP/chart.yaml" "$TMP/stream.yaml" -n dynamo-cloud --format json
expect_status 0
[ "$(conversion_findings "$OUT")" = "[]" ] || fail "stream: $(conversion_findings "$OUT")"

# --service overrides the suggestion; bad input is a usage error.
run "$FOOTPRINT" fix crds "$TMP/chart.yaml" "$TMP/crds.yaml" -n dynamo-cloud --ca-file "$TMP/ca.crt" \
  --service ops/hooks --format patch
expect_status 0
expect_stdout '"path":"/spec/conversion/webhook/clientConfig/service/name","value":"hooks"'
# ops/hooks is in neither input: it may be the cluster's own, so a warning, not a refusal.
expect_stderr "warning: --service ops/hooks: the input has no such Service"
# The chart's own Service draws no warning.
run "$FOOTPRINT" fix crds "$TMP/chart.yaml" "$TMP/crds.yaml" -n dynamo-cloud --ca-file "$TMP/ca.crt" \
  --service dynamo-cloud/dynamo-platform-dynamo-operator-webhook-service --format patch
expect_status 0
! grep -q "no such Service" "$ERR" || fail "the chart's Service was called missing"
run "$FOOTPRINT" fix crds "$TMP/crds.yaml" --service hooks
expect_status 2
expect_stderr "--service hooks: expected NAMESPACE/NAME"
run "$FOOTPRINT" fix crds "$TMP/crds.yaml" --ca-file "$TMP/ca.key"
expect_status 2
expect_stderr "it holds a private key"
run "$FOOTPRINT" fix crds "$TMP/crds.yaml" --ca-file "$TMP/ca.crt" --ca-from-secret "$TMP/secret.yaml"
expect_status 2

# The corpus case: prometheus-operator's conversion example calls port 8443 of a Service that
# exposes 443.
if [ -d "$SHARED/corpus" ]; then
  bundle=$SHARED/corpus/prometheus-operator-full-conversion.yaml
  run "$FOOTPRINT" fix crds "$bundle" --ca-file "$TMP/ca.crt" -o "$TMP/prom"
  expect_status 0
  expect_stderr "default/prometheus-operator-admission-webhook:8443 -> default/prometheus-operator-admission-webhook:443"
  run "$FOOTPRINT" audit "$bundle" "$TMP/prom" --format json
  expect_status 0
  [ "$(conversion_findings "$OUT")" = "[]" ] || fail "prometheus-operator: $(conversion_findings "$OUT")"
fi
