#!/usr/bin/env bash
# Charts by reference, pulled by the real helm (`helm pull`) from a real docker-registry on
# 127.0.0.1 (oci://, pushed there with `helm push`, over plain HTTP and over TLS with a CA of this
# test's) and from a chart repository on 127.0.0.1 that helm knows by `helm repo add`: the user's
# helm configuration. Nothing is mocked and no traffic leaves 127.0.0.1.
source "$(dirname "$0")/common.inc"
source "$(dirname "$0")/registry.inc"
need_registry_tools
need_helm
trap 'stop_servers; rm -rf "$TMP"' EXIT
cd "$TMP"
# helm's configuration (registry logins, repositories, cache) lives under these.
export HOME=$TMP/home HELM_CONFIG_HOME=$TMP/helm/config HELM_CACHE_HOME=$TMP/helm/cache \
  HELM_DATA_HOME=$TMP/helm/data
mkdir -p "$HOME"
export TMPDIR=$TMP/tmpdir  # where footprint pulls charts to
mkdir "$TMPDIR"

# A hand-made chart whose image tag is its version, so the audit shows which version was pulled.
make_chart() {  # VERSION
  rm -rf web
  mkdir -p web/templates
  printf 'apiVersion: v2\nname: web\nversion: %s\n' "$1" >web/Chart.yaml
  cat >web/templates/deploy.yaml <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: {{ .Release.Name }}}
spec:
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

start_registry open "$TMP/store"
R=127.0.0.1:$PORT
for v in 0.1.0 0.2.0; do
  "$HELM" push "web-$v.tgz" "oci://$R/charts" --plain-http >/dev/null 2>&1 || fail "helm push web-$v"
done

# --version V after the reference names the chart's version, as in helm.
run "$FOOTPRINT" images "oci://$R/charts/web" --version 0.1.0 --plain-http --format list
expect_status 0
[ "$(cat "$OUT")" = "registry.example.com/web:0.1.0" ] || fail "oci 0.1.0: $(cat "$OUT") $(cat "$ERR")"
run "$FOOTPRINT" audit "oci://$R/charts/web" --chart-version=0.2.0 --plain-http -n shop --format json
expect_status 0
[ "$(json_get "$OUT" '(d["inputs"][0]["file"], d["inputs"][0]["renderedBy"])')" = \
  "('oci://$R/charts/web', 'helm')" ] || fail "the reference is not the input's name: $(head -c 800 "$OUT")"
[ "$(json_get "$OUT" 'd["inventory"]["namespaces"]["shop"]["kinds"]')" = "{'Deployment': 1}" ] ||
  fail "oci audit: $(head -c 800 "$OUT")"
json_get "$OUT" 'd["charts"][0]["chart"]' | grep -qx "oci://$R/charts/web" || fail "charts[].chart"
# --version alone is still footprint's version.
run "$FOOTPRINT" audit "oci://$R/charts/web" --version
expect_status 0
expect_stdout "footprint "

# Without --plain-http, helm's own error, and a hint.
run "$FOOTPRINT" audit "oci://$R/charts/web" --version 0.1.0
expect_status 2
expect_stderr "helm pull oci://$R/charts/web failed:"
expect_stderr "hint: the registry speaks plain HTTP: add --plain-http"
# A version the registry does not hold: helm's error, never an empty audit.
run "$FOOTPRINT" audit "oci://$R/charts/web" --version 9.9.9 --plain-http
expect_status 2
expect_stderr "helm pull oci://$R/charts/web failed:"

# Over TLS, verified with the registry's CA given to helm pull --ca-file.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
  -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -keyout key.pem -out cert.pem 2>/dev/null
start_registry tls "$TMP/store" "" "$TMP/cert.pem" "$TMP/key.pem"
S=127.0.0.1:$PORT
run "$FOOTPRINT" images "oci://$S/charts/web" --version 0.2.0 --format list
expect_status 2
expect_stderr "hint: give the registry's CA with --chart-ca-file FILE"
run "$FOOTPRINT" images "oci://$S/charts/web" --version 0.2.0 --chart-ca-file "$TMP/cert.pem" --format list
expect_status 0
[ "$(cat "$OUT")" = "registry.example.com/web:0.2.0" ] || fail "oci over TLS: $(cat "$OUT") $(cat "$ERR")"

# REPO/CHART from a chart repository helm knows (helm repo add), served on 127.0.0.1.
mkdir repo
cp web-0.1.0.tgz web-0.2.0.tgz repo/
"$HELM" repo index repo >/dev/null
HTTP_PORT=$(free_port)
"$PYTHON" -m http.server "$HTTP_PORT" --bind 127.0.0.1 --directory repo >http.log 2>&1 &
PIDS+=($!)
wait_http "http://127.0.0.1:$HTTP_PORT/index.yaml"
"$HELM" repo add local "http://127.0.0.1:$HTTP_PORT" >/dev/null || fail "helm repo add"
run "$FOOTPRINT" images local/web --version 0.1.0 --format list
expect_status 0
[ "$(cat "$OUT")" = "registry.example.com/web:0.1.0" ] || fail "repo 0.1.0: $(cat "$OUT") $(cat "$ERR")"
# The latest version without --version, as helm pull picks it.
run "$FOOTPRINT" images local/web --format list
expect_status 0
[ "$(cat "$OUT")" = "registry.example.com/web:0.2.0" ] || fail "repo latest: $(cat "$OUT") $(cat "$ERR")"
# Chart options apply to a reference, as to a local chart.
run "$FOOTPRINT" audit local/web --version 0.1.0 --release shop-web -n shop --format json
expect_status 0
json_get "$OUT" '[f["object"]["name"] for f in d["findings"]]' | grep -q "shop-web" ||
  fail "--release not applied to the pulled chart: $(head -c 800 "$OUT")"
# A repository helm does not know: helm's error and how to add it.
run "$FOOTPRINT" audit nosuch/web --version 0.1.0
expect_status 2
expect_stderr "helm pull nosuch/web failed:"
# No pulled chart stays behind in the temporary folder.
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in the temporary folder: $(ls -A "$TMPDIR")"
echo "ok"
