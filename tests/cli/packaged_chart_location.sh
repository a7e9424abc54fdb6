#!/usr/bin/env bash
# Findings in a packaged chart point at the archive, a file that exists; "rendered by helm" is a
# field of its own, never part of the path or the SARIF URI.
source "$(dirname "$0")/common.inc"
need_helm

mkdir -p "$TMP/chart/templates"
printf 'apiVersion: v2\nname: demo\nversion: 0.1.0\n' >"$TMP/chart/Chart.yaml"
printf 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: demo\n  namespace: x\nrules: []\n' \
  >"$TMP/chart/templates/role.yaml"
(cd "$TMP" && tar czf demo-0.1.0.tgz chart)
cd "$TMP"

run "$FOOTPRINT" audit demo-0.1.0.tgz --format json
expect_status 0
[ "$(json_get "$OUT" "[i['file'] for i in d['inputs']]")" = "['demo-0.1.0.tgz']" ] || fail "inputs"
[ "$(json_get "$OUT" "d['inputs'][0]['renderedBy']")" = helm ] || fail "inputs renderedBy"
[ "$(json_get "$OUT" "{f['source']['file'] for f in d['findings']}")" = "{'demo-0.1.0.tgz'}" ] || fail "finding files"
[ "$(json_get "$OUT" "{f['source']['renderedBy'] for f in d['findings']}")" = "{'helm'}" ] || fail "finding renderedBy"

run "$FOOTPRINT" audit demo-0.1.0.tgz --format sarif
expect_status 0
[ "$(json_get "$OUT" "{l['physicalLocation']['artifactLocation']['uri'] for r in d['runs'][0]['results'] for l in r['locations']}")" = \
  "{'demo-0.1.0.tgz'}" ] || fail "SARIF URIs name the archive"
[ "$(json_get "$OUT" "{r['properties']['renderedBy'] for r in d['runs'][0]['results']}")" = "{'helm'}" ] || fail "SARIF renderedBy"
[ -e "$(json_get "$OUT" "d['runs'][0]['results'][0]['locations'][0]['physicalLocation']['artifactLocation']['uri']")" ] ||
  fail "the SARIF URI names a file that exists"

run "$FOOTPRINT" audit demo-0.1.0.tgz
expect_status 0
expect_stdout "demo-0.1.0.tgz (rendered by helm; template demo/templates/role.yaml; line"
expect_no_stdout "demo-0.1.0.tgz:"
echo "ok"
