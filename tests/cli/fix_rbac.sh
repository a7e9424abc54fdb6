#!/usr/bin/env bash
# fix rbac repairs a resourceNames list/watch trap, and re-auditing bundle + fix shows it low.
source "$(dirname "$0")/common.inc"
cat >"$TMP/bundle.yaml" <<'YAML'
apiVersion: v1
kind: ServiceAccount
metadata: {name: controller-manager}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: cert-rotator}
rules:
- apiGroups: [""]
  resources: [secrets]
  resourceNames: [webhook-server-cert]
  verbs: [get, list, watch, update, patch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: cert-rotator}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: cert-rotator}
subjects:
- {kind: ServiceAccount, name: controller-manager}
YAML
severity() {
  json_get "$1" "[f['severity'] for f in d['findings'] if f['check'] == 'rbac-resourcenames-list-watch']"
}

run "$FOOTPRINT" audit "$TMP/bundle.yaml" -n dynamo-system --format json
expect_status 0
# Nothing else in the bundle shows an informer over Secrets: medium before the fix.
[ "$(severity "$OUT")" = "['medium']" ] || fail "the trap is medium before the fix"

run "$FOOTPRINT" fix rbac "$TMP/bundle.yaml" -n dynamo-system -o "$TMP/fix"
expect_status 0
[ -f "$TMP/fix/rbac-fix.yaml" ] || fail "rbac-fix.yaml written"
# The command that applies it, ready to paste, as fix crds prints its own (trial item N-K9).
expect_stdout "kubectl apply -f $TMP/fix/rbac-fix.yaml"
grep -q "# Trade-off" "$TMP/fix/rbac-fix.yaml" || fail "the trade-off is stated"
grep -q "metadata.name=webhook-server-cert" "$TMP/fix/rbac-fix.yaml" || fail "the alternative is stated"

# A rerun writes the same file again; a file the user edited is replaced only with --force.
run "$FOOTPRINT" fix rbac "$TMP/bundle.yaml" -n dynamo-system -o "$TMP/fix"
expect_status 0
echo "# reviewed by me" >>"$TMP/fix/rbac-fix.yaml"
run "$FOOTPRINT" fix rbac "$TMP/bundle.yaml" -n dynamo-system -o "$TMP/fix"
expect_status 2
expect_stderr "rbac-fix.yaml exists and would be replaced"
grep -q "# reviewed by me" "$TMP/fix/rbac-fix.yaml" || fail "the edited file is kept"
run "$FOOTPRINT" fix rbac "$TMP/bundle.yaml" -n dynamo-system -o "$TMP/fix" --force
expect_status 0
grep -q "# reviewed by me" "$TMP/fix/rbac-fix.yaml" && fail "--force replaces it"

run "$FOOTPRINT" audit "$TMP/bundle.yaml" "$TMP/fix/rbac-fix.yaml" -n dynamo-system --format json
expect_status 0
[ "$(severity "$OUT")" = "['info']" ] || fail "the trap is a dead rule (info) after the fix"

run "$FOOTPRINT" fix rbac "$TMP/bundle.yaml" "$TMP/fix/rbac-fix.yaml" -n dynamo-system
expect_status 0
[ ! -s "$OUT" ] || fail "nothing left to fix"
expect_stderr "no rbac-resourcenames-list-watch trap to fix"

run "$FOOTPRINT" fix nonsense "$TMP/bundle.yaml"
expect_status 2

# --expect: the operator must be able to list Secrets in its own namespace.
cat >"$TMP/expect.yaml" <<'YAML'
- as: system:serviceaccount:dynamo-system:controller-manager
  verb: list
  resource: secrets
  namespace: dynamo-system
YAML
run "$FOOTPRINT" audit "$TMP/bundle.yaml" -n dynamo-system --expect "$TMP/expect.yaml" --format json --fail-on high
expect_status 1
[ "$(json_get "$OUT" "[(f['source']['file'].endswith('expect.yaml'), f['source']['line']) for f in d['findings'] if f['check'] == 'rbac-expectation-unmet']")" = "[(True, 1)]" ] ||
  fail "unmet expectation reported at its line"
run "$FOOTPRINT" audit "$TMP/bundle.yaml" "$TMP/fix/rbac-fix.yaml" -n dynamo-system --expect "$TMP/expect.yaml" --fail-on high
expect_status 0
! grep -q "warning" "$ERR" || fail "a plain expectation drew a warning: $(cat "$ERR")"
# The trial (C11): an expectation with a verb no API server uses warns, naming its line, as
# can-i does (the API verbs: apiserver/pkg/endpoints/request/requestinfo.go).
printf -- '- as: x\n  verb: get\n  resource: pods\n- as: x\n  verb: frobnicate\n  resource: pods\n' >"$TMP/odd.yaml"
run "$FOOTPRINT" audit "$TMP/bundle.yaml" --expect "$TMP/odd.yaml"
expect_status 0
expect_stderr "odd.yaml:4: \"frobnicate\" is no verb of the Kubernetes API"
[ "$(grep -c "is no verb" "$ERR")" = 1 ] || fail "only the unknown verb warns: $(cat "$ERR")"
printf -- '- as: x\n  verb: get\n' >"$TMP/bad.yaml"
run "$FOOTPRINT" audit "$TMP/bundle.yaml" --expect "$TMP/bad.yaml"
expect_status 2
expect_stderr "bad.yaml:1:3: an expectation needs resource"
