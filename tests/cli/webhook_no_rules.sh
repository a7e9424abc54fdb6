#!/usr/bin/env bash
# A webhook with no rules, or with `rules: []`, matches no request: the API server calls a webhook
# only when one of its rules matches (k8s.io/apiserver pkg/admission/plugin/webhook/predicates/
# rules, Matcher.Matches over each rule; ShouldCallHook). Issue 40, trial item N-W16: each gets
# webhook-matches-nothing (low: operators such as Knative fill rules in at run time), and the
# text table says "matches nothing" under NAMESPACES HIT, not "cluster-scoped", as HTML does; in
# JSON it hits no namespace ([]).
source "$(dirname "$0")/common.inc"
cd "$TMP"
cat >wh.yaml <<'YAML'
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: empty-rules}
webhooks:
- name: empty.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  clientConfig: {service: {namespace: ops, name: hook}}
  rules: []
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: no-rules}
webhooks:
- name: none.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  clientConfig: {service: {namespace: ops, name: hook}}
YAML
run "$FOOTPRINT" audit --no-config wh.yaml -n ops --format json
expect_status_in 0 1
got=$(json_get "$OUT" "sorted((f['object']['name'], f['severity']) for f in d['findings'] if f['check'] == 'webhook-matches-nothing')")
[ "$got" = "[('empty-rules', 'low'), ('no-rules', 'low')]" ] || fail "webhook-matches-nothing: $got"
[ "$(json_get "$OUT" "[w['namespacesHit'] for w in d['admission']['webhooks']]")" = "[[], []]" ] ||
  fail "JSON namespacesHit: $(json_get "$OUT" "d['admission']['webhooks']")"

run "$FOOTPRINT" audit --no-config wh.yaml -n ops --color never
expect_status_in 0 1
[ "$(grep -cE '^  (empty|none)\.example\.com .*matches nothing' "$OUT")" = 2 ] ||
  fail "the table does not say matches nothing: $(grep example.com "$OUT")"
! grep -E '^  (empty|none)\.example\.com ' "$OUT" | grep -q cluster-scoped ||
  fail "a webhook that matches nothing is called cluster-scoped"
