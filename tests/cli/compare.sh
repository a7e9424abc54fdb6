#!/usr/bin/env bash
# compare: install modes side by side, from a chart with --mode and from rendered bundles.
source "$(dirname "$0")/common.inc"
need_helm
chart=$ROOT/tests/charts/modal-operator
value() {  # GROUP LABEL MODE from the JSON in $OUT
  json_get "$OUT" "[r['values']['$3'] for r in d['rows'] if r['group'] == '$1' and r['label'] == '$2']"
}

run "$FOOTPRINT" compare "$chart" -n modal-system --format json --mode cluster \
  --mode restricted:namespaceRestriction.enabled=true,upgradeCRD=false,namespaceRestriction.targetNamespace=team-a \
  --mode broken:namespaceRestriction.enabled=true
expect_status 0
# The chart's templates: the manager ClusterRole in cluster mode; in restricted mode only the one
# that lets the operator write its own webhook configurations' CA.
[ "$(value Kinds ClusterRole cluster)|$(value Kinds ClusterRole restricted)" = "['1']|['1']" ] || fail "ClusterRole 1 | 1"
[ "$(value Kinds Role cluster)|$(value Kinds Role restricted)" = "['-']|['2']" ] || fail "Role - | 2"
[ "$(value Footprint webhooks restricted)" = "['3 (2 mutating + 1 validating)']" ] || fail "webhooks counted"
[ "$(value Footprint 'CRDs shipped' cluster)|$(value Footprint 'CRDs shipped' restricted)" = "['1']|['0']" ] ||
  fail "CRDs shipped vs absent"
[ "$(value 'Webhook scope' 'M mpod.modal.example.com' cluster)" = "['none, Ignore']" ] || fail "cluster scope"
[ "$(value 'Webhook scope' 'M mpod.modal.example.com' restricted)" = "['kubernetes.io/metadata.name=team-a, Ignore']" ] ||
  fail "restricted scope"
value Render result broken | grep -q "VALIDATION ERROR: namespaceRestriction.enabled=true is incompatible" ||
  fail "a failed render shows helm's error in its column"
[ "$(value 'Findings in some modes only' 'rbac-resourcenames-list-watch: Role modal-operator-modal-operator-cert' restricted)" = "['high']" ] ||
  fail "the restricted mode's resourceNames trap is listed"

run "$FOOTPRINT" compare "$chart" --mode a:namespaceRestriction.enabled=true --mode b:webhook.namespaceSelector.x=y
expect_status 2
run "$FOOTPRINT" compare "$chart" only-one=x.yaml
expect_status 2

# Rendered bundles: argo-cd's cluster install against its namespace install. Read from the YAML:
# 3 CRDs, 3 ClusterRoles and 3 ClusterRoleBindings against none; 6 Roles in both.
need_corpus
run "$FOOTPRINT" compare "cluster=$SHARED/corpus/argo-cd.yaml" "namespaced=$SHARED/corpus/argo-cd-namespace-install.yaml" -n argocd --format json
expect_status 0
[ "$(value Footprint 'CRDs shipped' cluster)|$(value Footprint 'CRDs shipped' namespaced)" = "['3']|['0']" ] || fail "argo-cd CRDs"
[ "$(value Kinds ClusterRole cluster)|$(value Kinds ClusterRole namespaced)" = "['3']|['-']" ] || fail "argo-cd ClusterRoles"
[ "$(value Kinds ClusterRoleBinding cluster)|$(value Kinds ClusterRoleBinding namespaced)" = "['3']|['-']" ] || fail "argo-cd ClusterRoleBindings"
[ "$(value Kinds Role cluster)|$(value Kinds Role namespaced)" = "['6']|['6']" ] || fail "argo-cd Roles"
run "$FOOTPRINT" compare "cluster=$SHARED/corpus/argo-cd.yaml" "namespaced=$SHARED/corpus/argo-cd-namespace-install.yaml" -n argocd --format markdown
expect_status 0
expect_stdout "| Kinds | cluster | namespaced |"
