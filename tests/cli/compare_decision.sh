#!/usr/bin/env bash
# compare opens with the decision table, in every format; each answer argued from the objects.
source "$(dirname "$0")/common.inc"
need_helm
chart=$ROOT/tests/charts/modal-operator
answer() {  # ROW-ID MODE from the JSON in $OUT
  json_get "$OUT" "[r['answers']['$2']['answer'] for r in d['decision'] if r['id'] == '$1'][0]"
}
expect_answer() {  # ROW-ID MODE EXPECTED
  local got
  got=$(answer "$1" "$2")
  [ "$got" = "$3" ] || fail "$1 in $2: expected '$3', got '$got'"
}

run "$FOOTPRINT" compare "$chart" -n modal-system --format json --mode cluster \
  --mode restricted:namespaceRestriction.enabled=true,upgradeCRD=false,namespaceRestriction.targetNamespace=team-a \
  --mode broken:namespaceRestriction.enabled=true
expect_status 0
# The release is modal-operator, so the ServiceAccount is modal-system/modal-operator-modal-operator.
#
# Pod creation. Cluster mode: mpod.modal.example.com matches pods CREATE with no selector,
# failurePolicy Ignore and the v1 default timeout of 10 s, so it is called in every namespace of
# the set: kube-system, kube-public, kube-node-lease, default, modal-system (the operator's) and
# other-team; default and other-team, neither the operator's nor the cluster's own, are other
# teams'.
# Restricted mode: its namespaceSelector is kubernetes.io/metadata.name=team-a, and team-a holds
# the manager Role, so it is the operator's: no other team is reached.
expect_answer pod-creation cluster \
  "yes: mpod.modal.example.com (pods CREATE, Ignore, 10 s) in 2 of 2 namespaces of other teams and kube-system"
expect_answer pod-creation restricted "no: only team-a"
# CRDs: cluster mode renders crds.yaml (upgradeCRD defaults to true): one CRD. Restricted mode
# renders none, and its manager Role writes pipelines/status in modal.example.com, the
# operator's own group: the user applies the CRD first.
expect_answer crd-installer cluster "the chart (1 CRD)"
expect_answer crd-installer restricted "you, before installing (modal.example.com)"
# Cluster mode's one CRD has no conversion webhook. Restricted mode renders no CRD of its own
# group, and only the CRD's spec.conversion would say: it cannot tell, and says how to add them.
expect_answer conversion-wiring cluster "nobody needed (no conversion webhooks)"
expect_answer conversion-wiring restricted \
  "cannot tell: the CRDs of modal.example.com (the install's own) are not in the input, and only they say whether conversion goes through a webhook; add them (give this mode a directory holding its manifests and the CRD files, NAME=DIR)"
# The -cert Role (restricted mode only) lists secrets in modal-system by resourceNames; the
# manager Role that lists every secret is in team-a: nothing else lets the account list secrets
# where it runs, and listing and watching every secret in team-a are an informer's rights, whose
# cache spans modal-system too (the check's high evidence): no. In cluster mode the manager
# ClusterRole lists secrets everywhere.
expect_answer separate-namespaces cluster "yes"
expect_answer separate-namespaces restricted \
  "no: ServiceAccount modal-system/modal-operator-modal-operator cannot list secrets in modal-system (resourceNames rule): add a Role (\`footprint fix rbac\`)"
# Cluster-scoped objects counted in the templates: cluster mode has the manager ClusterRole and
# its binding, and three others: the CRD and the two webhook configurations; its first rule gets
# and lists secrets everywhere. Restricted keeps the -webhook-ca ClusterRole, which names its
# objects, the two webhook configurations, and two Roles (manager in team-a, -cert in
# modal-system).
expect_answer cluster-footprint cluster \
  "1 ClusterRole, 1 ClusterRoleBinding, 3 other cluster-scoped objects; riskiest cluster-wide right: ServiceAccount modal-system/modal-operator-modal-operator reads secrets"
expect_answer cluster-footprint restricted \
  "1 ClusterRole, 1 ClusterRoleBinding, 2 other cluster-scoped objects + 2 Roles; no risky cluster-wide right"
# Restricted mode puts the manager Role and RoleBinding in team-a, which no template creates.
expect_answer prerequisites cluster "nothing beyond the release namespace"
expect_answer prerequisites restricted "CRDs of modal.example.com (the install's own); namespaces team-a"
# The restricted mode's worst finding is the trap above (high).
answer worst-finding restricted | grep -q "^high rbac-resourcenames-list-watch: " ||
  fail "restricted's worst finding is the resourceNames trap"
# The broken mode (namespaceRestriction with the default upgradeCRD=true) fails in helm.
answer renders broken | grep -q "^no: .*VALIDATION ERROR: namespaceRestriction.enabled=true is incompatible" ||
  fail "a failed render shows helm's error in the decision table"
expect_answer renders cluster "yes"
[ "$(answer pod-creation broken)" = "" ] || fail "a failed mode has no answers"
# The old row that named the pod webhook in both modes is gone.
json_get "$OUT" "[r for r in d['rows'] if r['label'] == 'pod-intercepting webhooks']" | grep -qx '\[\]' ||
  fail "pod-intercepting webhooks row removed"

# Text and Markdown lead with the table.
run "$FOOTPRINT" compare "$chart" -n modal-system --mode cluster \
  --mode restricted:namespaceRestriction.enabled=true,upgradeCRD=false,namespaceRestriction.targetNamespace=team-a
expect_status 0
head -n 1 "$OUT" | grep -q "^Decision  *cluster  *restricted" || fail "text opens with the decision table"
expect_stdout "no: only team-a"
run "$FOOTPRINT" compare "$chart" -n modal-system --format markdown --mode cluster \
  --mode restricted:namespaceRestriction.enabled=true,upgradeCRD=false,namespaceRestriction.targetNamespace=team-a
expect_status 0
sed -n 3p "$OUT" | grep -qF "| Decision | cluster | restricted |" || fail "markdown opens with the decision table"
expect_stdout "| Does it reach other teams' pod creation? |"

# The field report's bundles as NAME=INPUT: the same answers from rendered files
# (decision_table_test.cc argues each).
run "$FOOTPRINT" compare "global=$DATA/field-report/global.yaml" "restricted=$DATA/field-report/restricted.yaml" \
  -n dynamo-system --format json
expect_status 0
expect_answer pod-creation global \
  "yes: mpodcheckpointrestore.example.com (pods CREATE, Ignore, 10 s) in 2 of 2 namespaces of other teams and kube-system"
expect_answer pod-creation restricted "no: only team-a"
expect_answer crd-installer global "the chart (4 CRDs)"
expect_answer crd-installer restricted "you, before installing (nvidia.example.com)"

# A misspelt key (namespaceRestricted for namespaceRestriction) is ignored by helm: both modes
# render the same objects, and compare says so instead of showing two equal columns silently.
run "$FOOTPRINT" compare "$chart" -n modal-system --mode global:namespaceRestricted.enabled=false \
  --mode restricted:namespaceRestricted.enabled=true
expect_status 0
expect_stderr "modes global and restricted install exactly the same objects"
run "$FOOTPRINT" compare "$chart" -n modal-system --mode cluster \
  --mode restricted:namespaceRestriction.enabled=true,upgradeCRD=false,namespaceRestriction.targetNamespace=team-a
expect_status 0
grep -q "exactly the same objects" "$ERR" && fail "different modes are not called the same"
true
