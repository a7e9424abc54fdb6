#!/usr/bin/env bash
# can-install: whether a subject may install a bundle as Helm does, with the API server's
# escalation checks on its roles and bindings (pkg/registry/rbac/escalation_check.go), and the
# least grant (--print-role) that makes the answer yes.
source "$(dirname "$0")/common.inc"
restricted=$DATA/field-report/restricted.yaml

# alice administers the release namespace and the workload namespace (ClusterRole admin bound
# in each), the most a platform team gives one team.
cat >"$TMP/admin.yaml" <<'YAML'
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: alice-admin, namespace: dynamo-system}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: admin}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: alice-admin, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: admin}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}]
YAML

# The field report's restricted mode is not installable by a namespace admin: the ClusterRole
# and ClusterRoleBinding, both webhook configurations and the CRDs it needs are cluster-scoped,
# and its team-a Role grants the operator's own API group, which admin does not hold.
run "$FOOTPRINT" can-install "$restricted" -n dynamo-system --as alice --cluster "$TMP/admin.yaml"
expect_status 1
[ "$(head -1 "$OUT")" = no ] || fail "the answer is no"
expect_stdout "create clusterroles.rbac.authorization.k8s.io cluster-wide, for ClusterRole dynamo-platform-webhook-ca"
expect_stdout "create clusterrolebindings.rbac.authorization.k8s.io cluster-wide, for ClusterRoleBinding dynamo-platform-webhook-ca"
expect_stdout "create mutatingwebhookconfigurations.admissionregistration.k8s.io cluster-wide"
expect_stdout "create customresourcedefinitions.apiextensions.k8s.io cluster-wide, for the CRDs of nvidia.example.com (dynamographdeployments"
expect_stdout "ClusterRole dynamo-platform-webhook-ca grants rights alice does not hold cluster-wide: get, update, patch mutatingwebhookconfigurations.admissionregistration.k8s.io named dynamo-platform-mutating"
expect_stdout "Role team-a/dynamo-platform-manager grants rights alice does not hold in team-a: * *.nvidia.example.com"
expect_stdout "escalate on roles.rbac.authorization.k8s.io in team-a would let it through"
expect_stdout "RoleBinding team-a/dynamo-platform-manager refers to Role team-a/dynamo-platform-manager"
expect_stdout "bind on roles.rbac.authorization.k8s.io named dynamo-platform-manager in team-a"
# What admin does hold is not listed: the Deployment, the Service and Helm's release Secrets.
if grep -q "create deployments\|create services\|secrets in dynamo-system" "$OUT"; then
  fail "rights a namespace admin holds are listed as missing"
fi

run "$FOOTPRINT" can-install "$restricted" -n dynamo-system --as alice --cluster "$TMP/admin.yaml" \
  --format json
expect_status 1
[ "$(json_get "$OUT" "d['allowed']")" = False ] || fail "json: not allowed"
json_get "$OUT" "[m['resource'] for m in d['missing']]" | grep -q "'clusterroles.rbac.authorization.k8s.io'" ||
  fail "json: the ClusterRole's create is missing"
json_get "$OUT" "[r['object'] for r in d['refused']]" | grep -q "ClusterRole dynamo-platform-webhook-ca" ||
  fail "json: the ClusterRole is refused"

# system:masters may do anything: EscalationAllowed skips the escalation checks.
run "$FOOTPRINT" can-install "$restricted" -n dynamo-system --as root --as-group system:masters
expect_status 0
[ "$(head -1 "$OUT")" = yes ] || fail "the answer is yes: $(cat "$OUT")"

# --print-role, applied as the only grant of a subject, makes the answer yes. The CRDs the
# install does not ship are a cluster admin's to apply first; the grant says so.
run "$FOOTPRINT" can-install "$restricted" -n dynamo-system --as installer --print-role
expect_status 0
expect_stdout "# First, a cluster admin installs the CRDs of nvidia.example.com"
cp "$OUT" "$TMP/grant.yaml"
"$PYTHON" - "$DATA/field-report/global.yaml" >>"$TMP/grant.yaml" <<'PY'
import sys
for doc in open(sys.argv[1]).read().split("\n---\n"):
    if "kind: CustomResourceDefinition" in doc:
        print("---\n" + doc.strip())
PY
run "$FOOTPRINT" can-install "$restricted" -n dynamo-system --as installer --cluster "$TMP/grant.yaml"
expect_status 0
[ "$(head -1 "$OUT")" = yes ] || fail "the answer is yes: $(cat "$OUT")"
# Without the grant the same subject may not.
run "$FOOTPRINT" can-install "$restricted" -n dynamo-system --as installer
expect_status 1

# A ServiceAccount (Argo CD's or Flux's) is bound as a ServiceAccount.
run "$FOOTPRINT" can-install "$restricted" -n dynamo-system \
  --as system:serviceaccount:argocd:argocd-application-controller --print-role
expect_status 0
expect_stdout "kind: ServiceAccount"
expect_stdout "namespace: \"argocd\""

run "$FOOTPRINT" can-install "$restricted" --as "system:serviceaccount:bad"
expect_status 2
