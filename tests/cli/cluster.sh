#!/usr/bin/env bash
# --cluster SNAPSHOT on audit, admission, compare, can-i and who-can; snapshot-command.
# Fixtures: tests/data/cluster/ (each object commented with why it is there). Expected values:
# - the bundle's pod webhook has no namespaceSelector, which the API defaults to {} (every
#   namespace): it is called in all 11 namespaces of the snapshot;
# - webhooks run configuration by configuration in name order (apiserver/pkg/admission/
#   configuration/*_webhook_manager.go): dynamo-pod-defaults before mesh-sidecar-injector, both
#   mutating, so in series: 10 s + 10 s = 20 s worst case, and either backend down rejects;
# - team-a-devs is bound to edit in team-a by the cluster; the bundle's widgets-editor is
#   labelled aggregate-to-edit, so they may create widgets in team-a (and only there).
source "$(dirname "$0")/common.inc"
data=$DATA/cluster
bundle=$data/bundle.yaml
snapshot=$data/snapshot.yaml
secret_b64=c3VwZXItc2VjcmV0LXRva2VuLTQy
secret_text=super-secret-token-42

run "$FOOTPRINT" snapshot-command
expect_status 0
expect_stdout "kubectl get namespaces,customresourcedefinitions,mutatingwebhookconfigurations,"
expect_stdout " -A -o yaml > cluster.yaml"
expect_no_stdout "secrets"

run "$FOOTPRINT" audit "$bundle" -n dynamo-system --cluster "$snapshot" --format json
expect_status 0
[ "$(json_get "$OUT" "len([w for w in d['admission']['webhooks'] if w['name'] == 'pods.dynamo.example.com'][0]['namespacesHit'])")" = 11 ] ||
  fail "the pod webhook is called in all 11 namespaces of the snapshot"
[ "$(json_get "$OUT" "sorted(set(f['check'] for f in d['findings'] if f['check'] in ('crd-missing', 'crd-cluster-change', 'helm-ownership-conflict', 'webhook-network-policy-blocks', 'admission-chain-pods')))")" = \
  "['admission-chain-pods', 'crd-cluster-change', 'helm-ownership-conflict', 'webhook-network-policy-blocks']" ] ||
  fail "cluster findings: $(json_get "$OUT" "[f['check'] for f in d['findings']]")"
[ "$(json_get "$OUT" "len([f for f in d['findings'] if f['check'] == 'helm-ownership-conflict'])")" = 2 ] ||
  fail "one ownership finding per owner: other-operator and widget-operator"
[ "$(json_get "$OUT" "[f['severity'] for f in d['findings'] if f['check'] == 'webhook-network-policy-blocks']")" = "['critical']" ] ||
  fail "the blackholed fail-closed pod webhook is critical"

# Without the snapshot: the PodMonitor's CRD is missing, and none of the cluster checks fire.
run "$FOOTPRINT" audit "$bundle" -n dynamo-system --format json
expect_status 0
[ "$(json_get "$OUT" "sorted(set(f['check'] for f in d['findings'] if f['check'] in ('crd-missing', 'crd-cluster-change', 'helm-ownership-conflict', 'webhook-network-policy-blocks', 'admission-chain-pods')))")" = \
  "['crd-missing']" ] || fail "bundle alone"

# The snapshot's Secret never reaches any output, in any format.
for format in text json markdown sarif; do
  run "$FOOTPRINT" audit "$bundle" -n dynamo-system --cluster "$snapshot" --format "$format"
  expect_status 0
  expect_no_stdout "$secret_b64"
  expect_no_stdout "$secret_text"
  expect_no_stdout "registry-token"
done

run "$FOOTPRINT" admission "$bundle" --release-namespace dynamo-system --cluster "$snapshot" \
  --resource pods --operation CREATE -n team-a
expect_status 0
expect_stdout "CREATE pods in namespace team-a"
grep -E '^ +1 +mutating webhook +pods\.dynamo\.example\.com +bundle +Fail' "$OUT" >/dev/null ||
  fail "bundle's webhook first: $(cat "$OUT")"
grep -E '^ +2 +mutating webhook +sidecar\.mesh\.example\.com +cluster +Fail' "$OUT" >/dev/null ||
  fail "cluster's webhook second: $(cat "$OUT")"
expect_stdout "20 s"
expect_stdout "If every backend is down: rejected"

run "$FOOTPRINT" who-can create widgets.example.com -n team-a --cluster "$snapshot" "$bundle"
expect_status 0
expect_stdout "Group team-a-devs"
expect_stdout "RoleBinding team-a/developers-edit"
run "$FOOTPRINT" can-i create widgets.example.com -n team-a --as alice --as-group team-a-devs \
  --cluster "$snapshot" "$bundle"
expect_status 0
expect_stdout "yes"
run "$FOOTPRINT" can-i create widgets.example.com -n team-b --as alice --as-group team-a-devs \
  --cluster "$snapshot" "$bundle"
expect_status 1
run "$FOOTPRINT" can-i create widgets.example.com -n team-a --as alice --as-group team-a-devs "$bundle"
expect_status 1

run "$FOOTPRINT" compare "a=$bundle" "b=$bundle" -n dynamo-system --cluster "$snapshot"
expect_status 0

# A snapshot without Namespace objects would shrink the blast radius to the bundle's own
# namespaces: footprint warns, and judges with the namespaces it assumes without --cluster, so
# the webhook reaches what it reaches without the snapshot (kube-system and other-team among them).
run "$FOOTPRINT" audit "$bundle" -n dynamo-system --format json
expect_status 0
cp "$OUT" "$TMP/no-cluster.json"
run "$FOOTPRINT" audit "$bundle" -n dynamo-system --cluster "$data/snapshot-without-namespaces.yaml" \
  --format json
expect_status 0
expect_stderr "warning: --cluster $data/snapshot-without-namespaces.yaml holds no Namespace objects"
expect_stderr "the blast radius cannot be computed from the snapshot"
# The trial (N-W1): the JSON report carries the warning too, for whoever reads only the report.
json_get "$OUT" "d['notes']" | grep -qF "holds no Namespace objects" ||
  fail "the warning is not in the JSON notes: $(json_get "$OUT" "d['notes']")"
hit="sorted([w for w in d['admission']['webhooks'] if w['name'] == 'pods.dynamo.example.com'][0]['namespacesHit'])"
[ "$(json_get "$OUT" "$hit")" = "$(json_get "$TMP/no-cluster.json" "$hit")" ] ||
  fail "namespaces without Namespace objects: $(json_get "$OUT" "$hit")"
json_get "$OUT" "$hit" | grep -q "'kube-system'.*'other-team'" || fail "the default set is used"
severities="sorted((f['check'], f['severity']) for f in d['findings'])"
[ "$(json_get "$OUT" "$severities")" = "$(json_get "$TMP/no-cluster.json" "$severities")" ] ||
  fail "findings differ from those without --cluster: $(json_get "$OUT" "$severities")"
# The full snapshot has Namespaces: no warning.
run "$FOOTPRINT" audit "$bundle" -n dynamo-system --cluster "$snapshot"
expect_status 0
! grep -q "holds no Namespace objects" "$ERR" || fail "warned about a snapshot with Namespaces"

# A snapshot that is not YAML is an input error with file:line and a hint.
printf 'items: [\n' >"$TMP/broken.yaml"
run "$FOOTPRINT" audit "$bundle" --cluster "$TMP/broken.yaml"
expect_status 2
expect_stderr "broken.yaml:"
expect_stderr "hint: --cluster reads the output of: kubectl get namespaces,"
