#!/usr/bin/env bash
# The Admission section and the what-if command, on the example and on real bundles whose
# webhooks were read by hand:
# - kueue's mpod.kb.io and vpod.kb.io only exclude kube-system and kueue-system (NotIn) and use
#   failurePolicy Fail: cluster-wide, opt-out;
# - istio's sidecar injectors are opt-in through namespace or object labels;
# - vault's injector has no namespaceSelector, and its objectSelector only excludes the
#   injector's own pods (app.kubernetes.io/name NotIn [vault-agent-injector]); failurePolicy
#   Ignore.
source "$(dirname "$0")/common.inc"
example=$ROOT/examples/inference-operator.yaml

run "$FOOTPRINT" audit "$example" -n inference-system --format json
expect_status 0
[ "$(json_get "$OUT" "[(w['name'], w['kind'], w['namespaceSelector'], w['failurePolicy'], len(w['namespacesHit'])) for w in d['admission']['webhooks'] if w['name'] == 'mpod.serving.example.com']")" = \
  "[('mpod.serving.example.com', 'mutating', 'none', 'Ignore', 6)]" ] || fail "example pod webhook"
[ "$(json_get "$OUT" "d['admission']['failureModes']['podCreateInOtherTeam']['worstCaseSeconds']")" = 10 ] ||
  fail "one 10 s mutating webhook on pod creation"

run "$FOOTPRINT" audit "$example" -n inference-system
expect_status 0
expect_stdout "Admission"
expect_stdout "[1] service inference-system/inference-inference-operator-webhook-service:443"

# What-if: the seed's question, what an InferenceGraph update in team-a passes.
run "$FOOTPRINT" admission "$example" --release-namespace inference-system --resource inferencegraphs.serving.example.com --operation UPDATE -n team-a
expect_status 0
expect_stdout "UPDATE inferencegraphs.serving.example.com in namespace team-a"
expect_stdout "1  mutating webhook    minferencegraph.serving.example.com  Fail"
expect_stdout "2  validating webhook  vinferencegraph.serving.example.com  Fail"
expect_stdout "20 s"
expect_stdout "If every backend is down: rejected"

# A namespace-scoped webhook and a --namespaces file from `kubectl get ns -o yaml`.
cat >"$TMP/ns.yaml" <<'YAML'
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Namespace, metadata: {name: kube-system, labels: {kubernetes.io/metadata.name: kube-system}}}
- {apiVersion: v1, kind: Namespace, metadata: {name: team-a, labels: {kubernetes.io/metadata.name: team-a, inject: "on"}}}
- {apiVersion: v1, kind: Namespace, metadata: {name: team-b, labels: {kubernetes.io/metadata.name: team-b}}}
YAML
run "$FOOTPRINT" audit "$example" -n inference-system --namespaces "$TMP/ns.yaml" --format json
expect_status 0
[ "$(json_get "$OUT" "[w['namespacesTotal'] for w in d['admission']['webhooks']]")" = "[3, 3, 3]" ] ||
  fail "--namespaces replaces the default set"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n' >"$TMP/bad-ns.yaml"
run "$FOOTPRINT" audit "$example" --namespaces "$TMP/bad-ns.yaml"
expect_status 2
expect_stderr "expected Namespace objects"

need_corpus
webhook() {  # BUNDLE NAMESPACE WEBHOOK -> "nsScope objScope failurePolicy"
  "$FOOTPRINT" audit "$SHARED/corpus/$1" -n "$2" --format json >"$TMP/r.json"
  json_get "$TMP/r.json" "' '.join([w['namespaceSelector'] + ' ' + w['objectSelector'] + ' ' + w['failurePolicy'] for w in d['admission']['webhooks'] if w['name'] == '$3'])"
}
[ "$(webhook kueue.yaml kueue-system mpod.kb.io)" = "opt-out none Fail" ] || fail "kueue mpod"
[ "$(webhook kueue.yaml kueue-system vpod.kb.io)" = "opt-out none Fail" ] || fail "kueue vpod"
# mpod.kb.io mutates pod creation in every namespace but kube-system and kueue-system and fails
# closed: it may change other teams' pods (high), and blocks them while kueue is down (critical).
kueue_pod() {  # CHECK -> severities of the findings of CHECK that list mpod.kb.io
  json_get "$TMP/r.json" "[f['severity'] for f in d['findings'] if f['check'] == '$1' and 'mpod.kb.io' in f.get('affects', {}).get('webhooks', [])]"
}
[ "$(kueue_pod webhook-intercepts-shared-resources)" = "['high']" ] || fail "kueue mpod is high"
[ "$(kueue_pod webhook-fail-closed)" = "['critical']" ] || fail "kueue mpod fails closed: critical"
[ "$(webhook istio.yaml istio-system namespace.sidecar-injector.istio.io)" = "opt-in opt-out Fail" ] ||
  fail "istio namespace injector is opt-in by namespace label"
[ "$(webhook istio.yaml istio-system object.sidecar-injector.istio.io)" = "opt-out opt-in Fail" ] ||
  fail "istio object injector is opt-in by object label"
[ "$(webhook vault.yaml vault vault.hashicorp.com)" = "none opt-out Ignore" ] || fail "vault injector"

# Every corpus bundle gets an admission table.
for bundle in "$SHARED"/corpus/*.yaml; do
  "$FOOTPRINT" audit "$bundle" --format json >"$TMP/r.json" || fail "$(basename "$bundle")"
  json_get "$TMP/r.json" "len(d['admission']['webhooks']) == d['inventory']['webhooks']" | grep -q True ||
    fail "$(basename "$bundle"): admission table lists every webhook"
done
