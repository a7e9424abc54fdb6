#!/usr/bin/env bash
# can-i and who-can answer offline from the bundle's RBAC and the built-in roles, and explain.
source "$(dirname "$0")/common.inc"
example=$ROOT/examples/inference-operator.yaml
sa=system:serviceaccount:inference-system:inference-operator-controller-manager

# The example's cert-rotator Role lists Secrets only by name, but its ClusterRole lists
# Secrets everywhere, so the informer is allowed (exit 0, "yes").
run "$FOOTPRINT" can-i list secrets -n inference-system --as "$sa" "$example"
expect_status 0
expect_stdout "yes"
expect_stdout "ClusterRole inference-operator-manager-role allows it (${example}:"
expect_stdout "through ClusterRoleBinding inference-operator-manager-rolebinding"

# Named get through the Role; a name that is not listed is denied with the reason (exit 1).
run "$FOOTPRINT" can-i delete secrets webhook-server-cert -n inference-system --as "$sa" "$example"
expect_status 0
run "$FOOTPRINT" can-i escalate clusterroles.rbac.authorization.k8s.io --as "$sa" "$example"
expect_status 1
expect_stdout "no"

# Without the ClusterRole (the restricted mode), list secrets is denied and explained.
grep -v -e '^- apiGroups: \[""\]$' "$example" >/dev/null  # sanity: the file is readable
"$PYTHON" - "$example" "$TMP/restricted.yaml" <<'PY'
import sys
docs = open(sys.argv[1]).read().split("\n---\n")
keep = [d for d in docs if "kind: ClusterRoleBinding" not in d]
open(sys.argv[2], "w").write("\n---\n".join(keep))
PY
run "$FOOTPRINT" can-i list secrets -n inference-system --as "$sa" "$TMP/restricted.yaml"
expect_status 1
expect_stdout "allows list on secrets only with resourceNames [webhook-server-cert]; this request names no object"
run "$FOOTPRINT" can-i list secrets -n inference-system --field-selector metadata.name=webhook-server-cert \
  --as "$sa" "$TMP/restricted.yaml"
expect_status 0

# Built-in bindings: every authenticated user may create selfsubjectaccessreviews.
run "$FOOTPRINT" can-i create selfsubjectaccessreviews.authorization.k8s.io --as alice "$example"
expect_status 0
expect_stdout "built into Kubernetes"

# --list prints everything the subject may do.
run "$FOOTPRINT" can-i --list -n inference-system --as "$sa" "$example"
expect_status 0
expect_stdout "cluster-wide"
expect_stdout "webhook-server-cert"

run "$FOOTPRINT" can-i list frobs --as "$sa" "$example"
expect_status 2
expect_stderr "unknown resource \"frobs\""
run "$FOOTPRINT" can-i list secrets --as "system:serviceaccount:bad" "$example"
expect_status 2

run "$FOOTPRINT" who-can create pods -n team-a "$example" --format json
expect_status 0
[ "$(json_get "$OUT" "[(s['subject'], s['binding']) for s in d['subjects']]")" = \
  "[('ServiceAccount inference-system/inference-operator-controller-manager', 'ClusterRoleBinding inference-operator-manager-rolebinding')]" ] ||
  fail "who-can lists the operator through its ClusterRoleBinding"
run "$FOOTPRINT" who-can create pods -n team-a --include-builtin "$example" --format json
expect_status 0
json_get "$OUT" "[s['subject'] for s in d['subjects']]" | grep -q "Group system:masters" ||
  fail "built-in cluster-admin binding listed"
run "$FOOTPRINT" who-can create pods -n team-a "$example"
expect_status 0
expect_stdout "Who may create pods in team-a:"

run "$FOOTPRINT" can-i list secrets -n inference-system --as "$sa" "$TMP/restricted.yaml" --format json
expect_status 1
[ "$(json_get "$OUT" "d['allowed']")" = False ] || fail "json answer"

# --list --format json: the same grants as the table, as lists. The example's manager ClusterRole
# (bound by a ClusterRoleBinding) lists Secrets everywhere, as the first answer above says.
run "$FOOTPRINT" can-i --list --format json --as "$sa" "$example"
expect_status 0
[ "$(json_get "$OUT" "d['as']")" = "$sa" ] || fail "the JSON names the subject"
[ "$(json_get "$OUT" "any(g['scope'] == 'cluster-wide' and 'list' in g['verbs'] and 'secrets' in g['resources'] for g in d['permissions'])")" = True ] ||
  fail "the cluster-wide grant to list secrets is in the JSON"

# A verb no API server sends, and a group that serves no such resource: answered (the authorizer
# decides any words), with a warning that names the likely mistake. Secrets are core ("" group).
run "$FOOTPRINT" can-i lsit secrets -n inference-system --as "$sa" "$example"
expect_status 1
expect_stderr 'warning: "lsit" is no verb of the Kubernetes API'
run "$FOOTPRINT" can-i get secrets.apps -n inference-system --as "$sa" "$example"
expect_status_in 0 1
expect_stderr 'the API group "apps" serves no resource "secrets"'
expect_stderr "did you mean secrets?"
run "$FOOTPRINT" can-i get secrets -n inference-system --as "$sa" "$example"
expect_status 0
! grep -q warning "$ERR" || fail "a plain request drew a warning: $(cat "$ERR")"
