#!/usr/bin/env bash
# `footprint fix webhooks` on the field report's operator (tests/data/field-report/global.yaml),
# two corpus bundles, and as a helm 4 post-renderer. Expectations, argued from the bundles and the
# Kubernetes matching rules (admission/plugin/webhook/predicates; label selectors as apimachinery
# evaluates them):
# - global.yaml: eight webhooks without selectors behind dynamo-system's Service; one,
#   mpodcheckpointrestore.example.com, intercepts every pod CREATE (failurePolicy Ignore, 10 s).
#   With no namespaceSelector every namespace matches, kube-system included.
# - a namespaceSelector `kubernetes.io/metadata.name NotIn [kube-system, kube-public,
#   kube-node-lease]` matches every namespace but those three (the API server labels each
#   namespace with its name); `In [dynamo-system, team-a]` only those two; requirements AND.
# - the operator's service account dynamo-system/dynamo-platform-controller-manager is bound by
#   ClusterRoleBinding dynamo-platform-manager to create pods in every namespace, so --scope own
#   cannot know its namespaces from the bundle; and by dynamo-platform-webhook-ca to update and
#   patch both configurations by name, so it may rewrite them at run time.
source "$(dirname "$0")/common.inc"
global=$DATA/field-report/global.yaml
pod_webhook=mpodcheckpointrestore.example.com

# passes INPUT... -- ADMISSION ARGS: sets PASSED to the names of the bundle's webhooks in the
# table of `footprint admission` (no subshell, so that a failure stops the test).
passes() {
  local inputs=()
  while [ "$1" != -- ]; do inputs+=("$1"); shift; done
  shift
  run "$FOOTPRINT" admission "${inputs[@]}" --release-namespace dynamo-system "$@"
  expect_status 0
  PASSED=$(awk '/ webhook / {for (i = 1; i <= NF; i++) if ($i ~ /\.(com|io)$/) print $i}' "$OUT")
}

# Unfixed, kube-system passes the pod webhook (no selector matches everything).
passes "$global" -- -n kube-system
[ "$PASSED" = $pod_webhook ] || fail "unfixed, kube-system passes $pod_webhook: $PASSED"

# 1. --scope exclude-system (the default): every webhook gets the NotIn; rules, failurePolicy and
# timeout stay.
run "$FOOTPRINT" fix webhooks "$global" -n dynamo-system
expect_status 0
cp "$OUT" "$TMP/exclude.json"
expect_stderr "MutatingWebhookConfiguration dynamo-platform-mutating: $pod_webhook: namespaceSelector: not in [kube-system, kube-public, kube-node-lease]"
expect_stderr "warning: MutatingWebhookConfiguration dynamo-platform-mutating: the operator's service account dynamo-system/dynamo-platform-controller-manager may update and patch it (through ClusterRoleBinding dynamo-platform-webhook-ca)"
"$PYTHON" - "$TMP/exclude.json" <<'PY' || fail "exclude-system objects"
import json, sys
text, docs, at = open(sys.argv[1]).read(), [], 0
while text[at:].strip():
    d, at = json.JSONDecoder().raw_decode(text, at + len(text[at:]) - len(text[at:].lstrip()))
    docs.append(d)
assert [d["metadata"]["name"] for d in docs] == ["dynamo-platform-mutating", "dynamo-platform-validating"], docs
w = docs[0]["webhooks"][0]
assert w["name"] == "mpodcheckpointrestore.example.com"
assert w["failurePolicy"] == "Ignore" and w["timeoutSeconds"] == 10
assert w["rules"] == [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["pods"]}]
assert w["namespaceSelector"] == {"matchExpressions": [{"key": "kubernetes.io/metadata.name", "operator": "NotIn", "values": ["kube-system", "kube-public", "kube-node-lease"]}]}, w
assert sum(len(d["webhooks"]) for d in docs) == 8
PY
# The fix, applied after the bundle, replaces the configurations (as kubectl apply and helm keep
# the last definition): kube-system no longer passes the pod webhook, dynamo-system still does.
passes "$global" "$TMP/exclude.json" -- -n kube-system; [ -z "$PASSED" ] || fail "kube-system still passes"
passes "$global" "$TMP/exclude.json" -- -n dynamo-system; [ "$PASSED" = $pod_webhook ] ||
  fail "dynamo-system must still pass $pod_webhook"
run "$FOOTPRINT" audit "$global" "$TMP/exclude.json" -n dynamo-system --format json
expect_status 0
[ "$(json_get "$OUT" "[f['check'] for f in d['findings'] if f['check'] == 'webhook-kube-system']")" = "[]" ] ||
  fail "exclude-system should leave no webhook-kube-system finding"

# Before the fix, audit names the command in the fix of the webhook-scope findings it repairs.
run "$FOOTPRINT" audit "$global" -n dynamo-system --format json
expect_status 0
[ "$(json_get "$OUT" "sorted({f['check'] for f in d['findings'] if 'footprint fix webhooks -n dynamo-system' in f['remediation']})")" = \
  "['webhook-intercepts-shared-resources', 'webhook-kube-system']" ] ||
  fail "audit should name fix webhooks: $(json_get "$OUT" "[(f['check'], f['remediation']) for f in d['findings'] if f['check'].startswith('webhook-')]")"

# 2. --scope own: refused, the operator creates pods everywhere; with the namespaces it manages
# named, the pod webhook sees only those.
run "$FOOTPRINT" fix webhooks "$global" -n dynamo-system --scope own
expect_status 2
expect_stderr "refused: $pod_webhook: the operator's service account dynamo-system/dynamo-platform-controller-manager may create pods in namespaces the bundle does not show (such as other-team) through ClusterRoleBinding dynamo-platform-manager"
expect_stderr "--own-namespace"
[ ! -s "$OUT" ] || fail "a refusal writes nothing"
run "$FOOTPRINT" fix webhooks "$global" -n dynamo-system --scope own --own-namespace team-a
expect_status 0
cp "$OUT" "$TMP/own.json"
expect_stderr "$pod_webhook: namespaceSelector: only namespaces [dynamo-system, team-a]"
for ns in dynamo-system team-a; do
  passes "$global" "$TMP/own.json" -- -n $ns; [ "$PASSED" = $pod_webhook ] || fail "$ns must pass"
done
for ns in other-team default kube-system kube-public; do
  passes "$global" "$TMP/own.json" -- -n $ns; [ -z "$PASSED" ] || fail "$ns must not pass"
done
# audit pins the namespace set to the namespaces a webhook names (kubernetes.io/metadata.name
# In), so team-a joins it; of that set the pod webhook hits only the two named.
run "$FOOTPRINT" audit "$global" "$TMP/own.json" -n dynamo-system --format json
expect_status 0
[ "$(json_get "$OUT" "[sorted(w['namespacesHit']) for w in d['admission']['webhooks'] if w['name'] == '$pod_webhook']")" = \
  "[['dynamo-system', 'team-a']]" ] || fail "only dynamo-system and team-a are hit"
[ "$(json_get "$OUT" "[f['check'] for f in d['findings'] if f['check'] == 'webhook-kube-system']")" = "[]" ] ||
  fail "no kube-system finding after --scope own"
# Done-when: for an operator that runs its workloads in its own namespace, audit(bundle + fix)
# has no finding that other teams' pod creation or kube-system passes a webhook.
run "$FOOTPRINT" fix webhooks "$global" -n dynamo-system --scope own --own-namespace dynamo-system
expect_status 0
cp "$OUT" "$TMP/own-only.json"
run "$FOOTPRINT" audit "$global" "$TMP/own-only.json" -n dynamo-system --format json
expect_status 0
[ "$(json_get "$OUT" "[w['namespacesHit'] for w in d['admission']['webhooks'] if w['name'] == '$pod_webhook']")" = \
  "[['dynamo-system']]" ] || fail "only dynamo-system of the namespace set is hit"
[ "$(json_get "$OUT" "[f['check'] for f in d['findings'] if f['check'] in ('webhook-kube-system', 'webhook-intercepts-shared-resources', 'webhook-added-latency') or (f['check'] == 'webhook-fail-closed' and f['severity'] in ('high', 'critical'))]")" = "[]" ] ||
  fail "no other-team or kube-system finding after --scope own"
passes "$global" "$TMP/own-only.json" -- -n dynamo-system; [ "$PASSED" = $pod_webhook ] ||
  fail "dynamo-system must still pass"

# 3. --scope opt-in on namespaces: refused while dynamo-system lacks the label; with the cluster's
# namespaces showing it labelled, only labelled namespaces pass.
run "$FOOTPRINT" fix webhooks "$global" -n dynamo-system --scope opt-in --label dynamo.example.com/webhooks=on
expect_status 2
expect_stderr "kubectl label namespace dynamo-system dynamo.example.com/webhooks=on"
cat >"$TMP/ns.yaml" <<'YAML'
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Namespace, metadata: {name: dynamo-system, labels: {kubernetes.io/metadata.name: dynamo-system, dynamo.example.com/webhooks: "on"}}}
- {apiVersion: v1, kind: Namespace, metadata: {name: kube-system, labels: {kubernetes.io/metadata.name: kube-system}}}
- {apiVersion: v1, kind: Namespace, metadata: {name: team-b, labels: {kubernetes.io/metadata.name: team-b}}}
YAML
run "$FOOTPRINT" fix webhooks "$global" -n dynamo-system --scope opt-in --label dynamo.example.com/webhooks=on --namespaces "$TMP/ns.yaml"
expect_status 0
cp "$OUT" "$TMP/optin.json"
passes "$global" "$TMP/optin.json" -- -n team-a --ns-labels dynamo.example.com/webhooks=on; [ "$PASSED" = $pod_webhook ] ||
  fail "a labelled namespace passes"
passes "$global" "$TMP/optin.json" -- -n team-b; [ -z "$PASSED" ] || fail "an unlabelled namespace does not"
passes "$global" "$TMP/optin.json" -- -n kube-system --ns-labels dynamo.example.com/webhooks=on; [ -z "$PASSED" ] ||
  fail "kube-system stays out even when labelled"
# opt-in by object label: the operator's pods (app.kubernetes.io/name=dynamo-operator) lack it.
run "$FOOTPRINT" fix webhooks "$global" -n dynamo-system --scope opt-in --label-on objects --label dynamo.example.com/webhooks=on
expect_status 2
expect_stderr "the operator's own objects there do not carry dynamo.example.com/webhooks=on"
run "$FOOTPRINT" fix webhooks "$global" -n dynamo-system --scope opt-in --label 'bad key=1'
expect_status 2
expect_stderr "--label bad key=1: expected KEY=VALUE"
run "$FOOTPRINT" fix webhooks "$global" -n dynamo-system --scope opt-in
expect_status 2
expect_stderr "--scope opt-in needs --label KEY=VALUE"

# 4. --format patch: kustomize strategic merge patches; kubectl's kustomize applies them.
run "$FOOTPRINT" fix webhooks "$global" -n dynamo-system --format patch -o "$TMP/kust"
expect_status 0
expect_stdout "- path: dynamo-platform-mutating.mutating.patch.json"
kubectl=$ROOT/.tools/bin/kubectl
if [ -x "$kubectl" ]; then
  cp "$global" "$TMP/kust/global.yaml"
  { echo "resources: [global.yaml]"; cat "$OUT"; } >"$TMP/kust/kustomization.yaml"
  run "$kubectl" kustomize "$TMP/kust"
  expect_status 0
  cp "$OUT" "$TMP/kustomized.yaml"
  passes "$TMP/kustomized.yaml" -- -n kube-system; [ -z "$PASSED" ] || fail "kustomized: kube-system passes"
  passes "$TMP/kustomized.yaml" -- -n dynamo-system; [ "$PASSED" = $pod_webhook ] || fail "kustomized: dynamo-system"
  grep -q "failurePolicy: Ignore" "$TMP/kustomized.yaml" || fail "kustomize kept failurePolicy"
fi
# A rerun does not replace files the user edited.
echo '{}' >"$TMP/kust/dynamo-platform-mutating.mutating.patch.json"
run "$FOOTPRINT" fix webhooks "$global" -n dynamo-system --format patch -o "$TMP/kust"
expect_status 2
expect_stderr "--force"

# 5. --post-renderer: the stream back with the configurations replaced, everything else as it was.
run "$FOOTPRINT" fix webhooks --post-renderer -n dynamo-system <"$global"
expect_status 0
cp "$OUT" "$TMP/rendered.yaml"
head -n 134 "$global" | cmp -s - <(head -n 134 "$TMP/rendered.yaml") || fail "the objects before the configurations are unchanged"
passes "$TMP/rendered.yaml" -- -n kube-system; [ -z "$PASSED" ] || fail "post-rendered: kube-system passes"
# A refusal is exit 2 with nothing on stdout: helm then fails the install.
run "$FOOTPRINT" fix webhooks --post-renderer -n dynamo-system --scope own <"$global"
expect_status 2
[ ! -s "$OUT" ] || fail "a refused post-render writes nothing"

# The helm 4 post-renderer plugin with the real helm, on the field report's chart in its global
# mode: helm pipes the rendered chart through the plugin.
need_helm
unset HELM_PLUGINS
export HELM_CONFIG_HOME=$TMP/config HELM_CACHE_HOME=$TMP/cache HELM_DATA_HOME=$TMP/data
run "$HELM" plugin install "$ROOT/packaging/helm-postrenderer"
expect_status 0
bin=$TMP/bin
mkdir -p "$bin"
ln -s "$FOOTPRINT" "$bin/footprint"
chart=$ROOT/tests/charts/modal-operator
run "$HELM" template modal "$chart" -n modal-system
expect_status 0
cp "$OUT" "$TMP/plain.yaml"
modal_passes() { # BUNDLE NAMESPACE: sets PASSED to how many times the pod webhook is listed
  run "$FOOTPRINT" admission "$1" --release-namespace modal-system -n "$2"
  expect_status 0
  PASSED=$(grep -c "mpod.modal.example.com" "$OUT" || true)
}
modal_passes "$TMP/plain.yaml" kube-system
[ "$PASSED" = 1 ] || fail "unfixed, kube-system passes mpod.modal.example.com"
PATH=$bin:$PATH run "$HELM" template modal "$chart" -n modal-system --post-renderer footprint-webhooks \
  --post-renderer-args=-n --post-renderer-args=modal-system
expect_status 0
cp "$OUT" "$TMP/post.yaml"
modal_passes "$TMP/post.yaml" kube-system
[ "$PASSED" = 0 ] || fail "post-rendered: kube-system passes"
modal_passes "$TMP/post.yaml" modal-system
[ "$PASSED" = 1 ] || fail "post-rendered: modal-system must pass"
# The same count of objects comes back.
[ "$(grep -c '^kind:' "$TMP/plain.yaml")" = "$(( $(grep -c '^kind:' "$TMP/post.yaml") + 2 ))" ] ||
  fail "two configurations became JSON lines, nothing else changed"
PATH=$bin:$PATH run "$HELM" template modal "$chart" -n modal-system --post-renderer footprint-webhooks \
  --post-renderer-args=-n --post-renderer-args=modal-system --post-renderer-args=--scope=own
expect_failure  # helm reports the refusal as its own failure

# 6. Corpus bundles with pod webhooks that other teams' pods pass.
need_corpus
# vault's injector: no namespaceSelector (kube-system passes), failurePolicy Ignore; its service
# account may patch every MutatingWebhookConfiguration and AGENT_INJECT_TLS_AUTO names this one.
vault=$SHARED/corpus/vault.yaml
run "$FOOTPRINT" fix webhooks "$vault" -n vault --scope own
expect_status 0
cp "$OUT" "$TMP/vault.json"
expect_stderr "warning: MutatingWebhookConfiguration vault-agent-injector-cfg: the operator's service account vault/vault-agent-injector may patch it"
expect_stderr "AGENT_INJECT_TLS_AUTO (names this configuration)"
run "$FOOTPRINT" audit "$vault" "$TMP/vault.json" -n vault --format json
expect_status 0
[ "$(json_get "$OUT" "[f['check'] for f in d['findings'] if f['check'] in ('webhook-kube-system', 'webhook-intercepts-shared-resources', 'webhook-added-latency') or (f['check'] == 'webhook-fail-closed' and f['severity'] in ('high', 'critical'))]")" = "[]" ] ||
  fail "vault: no other-team or kube-system finding"
run "$FOOTPRINT" admission "$vault" "$TMP/vault.json" --release-namespace vault -n vault
expect_status 0
expect_stdout "vault.hashicorp.com"
# linkerd's proxy injector excludes kube-system and cert-manager by name but not kube-public or
# kube-node-lease, and every other namespace is opted out only by a label.
linkerd=$SHARED/corpus/linkerd.yaml
run "$FOOTPRINT" fix webhooks "$linkerd" -n linkerd --scope own
expect_status 0
cp "$OUT" "$TMP/linkerd.json"
run "$FOOTPRINT" audit "$linkerd" "$TMP/linkerd.json" -n linkerd --format json
expect_status 0
[ "$(json_get "$OUT" "[f['check'] for f in d['findings'] if f['check'] in ('webhook-kube-system', 'webhook-intercepts-shared-resources', 'webhook-added-latency') or (f['check'] == 'webhook-fail-closed' and f['severity'] in ('high', 'critical'))]")" = "[]" ] ||
  fail "linkerd: no other-team or kube-system finding"
run "$FOOTPRINT" admission "$linkerd" "$TMP/linkerd.json" --release-namespace linkerd -n linkerd
expect_status 0
expect_stdout "linkerd-proxy-injector.linkerd.io"
run "$FOOTPRINT" admission "$linkerd" "$TMP/linkerd.json" --release-namespace linkerd -n kube-public
expect_status 0
expect_no_stdout "linkerd-proxy-injector.linkerd.io"
