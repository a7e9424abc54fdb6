#!/usr/bin/env bash
# A Flux HelmRelease whose chart comes from a HelmRepository (a chart repository over HTTPS: an
# index.yaml and the archives, served on 127.0.0.1 with this test's CA), from an OCI HelmRepository
# and from an OCIRepository (chartRef), both on a real docker-registry on 127.0.0.1 over plain
# HTTP (`insecure: true`). Each chart is pulled by the real helm. Expected values follow Flux's API
# (source-controller api/v1 HelmRepositorySpec, api/v1beta2 OCIRepositorySpec; helm-controller
# api/v2 HelmChartTemplateSpec: chart.spec.version is a version or semver range, "*" the latest)
# and the hand-made charts: the image tag is the chart's version.
source "$(dirname "$0")/common.inc"
source "$(dirname "$0")/registry.inc"
need_registry_tools
need_helm
trap 'stop_servers; rm -rf "$TMP"' EXIT
cd "$TMP"
export HOME=$TMP/home HELM_CONFIG_HOME=$TMP/helm/config HELM_CACHE_HOME=$TMP/helm/cache \
  HELM_DATA_HOME=$TMP/helm/data
mkdir -p "$HOME"
export TMPDIR=$TMP/tmpdir
mkdir "$TMPDIR"

make_chart() {  # VERSION
  rm -rf web
  mkdir -p web/templates
  printf 'apiVersion: v2\nname: web\nversion: %s\n' "$1" >web/Chart.yaml
  printf 'replicas: 1\n' >web/values.yaml
  cat >web/templates/deploy.yaml <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: {{ .Release.Name }}}
spec:
  replicas: {{ .Values.replicas }}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "registry.example.com/web:{{ .Chart.Version }}"}]
YAML
  "$HELM" package web >/dev/null || fail "helm package web $1"
}
make_chart 0.1.0
make_chart 0.2.0

# The chart repository, over HTTPS with a certificate for 127.0.0.1 signed by nobody helm trusts.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
  -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -keyout key.pem -out cert.pem 2>/dev/null
mkdir repo
cp web-0.1.0.tgz web-0.2.0.tgz repo/
HTTPS_PORT=$(free_port)
"$HELM" repo index repo --url "https://127.0.0.1:$HTTPS_PORT" >/dev/null
cat >serve.py <<'PY'
import functools, http.server, ssl, sys
port, folder, cert, key = sys.argv[1:]
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=folder)
server = http.server.ThreadingHTTPServer(("127.0.0.1", int(port)), handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
server.serve_forever()
PY
"$PYTHON" serve.py "$HTTPS_PORT" repo cert.pem key.pem >https.log 2>&1 &
PIDS+=($!)
wait_http "https://127.0.0.1:$HTTPS_PORT/index.yaml"

start_registry open "$TMP/store"
R=127.0.0.1:$PORT
for v in 0.1.0 0.2.0; do
  "$HELM" push "web-$v.tgz" "oci://$R/charts" --plain-http >/dev/null 2>&1 || fail "helm push web-$v"
done

# HelmRepository over HTTPS: version 0.1.0, values from spec.values, into targetNamespace.
cat >https.yaml <<YAML
apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata: {name: charts, namespace: flux-system}
spec: {url: "https://127.0.0.1:$HTTPS_PORT", interval: 1h}
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: web, namespace: flux-system}
spec:
  interval: 10m
  targetNamespace: shop
  chart:
    spec:
      chart: web
      version: 0.1.0
      sourceRef: {kind: HelmRepository, name: charts}
  values: {replicas: 3}
YAML
# Without the CA, helm's TLS error and the hint.
run "$FOOTPRINT" images https.yaml --format list
expect_status 2
expect_stderr "HelmRelease flux-system/web (https.yaml:6)"
expect_stderr "hint: give the registry's CA with --chart-ca-file FILE"
run "$FOOTPRINT" images https.yaml --chart-ca-file cert.pem --format list
expect_status 0
[ "$(cat "$OUT")" = "registry.example.com/web:0.1.0" ] || fail "HelmRepository https: $(cat "$OUT") $(cat "$ERR")"
run "$FOOTPRINT" audit https.yaml --chart-ca-file cert.pem --format json
expect_status 0
# Release [targetNamespace-]name = shop-web, in shop, with 3 replicas from spec.values.
[ "$(json_get "$OUT" 'd["inventory"]["namespaces"]["shop"]["kinds"]')" = "{'Deployment': 1}" ] ||
  fail "not in shop: $(head -c 1500 "$OUT")"
grep -q "audited chart web from https://127.0.0.1:$HTTPS_PORT as release shop-web in namespace shop" "$OUT" ||
  fail "no note for the HelmRelease: $(json_get "$OUT" 'd["notes"]')"
# "*" is the latest version, as Flux reads it.
sed 's/version: 0.1.0/version: "*"/' https.yaml >latest.yaml
run "$FOOTPRINT" images latest.yaml --chart-ca-file cert.pem --format list
expect_status 0
[ "$(cat "$OUT")" = "registry.example.com/web:0.2.0" ] || fail "HelmRepository latest: $(cat "$OUT") $(cat "$ERR")"
# A semver range: the highest version in it.
sed 's/version: 0.1.0/version: ">=0.1.0 <0.2.0"/' https.yaml >range.yaml
run "$FOOTPRINT" images range.yaml --chart-ca-file cert.pem --format list
expect_status 0
[ "$(cat "$OUT")" = "registry.example.com/web:0.1.0" ] || fail "HelmRepository range: $(cat "$OUT") $(cat "$ERR")"
# A version the repository lacks: helm's error naming the HelmRelease, never an empty audit.
sed 's/version: 0.1.0/version: 9.9.9/' https.yaml >missing.yaml
run "$FOOTPRINT" audit missing.yaml --chart-ca-file cert.pem
expect_status 2
expect_stderr "HelmRelease flux-system/web (missing.yaml:6)"

# An OCI HelmRepository (type: oci) on the registry over plain HTTP.
cat >oci-repo.yaml <<YAML
apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata: {name: oci-charts, namespace: flux-system}
spec: {type: oci, url: "oci://$R/charts", insecure: true, interval: 1h}
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: web, namespace: shop}
spec:
  interval: 10m
  chart:
    spec:
      chart: web
      version: 0.2.0
      sourceRef: {kind: HelmRepository, name: oci-charts, namespace: flux-system}
YAML
run "$FOOTPRINT" images oci-repo.yaml --format list
expect_status 0
[ "$(cat "$OUT")" = "registry.example.com/web:0.2.0" ] || fail "OCI HelmRepository: $(cat "$OUT") $(cat "$ERR")"

# An OCIRepository named by chartRef: the artifact is the chart; ref.tag is its version.
cat >oci.yaml <<YAML
apiVersion: source.toolkit.fluxcd.io/v1beta2
kind: OCIRepository
metadata: {name: web-chart, namespace: shop}
spec:
  url: oci://$R/charts/web
  ref: {tag: 0.1.0}
  insecure: true
  interval: 1h
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: web, namespace: shop}
spec:
  interval: 10m
  chartRef: {kind: OCIRepository, name: web-chart}
  values: {replicas: 2}
YAML
run "$FOOTPRINT" audit oci.yaml --format json
expect_status 0
[ "$(json_get "$OUT" 'd["inventory"]["namespaces"]["shop"]["kinds"]')" = "{'Deployment': 1}" ] ||
  fail "OCIRepository: $(head -c 1500 "$OUT")"
grep -q "audited chart oci://$R/charts/web as release web in namespace shop" "$OUT" ||
  fail "no note for the OCIRepository release: $(json_get "$OUT" 'd["notes"]')"
run "$FOOTPRINT" images oci.yaml --format list
expect_status 0
[ "$(cat "$OUT")" = "registry.example.com/web:0.1.0" ] || fail "OCIRepository tag: $(cat "$OUT") $(cat "$ERR")"
# ref.semver: the highest tag in the range.
sed 's/ref: {tag: 0.1.0}/ref: {semver: ">=0.1.0"}/' oci.yaml >oci-semver.yaml
run "$FOOTPRINT" images oci-semver.yaml --format list
expect_status 0
[ "$(cat "$OUT")" = "registry.example.com/web:0.2.0" ] || fail "OCIRepository semver: $(cat "$OUT") $(cat "$ERR")"
# Without insecure: true, the registry's plain HTTP is refused, with the hint.
sed '/insecure: true/d' oci.yaml >secure.yaml
run "$FOOTPRINT" audit secure.yaml
expect_status 2
expect_stderr "HelmRelease shop/web (secure.yaml:9)"
expect_stderr "hint: the registry speaks plain HTTP: add --plain-http"
run "$FOOTPRINT" images secure.yaml --plain-http --format list
expect_status 0
[ "$(cat "$OUT")" = "registry.example.com/web:0.1.0" ] || fail "--plain-http: $(cat "$OUT") $(cat "$ERR")"
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in the temporary folder: $(ls -A "$TMPDIR")"
echo "ok"
