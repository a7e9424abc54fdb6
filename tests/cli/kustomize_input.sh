#!/usr/bin/env bash
# A kustomization is built by the real kustomize in kubectl (`kubectl kustomize`, as `kubectl apply
# -k` builds it) and its output audited; its own files are never read as manifests. A
# kustomization that cannot build is an error with kubectl's message, never skipped.
source "$(dirname "$0")/common.inc"
need_helm
need_kubectl

# A base, and an overlay that moves it to namespace shop with the prefix prod- and patches the
# pod onto the host network (a field only the overlay sets).
mkdir -p "$TMP/base" "$TMP/overlay"
cat >"$TMP/base/kustomization.yaml" <<'YAML'
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: [deploy.yaml, sa.yaml]
YAML
cat >"$TMP/base/sa.yaml" <<'YAML'
apiVersion: v1
kind: ServiceAccount
metadata: {name: api}
YAML
cat >"$TMP/base/deploy.yaml" <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      serviceAccountName: api
      containers: [{name: api, image: registry.example.com/api:1.0}]
YAML
cat >"$TMP/overlay/kustomization.yaml" <<'YAML'
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: shop
namePrefix: prod-
resources: [../base]
patches:
  - target: {kind: Deployment, name: api}
    patch: |
      - op: add
        path: /spec/template/spec/hostNetwork
        value: true
YAML

run "$FOOTPRINT" audit "$TMP/overlay" --format json
expect_status 0
# The overlay's namespace and prefix, and its patch, as kustomize applies them: the Deployment
# prod-api in shop, running as prod-api, on the host network (a baseline violation of the Pod
# Security Standards: hostNetwork).
[ "$(json_get "$OUT" 'sorted(d["inventory"]["namespaces"]["shop"]["kinds"].items())')" = \
  "[('Deployment', 1), ('ServiceAccount', 1)]" ] || fail "not the overlay's objects: $(head -c 2000 "$OUT")"
json_get "$OUT" '[i for i in d["inputs"] if i.get("renderedBy") == "kustomize"][0]["file"]' |
  grep -qx "$TMP/overlay" || fail "the overlay is not named as rendered by kustomize"
# Only the patch puts the pod on the host network, which Pod Security's baseline forbids
# (pod-security-admission policy/check_hostNamespaces.go).
[ "$(json_get "$OUT" '[(f["object"]["namespace"], f["object"]["name"]) for f in d["findings"]
    if f["check"] == "pod-security-unlabelled-namespace"]')" = "[('shop', 'prod-api')]" ] ||
  fail "the overlay's patch (hostNetwork) is not audited: $(head -c 2000 "$OUT")"
# Neither the kustomization file nor the base's unpatched manifests were read as manifests.
! grep -q '"default"' <(json_get "$OUT" 'list(d["inventory"]["namespaces"])') ||
  fail "the base's files were read as manifests into default"

# -k DIR names the same, as with kubectl apply -k; and the kustomization file names its folder.
run "$FOOTPRINT" audit -k "$TMP/overlay" --format json
expect_status 0
[ "$(json_get "$OUT" 'd["inventory"]["objects"]')" = 2 ] || fail "-k: $(head -c 1000 "$OUT")"
run "$FOOTPRINT" audit "$TMP/overlay/kustomization.yaml" --format json
expect_status 0
[ "$(json_get "$OUT" 'd["inventory"]["objects"]')" = 2 ] || fail "kustomization.yaml: $(head -c 1000 "$OUT")"
run "$FOOTPRINT" audit -k "$TMP/base/deploy.yaml"
expect_status 2
expect_stderr "no kustomization.yaml, kustomization.yml or Kustomization"

# A kustomization that cannot build is an error with kustomize's own words, never a skip.
mkdir "$TMP/broken"
printf 'resources: [missing.yaml]\n' >"$TMP/broken/kustomization.yaml"
run "$FOOTPRINT" audit "$TMP/broken" "$TMP/base/sa.yaml"
expect_status 2
expect_stderr "kubectl kustomize $TMP/broken failed:"
expect_stderr "missing.yaml"

# helmCharts inflate with our helm (--enable-helm), from the chart in the kustomization's charts/
# folder, with the values the kustomization gives.
mkdir -p "$TMP/helm/charts/web/templates"
printf 'apiVersion: v2\nname: web\nversion: 0.1.0\n' >"$TMP/helm/charts/web/Chart.yaml"
printf 'replicas: 1\n' >"$TMP/helm/charts/web/values.yaml"
cat >"$TMP/helm/charts/web/templates/deploy.yaml" <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: {{ .Release.Name }}-web}
spec:
  replicas: {{ .Values.replicas }}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "registry.example.com/web:{{ .Values.replicas }}"}]
YAML
cat >"$TMP/helm/kustomization.yaml" <<'YAML'
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: web
helmCharts:
  - name: web
    releaseName: front
    valuesInline: {replicas: 3}
YAML
run "$FOOTPRINT" images "$TMP/helm" --format list
expect_status 0
[ "$(cat "$OUT")" = "registry.example.com/web:3" ] || fail "helmCharts not inflated with its values: $(cat "$OUT") $(cat "$ERR")"
run "$FOOTPRINT" audit "$TMP/helm" --format json
expect_status 0
[ "$(json_get "$OUT" 'd["inventory"]["namespaces"]["web"]["kinds"]')" = "{'Deployment': 1}" ] ||
  fail "helmCharts: $(head -c 1000 "$OUT")"

# Without kubectl, the error says how to get it, or how to build the kustomization yourself.
FOOTPRINT_KUBECTL=$TMP/nowhere run "$FOOTPRINT" audit "$TMP/overlay"
expect_status 2
expect_stderr "FOOTPRINT_KUBECTL=$TMP/nowhere does not exist"
echo "ok"
