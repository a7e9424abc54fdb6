#!/usr/bin/env bash
# audit --own-namespace: the namespaces `fix webhooks --scope own --own-namespace` declared the
# operator's are its own in the audit too, so the webhook that fix narrowed to them no longer
# reaches other teams (the new-user trial: the fix the finding recommends never cleared a
# --fail-on high gate). The field report's global.yaml: its pod webhook
# mpodcheckpointrestore.example.com has no namespaceSelector; --scope own --own-namespace team-a
# narrows it to `kubernetes.io/metadata.name In [dynamo-system, team-a]`, which (the API server
# labelling each namespace with its name) matches those two namespaces only.
source "$(dirname "$0")/common.inc"
cd "$TMP"
run "$FOOTPRINT" fix webhooks --post-renderer -n dynamo-system --scope own --own-namespace team-a \
  <"$DATA/field-report/global.yaml"
expect_status 0
cp "$OUT" own.yaml

# Without the declaration, team-a is another team's namespace that the webhook reaches.
run "$FOOTPRINT" audit --no-config own.yaml -n dynamo-system --format json
expect_status 0
[ "$(json_get "$OUT" "sorted({f['severity'] for f in d['findings'] if f['check'] == 'webhook-intercepts-shared-resources'})")" = \
  "['high']" ] || fail "team-a counts as another team's without --own-namespace"

# Declared, the webhook reaches only the operator's namespaces: no finding about other teams.
run "$FOOTPRINT" audit --no-config own.yaml -n dynamo-system --own-namespace team-a --format json
expect_status 0
[ "$(json_get "$OUT" "[f['severity'] for f in d['findings'] if f['check'] == 'webhook-intercepts-shared-resources']")" = \
  "[]" ] || fail "the narrowed webhook reaches no other team"

# The unfixed bundle still reaches other teams' namespaces (other-team stands for them).
run "$FOOTPRINT" audit --no-config "$DATA/field-report/global.yaml" -n dynamo-system \
  --own-namespace team-a --format json
expect_status 0
[ "$(json_get "$OUT" "len([f for f in d['findings'] if f['check'] == 'webhook-intercepts-shared-resources']) > 0")" = \
  True ] || fail "declaring team-a does not clear a webhook that reaches every namespace"

# A system namespace is never the operator's alone; a bad name is refused.
run "$FOOTPRINT" audit --no-config own.yaml -n dynamo-system --own-namespace kube-system
expect_status 2
expect_stderr "--own-namespace kube-system: a system namespace is never the operator's alone"
run "$FOOTPRINT" audit --no-config own.yaml -n dynamo-system --own-namespace Team_A
expect_status 2
expect_stderr "--own-namespace Team_A: not a namespace name"
