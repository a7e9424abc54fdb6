#!/usr/bin/env bash
# Fields of the wrong type are invalid documents, reported like the others (file:line:col, the
# field, the API server's decoder error) and never judged as if the field were absent: the API
# server refuses such an object whole (encoding/json into the Go types of k8s.io/api rbac/v1 and
# admissionregistration/v1). A `verbs: "*"` read as "no verbs" would give a clean report.
source "$(dirname "$0")/common.inc"

cat >"$TMP/in.yaml" <<'YAML'
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: reads-secrets}
rules:
- apiGroups: [""]
  resources: secrets
  verbs: "*"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: policy}
webhooks:
- name: policy.example.com
  failurePolicy: 3
  sideEffects: None
  admissionReviewVersions: [v1]
  clientConfig: {url: "https://policy.example.com/validate"}
  rules: [{operations: [CREATE], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: binds}
roleRef: "x"
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: fine, namespace: ops}
YAML

run "$FOOTPRINT" audit "$TMP/in.yaml" --format json -o "$TMP/report.json"
expect_status 2
expect_stderr "$TMP/in.yaml:6:14: rules[0].resources is a string where a list of strings is needed: the API server refuses the whole object (\"json: cannot unmarshal string into Go struct field PolicyRule.rules.resources of type []string\")"
expect_stderr "$TMP/in.yaml:7:10: rules[0].verbs is a string where a list of strings is needed"
expect_stderr "$TMP/in.yaml:14:18: webhooks[0].failurePolicy is a number where a string is needed: the API server refuses the whole object (\"json: cannot unmarshal number into Go struct field ValidatingWebhook.webhooks.failurePolicy of type v1.FailurePolicyType\")"
expect_stderr "$TMP/in.yaml:23:10: roleRef is a string where a mapping is needed"
[ "$(json_get "$TMP/report.json" "[(e['line'], e['column']) for e in d['invalidDocuments']]")" = \
  "[(6, 14), (7, 10), (14, 18), (23, 10)]" ] ||
  fail "invalidDocuments: $(json_get "$TMP/report.json" "d['invalidDocuments']")"
# None of the three is judged: only the ConfigMap is an object of the report.
[ "$(json_get "$TMP/report.json" "d['inventory']['objects']")" = 1 ] || fail "one valid object"
[ "$(json_get "$TMP/report.json" "[f['check'] for f in d['findings'] if f['check'].startswith(('rbac', 'webhook'))]")" = "[]" ] ||
  fail "a wrongly typed object was judged: $(json_get "$TMP/report.json" "d['findings']")"
# SARIF lists them as results of their own.
run "$FOOTPRINT" audit "$TMP/in.yaml" --format sarif
expect_status 2
[ "$(json_get "$OUT" "len([r for r in d['runs'][0]['results'] if r['ruleId'] == 'invalid-document'])")" = 4 ] ||
  fail "SARIF: $(cat "$OUT")"
# Commands that act on the whole input refuse it.
run "$FOOTPRINT" can-i get secrets --as system:serviceaccount:ops:op -n ops "$TMP/in.yaml"
expect_status 2
expect_stderr "roleRef is a string where a mapping is needed"
# metadata.namespace of the wrong type, in any kind: refused as the API server refuses it
# (ObjectMeta.Namespace is a string), never read as "no namespace" and placed in -n's.
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: 3\n' >"$TMP/ns.yaml"
run "$FOOTPRINT" audit "$TMP/ns.yaml" -n ops
expect_status 2
expect_stderr "ns.yaml:5:14: metadata.namespace is a number where a string is needed"
echo "ok"
