#!/usr/bin/env bash
# The CRDs section in every format, the prometheus-operator port mismatch, and the hidden
# footprint of operators that install CRDs at run time.
source "$(dirname "$0")/common.inc"
need_corpus

bundle=$SHARED/corpus/prometheus-operator-full-conversion.yaml
run "$FOOTPRINT" audit "$bundle" --format json
expect_status 0
[ "$(json_get "$OUT" "[(f['severity'], f['object']['name']) for f in d['findings'] if f['check'] == 'crd-conversion-port-mismatch']")" = \
  "[('high', 'alertmanagerconfigs.monitoring.coreos.com')]" ] || fail "the port mismatch is found"
json_get "$OUT" "[f['message'] for f in d['findings'] if f['check'] == 'crd-conversion-port-mismatch'][0]" >"$TMP/message"
grep -qF "on port 8443, but the Service exposes port 443" "$TMP/message" || fail "message: $(cat "$TMP/message")"
[ "$(json_get "$OUT" "[(c['status'], c['service']['port'], c['servicePorts']) for c in d['crds']['conversion']]")" = \
  "[('port-mismatch', 8443, [443])]" ] || fail "conversion wiring in JSON"
[ "$(json_get "$OUT" "d['crds']['customResourceDefinitions'], len(d['crds']['sizes'])")" = "10 10" ] ||
  fail "every CRD has a size row"
[ "$(json_get "$OUT" "d['crds']['limits']")" = \
  "{'annotations': 262144, 'requestBody': 3145728, 'etcdRequest': 1572864, 'helmRelease': 1048576}" ] ||
  fail "limits"

run "$FOOTPRINT" audit "$bundle"
expect_status 0
expect_stdout "CRDs"
expect_stdout "CLIENT-SIDE APPLY"
run "$FOOTPRINT" audit "$bundle" --format markdown
expect_status 0
expect_stdout "### CRDs"
expect_stdout "| alertmanagerconfigs.monitoring.coreos.com | default/prometheus-operator-admission-webhook:8443 | ! Service exposes 443; use 443 | ! none, nobody injects |"
expect_stdout "| OBJECT | YAML | JSON | CLIENT-SIDE APPLY | REQUEST | ETCD |"

# tigera-operator installs CRDs (-manage-crds=true) that the bundle does not ship.
run "$FOOTPRINT" audit "$SHARED/corpus/calico-tigera-operator.yaml" --format json
expect_status 0
json_get "$OUT" "' '.join(d['inventory']['hiddenFootprint'])" >"$TMP/hidden"
grep -qF "ServiceAccount tigera-operator/tigera-operator (Deployment tigera-operator/tigera-operator runs as it) may create any CustomResourceDefinition" "$TMP/hidden" ||
  fail "hidden footprint: $(cat "$TMP/hidden")"
grep -qF "installs CRDs at run time: \`operator -manage-crds=true -zap-devel=false\`" "$TMP/hidden" ||
  fail "hidden footprint command: $(cat "$TMP/hidden")"
json_get "$OUT" "[f['message'] for f in d['findings'] if f['check'] == 'crd-installed-at-runtime'][0]" >"$TMP/message"
grep -qF "CRDs it names that the bundle does not ship" "$TMP/message" || fail "names: $(cat "$TMP/message")"
run "$FOOTPRINT" audit "$SHARED/corpus/calico-tigera-operator.yaml"
expect_status 0
expect_stdout "Hidden footprint: the cluster-scoped footprint is larger than these objects."

# A bundle without CRDs still has the section.
run "$FOOTPRINT" audit "$SHARED/corpus/ingress-nginx.yaml" --format json
expect_status 0
[ "$(json_get "$OUT" "d['crds']['customResourceDefinitions'], d['crds']['sizes']")" = "0 []" ] ||
  fail "empty CRDs section"
